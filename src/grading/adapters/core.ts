import { AiEvalError } from '../../errors.js';
import { isThenable } from '../../internal/thenable.js';
import type { ToolArguments, ToolCallKind, ToolCallStatus } from '../types.js';

/**
 * A JSON-like object.
 *
 * @example
 * ```ts
 * const item: Json = { type: 'function_call', name: 'search' };
 * ```
 */
export type Json = Record<string, unknown>;

/**
 * True for a non-null, non-array object.
 *
 * @example
 * ```ts
 * isObject({ a: 1 }); // true
 * isObject([1]); // false
 * ```
 */
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value when it is a non-empty string, else undefined.
 *
 * @example
 * ```ts
 * text('call_1'); // 'call_1'
 * text(''); // undefined
 * ```
 */
export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * What a tool result says about its call.
 *
 * @example
 * ```ts
 * const outcome: Outcome = isError ? 'error' : 'ok';
 * ```
 */
export type Outcome = 'ok' | 'error';

/**
 * One call as an adapter reports it. `id` links it to its result; `status` is set only when the call
 * item itself says how it ended (hosted calls, AI SDK UI parts); `kind` only for `custom` and
 * `hosted` calls.
 *
 * @example
 * ```ts
 * reader.call({ name: 'search', args: '{"q":"x"}', id: 'call_1' }, '$[0]');
 * ```
 */
export interface CallFields {
  name: string;
  args: unknown;
  id?: string | undefined;
  pluginId?: string | undefined;
  kind?: Exclude<ToolCallKind, 'function'> | undefined;
  status?: ToolCallStatus | undefined;
  /** The call ran other calls inside it that the record does not show (see {@link InnerCalls}). */
  inner?: InnerCalls | undefined;
}

/**
 * What a call that runs other calls inside it (ai 7 code mode's program) says of them: why the
 * record cannot show them, and, when they can be added to the record, the id prefix they carry.
 *
 * @example
 * ```ts
 * const inner: InnerCalls = { reason: 'the calls made inside code ...', idPrefix: 'call_1:tool-' };
 * ```
 */
export interface InnerCalls {
  /** Why the calls made inside are not in the record, and how to add them. */
  reason: string;
  /** The id prefix of the calls made inside: once the record holds one, they are shown. */
  idPrefix?: string | undefined;
}

const hiddenInner = new WeakMap<object, string>();

/**
 * Why the record cannot show the calls made inside this normalised call (ai 7 code mode ran a
 * program that calls tools, and the record holds none of them), or undefined. Set by the record
 * reader; kept when a normalised record is read again.
 *
 * @example
 * ```ts
 * const hidden = normalizeToolCalls(record).map(innerCallsHidden).filter(Boolean);
 * ```
 */
export function innerCallsHidden(call: unknown): string | undefined {
  return typeof call === 'object' && call !== null ? hiddenInner.get(call) : undefined;
}

/**
 * Marks a normalised call as one whose inner calls the record cannot show ({@link innerCallsHidden}).
 *
 * @example
 * ```ts
 * markInnerCallsHidden(call, 'the calls made inside code ...');
 * ```
 */
export function markInnerCallsHidden(call: object, reason: string): void {
  hiddenInner.set(call, reason);
}

/**
 * What an adapter uses to report what it read, and to read nested values.
 *
 * @example
 * ```ts
 * const adapter: Adapter = (item, path, reader) => {
 *   if (item.type !== 'my_call') return false;
 *   reader.call({ name: String(item.name), args: item.args }, path);
 *   return true;
 * };
 * ```
 */
export interface Reader {
  /** Reads a nested value (a list, a message, a call, a result); an unknown shape throws. */
  visit(value: unknown, path: string): void;
  /**
   * Reads a nested value for tool results only (a user turn): calls and unknown shapes in it are
   * passed over.
   */
  scan(value: unknown, path: string): void;
  /** Records a call, in call order. */
  call(fields: CallFields, path: string): void;
  /** Records a tool result, linked to its call by `id`, else by tool `name`. */
  result(outcome: Outcome, link: { id?: string | undefined; name?: string | undefined }): void;
  /**
   * Records that results linked by `other` belong where results linked by `id` go: an MCP task's
   * id names the `tools/call` that created it; an AI SDK approval id names the call it approves.
   */
  alias(other: string, id: string): void;
  /**
   * Records that the call with this id has run only if a result links to it (it ran, or its denial
   * came back as a failure): it asked for a human's approval, or its runner records a result for
   * every call it runs (an Agents SDK `function_call`, `shell_call`, `apply_patch_call` or
   * `computer_call`). With none linked it never ran, and its
   * status is `unknown` even when the input holds no other result.
   */
  awaiting(id: string): void;
  /**
   * Records that a call read later stands for the call with this id read before it (an OpenAI
   * Responses `mcp_call` run after its `mcp_approval_request`): the earlier one is dropped, so the
   * one call is counted once.
   */
  replaces(id: string): void;
  /**
   * Reads a call that repeats one the record may hold elsewhere (the `rawItem` of an Agents SDK
   * `tool_approval_item`): it is recorded only when no other call of the record has its id, so
   * `result.interruptions` passed alone still shows the calls awaiting approval, and `newItems`
   * (which hold each call twice) counts each once.
   */
  standIn(value: unknown, path: string): void;
}

/**
 * One shape adapter: reads the item when it knows its shape and returns true; returns false for a
 * shape it does not know, so the next adapter is tried.
 *
 * @example
 * ```ts
 * const adapters: Adapter[] = [normalised, openaiChat, anthropic];
 * ```
 */
export type Adapter = (item: Json, path: string, reader: Reader) => boolean;

/**
 * Parses call arguments: a JSON string is parsed; one that does not parse as a JSON object is kept
 * as the raw string, never dropped; a missing value or an empty string is `{}`.
 *
 * @example
 * ```ts
 * parseArguments('{"q":"x"}'); // { q: 'x' }
 * parseArguments('not json'); // 'not json'
 * ```
 */
export function parseArguments(raw: unknown): ToolArguments {
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

// The generic failure openings, then the texts SDK runners write for a call that failed or never
// ran: the OpenAI Agents SDK's tool timeout and its answer to a call whose approval was rejected,
// the openai SDK runTools' call of a tool it does not have.
const ERROR_TEXT =
  /^\s*(?:error\b|exception\b|traceback \(most recent call last\)|an error occurred\b|tool '[^']*' timed out after \d+ ?ms\b|tool execution was not approved\b|invalid tool_call: )/i;

/**
 * Whether a tool's output, in a format with no error flag of its own (a Chat Completions `tool`
 * message, a Responses `function_call_output`, an Agents SDK result), reports a failure: a JSON
 * object with a truthy `error`, `isError: true`, `is_error: true`, `success: false`, `ok: false` or
 * `status: 'error'`; or text that starts with `Error`, `Exception`, a Python traceback, `An error
 * occurred` (the OpenAI Agents SDK's default failure text), `Tool '<name>' timed out after <n>ms`
 * (its tool timeout), `Tool execution was not approved` (its answer to a call whose approval was
 * rejected: the tool never ran) or `Invalid tool_call: ` (the openai SDK's `runTools` calling a tool it was not
 * given). Content-part lists are read through their text parts.
 *
 * @example
 * ```ts
 * outcomeOfOutput('Error: order not found'); // 'error'
 * outcomeOfOutput('{"ticket_id": 7}'); // 'ok'
 * ```
 */
export function outcomeOfOutput(output: unknown): Outcome {
  if (typeof output === 'string') {
    if (ERROR_TEXT.test(output)) return 'error';
    const trimmed = output.trim();
    if (!trimmed.startsWith('{')) return 'ok';
    try {
      return outcomeOfOutput(JSON.parse(trimmed) as unknown);
    } catch {
      return 'ok';
    }
  }
  if (Array.isArray(output)) {
    return output.some((part) => isObject(part) && outcomeOfOutput(part.text) === 'error') ? 'error' : 'ok';
  }
  if (!isObject(output)) return 'ok';
  if (typeof output.type === 'string' && typeof output.text === 'string') return outcomeOfOutput(output.text);
  const failed =
    (output.error !== undefined && output.error !== null && output.error !== false && output.error !== '') ||
    output.isError === true ||
    output.is_error === true ||
    output.success === false ||
    output.ok === false ||
    output.status === 'error';
  return failed ? 'error' : 'ok';
}

/**
 * An {@link AiEvalError} of code `INVALID_TOOL_CALLS` naming the JSON path, what was expected and
 * what came, and which shapes are read.
 *
 * @example
 * ```ts
 * throw unrecognised({ tool: 'x' }, '$[0]', 'a tool call');
 * ```
 */
export function unrecognised(value: unknown, path: string, expected: string): AiEvalError {
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  if (shown.length > 160) shown = `${shown.slice(0, 160)}…`;
  // A promise prints as {}: say what it is (an agent call, or its tool calls, not awaited).
  if (isThenable(value)) shown = 'a promise: await it before passing it (`toolCalls: await ...`)';
  return new AiEvalError(
    'INVALID_TOOL_CALLS',
    `Unrecognised tool-call record at ${path}: expected ${expected}, got ${shown}. Pass tool calls, results or messages of OpenAI Chat Completions or Responses, the Vercel AI SDK, Anthropic, the OpenAI Agents SDK, LangChain, Google GenAI or MCP, a transcript of them, or { function_name, arguments } objects (node_modules/ai-eval/docs/matchers.md lists the shapes).`,
  );
}

/**
 * Item and block types that are neither calls nor results: message text, reasoning, media, sources,
 * bookkeeping. They are passed over; any other unknown type is an error, never a silent gap.
 *
 * @example
 * ```ts
 * NON_CALL_TYPES.has('reasoning'); // true
 * ```
 */
export const NON_CALL_TYPES: ReadonlySet<string> = new Set([
  // Text and reasoning, every stack.
  'text',
  'output_text',
  'input_text',
  'refusal',
  'reasoning',
  'reasoning_text',
  'thinking',
  'redacted_thinking',
  'message',
  // Media, files and sources.
  'image',
  'input_image',
  'file',
  'input_file',
  'document',
  'audio',
  'source',
  'source-url',
  'source-document',
  'search_result',
  // AI SDK bookkeeping, ai 4's redacted reasoning (Anthropic redacted thinking), ai 7's reasoning
  // files and its steering messages (the user's words added to a run, text and files). Its
  // tool-approval-request and tool-approval-response parts, and ai 7's provider `custom` parts, are
  // read by the AI SDK adapter.
  'redacted-reasoning',
  'reasoning-file',
  'steering-message',
  'step-start',
  // Anthropic: an upload into the code-execution container, compaction, model fallback, MCP listings.
  'container_upload',
  'compaction',
  'compaction_trigger',
  'fallback',
  'mcp_tool_listing',
  // OpenAI Responses bookkeeping (its MCP approval requests and responses are read by the Responses
  // adapter).
  'mcp_list_tools',
  'item_reference',
  'additional_tools',
  'configuration_update',
]);
