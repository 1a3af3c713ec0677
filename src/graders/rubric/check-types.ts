import type { RubricCheck } from '../../grading/rubric-types.js';
import type { GradingContext } from '../../grading/types.js';

/**
 * What a check executor receives beside the check: the response text, the input, the grading
 * context (the question row and the reserved keys) and the grading signal.
 *
 * @example
 * ```ts
 * execute: (check, { response }: CheckRun) => ({ pass: response.length <= Number(check.max), reason: `${response.length} chars` }),
 * ```
 */
export interface CheckRun {
  response: string;
  input: string;
  context: GradingContext;
  signal?: AbortSignal | undefined;
}

/**
 * What a check executor returns: whether the check passed, optionally a score from 0 to 1 for the
 * numeric combine modes (default 1 when it passed, 0 when not), the reason, and `error: true` when
 * the check could not be run at all (the rubric grade is then an error, never a score).
 *
 * @example
 * ```ts
 * const outcome: CheckOutcome = { pass: true, score: 0.8, reason: 'chrF 0.80 >= 0.60' };
 * ```
 */
export interface CheckOutcome {
  pass: boolean;
  score?: number;
  reason: string;
  error?: boolean;
}

/**
 * What {@link defineCheckExecutor} takes: the `kind` (the check `type` it brings), an optional JSON
 * Schema (draft 2020-12) for the check's params (its keys other than `type`, `id` and `weight`),
 * which rubric validation applies, `applies` (default: the check's type is the kind) and `execute`.
 *
 * @example
 * ```ts
 * const options: CheckExecutorOptions = {
 *   kind: 'max_words',
 *   schema: { type: 'object', required: ['max'], properties: { max: { type: 'integer', minimum: 1 } }, additionalProperties: false },
 *   applies: (check) => check.type === 'max_words',
 *   execute: (check, { response }) => {
 *     const words = response.split(/\s+/).filter(Boolean).length;
 *     return { pass: words <= Number(check.max), reason: `${words} words, max ${String(check.max)}` };
 *   },
 * };
 * ```
 */
export interface CheckExecutorOptions {
  kind: string;
  schema?: Record<string, unknown> | boolean;
  applies?: (check: RubricCheck) => boolean;
  execute: (check: RubricCheck, run: CheckRun) => CheckOutcome | Promise<CheckOutcome>;
}

/**
 * A check executor, defined.
 *
 * @example
 * ```ts
 * const executor: CheckExecutor = defineCheckExecutor({ kind: 'max_words', execute });
 * executor.paramsProblem({ type: 'max_words', id: 'short', max: 'ten' }); // '/max must be integer'
 * ```
 */
export interface CheckExecutor {
  readonly kind: string;
  readonly schema: Record<string, unknown> | boolean | undefined;
  readonly applies: (check: RubricCheck) => boolean;
  readonly execute: (check: RubricCheck, run: CheckRun) => CheckOutcome | Promise<CheckOutcome>;
  /** Shipped: the verdict rests on what the agent did (`tool_usage`, `state`). */
  readonly observesActions: boolean;
  /** Shipped: the verdict comes from the system's state (`state`). */
  readonly queriesState: boolean;
  /** Why the check's params do not match the schema, or undefined when they do (or there is none). */
  paramsProblem(check: RubricCheck): string | undefined;
}
