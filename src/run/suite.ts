import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../internal/canonical-json.js';
import { errorMessage } from '../internal/text.js';
import { getConfig } from '../config.js';
import { loadRubricCriteria } from '../datasets/rubrics.js';
import type { DatasetFilter, DatasetLoad, DatasetSelector } from '../datasets/types.js';
import { formatNumber } from '../internal/numbers.js';
import type { Question } from '../grading/types.js';
import { buildContext } from '../grading/context.js';
import type { Grader } from '../grading/define-grader.js';
import { gradeQuestion, resultOf, type QuestionResult } from './grade-question.js';
import { resolveTarget } from './target.js';
import { runWithIdentity, sendIfRunning, type RunnerChannel, type TestIdentity } from './channel.js';
import { targetRecord, toRecords, type RecordScope } from './record.js';
import {
  checkSuiteOptions,
  describeFilters,
  suiteFilters,
  type EvalSuiteOptions,
  type SuiteFilters,
} from './suite-options.js';

/** What a runner entry point injects into the runner-free suite builder. */
export interface SuiteRuntime {
  describe(name: string, fn: () => void): void;
  /** Defines a test; `fn` receives whatever the runner passes to a test function. */
  test(
    name: string,
    fn: (context: unknown) => Promise<void>,
    options: { concurrent: boolean; timeout?: number },
  ): void;
  /** Defines a skipped test. */
  skip(name: string): void;
  /** The identity of the running test, from inside its body. */
  identify(context: unknown, title: string): TestIdentity;
  /** The runner's own abort signal for the test, if it has one. */
  signal(context: unknown): AbortSignal | undefined;
  channel: RunnerChannel;
  load(selector: DatasetSelector, filter: DatasetFilter): DatasetLoad;
}

/** How much longer than a question's own timeout the runner's test timeout is set. */
const RUNNER_GRACE_MS = 5_000;

class QuestionTimeout extends Error {}

/** The title of a question's test: its id, then its tags. */
export function questionTitle(question: Question): string {
  const tags =
    Array.isArray(question.tags) && question.tags.length > 0 ? ` [${question.tags.join(', ')}]` : '';
  return `${question.id}${tags}`;
}

function emptyMessage(name: string, load: DatasetLoad, filters: SuiteFilters): string {
  const warnings = load.warnings.length > 0 ? load.warnings.map((w) => `  - ${w}`).join('\n') : '  (none)';
  return [
    `evalSuite(${JSON.stringify(name)}): dataset ${load.label} gave no questions to run, so nothing was evaluated.`,
    `Filters: ${describeFilters(filters)}.`,
    'Warnings:',
    warnings,
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
  return { ref: load.label, hash: createHash('sha256').update(content).digest('hex').slice(0, 12) };
}

/** The selector of an `evalSuite` dataset option. */
function selectorOf(dataset: EvalSuiteOptions['dataset']): DatasetSelector {
  if (typeof dataset === 'string') return { path: dataset };
  if ('path' in dataset) return { path: dataset.path };
  return { source: dataset.source, ref: dataset.ref };
}

/**
 * Defines one `describe(name)` with one test per question of the dataset, for the runner injected
 * as `runtime`. The runner entry points (`ai-eval/vitest`, `ai-eval/jest`) wrap it as `evalSuite`.
 *
 * @example
 * ```ts
 * defineEvalSuite(vitestRuntime, 'support bot', { dataset: 'evals/support.yaml', target, run });
 * ```
 */
export function defineEvalSuite(runtime: SuiteRuntime, name: string, options: EvalSuiteOptions): void {
  checkSuiteOptions(name, options);
  const filters = suiteFilters(options);
  const load = runtime.load(selectorOf(options.dataset), { ...filters, includeDisabled: true });
  const dataset = load.questions.length > 0 ? datasetIdentity(load) : undefined;
  const trials = options.trials ?? 1;
  runtime.describe(name, () => {
    if (load.questions.length === 0) {
      runtime.test(
        `dataset ${load.label}`,
        () => Promise.reject(new Error(emptyMessage(name, load, filters))),
        {
          concurrent: false,
        },
      );
      return;
    }
    for (const question of load.questions) {
      const title = questionTitle(question);
      if (question.disabled === true) {
        runtime.skip(title);
        continue;
      }
      const timeout = typeof question.timeout === 'number' ? question.timeout : options.timeout;
      runtime.test(
        title,
        (context) =>
          runQuestion(runtime, options, question, context, {
            title,
            timeout,
            datasetFile: load.file,
            dataset,
          }),
        {
          concurrent: options.concurrent === true,
          ...(timeout !== undefined ? { timeout: timeout * trials + RUNNER_GRACE_MS } : {}),
        },
      );
    }
    // Skipped tests pass a run: when every selected question is disabled, say nothing was evaluated.
    if (load.questions.every((q) => q.disabled === true)) {
      runtime.test(
        `dataset ${load.label}`,
        () => Promise.reject(new Error(allDisabledMessage(name, load, filters))),
        { concurrent: false },
      );
    }
  });
}

async function runQuestion(
  runtime: SuiteRuntime,
  options: EvalSuiteOptions,
  question: Question,
  context: unknown,
  {
    title,
    timeout,
    datasetFile,
    dataset,
  }: {
    title: string;
    timeout: number | undefined;
    datasetFile: string | undefined;
    dataset: { ref: string; hash: string } | undefined;
  },
): Promise<void> {
  const identity = runtime.identify(context, title);
  const failures: string[] = [];
  const trials = options.trials ?? 1;
  for (let trial = 1; trial <= trials; trial++) {
    const scoped = { ...identity, question: question.id, trial };
    const failure = await runWithIdentity(scoped, () =>
      runTrial(runtime, options, question, {
        identity,
        trial,
        timeout,
        datasetFile,
        dataset,
        runnerSignal: runtime.signal(context),
      }),
    );
    if (failure) failures.push(trials > 1 ? `trial ${trial}: ${failure}` : failure);
  }
  if (failures.length > 0) throw new Error(`${question.id}: ${failures.join('\n\n')}`);
}

interface TrialScope {
  identity: TestIdentity;
  trial: number;
  timeout: number | undefined;
  /** The dataset file, where the question's rubric is looked up first. */
  datasetFile: string | undefined;
  /** The dataset's ref and content hash, for the records. */
  dataset: { ref: string; hash: string } | undefined;
  runnerSignal: AbortSignal | undefined;
}

/** Runs and grades one trial; returns why it failed, or undefined when it passed. */
async function runTrial(
  runtime: SuiteRuntime,
  options: EvalSuiteOptions,
  question: Question,
  { identity, trial, timeout, datasetFile, dataset, runnerSignal }: TrialScope,
): Promise<string | undefined> {
  const controller = new AbortController();
  const signal = runnerSignal ? AbortSignal.any([controller.signal, runnerSignal]) : controller.signal;
  const source = typeof question.timeout === 'number' ? 'question.timeout' : 'the suite timeout option';
  const timer =
    timeout === undefined
      ? undefined
      : setTimeout(
          () =>
            controller.abort(
              new QuestionTimeout(
                `timed out after ${timeout} ms (${source}); the run was aborted through its signal.`,
              ),
            ),
          timeout,
        );
  const graders = resolveTarget(options.target);
  const passThreshold = options.target.passThreshold ?? getConfig().passThreshold;
  let result: QuestionResult;
  try {
    const rubricCriteria =
      typeof question.rubric_ref === 'string'
        ? loadRubricCriteria(question.rubric_ref, datasetFile ? { datasetFile } : {})
        : undefined;
    const response = await untilAborted(
      Promise.resolve().then(() => options.run(question, { signal, trial })),
      signal,
      'run()',
    );
    result = await untilAborted(
      gradeQuestion({ question, response, graders, target: options.target, trial, signal, rubricCriteria }),
      signal,
      'grading',
    );
  } catch (error) {
    const why = errorMessage(error);
    // Nothing was graded, but the question still reaches the report: every grader errored on it,
    // so it counts as degraded and unscored instead of vanishing from the run.
    const failed = noResponseResult(question, graders, passThreshold, why);
    await sendIfRunning(runtime.channel, identity, toRecords(failed, graders, { ...scope(trial), identity }));
    return why;
  } finally {
    clearTimeout(timer);
  }
  await sendIfRunning(runtime.channel, identity, toRecords(result, graders, { ...scope(trial), identity }));
  return verdictFailure(result);

  function scope(n: number): Omit<RecordScope, 'identity'> {
    return {
      target: targetRecord(options.target, passThreshold),
      question: question.id,
      trial: n,
      ...(dataset ? { dataset } : {}),
    };
  }
}

/** The result of a trial whose run or grading failed: every grader errored with the cause. */
function noResponseResult(
  question: Question,
  graders: readonly Grader[],
  passThreshold: number,
  why: string,
): QuestionResult {
  const grades = graders.map((g) => g.result(null, `no response to grade: ${why}`, true));
  return {
    questionId: question.id,
    ...resultOf(grades, passThreshold),
    toolCalls: undefined,
    context: buildContext(question),
  };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal, what));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal, what));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(`${what} failed: ${String(error)}`));
      },
    );
  });
}

function abortReason(signal: AbortSignal, what: string): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof QuestionTimeout) return reason;
  return new Error(`${what} was aborted: ${reason instanceof Error ? reason.message : String(reason)}`);
}

/** Why a graded question fails (below the threshold, unscored or degraded), or undefined. */
export function verdictFailure(result: QuestionResult): string | undefined {
  if (result.passed && !result.degraded) return undefined;
  const why = result.unscored
    ? 'unscored: every grader skipped or errored, so nothing checked the response'
    : result.degraded
      ? `degraded: a grader could not grade (composite ${formatNumber(result.composite ?? 0)})`
      : `composite ${formatNumber(result.composite ?? 0)} is below the pass threshold ${formatNumber(result.passThreshold)}`;
  const lines = result.grades.map((grade) => {
    const score = grade.error
      ? 'error'
      : grade.skipped || grade.score === null
        ? 'skipped'
        : `${formatNumber(grade.score)} (composite ${formatNumber(grade.composite ?? 0)})`;
    return `  - ${grade.grader}: ${score}: ${grade.reason}`;
  });
  return [why, ...lines].join('\n');
}
