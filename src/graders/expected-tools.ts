import { backsWork } from '../grading/tool-calls.js';
import type { ToolCall } from '../grading/types.js';

/** One `expected_tools` entry, checked and normalised. */
export interface ToolExpectation {
  /** Position in `expected_tools`, for reasons. */
  index: number;
  name: string;
  args?: Record<string, unknown>;
  after?: string;
  times?: number;
  /** Only calls that did not fail and were answered (`status` neither `error` nor `unknown`) count. */
  succeeded?: boolean;
  /** Missing this entry scores the whole grade 0. */
  critical?: boolean;
}

const KEYS = new Set(['name', 'args', 'after', 'times', 'succeeded', 'critical']);
const SHAPE = '{ name, args?, after?, times?, succeeded?, critical? }';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks `expected_tools` and normalises every entry. Returns the expectations, or the list of
 * problems (each naming the index and what is wrong) when any entry is malformed.
 *
 * @example
 * ```ts
 * parseExpectedTools(['search', { name: 'save_node', after: 'search' }]);
 * // { ok: true, expectations: [{ index: 0, name: 'search' }, { index: 1, name: 'save_node', after: 'search' }] }
 * ```
 */
export function parseExpectedTools(
  value: unknown,
): { ok: true; expectations: ToolExpectation[] } | { ok: false; problems: string[] } {
  if (!Array.isArray(value)) {
    return { ok: false, problems: [`expected_tools must be a list, got ${kind(value)}`] };
  }
  if (value.length === 0) {
    return {
      ok: false,
      problems: [
        'expected_tools is an empty list: name at least one tool, or remove the key (to require that a tool is never called, use { name, times: 0 })',
      ],
    };
  }
  const problems: string[] = [];
  const expectations: ToolExpectation[] = [];
  // A loop, not forEach with a closure: this runs for every grade of every question.
  for (let index = 0; index < value.length; index++) {
    const entry: unknown = value[index];
    if (typeof entry === 'string') {
      const name = entry.trim();
      if (name === '') problems.push(`expected_tools[${index}]: a tool name must be a non-empty string`);
      else expectations.push({ index, name });
      continue;
    }
    const expectation = checkEntry(entry, index, problems);
    if (expectation !== undefined) expectations.push(expectation);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, expectations };
}

/** One object entry of `expected_tools`, normalised; or undefined, with its problems pushed. */
function checkEntry(entry: unknown, index: number, problems: string[]): ToolExpectation | undefined {
  const at = `expected_tools[${index}]`;
  if (!isPlainObject(entry)) {
    problems.push(`${at}: expected a tool name or ${SHAPE}, got ${kind(entry)}`);
    return undefined;
  }
  const before = problems.length;
  let unknown: string[] | undefined;
  for (const key of Object.keys(entry)) if (!KEYS.has(key)) (unknown ??= []).push(key);
  if (unknown !== undefined) {
    problems.push(
      `${at}: unknown key ${unknown.map((k) => `'${k}'`).join(', ')}; allowed: ${[...KEYS].join(', ')}`,
    );
  }
  const { name, args, after, times, succeeded, critical } = entry;
  if (typeof name !== 'string' || name.trim() === '') {
    problems.push(`${at}.name: must be a non-empty string, got ${kind(name)}`);
  }
  if (args !== undefined && !isPlainObject(args)) {
    problems.push(`${at}.args: must be an object of argument values, got ${kind(args)}`);
  }
  if (after !== undefined && (typeof after !== 'string' || after.trim() === '')) {
    problems.push(`${at}.after: must be a non-empty tool name, got ${kind(after)}`);
  }
  if (times !== undefined && (typeof times !== 'number' || !Number.isInteger(times) || times < 0)) {
    problems.push(`${at}.times: must be a whole number of calls (0 or more), got ${kind(times)}`);
  }
  if (succeeded !== undefined && typeof succeeded !== 'boolean') {
    problems.push(`${at}.succeeded: must be true or false, got ${kind(succeeded)}`);
  }
  if (critical !== undefined && typeof critical !== 'boolean') {
    problems.push(`${at}.critical: must be true or false, got ${kind(critical)}`);
  }
  if (problems.length > before) return undefined;
  // Optional keys set one by one: conditional spreads cost several times as much (Node 20).
  const expectation: ToolExpectation = { index, name: (name as string).trim() };
  if (args !== undefined) expectation.args = args as Record<string, unknown>;
  if (after !== undefined) expectation.after = (after as string).trim();
  if (times !== undefined) expectation.times = times as number;
  if (succeeded === true) expectation.succeeded = true;
  if (critical === true) expectation.critical = true;
  return expectation;
}

/**
 * True when the call is of the named tool: its `function_name`, or its `plugin_id`.
 *
 * @example
 * ```ts
 * isCallOf({ function_name: 'list_nodes', plugin_id: 'node_tools', arguments: {} }, 'node_tools'); // true
 * ```
 */
export function isCallOf(call: ToolCall, name: string): boolean {
  return call.function_name === name || (call.plugin_id !== undefined && call.plugin_id === name);
}

/**
 * The indices of the calls that satisfy an expectation's name, `args` (subset deep-equal, on the
 * full arguments), `after` (positioned after some call of that tool) and `succeeded` (the call did
 * not fail and a result came back for it), in call order. `times` is not looked at here.
 *
 * @example
 * ```ts
 * satisfyingCalls({ index: 0, name: 'save', after: 'load' }, [save, load, save]); // [2]
 * ```
 */
export function satisfyingCalls(expectation: ToolExpectation, calls: readonly ToolCall[]): number[] {
  const { name, after, args, succeeded } = expectation;
  let anchor = -1;
  if (after !== undefined) {
    for (let i = 0; i < calls.length; i++) {
      if (isCallOf(calls[i]!, after)) {
        anchor = i;
        break;
      }
    }
    // Only calls after the first call of `after` count; with no such call, none does.
    if (anchor === -1) return [];
  }
  const out: number[] = [];
  for (let i = anchor + 1; i < calls.length; i++) {
    const call = calls[i]!;
    if (!isCallOf(call, name)) continue;
    if (args !== undefined && !argsMatch(args, call.arguments)) continue;
    if (succeeded === true && !backsWork(call)) continue;
    out.push(i);
  }
  return out;
}

/** Every key of `expected` deep-equals the same key of the call's arguments. */
function argsMatch(expected: Record<string, unknown>, actual: ToolCall['arguments']): boolean {
  const keys = Object.keys(expected);
  if (keys.length === 0) return true;
  // Arguments that did not parse as a JSON object have no keys to compare.
  if (!isPlainObject(actual)) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(actual, key) || !deepEqual(expected[key], actual[key]))
      return false;
  }
  return true;
}

/**
 * Structural equality of JSON-like values: same primitives, arrays of equal items in order, objects
 * with the same keys and equal values.
 *
 * @example
 * ```ts
 * deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }); // true
 * ```
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]))
    );
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

/**
 * A short description of what an expectation asks, for reasons.
 *
 * @example
 * ```ts
 * describeExpectation({ index: 0, name: 'search', args: { q: 'a' }, times: 2 }); // 'search with {"q":"a"} exactly 2 times'
 * ```
 */
export function describeExpectation(e: ToolExpectation): string {
  let text = e.name;
  if (e.args !== undefined) text += ` with ${JSON.stringify(e.args)}`;
  if (e.after !== undefined) text += ` after ${e.after}`;
  if (e.times !== undefined) text += ` exactly ${e.times} time${e.times === 1 ? '' : 's'}`;
  if (e.succeeded === true) text += ' that succeeded';
  return text;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}
