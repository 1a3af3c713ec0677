import { resolve } from 'node:path';
import type { Question } from '../grading/types.js';
import { errorMessage } from '../internal/text.js';
import { captureLogs, captureLogsAsync, logger, type LogEntry } from '../logger.js';
import type { DatasetSource } from './define-source.js';
import { builtinDatasetSources, getDatasetSource, listDatasetSources } from './registry.js';
import { createSplitter } from './splits.js';
import { readDatasetFile } from './sources/file.js';
import { httpDatasetUrl } from './sources/http.js';
import type { DatasetFilter, DatasetLoad, DatasetSelector } from './types.js';
import { isThenable } from '../internal/thenable.js';

const TAG = 'dataset';

/**
 * The label of a selection, for example `file:support.yaml`.
 *
 * @example
 * ```ts
 * datasetLabel({ ref: 'support.yaml' }); // 'file:support.yaml'
 * ```
 */
export function datasetLabel(selector: DatasetSelector): string {
  if (selector.path !== undefined) return `file:${selector.path}`;
  return `${selector.source ?? 'file'}:${selector.ref ?? ''}`;
}

/**
 * The filters the generated suites read from the environment: `AI_EVAL_SPLIT` (a split name),
 * `AI_EVAL_TAGS` and `AI_EVAL_IDS` (comma-separated lists).
 *
 * @example
 * ```ts
 * // AI_EVAL_TAGS=billing,refunds npx vitest
 * filterFromEnv(); // { tags: ['billing', 'refunds'] }
 * ```
 */
export function filterFromEnv(env: Record<string, string | undefined> = process.env): DatasetFilter {
  const list = (value: string | undefined) =>
    value
      ?.split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const filter: DatasetFilter = {};
  const split = env.AI_EVAL_SPLIT?.trim();
  if (split) filter.split = split;
  const tags = list(env.AI_EVAL_TAGS);
  if (tags?.length) filter.tags = tags;
  const ids = list(env.AI_EVAL_IDS);
  if (ids?.length) filter.ids = ids;
  return filter;
}

/** Applies the split, tag and id filters; warns when something named matches nothing. */
function applyFilter(
  questions: Question[],
  filter: DatasetFilter,
  splits: unknown,
  label: string,
): Question[] {
  let kept = questions;
  if (filter.split !== undefined) {
    const splitter = createSplitter(splits);
    if (splitter.problems.length > 0) {
      logger.warn(
        `${label}: the splits block is invalid, so no question is in split '${filter.split}'.`,
        TAG,
      );
      for (const p of splitter.problems) logger.warn(`${label}: ${p.path}: ${p.message}`, TAG);
      return [];
    }
    if (filter.questionId === undefined) {
      for (const { split, id } of splitter.unknownIds(questions)) {
        logger.warn(
          `${label}: /splits/${split} names question id '${id}', which no enabled question has.`,
          TAG,
        );
      }
    }
    const names = splitter.names(questions);
    if (!names.includes(filter.split)) {
      logger.warn(
        `${label}: no split named '${filter.split}' (known: ${names.join(', ') || 'none'}). Fix: add it to the splits block or label questions with \`split: ${filter.split}\`.`,
        TAG,
      );
    }
    kept = splitter.select(kept, filter.split);
  }
  if (filter.tags !== undefined && filter.tags.length > 0) {
    const wanted = new Set(filter.tags);
    kept = kept.filter((q) => (q.tags ?? []).some((t) => wanted.has(t)));
  }
  if (filter.ids !== undefined && filter.ids.length > 0) {
    const wanted = new Set(filter.ids);
    const present = new Set(questions.map((q) => q.id));
    for (const id of filter.ids)
      if (!present.has(id)) logger.warn(`${label}: no question with id '${id}'.`, TAG);
    kept = kept.filter((q) => wanted.has(q.id));
  }
  if (questions.length > 0 && kept.length === 0) {
    const parts = [
      filter.split !== undefined ? `split '${filter.split}'` : '',
      filter.tags?.length ? `tags ${filter.tags.join(', ')}` : '',
      filter.ids?.length ? `ids ${filter.ids.join(', ')}` : '',
    ].filter((p) => p !== '');
    logger.warn(`${label}: no question matches the filter (${parts.join('; ')}).`, TAG);
  }
  return kept;
}

/** Runs `fn` and collects the warnings its own work logged (never those of concurrent loads). */
function withWarnings<T>(fn: () => T): { value: T; warnings: string[] } {
  const { value, logs } = captureLogs(fn);
  return { value, warnings: warningsOf(logs) };
}

function warningsOf(logs: readonly LogEntry[]): string[] {
  return logs.filter((e) => e.level === 'warn' || e.level === 'error').map((e) => e.message);
}

function unknownSource(id: string, label: string): void {
  logger.warn(
    `${label}: unknown dataset source '${id}' (available: ${listDatasetSources().join(', ')}). Fix: register it with registerDatasetSource() in a setup file, or use one of those.`,
    TAG,
  );
}

function missingRef(label: string): void {
  logger.warn(`${label}: no dataset ref given. Fix: pass { source, ref } or { path }.`, TAG);
}

/** The file an async dataset is pulled into, for messages: `support.yaml` gives `datasets/support.pulled.json`. */
function pulledPath(ref: string): string {
  const base = ref.replace(/\.(ya?ml|json)$/i, '').replace(/[^\w.-]+/g, '-') || 'dataset';
  return `datasets/${base}.pulled.json`;
}

/**
 * The one recipe for bringing an async dataset into a file, as the failing suite's hint and the
 * docs print it: `npx ai-eval pull <source> <ref> -o <file>`, where the ref of the `http` source is
 * the URL it is fetched from, and a custom source needs the module that registers it.
 *
 * @example
 * ```ts
 * pullCommand('file', 'a.yaml', 'x.json'); // 'npx ai-eval pull file a.yaml -o x.json'
 * ```
 */
export function pullCommand(source: string, ref: string, file: string): string {
  if (source === 'http') {
    return `npx ai-eval pull http ${httpDatasetUrl(ref) ?? `<the URL of ${ref}>`} -o ${file}`;
  }
  const setup = Object.hasOwn(builtinDatasetSources, source) ? '' : ' --setup <module that registers it>';
  return `npx ai-eval pull ${source} ${ref} -o ${file}${setup}`;
}

function asyncOnly(source: DatasetSource, label: string, ref: string): void {
  const file = pulledPath(ref);
  logger.warn(
    `${label}: the '${source.id}' source is asynchronous and cannot be loaded synchronously (Jest cannot await inside describe), so evalSuite cannot load it. Fix: pull it into a file first, before the tests run (a CI step, or a "pretest" script): \`${pullCommand(source.id, ref, file)}\`; or commit the dataset as a file. Then give evalSuite the file: \`dataset: '${file}'\`.`,
    TAG,
  );
}

/** An empty result with nothing else said still says why: the dataset has no questions. */
function empty(label: string, questions: Question[], warnings: string[]): void {
  if (questions.length > 0 || warnings.length > 0) return;
  const message = `${label}: the dataset has no questions.`;
  logger.warn(message, TAG);
  warnings.push(message);
}

function fileOf(selector: DatasetSelector): string | undefined {
  if (selector.path !== undefined) return resolve(process.cwd(), selector.path);
  if (selector.ref === undefined) return undefined;
  try {
    return getDatasetSource(selector.source ?? 'file')?.locate?.(selector.ref);
  } catch {
    return undefined;
  }
}

/**
 * Loads a dataset synchronously, for file, inline and path datasets (Jest cannot await inside
 * `describe`). Never throws: every problem is a warning in the result (and on the ai-eval logger).
 * An async-only source returns no questions and a warning that explains how to use a file instead.
 * Disabled questions are returned only with `includeDisabled`.
 *
 * @example
 * ```ts
 * const { questions, warnings, label } = loadDatasetSync({ path: 'datasets/support.yaml' }, { split: 'smoke' });
 * ```
 */
export function loadDatasetSync(selector: DatasetSelector, filter: DatasetFilter = {}): DatasetLoad {
  const label = datasetLabel(selector);
  const run = withWarnings(loadSync);
  empty(label, run.value, run.warnings);
  const file = fileOf(selector);
  return { questions: run.value, warnings: run.warnings, label, ...(file !== undefined ? { file } : {}) };

  function loadSync(): Question[] {
    try {
      const loadOptions = { includeDisabled: filter.includeDisabled ?? false };
      if (selector.path !== undefined) {
        const path = resolve(process.cwd(), selector.path);
        const { questions, splits } = readDatasetFile(path, filter.questionId, loadOptions);
        return applyFilter(questions, filter, splits, label);
      }
      const id = selector.source ?? 'file';
      const source = getDatasetSource(id);
      if (!source) {
        unknownSource(id, label);
        return [];
      }
      if (selector.ref === undefined || selector.ref === '') {
        missingRef(label);
        return [];
      }
      const loaded =
        source.synchronous === false ? undefined : source.load(selector.ref, filter.questionId, loadOptions);
      if (loaded === undefined || isThenable(loaded)) {
        if (loaded !== undefined) Promise.resolve(loaded).catch(() => undefined);
        asyncOnly(source, label, selector.ref);
        return [];
      }
      let splits: unknown;
      if (filter.split !== undefined && loaded.length > 0 && source.loadSplits) {
        splits = source.loadSplits(selector.ref);
        if (isThenable(splits)) splits = undefined;
      }
      return applyFilter(loaded, filter, splits, label);
    } catch (error) {
      logger.warn(`${label}: loading failed: ${errorMessage(error)}`, TAG);
      return [];
    }
  }
}

/**
 * The asynchronous load behind {@link loadDataset}, with the warnings: works with every source.
 * Never throws.
 *
 * @example
 * ```ts
 * const { questions, warnings } = await loadDatasetWithWarnings({ source: 'http', ref: 'support.yaml' });
 * ```
 */
export async function loadDatasetWithWarnings(
  options: DatasetSelector & DatasetFilter,
): Promise<DatasetLoad> {
  const label = datasetLabel(options);
  if (options.path !== undefined) return loadDatasetSync(options, options);
  const { value: questions, logs } = await captureLogsAsync(async () => {
    let loaded: Question[] = [];
    try {
      const loadOptions = { includeDisabled: options.includeDisabled ?? false };
      const id = options.source ?? 'file';
      const source = getDatasetSource(id);
      if (!source) unknownSource(id, label);
      else if (options.ref === undefined || options.ref === '') missingRef(label);
      else {
        const rows = await source.load(options.ref, options.questionId, loadOptions);
        const splits =
          options.split !== undefined && rows.length > 0 && source.loadSplits
            ? await source.loadSplits(options.ref)
            : undefined;
        loaded = applyFilter(rows, options, splits, label);
      }
    } catch (error) {
      logger.warn(`${label}: loading failed: ${errorMessage(error)}`, TAG);
    }
    return loaded;
  });
  const warnings = warningsOf(logs);
  empty(label, questions, warnings);
  const file = fileOf(options);
  return { questions, warnings, label, ...(file !== undefined ? { file } : {}) };
}

/**
 * Loads the questions of a dataset from any source. Never throws: an unknown source id, an
 * unresolved ref, a parse or schema failure gives `[]` and logs warnings on the ai-eval logger
 * (read them with `captureLogsAsync` or use {@link loadDatasetWithWarnings}).
 *
 * @example
 * ```ts
 * const questions = await loadDataset({ source: 'file', ref: 'support.yaml', split: 'holdout', tags: ['billing'] });
 * ```
 */
export async function loadDataset(options: DatasetSelector & DatasetFilter): Promise<Question[]> {
  return (await loadDatasetWithWarnings(options)).questions;
}
