import { getConfig } from '../config.js';
import { isAiEvalError } from '../errors.js';
import type { Grader } from '../grading/define-grader.js';
import { getGrader, hasGrader, listGraders, type GraderId } from '../registry/graders.js';
import { gradeQuestion } from './grade-question.js';
import { resolveTarget, type Target } from './target.js';
import type { Gradable, Question } from '../grading/types.js';
import { questionVerdict } from '../grading/verdict.js';
import { describeValue } from '../internal/text.js';
import { isThenable } from '../internal/thenable.js';
import { optionsChecker } from '../internal/options-check.js';
import { matcherSchema } from './option-schemas.js';
import { matcher as validateMatcher } from './option-validators.generated.js';
import { scopedIdentity, sendIfRunning, type RunnerChannel } from './channel.js';
import { gradeMessage } from './message.js';
import { matcherTargetRecord, toRecords } from './record.js';

/**
 * A grader as the matchers take it: a registered id or a grader object.
 *
 * @example
 * ```ts
 * const byId: GraderRef = 'read_only_run';
 * const byObject: GraderRef = defineGrader({ id: 'polite_reply', label: 'Polite reply', grade });
 * ```
 */
export type GraderRef = GraderId | Grader;

/**
 * Options of `toPassGrader` and `toScoreAtLeast`.
 *
 * @example
 * ```ts
 * const options: GradeMatcherOptions = {
 *   question: { id: 'list-articles', expected_tools: ['list_nodes'] },
 *   threshold: 4,
 *   target: 'support-bot',
 * };
 * await expect(run).toPassGrader('tool_usage_grader', options);
 * ```
 */
export interface GradeMatcherOptions {
  /** The dataset row, or the parts of it the grader reads (`expected_tools`, `criteria`, ...). */
  question?: Partial<Question>;
  /** A tool-call record for a plain-string response (any shape the record adapters accept). */
  toolCalls?: unknown;
  /**
   * The input text the response answers, used only when `question` has neither `input` nor
   * `messages` (the question's own input wins). Graders see it as their `input` argument and as one
   * user message in `context.messages`.
   */
  input?: string;
  /** The composite (0 to 5) the grade needs. Default: the target's, then the configured, 3.5. */
  threshold?: number;
  /**
   * The target the report files this grade under: a {@link Target}, or just its name. A name alone
   * gives mode `agent` for an agent run and `chat` for a plain string, graded by this grader only.
   */
  target?: Target | string;
}

/** The parts of a runner's matcher `this` the ai-eval matchers read (Vitest and Jest have them). */
export interface MatcherStateLike {
  isNot?: boolean;
  promise?: string;
  utils?: {
    matcherHint?: (name: string, received?: string, expected?: string, options?: object) => string;
  };
}

/** What a matcher returns to the runner. */
export interface MatcherOutcome {
  pass: boolean;
  message: () => string;
}

/** One matcher call, checked. */
export interface MatcherCall {
  name: 'toPassGrader' | 'toScoreAtLeast';
  /** How the expected arguments read in the hint, for example `grader, score`. */
  expected: string;
  grader: Grader;
  threshold: number;
  options: GradeMatcherOptions;
}

function isGrader(value: unknown): value is Grader {
  if (typeof value !== 'object' || value === null) return false;
  const g = value as Partial<Grader>;
  return typeof g.id === 'string' && typeof g.grade === 'function' && typeof g.result === 'function';
}

/** Resolves the grader argument or throws a TypeError naming the matcher. */
export function checkGrader(matcher: string, ref: GraderRef): Grader {
  if (typeof ref === 'string') {
    if (hasGrader(ref)) return getGrader(ref);
    const known = listGraders().map((g) => g.id);
    throw new TypeError(
      `${matcher}: unknown grader '${ref}'. Known graders: ${known.join(', ')}. Register yours with registerGrader(defineGrader({ id: '${ref}', ... })) before the assertion, or pass the grader object.`,
    );
  }
  if (isGrader(ref)) return ref;
  throw new TypeError(
    `${matcher}: the grader must be a registered grader id or a grader made with defineGrader(), got ${describeValue(ref)}.`,
  );
}

/** Throws a TypeError naming the matcher unless `received` is a string or an agent run. */
export function checkReceived(matcher: string, received: unknown): void {
  if (typeof received === 'string') return;
  if (
    typeof received === 'object' &&
    received !== null &&
    typeof (received as { output?: unknown }).output === 'string'
  )
    return;
  const what = isThenable(received)
    ? `a promise: await the run first (\`const run = await agent(...)\`), or write \`await expect(promise).resolves.${matcher}(...)\``
    : describeValue(received);
  throw new TypeError(
    `${matcher}: expected a response string or an agent run { output: string, toolCalls?, messages? }, received ${what}.`,
  );
}

/** Throws a TypeError naming the matcher unless `value` is a composite from 0 to 5. */
export function checkThreshold(matcher: string, what: string, value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 5) return value;
  throw new TypeError(
    `${matcher}: ${what} must be a composite from 0 to 5, got ${JSON.stringify(value) ?? String(value)}.`,
  );
}

const checkMatcherOptions = optionsChecker<GradeMatcherOptions>(matcherSchema, validateMatcher);

/** Checks the options object and its target; throws a TypeError naming the matcher. */
export function checkOptions(matcher: string, options: unknown): GradeMatcherOptions {
  if (options === undefined) return {};
  try {
    checkMatcherOptions(options, { code: 'INVALID_CONFIG', subject: `${matcher}:` }, 'options');
    const { target } = options as GradeMatcherOptions;
    if (target !== undefined && typeof target !== 'string') resolveTarget(target);
  } catch (error) {
    if (!isAiEvalError(error)) throw error;
    throw new TypeError(
      error.message.startsWith(matcher)
        ? error.message
        : `${matcher}: options.target is invalid: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  return options as GradeMatcherOptions;
}

/**
 * Grades `received` with the call's grader through `gradeQuestion`, sends the record to the
 * reporter and decides. A real verdict returns `pass` as graded and lets the runner apply `.not`;
 * a skip or an error is no verdict at all, so it fails whether or not the assertion is negated.
 */
export async function runGradeMatcher(
  state: MatcherStateLike,
  channel: RunnerChannel,
  received: unknown,
  call: MatcherCall,
): Promise<MatcherOutcome> {
  const { grader, threshold, options } = call;
  const runner = channel.identify(state);
  const scoped = scopedIdentity(runner);
  const identity = scoped ?? runner;
  const result = await gradeQuestion({
    question: options.question ?? {},
    response: received as string,
    graders: [grader],
    toolCalls: options.toolCalls,
    input: options.input,
    target: {
      passThreshold: threshold,
      responseCharLimit: typeof options.target === 'object' ? options.target.responseCharLimit : undefined,
    },
  });
  if (identity) {
    const records = toRecords(result, [grader], {
      identity,
      target: matcherTargetRecord(options.target, grader, received, threshold),
      question: options.question?.id ?? scoped?.question ?? identity.title,
      trial: scoped?.trial ?? 1,
      negated: state.isNot === true,
      response: received as Gradable,
    });
    await sendIfRunning(channel, identity, records);
  }
  const grade = result.grades[0];
  if (!grade) throw new Error(`${call.name}: gradeQuestion returned no grade for '${grader.id}'.`);
  const isNot = state.isNot === true;
  const hint =
    state.utils?.matcherHint?.(call.name, 'received', call.expected, {
      isNot,
      promise: state.promise ?? '',
    }) ?? `expect(received)${isNot ? '.not' : ''}.${call.name}(${call.expected})`;
  const message = (): string => gradeMessage({ hint, label: grader.displayLabel, grade, threshold, isNot });
  const verdict = questionVerdict([grade], threshold);
  // No verdict: fail under .not too, since the runner inverts `pass` for negated assertions.
  if (verdict.unscored || verdict.degraded) return { pass: isNot, message };
  return { pass: verdict.passed, message };
}

/** The threshold of `toPassGrader`: the option, then the target's, then the configured one. */
export function defaultThreshold(options: GradeMatcherOptions): number | undefined {
  if (options.threshold !== undefined) return options.threshold;
  if (typeof options.target === 'object' && options.target.passThreshold !== undefined)
    return options.target.passThreshold;
  return getConfig().passThreshold;
}
