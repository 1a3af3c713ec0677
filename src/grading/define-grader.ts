import { AiEvalError } from '../errors.js';
import { markSafeReason, safeReason } from '../internal/reason.js';
import { scaleLabel, toComposite } from './scale.js';
import type { GradeResult, GradingContext } from './types.js';

/**
 * Builds a {@link GradeResult} stamped with the grader's id and declared scale.
 *
 * @example
 * ```ts
 * const grade: GradeFn = (_input, response, _context, { result }: { result: ResultFactory }) =>
 *   response.includes('sorry') ? result(0, 'apologised instead of answering') : result(1, 'answered');
 * ```
 */
export type ResultFactory = (score: number | null, reason: string, error?: boolean) => GradeResult;

/**
 * The helpers a grader's `grade` receives as its fourth argument.
 *
 * @example
 * ```ts
 * grade: async (input, response, context, { result, signal }: GradeHelpers) => {
 *   const facts = await lookUp(input, { signal });
 *   return result(facts.every((f) => response.includes(f)) ? 5 : 2, 'facts checked');
 * },
 * ```
 */
export interface GradeHelpers {
  /**
   * `result(score, reason)` scores; `result(null, reason)` skips (not applicable);
   * `result(null, reason, true)` errors (could not grade). The score is clamped into the scale; a
   * non-finite score is an error, not a clamp.
   */
  result: ResultFactory;
  /** Aborted when the test times out or is cancelled. */
  signal?: AbortSignal;
  /** The trial number (1-based) when a question runs several times. */
  trial?: number;
}

/**
 * The grading function of a grader.
 *
 * @example
 * ```ts
 * const grade: GradeFn = (_input, _response, context, { result }) =>
 *   context.tool_calls === undefined
 *     ? result(null, 'no tool-call record available, cannot check', true)
 *     : result(context.tool_calls.length > 0 ? 1 : 0, `${context.tool_calls.length} calls`);
 * ```
 */
export type GradeFn = (
  input: string,
  response: string,
  context: GradingContext,
  helpers: GradeHelpers,
) => GradeResult | Promise<GradeResult>;

/**
 * What {@link defineGrader} takes: the attribute set of an ai_eval grader plus `grade`.
 *
 * @example
 * ```ts
 * const options: GraderOptions = {
 *   id: 'no_refunds_issued',
 *   label: 'No refunds issued',
 *   maxScore: 1,
 *   observesActions: true,
 *   grade: (_i, _r, context, { result }) => result(context.tool_calls?.length === 0 ? 1 : 0, 'checked'),
 * };
 * registerGrader(defineGrader(options));
 * ```
 */
export interface GraderOptions {
  /** A stable snake_case id; targets, datasets and reports store it. */
  id: string;
  /** A human-readable name. */
  label: string;
  /** What the grader measures, when to use it and when not. */
  description?: string;
  /** The grader scores by asking a model. Default `false`. */
  llm?: boolean;
  /** The lowest score the grader can produce. Default 0. */
  minScore?: number;
  /** The highest score the grader can produce. Default 5. */
  maxScore?: number;
  /** An LLM judge is shown the tool-call record. Only with `llm: true`. Default `false`. */
  seesToolCalls?: boolean;
  /**
   * The verdict rests on what the agent did, not on what it wrote. A grader that declares it must
   * read the tool-call record (or query real state) and degrade honestly without one: error, or
   * score from the fallback and say so with `no tool-call record available` in the reason. A score
   * without a record and without that marker is reported as unverified. Never with `llm: true`.
   * Default `false`.
   */
  observesActions?: boolean;
  grade: GradeFn;
}

/**
 * A grader: its resolved attributes and its grading function.
 *
 * @example
 * ```ts
 * const grader: Grader = getGrader('read_only_run');
 * grader.displayLabel; // 'Read-only run (binary, 0-1)'
 * grader.observesActions; // true
 * ```
 */
export interface Grader {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly llm: boolean;
  readonly minScore: number;
  readonly maxScore: number;
  readonly seesToolCalls: boolean;
  readonly observesActions: boolean;
  /** The label followed by the scale, for example `Read-only run (binary, 0-1)`. */
  readonly displayLabel: string;
  readonly grade: GradeFn;
  /** Builds results stamped with this grader's id and scale. */
  readonly result: ResultFactory;
}

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * The rule an LLM judge that declares `observesActions` breaks, in the words of ai_eval's grader
 * guide ("What declaring observes_actions commits you to").
 *
 * @example
 * ```ts
 * error.message.includes(JUDGE_OBSERVES_ACTIONS_RULE); // true for a refused judge
 * ```
 */
export const JUDGE_OBSERVES_ACTIONS_RULE =
  'An LLM judge shown the tool record is not the same claim. It still forms its verdict out of prose, so it declares sees_tool_calls and not observes_actions.';

/**
 * The error for an LLM judge that declares `observesActions`, naming `where` it was declared.
 *
 * @example
 * ```ts
 * if (options.llm && options.observesActions) throw judgeObservesActionsError('defineGrader("my_judge")');
 * ```
 */
export function judgeObservesActionsError(where: string): AiEvalError {
  return new AiEvalError(
    'INVALID_GRADER',
    `${where}: an LLM judge cannot declare observesActions. "${JUDGE_OBSERVES_ACTIONS_RULE}" Declare seesToolCalls: true to show the judge the record, and score what the agent did with a deterministic grader that reads it (read_only_run, tool_usage_grader).`,
  );
}

/**
 * Defines a grader. The attributes are validated here, so a malformed grader fails at import time
 * with an {@link AiEvalError} rather than mid-run.
 *
 * @example
 * ```ts
 * export const politeReply = defineGrader({
 *   id: 'polite_reply',
 *   label: 'Polite reply',
 *   minScore: 0,
 *   maxScore: 1,
 *   grade: (_input, response, _context, { result }) =>
 *     /please|thank/i.test(response) ? result(1, 'polite wording found') : result(0, 'no polite wording'),
 * });
 * ```
 */
export function defineGrader(options: GraderOptions): Grader {
  const { id, label } = options;
  const where = `defineGrader(${JSON.stringify(id)})`;
  if (typeof id !== 'string' || !SNAKE_CASE.test(id)) {
    throw new AiEvalError(
      'INVALID_GRADER',
      `${where}: the id must be snake_case (lowercase letters, digits and single underscores, starting with a letter), for example 'read_only_run'.`,
    );
  }
  if (typeof label !== 'string' || label.trim() === '') {
    throw new AiEvalError('INVALID_GRADER', `${where}: label must be a non-empty string.`);
  }
  if (typeof options.grade !== 'function') {
    throw new AiEvalError('INVALID_GRADER', `${where}: grade must be a function.`);
  }
  const minScore = options.minScore ?? 0;
  const maxScore = options.maxScore ?? 5;
  if (!Number.isFinite(minScore) || !Number.isFinite(maxScore) || minScore >= maxScore) {
    throw new AiEvalError(
      'INVALID_GRADER',
      `${where}: minScore (${minScore}) must be a finite number below maxScore (${maxScore}).`,
    );
  }
  const llm = options.llm ?? false;
  const seesToolCalls = options.seesToolCalls ?? false;
  if (seesToolCalls && !llm) {
    throw new AiEvalError(
      'INVALID_GRADER',
      `${where}: seesToolCalls only applies to LLM judges; set llm: true or drop seesToolCalls (a deterministic grader that reads the record declares observesActions).`,
    );
  }
  if (llm && options.observesActions === true) throw judgeObservesActionsError(where);
  const result = createResultFactory(id, minScore, maxScore);
  return Object.freeze({
    id,
    label,
    description: options.description ?? '',
    llm,
    minScore,
    maxScore,
    seesToolCalls,
    observesActions: options.observesActions ?? false,
    displayLabel: scaleLabel(label, minScore, maxScore),
    grade: options.grade,
    result,
  });
}

/**
 * Makes the `result` helper for a grader id and scale. The reason is redacted (secrets under
 * secret-looking keys, credentials, key-shaped strings) and capped at 2,000 characters.
 *
 * @example
 * ```ts
 * const result = createResultFactory('my_grader', 0, 1);
 * result(1, 'ok').composite; // 5
 * ```
 */
export function createResultFactory(grader: string, min: number, max: number): ResultFactory {
  const factory: ResultFactory = (score, reason, error = false) =>
    buildResult(grader, min, max, score, reason, error, false);
  SAFE_FACTORIES.set(factory, (score, reason, error = false) =>
    buildResult(grader, min, max, score, reason, error, true),
  );
  return factory;
}

/**
 * For each `result` helper made by {@link createResultFactory}: the same helper for a reason that is
 * safe already (redacted and capped), which it keeps as it is.
 */
const SAFE_FACTORIES = new WeakMap<ResultFactory, ResultFactory>();

/**
 * `grader.result(score, reason, error)` for a reason made safe already (a grade its own `result`
 * built, restamped): the reason is not redacted again. A grader whose `result` was not made by
 * {@link createResultFactory} is asked through its own `result`.
 *
 * @example
 * ```ts
 * const stamped = hasSafeReason(grade) ? resultOfSafeReason(grader, grade.score, grade.reason, grade.error) : grader.result(grade.score, grade.reason, grade.error);
 * ```
 */
export function resultOfSafeReason(
  grader: Pick<Grader, 'result'>,
  score: number | null,
  reason: string,
  error: boolean,
): GradeResult {
  const safe = SAFE_FACTORIES.get(grader.result);
  return safe !== undefined ? safe(score, reason, error) : grader.result(score, reason, error);
}

function buildResult(
  grader: string,
  min: number,
  max: number,
  score: number | null,
  reason: string,
  error: boolean,
  safe: boolean,
): GradeResult {
  if (score !== null && !Number.isFinite(score)) {
    return markSafeReason({
      grader,
      score: null,
      min,
      max,
      composite: null,
      reason: safeReason(`grader returned a non-finite score (${String(score)}): ${reason}`),
      error: true,
      skipped: false,
    });
  }
  // An error never carries a score: a grader that could not do its job scored nothing.
  const clamped = score === null || error ? null : Math.min(max, Math.max(min, score));
  return markSafeReason({
    grader,
    score: clamped,
    min,
    max,
    composite: toComposite(clamped, min, max),
    // Every grade's reason, and so every record, report and failure message, is redacted and capped
    // here (once: a restamped grade keeps the reason made safe when it was built).
    reason: safe ? reason : safeReason(reason),
    error,
    skipped: clamped === null && !error,
  });
}
