import { AiEvalError } from '../../errors.js';
import type { RubricCheck } from '../../grading/rubric-types.js';
import { compileParamsSchema, schemaProblem } from '../state/state-checks.js';
import type { CheckExecutor, CheckExecutorOptions } from './check-types.js';
import { checkParams, SHIPPED_CHECK_KINDS, SHIPPED_EXECUTORS } from './shipped-executors.js';

const KIND = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const KEY = Symbol.for('ai-eval.check-executors');

function registry(): Map<string, CheckExecutor> {
  const holder = globalThis as { [KEY]?: Map<string, CheckExecutor> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/**
 * Defines and registers a rubric check executor for a new check `kind`. `applies(check)` says
 * whether it runs a check (default: the check's `type` is the kind); `execute(check, run)` returns
 * `{ pass, score?, reason, error? }`. The `schema`, when given, checks each check's params (its keys
 * other than `type`, `id` and `weight`) when a rubric is validated (`ai-eval validate`, loading).
 * A kind ai-eval ships is refused, and so is a kind taken by a different executor
 * (`DUPLICATE_CHECK`); defining the same one again replaces it.
 *
 * @example
 * ```ts
 * defineCheckExecutor({
 *   kind: 'max_words',
 *   schema: { type: 'object', required: ['max'], properties: { max: { type: 'integer', minimum: 1 } }, additionalProperties: false },
 *   applies: (check) => check.type === 'max_words',
 *   execute: (check, { response }) => {
 *     const words = response.split(/\s+/).filter(Boolean).length;
 *     return { pass: words <= Number(check.max), reason: `${words} words, max ${String(check.max)}` };
 *   },
 * });
 * ```
 */
export function defineCheckExecutor(options: CheckExecutorOptions): CheckExecutor {
  const kind = (options as Partial<CheckExecutorOptions> | undefined)?.kind;
  const where = `defineCheckExecutor(${JSON.stringify(kind)})`;
  if (typeof kind !== 'string' || !KIND.test(kind)) {
    throw new AiEvalError(
      'INVALID_CHECK',
      `${where}: kind must be snake_case (lowercase letters, digits and single underscores), for example 'max_words'.`,
    );
  }
  if (SHIPPED_CHECK_KINDS.includes(kind)) {
    throw new AiEvalError(
      'DUPLICATE_CHECK',
      `${where}: '${kind}' is a check kind ai-eval ships (${SHIPPED_CHECK_KINDS.join(', ')}). Pick another kind for your executor.`,
    );
  }
  if (typeof options.execute !== 'function') {
    throw new AiEvalError(
      'INVALID_CHECK',
      `${where}: execute must be a function (check, run) => { pass, reason }.`,
    );
  }
  if (options.applies !== undefined && typeof options.applies !== 'function') {
    throw new AiEvalError('INVALID_CHECK', `${where}: applies must be a function (check) => boolean.`);
  }
  const validate = options.schema === undefined ? undefined : compileParamsSchema(options.schema, where);
  const executor: CheckExecutor = Object.freeze({
    kind,
    schema: options.schema,
    applies: options.applies ?? ((check: RubricCheck) => check.type === kind),
    execute: options.execute,
    observesActions: false,
    queriesState: false,
    paramsProblem: (check: RubricCheck) =>
      validate ? schemaProblem(validate, checkParams(check)) : undefined,
  });
  const existing = registry().get(kind);
  if (existing && !sameExecutor(existing, executor)) {
    throw new AiEvalError(
      'DUPLICATE_CHECK',
      `${where}: a different check executor is already registered for '${kind}'. Pick another kind, or call unregisterCheckExecutor('${kind}') first.`,
    );
  }
  registry().set(kind, executor);
  return executor;
}

function sameExecutor(a: CheckExecutor, b: CheckExecutor): boolean {
  return (
    a.execute.toString() === b.execute.toString() &&
    a.applies.toString() === b.applies.toString() &&
    JSON.stringify(a.schema) === JSON.stringify(b.schema)
  );
}

/**
 * Removes a registered check executor. Returns whether one was removed.
 *
 * @example
 * ```ts
 * unregisterCheckExecutor('max_words');
 * ```
 */
export function unregisterCheckExecutor(kind: string): boolean {
  return registry().delete(kind);
}

/**
 * Every check executor, in the order they are tried: the shipped ones, then yours in registration
 * order.
 *
 * @example
 * ```ts
 * listCheckExecutors().map((e) => e.kind);
 * ```
 */
export function listCheckExecutors(): CheckExecutor[] {
  return [...SHIPPED_EXECUTORS, ...registry().values()];
}

/**
 * The executor a check runs with: the first whose `applies` accepts it. `llm_judge` checks have
 * none (their criteria go to the judges), and an `applies` that throws does not claim the check.
 *
 * @example
 * ```ts
 * findExecutor({ type: 'regex', id: 'ticket', pattern: '#\\d+' })?.kind; // 'regex'
 * ```
 */
export function findExecutor(check: RubricCheck): CheckExecutor | undefined {
  if (check.type === 'llm_judge') return undefined;
  return listCheckExecutors().find((executor) => {
    try {
      return executor.applies(check) === true;
    } catch {
      return false;
    }
  });
}

/**
 * The registered (not shipped) executor whose kind is a check's type, for rubric validation.
 *
 * @example
 * ```ts
 * registeredExecutor('max_words')?.paramsProblem(check);
 * ```
 */
export function registeredExecutor(kind: string): CheckExecutor | undefined {
  return registry().get(kind);
}
