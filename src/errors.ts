/**
 * The codes an {@link AiEvalError} can carry. Each names one kind of failure so that callers can
 * branch on `error.code` instead of parsing messages.
 *
 * @example
 * ```ts
 * ERROR_CODES.UNKNOWN_GRADER; // 'no grader is registered under that id'
 * ```
 */
export const ERROR_CODES = {
  INVALID_GRADER: 'the grader definition is malformed',
  UNKNOWN_GRADER: 'no grader is registered under that id',
  DUPLICATE_GRADER: 'a different grader is already registered under that id',
  INVALID_TOOL_CALLS: 'the tool-call record has a shape no adapter recognises',
  INVALID_TOOL_CATALOG: 'the tool catalog has a shape no adapter recognises',
  INVALID_RESPONSE: 'the value to grade is neither a string nor an agent run',
  INVALID_TARGET: 'the target definition is malformed',
  INVALID_CONFIG: 'a configuration value is malformed',
  INVALID_DATASET: 'the dataset document does not match the schema',
  DATASET_SOURCE: 'a dataset source could not load or write',
  INVALID_TEMPLATE: 'a judge prompt template is malformed',
  JUDGE_FAILED: 'the judge model could not produce a usable answer',
  JUDGE_CACHE_MISS: 'a replay-only judge cache has no entry for the call',
  INVALID_REPORT: 'a report file is malformed',
  MERGE_MISMATCH: 'the reports to merge are not the shards of one run gated one way',
  INVALID_RUBRIC: 'a rubric or gold-label file is malformed',
  INVALID_CHECK: 'a state check or rubric check executor definition is malformed',
  DUPLICATE_CHECK: 'a different state check or check executor is already registered under that kind',
} as const;

/**
 * One of the keys of {@link ERROR_CODES}.
 *
 * @example
 * ```ts
 * if (isAiEvalError(error) && (error.code satisfies AiEvalErrorCode) === 'INVALID_DATASET') fixTheFile();
 * ```
 */
export type AiEvalErrorCode = keyof typeof ERROR_CODES;

/**
 * The one error class of ai-eval. Every error a user sees is an `AiEvalError` with a `code`, a
 * message that says where and how to fix the problem, and the underlying `cause` when there is one.
 *
 * @example
 * ```ts
 * try {
 *   getGrader('no_such_grader');
 * } catch (error) {
 *   if (error instanceof AiEvalError && error.code === 'UNKNOWN_GRADER') console.log(error.message);
 * }
 * ```
 */
export class AiEvalError extends Error {
  /** What kind of failure this is. */
  readonly code: AiEvalErrorCode;

  constructor(code: AiEvalErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AiEvalError';
    this.code = code;
  }
}

/**
 * True when `value` is an {@link AiEvalError}, also across duplicated copies of the package (an ESM
 * and a CJS copy loaded side by side), where `instanceof` fails.
 *
 * @example
 * ```ts
 * if (isAiEvalError(error, 'INVALID_DATASET')) showDatasetProblem(error);
 * ```
 */
export function isAiEvalError(value: unknown, code?: AiEvalErrorCode): value is AiEvalError {
  if (!(value instanceof Error) || value.name !== 'AiEvalError') return false;
  return code === undefined || (value as AiEvalError).code === code;
}
