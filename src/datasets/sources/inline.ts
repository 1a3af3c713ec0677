import { getConfig } from '../../config.js';
import { logger } from '../../logger.js';
import { defineDatasetSource, normalizeQuestions, type SyncDatasetSource } from '../define-source.js';
import type { DatasetDocument } from '../types.js';
import { formatProblem, validateDataset } from '../validate.js';

const KEY = Symbol.for('ai-eval.inline-datasets');

function registered(): Map<string, unknown> {
  const holder = globalThis as { [KEY]?: Map<string, unknown> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/**
 * Registers a dataset for the `inline` source under `ref`: a document (`{ questions, splits? }`), a
 * bare list of questions, or YAML/JSON text. A ref registered here wins over `datasets.inline` in
 * the configuration. Call it in a setup file so every worker sees it.
 *
 * @example
 * ```ts
 * registerInlineDataset('smoke', [{ id: 'hello', input: 'Say hello' }]);
 * evalSuite('smoke', { dataset: { source: 'inline', ref: 'smoke' }, target, run });
 * ```
 */
export function registerInlineDataset(ref: string, dataset: unknown): void {
  registered().set(ref, dataset);
}

/**
 * Removes inline datasets registered with {@link registerInlineDataset}: one ref, or all of them.
 *
 * @example
 * ```ts
 * afterEach(() => clearInlineDatasets());
 * ```
 */
export function clearInlineDatasets(ref?: string): void {
  if (ref === undefined) registered().clear();
  else registered().delete(ref);
}

function raw(ref: string): unknown {
  if (registered().has(ref)) return registered().get(ref);
  const fromConfig = getConfig().datasets.inline ?? {};
  return Object.prototype.hasOwnProperty.call(fromConfig, ref) ? fromConfig[ref] : undefined;
}

function documentOf(ref: string): DatasetDocument | undefined {
  const label = `inline:${ref}`;
  const value = raw(ref);
  if (value === undefined) {
    const known = [...new Set([...registered().keys(), ...Object.keys(getConfig().datasets.inline ?? {})])];
    logger.warn(
      `${label}: no inline dataset named ${JSON.stringify(ref)} (known: ${known.join(', ') || 'none'}). Fix: registerInlineDataset('${ref}', ...) or configure({ datasets: { inline: { '${ref}': ... } } }) in a setup file.`,
      'dataset:inline',
    );
    return undefined;
  }
  const input: string | object =
    typeof value === 'string' ? value : Array.isArray(value) ? { questions: value } : (value as object);
  const result = validateDataset(input, { file: label });
  if (!result.valid) {
    logger.warn(
      `${label} is invalid and was refused whole (${result.problems.length} problem(s)).`,
      'dataset:inline',
    );
    for (const problem of result.problems) logger.warn(formatProblem(problem), 'dataset:inline');
    return undefined;
  }
  return result.document;
}

/**
 * The shipped `inline` source: datasets given in code (`registerInlineDataset`) or in the
 * configuration (`configure({ datasets: { inline: { ref: document } } })`). Synchronous.
 *
 * @example
 * ```ts
 * configure({ datasets: { inline: { smoke: { questions: [{ id: 'q1', input: 'Hi' }] } } } });
 * inlineSource.load('smoke'); // [{ id: 'q1', input: 'Hi' }]
 * ```
 */
export const inlineSource = defineDatasetSource({
  id: 'inline',
  label: 'Inline',
  description: 'Datasets given in code or in the configuration.',
  load(ref, questionId, options) {
    const document = documentOf(ref);
    if (!document) return [];
    return normalizeQuestions(
      structuredClone(document.questions),
      `inline:${ref}`,
      questionId,
      logger,
      options,
    );
  },
  loadSplits: (ref) => structuredClone(documentOf(ref)?.splits ?? {}),
  listDatasets: () => [
    ...new Set([...registered().keys(), ...Object.keys(getConfig().datasets.inline ?? {})]),
  ],
}) as SyncDatasetSource;
