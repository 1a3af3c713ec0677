import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { canonicalJson } from '../internal/canonical-json.js';
import { getConfig } from '../config.js';
import { filterFromEnv } from '../datasets/load.js';
import type { DatasetFilter, DatasetLoad, DatasetSelector } from '../datasets/types.js';
import type { Question } from '../grading/types.js';
import { sendIfRunning, type TestIdentity } from './channel.js';
import { disabledRecord, filterSkipRecord, loadFailureRecord, targetRecord } from './record.js';
import type { AiEvalRecord, RecordTarget } from './record-types.js';
import { resolveTarget, type Target } from './target.js';
import { questionTimeout, runQuestion, type QuestionRuntime, type SuiteTarget } from './suite-question.js';
import {
  checkSuiteOptions,
  describeFilters,
  suiteFilters,
  type EvalSuiteOptions,
  type SuiteFilters,
} from './suite-options.js';
import { sha256Hex } from '../internal/sha256.js';

/** What a runner entry point injects into the runner-free suite builder. */
export interface SuiteRuntime extends QuestionRuntime {
  describe(name: string, fn: () => void): void;
  /** Defines a test; `fn` receives whatever the runner passes to a test function. */
  test(
    name: string,
    fn: (context: unknown) => Promise<void>,
    options: { concurrent: boolean; timeout?: number },
  ): void;
  /** Defines a skipped test. */
  skip(name: string): void;
  /**
   * Defines a test that is skipped with `note` and still sends the records `records` builds from
   * the test's file and full name (inside `describe(suite)`).
   */
  skipWithNote(
    suite: string,
    title: string,
    note: string,
    records: (test: { file: string; name: string }) => AiEvalRecord[],
  ): void;
  /** The identity of the running test, from inside its body. */
  identify(context: unknown, title: string): TestIdentity;
  load(selector: DatasetSelector, filter: DatasetFilter): DatasetLoad;
}

/** How much longer than a question's own timeout the runner's test timeout is set. */
const RUNNER_GRACE_MS = 5_000;

/** The title of a question's test: its id, then its tags. */
export function questionTitle(question: Question): string {
  const tags =
    Array.isArray(question.tags) && question.tags.length > 0 ? ` [${question.tags.join(', ')}]` : '';
  return `${question.id}${tags}`;
}

function emptyMessage(name: string, load: DatasetLoad, filters: SuiteFilters, hints: string[]): string {
  const warnings = load.warnings.length > 0 ? load.warnings.map((w) => `  - ${w}`).join('\n') : '  (none)';
  return [
    `evalSuite(${JSON.stringify(name)}): dataset ${load.label} gave no questions to run, so nothing was evaluated.`,
    `Filters: ${describeFilters(filters)}.`,
    'Warnings:',
    warnings,
    ...hints,
    'Fix the dataset (run `npx ai-eval validate <file>`), its path or ref, or the filters. An async source (http) must be pulled into a file first.',
  ].join('\n');
}

function allDisabledMessage(name: string, load: DatasetLoad, filters: SuiteFilters): string {
  return [
    `evalSuite(${JSON.stringify(name)}): every question of dataset ${load.label} that the filters select is disabled, so nothing was evaluated.`,
    `Filters: ${describeFilters(filters)}.`,
    `Disabled: ${load.questions.map((q) => q.id).join(', ')}.`,
    'Fix: enable a question (remove `disabled: true`), or change the filters to select enabled questions.',
  ].join('\n');
}

/**
 * A hint for a dataset path that is missing from the working directory but exists beside the test
 * file: paths are relative to the working directory, not to the test file.
 */
function relativePathHint(dataset: EvalSuiteOptions['dataset'], testFile: string): string[] {
  const path = typeof dataset === 'string' ? dataset : 'path' in dataset ? dataset.path : undefined;
  if (path === undefined || existsSync(resolve(process.cwd(), path)) || testFile === '') return [];
  const beside = resolve(dirname(testFile), path);
  if (!existsSync(beside)) return [];
  const fromCwd = relative(process.cwd(), beside).replace(/\\/g, '/');
  return [
    `Note: dataset paths are relative to the working directory (${process.cwd()}), not to the test file. ${path} exists beside the test file: give \`dataset: '${fromCwd}'\`.`,
  ];
}

/**
 * The dataset identity records carry: the load label as ref, and the first 12 hex characters of
 * the sha256 of the dataset file's bytes, or, for a dataset without a file (inline), of the
 * canonical JSON of the loaded questions.
 *
 * @example
 * ```ts
 * datasetIdentity(loadDatasetSync({ path: 'datasets/support.yaml' })); // { ref: 'file:datasets/support.yaml', hash: '3f2a9c01b7e4' }
 * ```
 */
export function datasetIdentity(load: DatasetLoad): { ref: string; hash: string } {
  let content: Buffer | string | undefined;
  if (load.file !== undefined) {
    try {
      content = readFileSync(load.file);
    } catch {
      content = undefined;
    }
  }
  content ??= canonicalJson(load.questions);
  return { ref: load.label, hash: sha256Hex(content).slice(0, 12) };
}

/** The selector of an `evalSuite` dataset option. */
function selectorOf(dataset: EvalSuiteOptions['dataset']): DatasetSelector {
  if (typeof dataset === 'string') return { path: dataset };
  if ('path' in dataset) return { path: dataset.path };
  return { source: dataset.source, ref: dataset.ref };
}

/** The target of a suite's questions: graders resolved now, record targets made once per threshold. */
function suiteTarget(target: Target): SuiteTarget {
  const graders = resolveTarget(target);
  const made = new Map<number, RecordTarget>();
  return {
    graders,
    record(passThreshold) {
      let record = made.get(passThreshold);
      if (!record) {
        record = targetRecord(target, passThreshold);
        made.set(passThreshold, record);
      }
      return record;
    },
  };
}

/**
 * Whether the environment filters (`AI_EVAL_IDS`, `AI_EVAL_TAGS`, `AI_EVAL_SPLIT`) alone left a
 * suite without questions: a load with only the suite's own filters gives some.
 */
function filteredOut(runtime: SuiteRuntime, selector: DatasetSelector, options: EvalSuiteOptions): boolean {
  if (Object.keys(filterFromEnv()).length === 0) return false;
  const own = runtime.load(selector, { ...suiteFilters(options, {}), includeDisabled: true });
  return own.questions.length > 0;
}

/**
 * Defines one `describe(name)` with one test per question of the dataset, for the runner injected
 * as `runtime`. The runner entry points (`ai-eval/vitest`, `ai-eval/jest`) wrap it as `evalSuite`.
 * A dataset that gives nothing to evaluate is one failing test that sends a load-failure record; a
 * suite the environment filters leave without a question is skipped with a note and sends a
 * filter-skip record (the reporter fails the run when the filters select nothing in any suite).
 *
 * @example
 * ```ts
 * defineEvalSuite(vitestRuntime, 'support bot', { dataset: 'evals/support.yaml', target, run });
 * ```
 */
export function defineEvalSuite(runtime: SuiteRuntime, name: string, options: EvalSuiteOptions): void {
  checkSuiteOptions(name, options);
  const filters = suiteFilters(options);
  const selector = selectorOf(options.dataset);
  const load = runtime.load(selector, { ...filters, includeDisabled: true });
  const dataset = load.questions.length > 0 ? datasetIdentity(load) : undefined;
  const target = targetRecord(options.target, options.target.passThreshold ?? getConfig().passThreshold);
  const trials = options.trials ?? 1;
  const questionTarget = suiteTarget(options.target);
  const skipped = load.questions.length === 0 && filteredOut(runtime, selector, options);
  runtime.describe(name, () => {
    if (skipped) {
      const note = `no question selected by the filters (${describeFilters(filters)})`;
      runtime.skipWithNote(name, `dataset ${load.label}: ${note}`, note, (test) => [
        filterSkipRecord({ test, target, suite: name, ref: load.label }, filters),
      ]);
      return;
    }
    if (load.questions.length === 0) {
      defineLoadFailure(runtime, name, options, {
        load,
        target,
        message: (hints) => emptyMessage(name, load, filters, hints),
      });
      return;
    }
    for (const question of load.questions) {
      const title = questionTitle(question);
      if (question.disabled === true) {
        // Skipped, and said so to the reporter: JUnit shows it as a skipped testcase.
        runtime.skipWithNote(name, title, 'disabled in the dataset', (test) => [
          disabledRecord({ test, target, suite: name, ref: load.label }, question.id),
        ]);
        continue;
      }
      const { timeout, source } = questionTimeout(question, options);
      runtime.test(
        title,
        (context) =>
          runQuestion(runtime, options, question, context, {
            title,
            timeout,
            timeoutSource: source,
            datasetFile: load.file,
            dataset,
            target: questionTarget,
          }),
        { concurrent: options.concurrent === true, timeout: timeout * trials + RUNNER_GRACE_MS },
      );
    }
    // Skipped tests pass a run: when every selected question is disabled, say nothing was evaluated.
    if (load.questions.every((q) => q.disabled === true)) {
      const message = allDisabledMessage(name, load, filters);
      defineLoadFailure(runtime, name, options, {
        load,
        target,
        message: () => message,
        problems: [message.split('\n')[0] as string],
      });
    }
  });
}

/** One failing test for a dataset that gave nothing to evaluate, which tells the reporter so. */
function defineLoadFailure(
  runtime: SuiteRuntime,
  name: string,
  options: EvalSuiteOptions,
  failure: {
    load: DatasetLoad;
    target: RecordTarget;
    message: (hints: string[]) => string;
    problems?: string[];
  },
): void {
  const title = `dataset ${failure.load.label}`;
  runtime.test(
    title,
    async (context) => {
      const identity = runtime.identify(context, title);
      const hints = relativePathHint(options.dataset, identity.file);
      const problems = failure.problems ?? [...failure.load.warnings, ...hints];
      const test = { file: identity.file, name: identity.name };
      const record = loadFailureRecord(
        { test, target: failure.target, suite: name, ref: failure.load.label },
        problems.length > 0 ? problems : ['the dataset gave no questions'],
      );
      await sendIfRunning(runtime.channel, identity, [record]);
      throw new Error(failure.message(hints));
    },
    { concurrent: false },
  );
}
