import { DEFAULT_QUESTION_TIMEOUT, getConfig } from '../config.js';
import { stacklessError } from '../internal/stackless.js';
import { redactText } from '../internal/redact.js';
import { errorMessage } from '../internal/text.js';
import { isThenable } from '../internal/thenable.js';
import { logger } from '../logger.js';
import { formatNumber } from '../internal/numbers.js';
import { judgeCriteria, loadRubric } from '../datasets/rubrics.js';
import type { Gradable, Question } from '../grading/types.js';
import { buildContext } from '../grading/context.js';
import type { Grader } from '../grading/define-grader.js';
import {
  gradeQuestionNow,
  resultOf,
  type GradeQuestionOptions,
  type QuestionResult,
} from './grade-question.js';
import type { ResolvedRubric } from '../grading/rubric-types.js';
import {
  runWithIdentity,
  sendIfRunning,
  type RunnerChannel,
  type ScopedIdentity,
  type TestIdentity,
} from './channel.js';
import { toRecords, type RecordScope } from './record.js';
import type { RecordTarget } from './record-types.js';
import type { EvalSuiteOptions } from './suite-options.js';

/** What running one question needs from the runner: who is running, its signal and the channel. */
export interface QuestionRuntime {
  identify(context: unknown, title: string): TestIdentity;
  signal(context: unknown): AbortSignal | undefined;
  channel: RunnerChannel;
}

/** Where a question's timeout came from, for the message when it passes. */
export type TimeoutSource = 'question' | 'suite' | 'configured' | 'default';

/** What one generated test knows about its question beyond the question itself. */
export interface QuestionScope {
  title: string;
  /** Milliseconds one trial may take. */
  timeout: number;
  timeoutSource: TimeoutSource;
  /** The dataset file, where the question's rubric is looked up first. */
  datasetFile: string | undefined;
  /** The dataset's ref and content hash, for the records. */
  dataset: { ref: string; hash: string } | undefined;
  /** The suite's target, resolved once for all its questions. */
  target: SuiteTarget;
}

/**
 * A suite's target as its questions use it: the graders, resolved once when the suite is defined,
 * and the record target for the pass threshold in force when a trial runs (made once per
 * threshold, and shared by every record, so it crosses to the reporter once per message).
 */
export interface SuiteTarget {
  graders: readonly Grader[];
  record(passThreshold: number): RecordTarget;
}

class QuestionTimeout extends Error {}

/**
 * The timeout of one trial of a question: `question.timeout`, else the suite's `timeout` option,
 * else `configure({ questionTimeout })`, else the default (two minutes), with where it came from.
 *
 * @example
 * ```ts
 * questionTimeout({ id: 'q1' }, { ...options, timeout: undefined }); // { timeout: 120000, source: 'default' }
 * ```
 */
export function questionTimeout(
  question: Question,
  options: EvalSuiteOptions,
): { timeout: number; source: TimeoutSource } {
  if (typeof question.timeout === 'number') return { timeout: question.timeout, source: 'question' };
  if (options.timeout !== undefined) return { timeout: options.timeout, source: 'suite' };
  const configured = getConfig().questionTimeout;
  return { timeout: configured, source: configured === DEFAULT_QUESTION_TIMEOUT ? 'default' : 'configured' };
}

function timeoutMessage(timeout: number, source: TimeoutSource): string {
  const where = {
    question: 'question.timeout',
    suite: 'the suite timeout option',
    configured: 'configure({ questionTimeout })',
    default: 'the default per-question timeout',
  }[source];
  const fix =
    source === 'question'
      ? 'raise `timeout` on the question in the dataset'
      : 'raise `timeout` in the evalSuite options (or `timeout` on the question, or `configure({ questionTimeout })` for every suite)';
  return `timed out after ${timeout} ms (${where}); the run was aborted through its signal. If the agent needs longer, ${fix}.`;
}

/**
 * Runs every trial of a question in its test, sends each trial's records, and throws why it failed
 * (every failing trial named). The generated test of `defineEvalSuite` calls it.
 *
 * @example
 * ```ts
 * runtime.test(title, (context) => runQuestion(runtime, options, question, context, scope), { concurrent: false });
 * ```
 */
export async function runQuestion(
  runtime: QuestionRuntime,
  options: EvalSuiteOptions,
  question: Question,
  context: unknown,
  scope: QuestionScope,
): Promise<void> {
  const identity = runtime.identify(context, scope.title);
  const failures: string[] = [];
  const trials = options.trials ?? 1;
  for (let trial = 1; trial <= trials; trial++) {
    // Object.assign, not spreads: the same copies, several times cheaper on Node 20, per trial.
    const scoped: ScopedIdentity = Object.assign({}, identity, { question: question.id, trial });
    const failure = await runWithIdentity(
      scoped,
      () => runTrial(runtime, options, question, scope, { identity, trial, context }),
      options.concurrent !== true,
    );
    if (failure) failures.push(trials > 1 ? `trial ${trial}: ${failure}` : failure);
  }
  // The message is the whole story: a stack into ai-eval's code would only cost (and be filtered out).
  // A failing run() may quote a credential in its error (an SDK's 401, a URL with userinfo): the
  // runner shows this message and writes it to its reports, so it is redacted as reasons are.
  if (failures.length > 0) throw stacklessError(redactText(`${question.id}: ${failures.join('\n\n')}`));
}

/** Which trial of which test: the test's identity, the 1-based trial, and the runner's test context. */
interface TrialOf {
  identity: TestIdentity;
  trial: number;
  /** The runner's test context, whose signal (Vitest's, node:test's) is looked up only when needed. */
  context: unknown;
}

/** Runs and grades one trial; returns why it failed, or undefined when it passed. */
async function runTrial(
  runtime: QuestionRuntime,
  options: EvalSuiteOptions,
  question: Question,
  scope: QuestionScope,
  { identity, trial, context }: TrialOf,
): Promise<string | undefined> {
  const { timeout, datasetFile, dataset } = scope;
  const deadline = new TrialDeadline(() => runtime.signal(context), {
    ms: timeout,
    reason: () => new QuestionTimeout(timeoutMessage(timeout, scope.timeoutSource)),
  });
  const { graders } = scope.target;
  const passThreshold = options.target.passThreshold ?? getConfig().passThreshold;
  const recordScope: Omit<RecordScope, 'identity'> = {
    target: scope.target.record(passThreshold),
    question: question.id,
    trial,
  };
  if (dataset) recordScope.dataset = dataset;
  // The signal is read through a getter: its AbortController is made only if something reads it.
  const trialContext = (): { readonly signal: AbortSignal; trial: number } => ({
    get signal(): AbortSignal {
      return deadline.signal;
    },
    trial,
  });
  // What the hooks are given (made only for a suite that has one).
  const hooks = options.beforeQuestion || options.afterQuestion ? trialContext() : undefined;
  let result: QuestionResult | undefined;
  let failure: string | undefined;
  let response: Gradable | undefined;
  let hooked = false;
  try {
    const rubric =
      typeof question.rubric_ref === 'string'
        ? loadRubric(question.rubric_ref, datasetFile ? { datasetFile } : {})
        : undefined;
    hooked = true;
    if (options.beforeQuestion) {
      await deadline.race(
        Promise.resolve().then(() => options.beforeQuestion!(question, hooks!)),
        'beforeQuestion',
        'beforeQuestion hook failed',
      );
    }
    const ran = await deadline.step(() => options.run(question, trialContext()), 'run()');
    response = ran;
    result = await deadline.step(
      () =>
        gradeQuestionNow(
          new TrialGrading(deadline, {
            question,
            response: ran,
            graders,
            target: options.target,
            trial,
            rubricCriteria: rubric ? judgeCriteria(rubric.rubric) : undefined,
            rubric,
          }),
        ),
      'grading',
    );
  } catch (error) {
    failure = errorMessage(error);
  }
  if (hooked && hooks && options.afterQuestion && deadline.aborted) {
    // Out of time: the hook still runs (to release what it holds) but is not waited for, and what
    // it says cannot change a trial that already failed.
    const after = options.afterQuestion;
    void Promise.resolve()
      .then(() => after(question, { ...hooks, ...(response !== undefined ? { response } : {}) }))
      .catch((error: unknown) =>
        logger.warn(`${question.id}: afterQuestion hook failed after the timeout: ${errorMessage(error)}`),
      );
  } else if (hooked && hooks && options.afterQuestion) {
    try {
      await deadline.race(
        Promise.resolve().then(() =>
          options.afterQuestion!(question, {
            ...hooks,
            ...(response !== undefined ? { response } : {}),
            ...(result !== undefined ? { result } : {}),
          }),
        ),
        'afterQuestion',
        'afterQuestion hook failed',
      );
    } catch (error) {
      const why = errorMessage(error);
      // The grades stand for nothing once the hook that inspects or resets the state failed: each
      // becomes an error that says so (and keeps what it had said).
      if (result !== undefined) {
        const graded = result.grades;
        result = {
          ...result,
          ...resultOf(
            graded.map((g, i) => {
              const grader = graders.find((x) => x.id === g.grader) ?? graders[i]!;
              return grader.result(null, `${why} (the grade before it: ${g.reason})`, true);
            }),
            passThreshold,
          ),
        };
      } else failure = failure === undefined ? why : `${failure}; ${why}`;
    }
  }
  // The agent answered and its grading was cut off (a judge outran the trial's timeout, or the
  // runner ended the test): the grading is to blame, not the agent. A grading that failed on its
  // own (a record of an unknown shape) says only why.
  const cutOff = response !== undefined && result === undefined && deadline.aborted;
  deadline.dispose();
  if (result === undefined) {
    const why = cutOff
      ? `the agent answered, but grading did not finish (the trial's timeout covers its grading, LLM judges included): ${failure ?? 'the question was not graded'}`
      : (failure ?? 'the question was not graded');
    // Nothing was graded, but the question still reaches the report: every grader errored on it,
    // so it counts as degraded and errored instead of vanishing from the run.
    const failed = noResponseResult(question, graders, passThreshold, why, response !== undefined);
    await sendIfRunning(
      runtime.channel,
      identity,
      toRecords(failed, graders, Object.assign({}, recordScope, { identity, response: response ?? null })),
    );
    return why;
  }
  await sendIfRunning(
    runtime.channel,
    identity,
    toRecords(result, graders, Object.assign({}, recordScope, { identity, response: response ?? null })),
  );
  return verdictFailure(result);
}

/**
 * What a trial's grading is given: the options, and the trial's signal read through a getter of
 * the class (an object literal with a getter costs several times as much to make on Node 20), so
 * its AbortController is made only if a grader reads it.
 */
class TrialGrading implements GradeQuestionOptions {
  readonly #deadline: TrialDeadline;
  question: Question;
  response: Gradable;
  graders: readonly Grader[];
  target: EvalSuiteOptions['target'];
  trial: number;
  rubricCriteria: readonly string[] | undefined;
  rubric: ResolvedRubric | undefined;

  constructor(
    deadline: TrialDeadline,
    options: Omit<GradeQuestionOptions, 'signal' | 'question' | 'graders' | 'trial'> & {
      question: Question;
      graders: readonly Grader[];
      target: EvalSuiteOptions['target'];
      trial: number;
    },
  ) {
    this.#deadline = deadline;
    this.question = options.question;
    this.response = options.response;
    this.graders = options.graders;
    this.target = options.target;
    this.trial = options.trial;
    this.rubricCriteria = options.rubricCriteria;
    this.rubric = options.rubric;
  }

  get signal(): AbortSignal {
    return this.#deadline.signal;
  }
}

/** The result of a trial whose run or grading failed: every grader errored with the cause. */
function noResponseResult(
  question: Question,
  graders: readonly Grader[],
  passThreshold: number,
  why: string,
  answered = false,
): QuestionResult {
  const reason = answered ? `no grade: ${why}` : `no response to grade: ${why}`;
  const grades = graders.map((g) => g.result(null, reason, true));
  return {
    questionId: question.id,
    ...resultOf(grades, passThreshold),
    toolCalls: undefined,
    context: buildContext(question),
  };
}

/** What the race of a trial's step rejects with when the trial is aborted. */
const ABORTED: unique symbol = Symbol('aborted');

/**
 * The signal of one trial, its timeout, and the race of each of its steps against them. Only this
 * trial aborts the signal (its timeout, or the runner's signal forwarded), so each step races a
 * promise that the abort rejects instead of adding and removing a listener on the signal for each
 * step (on Node 20 an AbortSignal listener is one of the costlier parts of a deterministic trial).
 *
 * What a trial of synchronous steps (a scripted agent, deterministic graders) never uses is never
 * made: the AbortController until something reads the signal, and the timer and the promise the
 * abort rejects until a step returns a promise. No timer can fire while the steps run without
 * waiting, so a timer armed at the first wait, for the time left, fires when one armed at the start
 * would have.
 */
class TrialDeadline {
  /** Made when something first reads the signal: most deterministic trials never do. */
  #controller: AbortController | undefined;
  #done = false;
  #reason: unknown;
  /** Rejected by the abort; made by the first race. */
  #aborted: Promise<never> | undefined;
  #reject: ((reason: typeof ABORTED) => void) | undefined;
  readonly #runner: () => AbortSignal | undefined;
  /** The runner's signal this one follows, and the listener that forwards its abort. */
  #following: { signal: AbortSignal; forward: () => void } | undefined;
  /** The trial is over: a signal first read now (by work left running) follows nothing. */
  #disposed = false;
  /** When the trial started (`performance.now()`), its timeout, and the timer once armed. */
  readonly #started: number;
  readonly #timeout: { ms: number; reason: () => unknown } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `runner` gives the runner's signal of the test. It is followed (its abort, with its reason,
   * aborts this trial) from the moment something reads this trial's signal: a step that never
   * takes the signal cannot be stopped by it anyway, and the runner ends its test on its own.
   * `timeout` aborts the trial with its `reason()` `ms` after now.
   */
  constructor(
    runner: () => AbortSignal | undefined = () => undefined,
    timeout?: { ms: number; reason: () => unknown },
  ) {
    this.#runner = runner;
    this.#timeout = timeout;
    this.#started = performance.now();
  }

  /** The trial's signal (aborted already, with its reason, when read after the abort). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#done) this.#controller.abort(this.#reason);
      this.#follow();
    }
    return this.#controller.signal;
  }

  #follow(): void {
    if (this.#disposed) return;
    const runner = this.#runner();
    if (runner === undefined || this.#done) return;
    if (runner.aborted) {
      this.abort(runner.reason);
      return;
    }
    const forward = (): void => this.abort(runner.reason);
    runner.addEventListener('abort', forward);
    this.#following = { signal: runner, forward };
  }

  /** Starts the timeout's timer, for the time left of it, unless it runs or the trial is over. */
  #arm(): void {
    if (this.#timer !== undefined || this.#timeout === undefined || this.#done || this.#disposed) return;
    const { ms, reason } = this.#timeout;
    const left = Math.max(0, ms - (performance.now() - this.#started));
    this.#timer = setTimeout(() => this.abort(reason()), left);
  }

  /** The trial is over: stop its timer and stop following the runner's signal. */
  dispose(): void {
    this.#disposed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#following?.signal.removeEventListener('abort', this.#following.forward);
    this.#following = undefined;
  }

  get aborted(): boolean {
    return this.#done;
  }

  abort(reason: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#reason = reason;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    // Rejected before the signal's listeners run: a step that settles because its listener saw
    // the abort still loses the race to the abort, and fails with its reason.
    this.#reject?.(ABORTED);
    this.#controller?.abort(reason);
  }

  /** The promise the abort rejects (made once, when a step first waits). */
  #abortion(): Promise<never> {
    if (this.#aborted === undefined) {
      this.#aborted = new Promise<never>((_resolve, reject) => {
        this.#reject = reject;
      });
      // Nothing need wait for it: a step that races it handles the rejection.
      this.#aborted.catch(() => undefined);
    }
    return this.#aborted;
  }

  /**
   * What `fn` returns: at once when it returns a value, raced against the trial's abort when it
   * returns a promise (see {@link race}); a throw of `fn` is the step's failure. A step the trial
   * is aborted before does not start, and one it was aborted during (`fn` read the signal of a
   * runner that had aborted already) fails with the abort's reason, whatever it returned.
   */
  step<T>(fn: () => T | PromiseLike<T>, what: string): T | Promise<Awaited<T>> {
    if (this.#done) return Promise.reject(abortReason(this.#reason, what));
    let value: T | PromiseLike<T>;
    let pending: boolean;
    try {
      value = fn();
      pending = isThenable(value);
    } catch (error) {
      return Promise.reject(stepError(error, what));
    }
    if (pending) return this.race(Promise.resolve(value), what);
    if (this.#done) return Promise.reject(abortReason(this.#reason, what));
    return value as T;
  }

  /** `promise`, unless the trial is aborted first: then why, as the step `what` says it. */
  race<T>(promise: Promise<T>, what: string, prefix?: string): Promise<T> {
    const label = (error: Error): Error =>
      prefix ? new Error(`${prefix}: ${error.message}`, { cause: error }) : error;
    if (this.#done) {
      // The step may still settle; what it says no longer matters.
      promise.catch(() => undefined);
      return Promise.reject(label(abortReason(this.#reason, what)));
    }
    this.#arm();
    return Promise.race([promise, this.#abortion()]).then(undefined, (error: unknown) => {
      throw error === ABORTED ? label(abortReason(this.#reason, what)) : label(stepError(error, what));
    });
  }
}

/** What a step that failed with `error` fails with: the error itself, or one that says what it was. */
function stepError(error: unknown, what: string): Error {
  return error instanceof Error ? error : new Error(`${what} failed: ${String(error)}`);
}

function abortReason(reason: unknown, what: string): Error {
  if (reason instanceof QuestionTimeout) return reason;
  return new Error(`${what} was aborted: ${reason instanceof Error ? reason.message : String(reason)}`);
}

/**
 * Why a graded question fails (below the threshold, unscored or degraded), or undefined.
 *
 * @example
 * ```ts
 * const why = verdictFailure(await gradeQuestion({ question, response, graders }));
 * if (why) throw new Error(`${question.id}: ${why}`);
 * ```
 */
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
