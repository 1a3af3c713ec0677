import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajv2020 } from '../../internal/lazy-modules.js';
import { AiEvalError } from '../../errors.js';
import type { GradingContext, ToolCall } from '../../grading/types.js';

/**
 * What a state check receives beside its params: the question (the grading context: the row and
 * the reserved keys), the agent's run (its output and its tool-call record, `undefined` when there
 * was none) and a signal aborted when the check's time runs out or the test is cancelled.
 *
 * @example
 * ```ts
 * check: async ({ id }, { signal }: StateCheckContext) => {
 *   const row = await db.get(id, { signal });
 *   return { pass: row !== undefined, reason: row ? `row ${id} exists` : `no row ${id}` };
 * },
 * ```
 */
export interface StateCheckContext {
  question: GradingContext;
  run: { output: string; record: ToolCall[] | undefined };
  signal: AbortSignal;
}

/**
 * What a state check returns: whether the assertion holds and why, in a few words.
 *
 * @example
 * ```ts
 * const outcome: StateCheckResult = { pass: false, reason: 'node 7 has title "Draft", expected "Launch"' };
 * ```
 */
export interface StateCheckResult {
  pass: boolean;
  reason: string;
}

/**
 * The assertion function of a state check kind: queries the system under test directly (its
 * database, its API, its files) and says whether the state is as `params` says it must be.
 *
 * @example
 * ```ts
 * const check: StateCheckFn = ({ title }, { signal }) =>
 *   store.find(String(title), { signal }).then((row) => ({ pass: row !== undefined, reason: row ? 'found' : 'missing' }));
 * ```
 */
export type StateCheckFn = (
  params: Record<string, unknown>,
  ctx: StateCheckContext,
) => StateCheckResult | Promise<StateCheckResult>;

/**
 * What {@link defineStateCheck} takes beside the kind: the JSON Schema (draft 2020-12) of the
 * assertion's params (every key of the assertion except `id` and `kind`), the check, and how long
 * one check may take (default 10 s).
 *
 * @example
 * ```ts
 * const definition: StateCheckDefinition = {
 *   schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
 *   check: ({ id }) => ({ pass: store.has(Number(id)), reason: `node ${String(id)}` }),
 *   timeoutMs: 2000,
 * };
 * ```
 */
export interface StateCheckDefinition {
  schema: Record<string, unknown> | boolean;
  check: StateCheckFn;
  timeoutMs?: number;
}

/**
 * A state check kind, defined: its kind, its params schema (compiled once) and its check.
 *
 * @example
 * ```ts
 * const kind: StateCheck = defineStateCheck('node_exists', { schema, check });
 * kind.paramsProblem({ id: 'x' }); // '/id must be integer'
 * ```
 */
export interface StateCheck {
  readonly kind: string;
  readonly schema: Record<string, unknown> | boolean;
  readonly check: StateCheckFn;
  readonly timeoutMs: number;
  /** Why `params` do not match the schema (the first three problems), or undefined when they do. */
  paramsProblem(params: unknown): string | undefined;
}

/** The longest a state check may take by default, in milliseconds. */
export const DEFAULT_STATE_CHECK_TIMEOUT_MS = 10_000;

const KIND = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const KEY = Symbol.for('ai-eval.state-checks');

function registry(): Map<string, StateCheck> {
  const holder = globalThis as { [KEY]?: Map<string, StateCheck> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/**
 * Builds a state check kind without registering it (what `defineStateGrader` keeps privately).
 * Throws an `AiEvalError` (`INVALID_CHECK`) for a kind that is not snake_case, a schema that does
 * not compile, a check that is not a function or a timeout that is not a positive number.
 *
 * @example
 * ```ts
 * const kind = createStateCheck('node_exists', { schema: { type: 'object' }, check: () => ({ pass: true, reason: 'ok' }) });
 * ```
 */
export function createStateCheck(kind: string, definition: StateCheckDefinition): StateCheck {
  const where = `defineStateCheck(${JSON.stringify(kind)})`;
  if (typeof kind !== 'string' || !KIND.test(kind)) {
    throw new AiEvalError(
      'INVALID_CHECK',
      `${where}: the kind must be snake_case (lowercase letters, digits and single underscores), for example 'node_exists'.`,
    );
  }
  if (typeof definition !== 'object' || definition === null || typeof definition.check !== 'function') {
    throw new AiEvalError(
      'INVALID_CHECK',
      `${where}: pass { schema, check }, with check a function (params, ctx) => { pass, reason }.`,
    );
  }
  const timeoutMs = definition.timeoutMs ?? DEFAULT_STATE_CHECK_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new AiEvalError(
      'INVALID_CHECK',
      `${where}: timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}.`,
    );
  }
  const validate = compileParamsSchema(definition.schema, where);
  return Object.freeze({
    kind,
    schema: definition.schema,
    check: definition.check,
    timeoutMs,
    paramsProblem: (params: unknown) => schemaProblem(validate, params),
  });
}

/**
 * Defines and registers a state check kind: `check(params, ctx)` queries the system under test
 * and returns `{ pass, reason }`. Its `schema` checks each assertion's params (the assertion's keys
 * other than `id` and `kind`): when a dataset is loaded, and again before the check runs. A kind
 * taken by a different definition is refused (`DUPLICATE_CHECK`); defining the same one again (an
 * ESM and a CJS copy, a re-imported setup file) replaces it.
 *
 * @example
 * ```ts
 * defineStateCheck('node_title', {
 *   schema: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer' }, title: { type: 'string' } } },
 *   check: async ({ id, title }, { signal }) => {
 *     const node = await cms.getNode(Number(id), { signal });
 *     return node?.title === title
 *       ? { pass: true, reason: `node ${id} is titled "${title}"` }
 *       : { pass: false, reason: `node ${id} is titled ${JSON.stringify(node?.title)}, expected "${title}"` };
 *   },
 * });
 * ```
 */
export function defineStateCheck(kind: string, definition: StateCheckDefinition): StateCheck {
  const created = createStateCheck(kind, definition);
  const existing = registry().get(kind);
  if (existing && !sameStateCheck(existing, created)) {
    throw new AiEvalError(
      'DUPLICATE_CHECK',
      `defineStateCheck(${JSON.stringify(kind)}): a different state check is already registered under this kind. Pick another kind, or call unregisterStateCheck('${kind}') first.`,
    );
  }
  registry().set(kind, created);
  return created;
}

/**
 * Removes a registered state check kind. Returns whether one was removed.
 *
 * @example
 * ```ts
 * unregisterStateCheck('node_title');
 * ```
 */
export function unregisterStateCheck(kind: string): boolean {
  return registry().delete(kind);
}

/**
 * The registered state check of a kind, or undefined.
 *
 * @example
 * ```ts
 * getStateCheck('node_title')?.timeoutMs; // 10000
 * ```
 */
export function getStateCheck(kind: string): StateCheck | undefined {
  return registry().get(kind);
}

/**
 * Every registered state check kind, in registration order.
 *
 * @example
 * ```ts
 * listStateChecks().map((c) => c.kind); // ['node_title', ...]
 * ```
 */
export function listStateChecks(): StateCheck[] {
  return [...registry().values()];
}

function sameStateCheck(a: StateCheck, b: StateCheck): boolean {
  return (
    a.check.toString() === b.check.toString() &&
    JSON.stringify(a.schema) === JSON.stringify(b.schema) &&
    a.timeoutMs === b.timeoutMs
  );
}

/**
 * Compiles a params JSON Schema (draft 2020-12), or throws an `INVALID_CHECK` error naming `where`.
 *
 * @example
 * ```ts
 * const validate = compileParamsSchema({ type: 'object' }, 'defineCheckExecutor("word_count")');
 * ```
 */
export function compileParamsSchema(schema: unknown, where: string): ValidateFunction {
  if (
    typeof schema !== 'boolean' &&
    (typeof schema !== 'object' || schema === null || Array.isArray(schema))
  ) {
    throw new AiEvalError(
      'INVALID_CHECK',
      `${where}: schema must be a JSON Schema object (or true), got ${schema === null ? 'null' : typeof schema}.`,
    );
  }
  try {
    return new (ajv2020())({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
  } catch (error) {
    throw new AiEvalError(
      'INVALID_CHECK',
      `${where}: schema is not a valid JSON Schema (draft 2020-12): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/**
 * The first problems a compiled schema finds in a value, as one line, or undefined when it is valid.
 *
 * @example
 * ```ts
 * schemaProblem(validate, { id: 'x' }); // '/id must be integer'
 * ```
 */
export function schemaProblem(validate: ValidateFunction, value: unknown): string | undefined {
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => {
      const extra =
        e.keyword === 'additionalProperties'
          ? ` '${String((e.params as { additionalProperty?: unknown }).additionalProperty)}'`
          : '';
      return `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${extra}`;
    })
    .join('; ');
}
