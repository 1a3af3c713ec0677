import { AiEvalError } from '../errors.js';
import { own } from '../internal/own.js';
import type { DatasetSource } from './define-source.js';
import { fileSource } from './sources/file.js';
import { httpSource } from './sources/http.js';
import { inlineSource } from './sources/inline.js';

/**
 * The shipped dataset sources, by id.
 *
 * @example
 * ```ts
 * Object.keys(builtinDatasetSources); // ['file', 'inline', 'http']
 * ```
 */
export const builtinDatasetSources = { file: fileSource, inline: inlineSource, http: httpSource } as const;

/**
 * The id of a shipped dataset source.
 *
 * @example
 * ```ts
 * const id: BuiltinDatasetSourceId = 'inline';
 * ```
 */
export type BuiltinDatasetSourceId = keyof typeof builtinDatasetSources;

const KEY = Symbol.for('ai-eval.dataset-sources');

function registry(): Map<string, DatasetSource> {
  const holder = globalThis as { [KEY]?: Map<string, DatasetSource> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/**
 * Registers a dataset source under its id (shared by the ESM and CJS copies of the package). A
 * registered source replaces a shipped one of the same id; registering a different source under a
 * registered id throws unless `replace` is set.
 *
 * @example
 * ```ts
 * registerDatasetSource(defineDatasetSource({ id: 'registry', label: 'Registry', load, listDatasets }));
 * ```
 */
export function registerDatasetSource(source: DatasetSource, options: { replace?: boolean } = {}): void {
  const current = registry().get(source.id);
  if (current && current !== source && !options.replace) {
    throw new AiEvalError(
      'DATASET_SOURCE',
      `A different dataset source is already registered as '${source.id}'. Fix: pick another id, or pass { replace: true }.`,
    );
  }
  registry().set(source.id, source);
}

/**
 * Removes a registered dataset source (a shipped one of that id becomes visible again).
 *
 * @example
 * ```ts
 * unregisterDatasetSource('registry');
 * ```
 */
export function unregisterDatasetSource(id: string): void {
  registry().delete(id);
}

/**
 * The dataset source with this id (registered first, then shipped), or undefined.
 *
 * @example
 * ```ts
 * getDatasetSource('file')?.load('support.yaml');
 * ```
 */
export function getDatasetSource(id: string): DatasetSource | undefined {
  return registry().get(id) ?? own(builtinDatasetSources as Record<string, DatasetSource>, id);
}

/**
 * The ids of every available dataset source.
 *
 * @example
 * ```ts
 * listDatasetSources(); // ['file', 'inline', 'http', 'registry']
 * ```
 */
export function listDatasetSources(): string[] {
  return [...new Set([...Object.keys(builtinDatasetSources), ...registry().keys()])];
}
