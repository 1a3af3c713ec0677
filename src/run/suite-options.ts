import { filterFromEnv } from '../datasets/load.js';
import { optionsChecker } from '../internal/options-check.js';
import { describeFilters, type SuiteFilters } from './filters.js';
import { suiteSchema } from './option-schemas.js';
import { suite as validateSuite } from './option-validators.generated.js';
import type { Gradable, Question } from '../grading/types.js';
import { resolveTarget, type Target } from './target.js';
import type { QuestionResult } from './grade-question.js';

/**
 * What a generated test passes to `run` beside the question.
 *
 * @example
 * ```ts
 * const run = async (question: Question, { signal, trial }: RunHelpers) =>
 *   agent.run(inputOf(question), { signal, seed: trial });
 * ```
 */
export interface RunHelpers {
  /** Aborted when the question's timeout passes or the runner cancels the test. */
  signal: AbortSignal;
  /** The 1-based trial number. */
  trial: number;
}

/**
 * What `afterQuestion` receives: the trial's signal and number, and, when they exist, the agent's
 * response and the graded result.
 *
 * @example
 * ```ts
 * afterQuestion: (question, { result }: AfterQuestionHelpers) => {
 *   if (result && !result.passed) console.log(question.id, store.dump());
 *   store.reset();
 * },
 * ```
 */
export interface AfterQuestionHelpers extends RunHelpers {
  /** What `run` returned; absent when it (or `beforeQuestion`) failed. */
  response?: Gradable;
  /** The graded question; absent when it was not graded. */
  result?: QuestionResult;
}

/**
 * Options of `evalSuite`.
 *
 * @example
 * ```ts
 * const options: EvalSuiteOptions = {
 *   dataset: 'evals/support.yaml',
 *   target: { name: 'support-bot', mode: 'agent', graders: ['read_only_run'] },
 *   run: (question, { signal }) => agent.run(inputOf(question), { signal }),
 *   tags: ['smoke'],
 *   timeout: 30_000,
 * };
 * ```
 */
export interface EvalSuiteOptions {
  /**
   * A dataset file path (relative to the working directory), the same as `{ path }`, or a source
   * and ref. An async source (http) cannot be loaded here: pull it into a file and give its path.
   */
  dataset: string | { path: string } | { source: string; ref: string };
  /** What is evaluated: its graders score every question. */
  target: Target;
  /** Runs the agent or model on one question; returns the response text or an agent run. */
  run: (question: Question, helpers: RunHelpers) => Gradable | Promise<Gradable>;
  /** Only questions in this split. `AI_EVAL_SPLIT` overrides it. */
  split?: string;
  /** Only questions with at least one of these tags. `AI_EVAL_TAGS` (comma list) overrides it. */
  tags?: string[];
  /** Only these question ids. `AI_EVAL_IDS` (comma list) overrides it. */
  ids?: string[];
  /** Run the questions as concurrent tests. Default false. */
  concurrent?: boolean;
  /** Milliseconds one trial of a question may take (run and grading); `question.timeout` wins. */
  timeout?: number;
  /** Run each question this many times; every trial is recorded and every trial must pass. Default 1. */
  trials?: number;
  /**
   * Runs before each trial's `run`, inside the question's timeout: seed or reset the system under
   * test here. When it throws, the agent is not run and every grade of the trial is an error that
   * names the hook.
   */
  beforeQuestion?: (question: Question, helpers: RunHelpers) => void | Promise<void>;
  /**
   * Runs after each trial is graded (or failed), inside the question's timeout: inspect or reset
   * the state here (state graders read it before this runs). When it throws, every grade of the
   * trial becomes an error that names the hook. After a timeout it is still called, not awaited.
   */
  afterQuestion?: (question: Question, helpers: AfterQuestionHelpers) => void | Promise<void>;
}

/** The filters from the options, each overridden by its environment variable when that is set. */
export function suiteFilters(options: EvalSuiteOptions, env: NodeJS.ProcessEnv = process.env): SuiteFilters {
  const fromEnv = filterFromEnv(env);
  const split = fromEnv.split ?? options.split;
  const tags = fromEnv.tags ?? options.tags;
  const ids = fromEnv.ids ?? options.ids;
  return { ...(split ? { split } : {}), ...(tags ? { tags } : {}), ...(ids ? { ids } : {}) };
}

// The filters' description lives apart, so the report layer can use it without loading datasets.
export { describeFilters, type SuiteFilters };

const checkSuite = optionsChecker<EvalSuiteOptions>(suiteSchema, validateSuite);

/** Checks the options of `evalSuite(name, options)`; errors name the suite and what to fix. */
export function checkSuiteOptions(name: unknown, options: unknown): asserts options is EvalSuiteOptions {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new TypeError('evalSuite: the first argument must be the suite name, a non-empty string.');
  }
  const where = `evalSuite(${JSON.stringify(name)})`;
  checkSuite(options, {
    code: 'INVALID_CONFIG',
    subject: `${where} option`,
    docs: 'node_modules/ai-eval/docs/suites.md',
  });
  for (const hook of ['beforeQuestion', 'afterQuestion'] as const) {
    const value = (options as Partial<EvalSuiteOptions>)[hook];
    if (value !== undefined && typeof value !== 'function')
      throw new TypeError(
        `${where}: ${hook} must be a function (question, { signal, trial }) => void or a promise.`,
      );
  }
  if (typeof (options as Partial<EvalSuiteOptions>).run !== 'function') {
    throw new TypeError(
      `${where}: run must be a function (question, { signal, trial }) => response or agent run.`,
    );
  }
  resolveTarget((options as EvalSuiteOptions).target);
}
