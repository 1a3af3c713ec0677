import type { ToolCallKind, ToolCallStatus } from '../types.js';
import { innerCallsHidden, text, unrecognised, type Adapter } from './core.js';

const STATUSES: ReadonlySet<string> = new Set<ToolCallStatus>(['ok', 'error', 'unknown']);
const KINDS: ReadonlySet<string> = new Set<ToolCallKind>(['function', 'custom', 'hosted']);

/**
 * Already normalised calls, `{ function_name, plugin_id?, arguments, status?, kind? }`, kept as
 * they are (with the mark of a call whose inner calls the record cannot show); a `status` or `kind`
 * outside the documented values is an error.
 *
 * @example
 * ```ts
 * normalised({ function_name: 'search', arguments: '{"q":"x"}' }, '$[0]', reader); // true
 * ```
 */
export const normalised: Adapter = (item, path, reader) => {
  if (typeof item.function_name !== 'string') return false;
  const { status, kind } = item;
  if (status !== undefined && !(typeof status === 'string' && STATUSES.has(status))) {
    throw unrecognised(status, `${path}.status`, "a call status: 'ok', 'error' or 'unknown'");
  }
  if (kind !== undefined && !(typeof kind === 'string' && KINDS.has(kind))) {
    throw unrecognised(kind, `${path}.kind`, "a call kind: 'function', 'custom' or 'hosted'");
  }
  // A call read before whose inner calls the record could not show (ai 7 code mode) stays so.
  const hiddenReason = innerCallsHidden(item);
  reader.call(
    {
      name: item.function_name,
      args: item.arguments,
      pluginId: text(item.plugin_id),
      kind: kind === 'custom' || kind === 'hosted' ? kind : undefined,
      status: status as ToolCallStatus | undefined,
      inner: hiddenReason === undefined ? undefined : { reason: hiddenReason },
    },
    path,
  );
  return true;
};

/**
 * The bare call shapes of frameworks without a type tag: `{ name, arguments }` (tau2-bench
 * `ToolCall`, many hand-rolled agents), `{ name, args }` (Google GenAI `FunctionCall`, LangChain
 * tool calls without `type`) and `{ name, kwargs }` (tau-bench `Action`).
 *
 * @example
 * ```ts
 * bare({ id: 'c1', name: 'get_order_details', arguments: { order_id: '#W1' } }, '$[0]', reader); // true
 * ```
 */
export const bare: Adapter = (item, path, reader) => {
  if (item.type !== undefined || typeof item.name !== 'string') return false;
  const key = ['arguments', 'args', 'kwargs'].find((k) => k in item);
  if (key === undefined) return false;
  if (item.requestor === 'user') return true; // tau2-bench: a tool the simulated user ran, not the agent
  reader.call({ name: item.name, args: item[key], id: text(item.id) }, path);
  return true;
};

/**
 * Objects that only hold a record: `{ messages }` (a LangGraph state, a conversation), `{ toolCalls }`
 * and `{ tool_calls }` lists outside a message, Google GenAI `functionCalls`.
 *
 * @example
 * ```ts
 * holders({ messages: [{ role: 'user', content: 'hi' }] }, '$', reader); // true
 * ```
 */
export const holders: Adapter = (item, path, reader) => {
  if (typeof item.role === 'string' || typeof item.type === 'string') return false;
  const key = ['messages', 'toolCalls', 'tool_calls', 'functionCalls'].find((k) => Array.isArray(item[k]));
  if (key === undefined) return false;
  reader.visit(item[key], `${path}.${key}`);
  if (key === 'toolCalls' && Array.isArray(item.toolResults))
    reader.visit(item.toolResults, `${path}.toolResults`);
  return true;
};
