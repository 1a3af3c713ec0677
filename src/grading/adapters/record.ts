import type { ToolCall, ToolCallStatus } from '../types.js';
import {
  isObject,
  markInnerCallsHidden,
  NON_CALL_TYPES,
  parseArguments,
  unrecognised,
  type Adapter,
  type CallFields,
  type InnerCalls,
  type Json,
  type Outcome,
  type Reader,
} from './core.js';

interface Pending {
  call: ToolCall;
  /** Its place in call order. */
  index: number;
  id: string | undefined;
  own: ToolCallStatus | undefined;
  linked: Outcome | undefined;
  inner: InnerCalls | undefined;
}

interface Result {
  outcome: Outcome;
  id: string | undefined;
  name: string | undefined;
  /** How many calls had been read when the result came: a name-only result links to an earlier call. */
  at: number;
}

interface State {
  adapters: readonly Adapter[];
  calls: Pending[];
  results: Result[];
  /** Link ids that stand for another (an MCP task id for its tools/call request id). */
  aliases: Map<string, string>;
  /**
   * Ids of calls that ran only if a result links to them (awaiting approval, or an Agents SDK
   * function, shell, apply_patch or computer call), and how many calls had been read when they
   * were named.
   */
  awaiting: { id: string; at: number }[];
  /** Ids of calls a later call stands for (an MCP approval request, once its call ran). */
  replaced: Set<string>;
  /** Calls read from an item that repeats a call (an approval), kept only when no other has their id. */
  standIns: Set<Pending>;
}

/**
 * Reads a record with the given adapters, in order, and links results to their calls: a call's
 * `status` is its result's, else its own (when the call item says how it ended), else `unknown`
 * when it ran only if a result links to it (awaiting approval, or an Agents SDK function, shell,
 * apply_patch or computer call: it never ran) or when the input holds results for other calls;
 * when no result links to any call (none in the input, or only results of calls it does not hold)
 * and none is such a call, calls carry no `status`.
 *
 * @example
 * ```ts
 * readRecord([{ function_name: 'search', arguments: {} }], ADAPTERS); // [{ function_name: 'search', arguments: {} }]
 * ```
 */
export function readRecord(value: unknown, adapters: readonly Adapter[]): ToolCall[] {
  const state: State = {
    adapters,
    calls: [],
    results: [],
    aliases: new Map(),
    awaiting: [],
    replaced: new Set(),
    standIns: new Set(),
  };
  makeReader(state, false).visit(value, '$');
  if (state.standIns.size > 0) state.calls = withoutRepeats(state.calls, state.standIns);
  const byId = callsById(state.calls);
  const anyResult = link(state, byId) > 0;
  const awaiting = awaitingApproval(state, byId);
  const kept =
    state.replaced.size === 0
      ? state.calls
      : state.calls.filter((p) => p.id === undefined || !state.replaced.has(p.id));
  return kept.map((p) => {
    const status = p.linked ?? p.own ?? (anyResult || awaiting.has(p) ? 'unknown' : undefined);
    const call = status === undefined ? p.call : { ...p.call, status };
    if (p.inner !== undefined && !innerShown(p.inner, kept)) markInnerCallsHidden(call, p.inner.reason);
    return call;
  });
}

/** Whether the record holds a call made inside another: one whose id has the caller's inner prefix. */
function innerShown(inner: InnerCalls, calls: readonly Pending[]): boolean {
  const prefix = inner.idPrefix;
  return prefix !== undefined && calls.some((p) => p.id !== undefined && p.id.startsWith(prefix));
}

/**
 * The calls named as running only with a result (an approval request names its call): of the
 * calls with the id read before it was named, the latest.
 */
function awaitingApproval(state: State, byId: ReadonlyMap<string, Pending[]>): Set<Pending> {
  const calls = new Set<Pending>();
  for (const { id, at } of state.awaiting) {
    const same = byId.get(resolve(id, state.aliases)) ?? [];
    const target = same.filter((p) => p.index < at).pop() ?? same[0];
    if (target) calls.add(target);
  }
  return calls;
}

function makeReader(state: State, lenient: boolean): Reader {
  const reader: Reader = {
    visit(value, path) {
      if (Array.isArray(value)) {
        value.forEach((item, i) => reader.visit(item, `${path}[${i}]`));
        return;
      }
      if (!isObject(value)) {
        if (lenient) return;
        throw unrecognised(value, path, 'a tool call, a tool result or a message object');
      }
      dispatch(value, path, reader, state, lenient);
    },
    scan(value, path) {
      (lenient ? reader : makeReader(state, true)).visit(value, path);
    },
    call(fields, path) {
      if (lenient) return;
      state.calls.push(pending(fields, path, state.calls.length));
    },
    result(outcome, { id, name }) {
      state.results.push({ outcome, id, name, at: state.calls.length });
    },
    alias(other, id) {
      if (other !== id && !state.aliases.has(other)) state.aliases.set(other, id);
    },
    awaiting(id) {
      if (!lenient) state.awaiting.push({ id, at: state.calls.length });
    },
    replaces(id) {
      if (!lenient) state.replaced.add(id);
    },
    standIn(value, path) {
      if (lenient) return;
      const from = state.calls.length;
      reader.visit(value, path);
      for (let i = from; i < state.calls.length; i++) state.standIns.add(state.calls[i]!);
    },
  };
  return reader;
}

function dispatch(item: Json, path: string, reader: Reader, state: State, lenient: boolean): void {
  for (const adapter of state.adapters) if (adapter(item, path, reader)) return;
  if (typeof item.type === 'string' && (NON_CALL_TYPES.has(item.type) || item.type.startsWith('data-')))
    return;
  if (lenient) return;
  throw unrecognised(item, path, 'a tool call, a tool result or a message of a known shape');
}

function pending(fields: CallFields, path: string, index: number): Pending {
  if (fields.name === '') throw unrecognised(fields.name, path, 'a non-empty tool name');
  const call: ToolCall = {
    function_name: fields.name,
    ...(fields.pluginId ? { plugin_id: fields.pluginId } : {}),
    arguments: parseArguments(fields.args),
    ...(fields.kind ? { kind: fields.kind } : {}),
  };
  return { call, index, id: fields.id, own: fields.status, linked: undefined, inner: fields.inner };
}

/**
 * The calls without the stand-ins another call repeats: a stand-in is kept only when no other call
 * has its id, and once per id (the same approval in `newItems` and `interruptions`).
 */
function withoutRepeats(calls: readonly Pending[], standIns: ReadonlySet<Pending>): Pending[] {
  const own = new Set<string>();
  for (const p of calls) if (!standIns.has(p) && p.id !== undefined) own.add(p.id);
  const kept = new Set<string>();
  return calls.filter((p) => {
    if (!standIns.has(p) || p.id === undefined) return true;
    if (own.has(p.id) || kept.has(p.id)) return false;
    kept.add(p.id);
    return true;
  });
}

/** The calls that have an id, by id, in call order. */
function callsById(calls: readonly Pending[]): Map<string, Pending[]> {
  const byId = new Map<string, Pending[]>();
  for (const p of calls) {
    if (p.id === undefined) continue;
    const same = byId.get(p.id);
    if (same) same.push(p);
    else byId.set(p.id, [p]);
  }
  return byId;
}

/**
 * Each result goes to a call with its id, else to the earliest unlinked call of its name before
 * it. Returns how many results found their call.
 */
function link(state: State, byId: ReadonlyMap<string, Pending[]>): number {
  let linked = 0;
  for (const r of state.results) {
    const id = r.id === undefined ? undefined : resolve(r.id, state.aliases);
    const target =
      (id !== undefined ? withId(byId.get(id), r.at) : undefined) ??
      (r.name === undefined
        ? undefined
        : state.calls.slice(0, r.at).find((p) => p.linked === undefined && p.call.function_name === r.name));
    // A later result for the same call (a retry that succeeded) overrides an earlier one.
    if (target) {
      target.linked = r.outcome;
      linked++;
    }
  }
  return linked;
}

/** The id an aliased link id stands for, following a chain of aliases (never a cycle). */
function resolve(id: string, aliases: ReadonlyMap<string, string>): string {
  const seen = new Set<string>();
  let current = id;
  for (let next = aliases.get(current); next !== undefined && !seen.has(next); next = aliases.get(current)) {
    seen.add(current);
    current = next;
  }
  return current;
}

/**
 * The call a result with this id belongs to. Ids are unique in most stacks, but some models reuse
 * them across turns (turn-scoped `<tool>:<index>` ids), so of the calls with the id read before the
 * result: the earliest still without a result, else the latest (a second result for one call).
 * With none before it, the first call with the id.
 */
function withId(same: Pending[] | undefined, at: number): Pending | undefined {
  if (!same) return undefined;
  const before = same.filter((p) => p.index < at);
  return before.find((p) => p.linked === undefined) ?? before[before.length - 1] ?? same[0];
}
