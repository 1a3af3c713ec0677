import { AiEvalError } from '../errors.js';
import type { Question } from '../grading/types.js';
import { logger } from '../logger.js';
import { isThenable } from '../internal/thenable.js';

/**
 * What a dataset source can do. Every source can `read`.
 *
 * @example
 * ```ts
 * fileSource.capabilities.includes('write'); // true
 * ```
 */
export type DatasetCapability = 'read' | 'write' | 'promote';

/**
 * Options of a source's `load`.
 *
 * @example
 * ```ts
 * fileSource.load('support.yaml', undefined, { includeDisabled: true });
 * ```
 */
export interface DatasetLoadOptions {
  /** Keep disabled questions (a suite shows them as skipped). Default false. */
  includeDisabled?: boolean;
}

/**
 * Something with a `warn` method: the ai-eval logger, or a test's collector.
 *
 * @example
 * ```ts
 * const seen: string[] = [];
 * normalizeQuestions(rows, 'mine:a', undefined, { warn: (m) => seen.push(m) });
 * ```
 */
export interface WarningLogger {
  warn(message: string, source?: string): void;
}

/**
 * What a writable source adds: the one seam every writer (promotion, generation) goes through.
 *
 * @example
 * ```ts
 * const ids = await fileSource.appendQuestions('support.yaml', [{ input: 'New question' }]); // ['q-1']
 * ```
 */
export interface WritableDatasetMethods {
  /**
   * Validates every question, then appends all of them or none. Returns the ids given to the new
   * questions, in input order (an id that collides is replaced by a free one). Throws an
   * `AiEvalError` when a question is invalid or the dataset cannot be written.
   */
  appendQuestions(ref: string, questions: ReadonlyArray<Partial<Question>>): Promise<string[]>;
  /** Creates an empty dataset. Throws when it already exists. Returns the ref. */
  createDataset(ref: string, meta?: { name?: string; label?: string; description?: string }): Promise<string>;
}

/**
 * What {@link defineDatasetSource} takes.
 *
 * @example
 * ```ts
 * const options: DatasetSourceOptions = {
 *   id: 'registry',
 *   label: 'Registry',
 *   load: async (ref, questionId) => normalizeQuestions(await fetchRows(ref), `registry:${ref}`, questionId),
 *   listDatasets: () => ['support.yaml'],
 *   synchronous: false,
 * };
 * ```
 */
export interface DatasetSourceOptions extends Partial<WritableDatasetMethods> {
  id: string;
  label: string;
  description?: string;
  /**
   * Question rows of one dataset, re-indexed, disabled questions excluded, filtered to
   * `questionId` when given. Must not throw: log a warning and return `[]` instead. May return a
   * promise; then the source is async-only and cannot feed a synchronous load.
   */
  load(ref: string, questionId?: string, options?: DatasetLoadOptions): Question[] | Promise<Question[]>;
  /** The refs this source can load. */
  listDatasets(): string[] | Promise<string[]>;
  /** Ref to human label. Default: each ref labels itself. */
  listDatasetsWithLabels?(): Record<string, string> | Promise<Record<string, string>>;
  /** Default `['read']` (plus `write` when `appendQuestions` is given). `read` is always added. */
  capabilities?: DatasetCapability[];
  /** The raw dataset-level `splits` block of a ref, or `{}` (shape is checked by the splitter). */
  loadSplits?(ref: string): unknown;
  /** The local file behind a ref, when there is one (a suite looks for rubrics next to it). Quiet. */
  locate?(ref: string): string | undefined;
  /** False when `load` always returns a promise, so a synchronous load does not even try. */
  synchronous?: boolean;
}

/**
 * A dataset source, as {@link defineDatasetSource} returns it.
 *
 * @example
 * ```ts
 * const source: DatasetSource | undefined = getDatasetSource('file');
 * source?.capabilities; // ['read', 'write']
 * ```
 */
export interface DatasetSource extends Omit<DatasetSourceOptions, 'listDatasetsWithLabels' | 'capabilities'> {
  description: string;
  capabilities: DatasetCapability[];
  listDatasetsWithLabels(): Record<string, string> | Promise<Record<string, string>>;
}

/**
 * A source whose `load` and listings answer synchronously (the shipped `file` and `inline`).
 *
 * @example
 * ```ts
 * const questions = fileSource.load('support.yaml'); // Question[], no await
 * ```
 */
export interface SyncDatasetSource extends DatasetSource {
  load(ref: string, questionId?: string, options?: DatasetLoadOptions): Question[];
  listDatasets(): string[];
  listDatasetsWithLabels(): Record<string, string>;
}

/**
 * A source whose `load` answers with a promise (the shipped `http`).
 *
 * @example
 * ```ts
 * const questions = await httpSource.load('support.yaml');
 * ```
 */
export interface AsyncDatasetSource extends DatasetSource {
  load(ref: string, questionId?: string, options?: DatasetLoadOptions): Promise<Question[]>;
  listDatasets(): Promise<string[]>;
}

/**
 * A source that can write: it has `appendQuestions` and `createDataset`.
 *
 * @example
 * ```ts
 * const source = getDatasetSource('file');
 * if (source && isWritableSource(source)) await source.createDataset('promoted', { label: 'Promoted' });
 * ```
 */
export type WritableDatasetSource = DatasetSource & WritableDatasetMethods;

/**
 * Defines a dataset source. `load` is wrapped so that it never throws: a throw or a rejected
 * promise is logged as a warning on the ai-eval logger and becomes `[]`. `capabilities` always
 * includes `read`.
 *
 * @example
 * ```ts
 * const registry = defineDatasetSource({
 *   id: 'registry',
 *   label: 'Registry',
 *   load: (ref, questionId) => normalizeQuestions(fetchRows(ref), `registry:${ref}`, questionId, logger),
 *   listDatasets: () => ['support.yaml'],
 * });
 * registerDatasetSource(registry);
 * ```
 */
export function defineDatasetSource(options: DatasetSourceOptions): DatasetSource {
  if (typeof options.id !== 'string' || !/^[a-z][a-z0-9_-]*$/i.test(options.id)) {
    throw new AiEvalError(
      'DATASET_SOURCE',
      `A dataset source id must be a word (letters, digits, '_' or '-'), got ${JSON.stringify(options.id)}.`,
    );
  }
  if (typeof options.load !== 'function' || typeof options.listDatasets !== 'function') {
    throw new AiEvalError(
      'DATASET_SOURCE',
      `Dataset source '${options.id}' needs a load and a listDatasets function.`,
    );
  }
  const capabilities = new Set<DatasetCapability>(['read', ...(options.capabilities ?? [])]);
  if (options.appendQuestions) capabilities.add('write');
  const tag = `dataset:${options.id}`;
  const fail = (ref: string, error: unknown): Question[] => {
    const message = error instanceof Error ? error.message : String(error);
    logger.warn(`${options.id}:${ref}: the source failed to load: ${message}`, tag);
    return [];
  };
  const load = (
    ref: string,
    questionId?: string,
    loadOptions?: DatasetLoadOptions,
  ): Question[] | Promise<Question[]> => {
    try {
      const result = options.load(ref, questionId, loadOptions);
      return isThenable(result)
        ? Promise.resolve(result).catch((error: unknown) => fail(ref, error))
        : result;
    } catch (error) {
      return fail(ref, error);
    }
  };
  return {
    ...options,
    description: options.description ?? '',
    capabilities: [...capabilities],
    load,
    listDatasetsWithLabels:
      options.listDatasetsWithLabels?.bind(options) ??
      (() => {
        const refs = options.listDatasets();
        const toLabels = (list: string[]) => Object.fromEntries(list.map((ref) => [ref, ref]));
        return isThenable(refs) ? Promise.resolve(refs).then(toLabels) : toLabels(refs);
      }),
  };
}

/**
 * True when a source can write questions (it implements `appendQuestions` and `createDataset`).
 *
 * @example
 * ```ts
 * const source = getDatasetSource('file');
 * if (source && isWritableSource(source)) await source.appendQuestions('support.yaml', [{ input: 'Hi' }]);
 * ```
 */
export function isWritableSource(source: DatasetSource): source is WritableDatasetSource {
  return typeof source.appendQuestions === 'function' && typeof source.createDataset === 'function';
}

/**
 * The common post-processing of a source's rows: drops rows that are not objects (logging each),
 * drops disabled rows (unless `options.includeDisabled`), keeps only `questionId` when given, and
 * re-indexes.
 *
 * @example
 * ```ts
 * normalizeQuestions([{ id: 'a', input: 'x' }, 'junk', { id: 'b', input: 'y', disabled: true }], 'file:a.yaml', undefined, logger);
 * // [{ id: 'a', input: 'x' }] and one warning about row 1
 * ```
 */
export function normalizeQuestions(
  rows: unknown,
  label: string,
  questionId?: string | null,
  log: WarningLogger = logger,
  options: DatasetLoadOptions = {},
): Question[] {
  if (!Array.isArray(rows)) {
    log.warn(
      `${label}: expected a list of questions, got ${rows === null ? 'null' : typeof rows}; nothing loaded.`,
      'dataset',
    );
    return [];
  }
  const questions: Question[] = [];
  rows.forEach((row: unknown, index) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      log.warn(`${label}: question row ${index} (/questions/${index}) is not an object; dropped.`, 'dataset');
      return;
    }
    const question = row as Question;
    if (Boolean(question.disabled) && !options.includeDisabled) return;
    if (questionId !== undefined && questionId !== null && question.id !== questionId) return;
    questions.push(question);
  });
  return questions;
}
