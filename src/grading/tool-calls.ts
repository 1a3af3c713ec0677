import { ADAPTERS } from './adapters/index.js';
import { isObject } from './adapters/core.js';
import { readRecord } from './adapters/record.js';
import { setOwn } from '../internal/own.js';
import type { AgentRun, ToolArguments, ToolCall } from './types.js';

/**
 * Where the record is shown (judge prompts, reports), argument values longer than this many
 * characters are cut. Graders always match on the full arguments.
 *
 * @example
 * ```ts
 * const long = 'x'.repeat(MAX_ARGUMENT_CHARS + 1); // shown cut by displayToolCalls, ending in TRUNCATION_MARKER
 * ```
 */
export const MAX_ARGUMENT_CHARS = 500;

/**
 * The marker that ends an argument value cut for display.
 *
 * @example
 * ```ts
 * const [shown] = displayToolCalls([{ function_name: 'f', arguments: { body: 'x'.repeat(600) } }]);
 * String((shown?.arguments as { body: string }).body).includes(TRUNCATION_MARKER); // true
 * ```
 */
export const TRUNCATION_MARKER = '… [truncated]';

/**
 * Normalises a tool-call record into `{ function_name, plugin_id?, arguments, status?, kind? }[]`
 * in call order, with the arguments in full.
 *
 * Reads, alone, mixed in one list, or as whole transcripts and results: OpenAI Chat Completions
 * (function and custom tool calls, `tool` turns, a whole completion), OpenAI Responses (function,
 * custom and hosted calls, their outputs, a whole response), the Vercel AI SDK (tool-call parts,
 * steps, a whole `generateText` result, model messages, `UIMessage` parts), Anthropic (client,
 * server and MCP tool use and every result block, a whole Message), the OpenAI Agents SDK (run
 * items, history items, hosted calls), LangChain and LangGraph messages (dicts, instances,
 * serialised and stored forms), Google GenAI (function call and response parts, code execution, a
 * whole response), MCP JSON-RPC `tools/call`, the bare `{ name, arguments }`, `{ name, args }` and
 * `{ name, kwargs }` shapes, and already normalised calls. docs/matchers.md has the full table.
 *
 * Hosted calls (the provider ran them) are calls like any other, with `kind: 'hosted'`. Results are
 * never calls: when the input holds any, each call gets `status` (`ok`, `error`, or `unknown` when
 * no result came back for it); a call awaiting a human's approval (an AI SDK
 * `tool-approval-request`, an Agents SDK `tool_approval_item`, an OpenAI Responses
 * `mcp_approval_request`, with no result) is `unknown` even
 * when the input holds no other result, and so is an Agents SDK `function_call` with no
 * `function_call_result`, and an Agents SDK `shell_call`, `apply_patch_call` or `computer_call`
 * with no output (the SDK records one for every call it runs). JSON-string arguments are parsed; one that does not parse is kept as
 * the raw string, never dropped. A shape no adapter recognises is an {@link AiEvalError} of code
 * `INVALID_TOOL_CALLS` naming the JSON path and what it got, never an empty record.
 *
 * @example
 * ```ts
 * normalizeToolCalls([{ type: 'function', id: 'c1', function: { name: 'search', arguments: '{"q":"x"}' } }]);
 * // [{ function_name: 'search', arguments: { q: 'x' } }]
 * ```
 */
export function normalizeToolCalls(record: unknown): ToolCall[] {
  return readRecord(record, ADAPTERS);
}

/**
 * Reads the tool-call record of a response. A string has none; a run's `toolCalls` wins; otherwise
 * its `messages` are read; a run with neither has none. `undefined` means nobody knows what the
 * agent did, `[]` that it called nothing.
 *
 * @example
 * ```ts
 * recordOf({ output: 'done', toolCalls: [] }); // []
 * recordOf('done'); // undefined
 * ```
 */
export function recordOf(response: string | AgentRun, override?: unknown): ToolCall[] | undefined {
  if (override !== undefined) return normalizeToolCalls(override);
  if (typeof response === 'string') return undefined;
  if (response.toolCalls !== undefined && response.toolCalls !== null)
    return normalizeToolCalls(response.toolCalls);
  if (Array.isArray(response.messages)) return normalizeToolCalls(response.messages);
  return undefined;
}

/**
 * The record as it is shown (judge prompts, reports): every string argument value longer than
 * {@link MAX_ARGUMENT_CHARS}, nested ones too, is cut and ends in {@link TRUNCATION_MARKER} and the
 * original length. Graders never match on this; they read the full record.
 *
 * @example
 * ```ts
 * displayToolCalls([{ function_name: 'save', arguments: { body: 'x'.repeat(600) } }])[0]?.arguments;
 * // { body: 'xxx…x… [truncated] (600 chars)' }
 * ```
 */
export function displayToolCalls(record: readonly ToolCall[]): ToolCall[] {
  return record.map((call) => ({ ...call, arguments: displayArguments(call.arguments) }));
}

/**
 * One call's arguments as they are shown: long string values cut, with {@link TRUNCATION_MARKER}.
 *
 * @example
 * ```ts
 * displayArguments({ q: 'short' }); // { q: 'short' }
 * ```
 */
export function displayArguments(args: ToolArguments): ToolArguments {
  return typeof args === 'string' ? cut(args) : (cutValue(args) as Record<string, unknown>);
}

function cutValue(value: unknown): unknown {
  if (typeof value === 'string') return cut(value);
  if (Array.isArray(value)) return value.map(cutValue);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(out, key, cutValue(value[key]));
    return out;
  }
  return value;
}

function cut(value: string): string {
  return value.length > MAX_ARGUMENT_CHARS
    ? `${value.slice(0, MAX_ARGUMENT_CHARS)}${TRUNCATION_MARKER} (${value.length} chars)`
    : value;
}

/**
 * Whether a call can stand for work done: its `status` is neither `error` (it failed) nor `unknown`
 * (no result came back for it, as for a call awaiting a human's approval). A call without a status
 * (a record that holds no results at all) can. `claims_grader`'s backing and `tool_usage_grader`'s
 * `succeeded: true` both ask this.
 *
 * @example
 * ```ts
 * backsWork({ function_name: 'delete_draft', arguments: {}, status: 'unknown' }); // false
 * backsWork({ function_name: 'delete_draft', arguments: {} }); // true
 * ```
 */
export function backsWork(call: ToolCall): boolean {
  return call.status !== 'error' && call.status !== 'unknown';
}
