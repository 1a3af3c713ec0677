import { AiEvalError } from '../errors.js';
import type { AgentRun, ToolArguments, ToolCall } from './types.js';

/**
 * Argument values longer than this many characters are truncated in the record.
 *
 * @example
 * ```ts
 * const long = 'x'.repeat(MAX_ARGUMENT_CHARS + 1); // recorded cut, ending in TRUNCATION_MARKER
 * ```
 */
export const MAX_ARGUMENT_CHARS = 500;

/**
 * The marker that ends a truncated argument value.
 *
 * @example
 * ```ts
 * const cut = String(normalizeToolCalls([{ function_name: 'f', arguments: { body: 'x'.repeat(600) } }])[0]?.arguments);
 * cut.includes(TRUNCATION_MARKER); // true when the value was cut
 * ```
 */
export const TRUNCATION_MARKER = '… [truncated]';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Normalises a tool-call record into `{ function_name, plugin_id?, arguments }[]` in call order.
 *
 * Accepts, alone or mixed in one array: OpenAI Chat Completions `tool_calls`
 * (`{ function: { name, arguments } }`), OpenAI Responses `function_call` items, Vercel AI SDK tool
 * calls (`{ toolName, input }` or `{ toolName, args }`), Anthropic `tool_use` blocks, already
 * normalised calls, and whole message transcripts (the calls of the assistant turns, in order;
 * other turns and items are passed over). A Chat Completion (`{ choices }`), a Responses result
 * (`{ output: [...] }`) and an object with `toolCalls` or `tool_calls` are read too.
 *
 * JSON-string arguments are parsed; one that does not parse is kept as the raw string, never
 * dropped. String values longer than {@link MAX_ARGUMENT_CHARS} end in {@link TRUNCATION_MARKER}.
 * A shape no adapter recognises is an {@link AiEvalError} naming what it got.
 *
 * @example
 * ```ts
 * normalizeToolCalls([{ type: 'function', id: 'c1', function: { name: 'search', arguments: '{"q":"x"}' } }]);
 * // [{ function_name: 'search', arguments: { q: 'x' } }]
 * ```
 */
export function normalizeToolCalls(record: unknown): ToolCall[] {
  const calls: ToolCall[] = [];
  collect(record, '$', calls);
  return calls;
}

function collect(value: unknown, path: string, out: ToolCall[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectItem(item, `${path}[${index}]`, out));
    return;
  }
  if (isObject(value)) {
    if (Array.isArray(value.choices)) {
      value.choices.forEach((choice, i) => {
        if (isObject(choice) && isObject(choice.message))
          collectItem(choice.message, `${path}.choices[${i}].message`, out);
      });
      return;
    }
    if (Array.isArray(value.output)) return collect(value.output, `${path}.output`, out);
    // A Vercel AI SDK result's own toolCalls are its LAST step's only: every step's come first.
    if (Array.isArray(value.steps)) return collect(value.steps, `${path}.steps`, out);
    if (Array.isArray(value.toolCalls)) return collect(value.toolCalls, `${path}.toolCalls`, out);
    if (Array.isArray(value.tool_calls)) return collect(value.tool_calls, `${path}.tool_calls`, out);
    // One message (an Anthropic Message response, an assistant turn) or one call on its own.
    if (typeof value.role === 'string' || adaptCall(value, path)) return collectItem(value, path, out);
  }
  throw unrecognised(value, path, 'an array of tool calls or messages');
}

function collectItem(item: unknown, path: string, out: ToolCall[]): void {
  if (!isObject(item)) throw unrecognised(item, path, 'a tool call object');
  const call = adaptCall(item, path);
  if (call) {
    out.push(call);
    return;
  }
  if (typeof item.role === 'string') {
    collectMessage(item, path, out);
    return;
  }
  // A Vercel AI SDK step carries its calls; Responses items that are not calls are passed over.
  if (Array.isArray(item.toolCalls)) return collect(item.toolCalls, `${path}.toolCalls`, out);
  if (typeof item.type === 'string' && NON_CALL_ITEMS.has(item.type)) return;
  throw unrecognised(
    item,
    path,
    'a tool call (OpenAI, Responses, Vercel AI SDK, Anthropic or normalised) or a message',
  );
}

/** Responses output items and content blocks that are not tool calls. */
const NON_CALL_ITEMS = new Set([
  'message',
  'reasoning',
  'function_call_output',
  'text',
  'tool_result',
  'tool-result',
  'tool-error',
  'mcp_list_tools',
  'thinking',
  'redacted_thinking',
  'web_search_call',
  'file_search_call',
  'output_text',
  // Content blocks of assistant messages that carry no call.
  'refusal',
  'image',
  'file',
  'document',
  'source',
  'step-start',
  'web_search_tool_result',
]);

function collectMessage(message: Json, path: string, out: ToolCall[]): void {
  if (message.role !== 'assistant') return;
  if (Array.isArray(message.tool_calls)) {
    message.tool_calls.forEach((c, i) => collectItem(c, `${path}.tool_calls[${i}]`, out));
  }
  if (Array.isArray(message.toolCalls)) {
    message.toolCalls.forEach((c, i) => collectItem(c, `${path}.toolCalls[${i}]`, out));
  }
  // The legacy OpenAI Chat Completions shape: one call in `function_call`.
  if (isObject(message.function_call) && typeof message.function_call.name === 'string') {
    out.push(make(message.function_call.name, message.function_call.arguments, `${path}.function_call`));
  }
  if (Array.isArray(message.content)) {
    message.content.forEach((block, i) => {
      const where = `${path}.content[${i}]`;
      if (!isObject(block)) throw unrecognised(block, where, 'a content block object');
      const call = adaptCall(block, where);
      if (call) out.push(call);
      // A block this adapter does not know might be a call it cannot read: say so rather than
      // return a record that claims the agent called nothing.
      else if (typeof block.type !== 'string' || !NON_CALL_ITEMS.has(block.type)) {
        throw unrecognised(block, where, 'a text block, a tool call, or another known content block');
      }
    });
  }
}

/** The one place that knows each provider's call shape. Returns undefined for a non-call. */
function adaptCall(item: Json, path: string): ToolCall | undefined {
  // Already normalised.
  if (typeof item.function_name === 'string') {
    return make(
      item.function_name,
      item.arguments,
      path,
      typeof item.plugin_id === 'string' ? item.plugin_id : undefined,
    );
  }
  // OpenAI Chat Completions: { type: 'function', function: { name, arguments } }.
  if (isObject(item.function) && typeof item.function.name === 'string') {
    return make(item.function.name, item.function.arguments, path);
  }
  // OpenAI Responses: { type: 'function_call', name, arguments }.
  if (item.type === 'function_call' && typeof item.name === 'string') {
    return make(item.name, item.arguments, path);
  }
  // Anthropic: { type: 'tool_use', name, input }, and server tools such as web search.
  if ((item.type === 'tool_use' || item.type === 'server_tool_use') && typeof item.name === 'string') {
    return make(item.name, item.input, path);
  }
  // OpenAI Responses remote MCP and custom tools: the MCP server label names the plugin.
  if (item.type === 'mcp_call' && typeof item.name === 'string') {
    return make(
      item.name,
      item.arguments,
      path,
      typeof item.server_label === 'string' ? item.server_label : undefined,
    );
  }
  if (item.type === 'custom_tool_call' && typeof item.name === 'string') {
    return make(item.name, item.input, path);
  }
  // Vercel AI SDK: { toolName, input } (v5) or { toolName, args } (v4). Its tool-result and
  // tool-error parts carry toolName too, but they report on a call, they are not one.
  if (typeof item.toolName === 'string' && (item.type === undefined || item.type === 'tool-call')) {
    return make(item.toolName, item.input ?? item.args, path);
  }
  return undefined;
}

function make(name: string, rawArgs: unknown, path: string, pluginId?: string): ToolCall {
  if (name === '') throw unrecognised(name, path, 'a non-empty tool name');
  return {
    function_name: name,
    ...(pluginId ? { plugin_id: pluginId } : {}),
    arguments: truncateArguments(parseArguments(rawArgs)),
  };
}

function parseArguments(raw: unknown): ToolArguments {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') {
    if (raw.trim() === '') return {};
    try {
      const parsed: unknown = JSON.parse(raw);
      return isObject(parsed) ? parsed : raw;
    } catch {
      return raw;
    }
  }
  if (isObject(raw)) return raw;
  return String(JSON.stringify(raw));
}

function truncateArguments(args: ToolArguments): ToolArguments {
  return typeof args === 'string' ? truncateString(args) : (truncateValue(args) as Json);
}

function truncateValue(value: unknown): unknown {
  if (typeof value === 'string') return truncateString(value);
  if (Array.isArray(value)) return value.map(truncateValue);
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, truncateValue(v)]));
  return value;
}

function truncateString(value: string): string {
  return value.length > MAX_ARGUMENT_CHARS
    ? `${value.slice(0, MAX_ARGUMENT_CHARS)}${TRUNCATION_MARKER} (${value.length} chars)`
    : value;
}

function unrecognised(value: unknown, path: string, expected: string): AiEvalError {
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  if (shown.length > 160) shown = `${shown.slice(0, 160)}…`;
  return new AiEvalError(
    'INVALID_TOOL_CALLS',
    `Unrecognised tool-call record at ${path}: expected ${expected}, got ${shown}. Pass OpenAI, OpenAI Responses, Vercel AI SDK or Anthropic tool calls, a message transcript, or { function_name, arguments } objects.`,
  );
}

/**
 * Reads the tool-call record of a response. A string has none; a run's `toolCalls` wins; otherwise
 * the assistant turns of its `messages` are read; a run with neither has none. `undefined` means
 * nobody knows what the agent did, `[]` that it called nothing.
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
