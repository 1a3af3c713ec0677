import type { ToolCallStatus } from '../types.js';
import { AiEvalError } from '../../errors.js';
import { isThenable } from '../../internal/thenable.js';
import {
  isObject,
  parseArguments,
  text,
  type Adapter,
  type InnerCalls,
  type Json,
  type Reader,
} from './core.js';

/** Tool-result outputs of AI SDK model messages that report a failure. */
const ERROR_OUTPUTS: ReadonlySet<unknown> = new Set(['error-text', 'error-json', 'execution-denied']);

/**
 * An MCP `CallToolResult` with `isError: true`: the AI SDK's MCP clients (`@ai-sdk/mcp`, ai 4's
 * `experimental_createMCPClient`) return it as the tool's output rather than throw.
 */
const mcpFailed = (value: unknown): boolean =>
  isObject(value) && value.isError === true && Array.isArray(value.content);

/** A tool result's output (v5+ `output`, a model message's `{ type, value }`, v4 `result`) reports a failure. */
const outputFailed = (output: unknown): boolean =>
  mcpFailed(output) ||
  (isObject(output) &&
    (ERROR_OUTPUTS.has(output.type) || (output.type === 'json' && mcpFailed(output.value))));

/**
 * The Vercel AI SDK: a whole `generateText` result (every step's content, in order,
 * never its last-step-only `toolCalls`, never its structured `output`; a `streamText` result's
 * steps once awaited, its pending promise an error), a step (`content`; a v4 step's `toolCalls`
 * and `toolResults` are read as a record holder's), the
 * `tool-call`, `tool-result` and `tool-error` parts of steps and model messages, `UIMessage` parts
 * (`tool-<name>` and `dynamic-tool`, whose `state` is the outcome), the v4 `toolInvocations` and
 * `tool-invocation` parts, and untyped `{ toolName, input }` / `{ toolName, args }` calls. A call
 * with `providerExecuted` is hosted. A tool result (or UI part output) that is an MCP `CallToolResult`
 * with `isError: true` failed: the AI SDK's MCP clients return it rather than throw. A call with a
 * `tool-approval-request` and no result is awaiting approval (status `unknown`: it never ran); a
 * `tool-approval-response` with `approved: false`, an `execution-denied` output or a UI part
 * `output-denied` (or `approval-responded`, denied) fails it; ai 7's automatic approvals
 * (`isAutomatic`) are read alike. ai 7's provider `custom` parts (`{ type: 'custom', kind }`) are
 * passed over, as its `reasoning-file` and `steering-message` parts are (core's NON_CALL_TYPES).
 * An ai 7 code mode call (`@ai-sdk/code-mode`: input `{ js }`, a program that calls tools) is
 * marked as one whose inner calls the record does not show, unless it holds a call with code
 * mode's inner id (`<call id>:tool-<n>`).
 *
 * @example
 * ```ts
 * aiSdk({ type: 'tool-calculator', toolCallId: 't1', state: 'output-available', input: {}, output: 4 }, '$[0].parts[1]', reader); // true
 * ```
 */
export const aiSdk: Adapter = (item, path, reader) => {
  if (readContainer(item, path, reader)) return true;
  const type = item.type;
  const kind = item.providerExecuted === true ? 'hosted' : undefined;
  const id = text(item.toolCallId);
  if (
    typeof type === 'string' &&
    type.startsWith('tool-') &&
    typeof item.state === 'string' &&
    item.toolName === undefined
  ) {
    const status = uiStatus(item);
    const name = type.slice('tool-'.length);
    const args = item.input ?? item.rawInput;
    reader.call({ name, args, id, kind, status, inner: codeModeInner(name, args, id) }, path);
    return true;
  }
  if (type === 'dynamic-tool' && typeof item.toolName === 'string') {
    const status = uiStatus(item);
    const args = item.input ?? item.rawInput;
    reader.call(
      { name: item.toolName, args, id, kind, status, inner: codeModeInner(item.toolName, args, id) },
      path,
    );
    return true;
  }
  if (type === 'tool-invocation' && isObject(item.toolInvocation)) {
    reader.visit(item.toolInvocation, `${path}.toolInvocation`);
    return true;
  }
  if (typeof item.toolName === 'string' && (type === undefined || type === 'tool-call')) {
    // v4 ToolInvocation: { state: 'partial-call' | 'call' | 'result', args, result }.
    const status =
      type === undefined && typeof item.state === 'string'
        ? item.state === 'result'
          ? mcpFailed(item.result)
            ? 'error'
            : 'ok'
          : 'unknown'
        : undefined;
    const args = 'input' in item ? item.input : item.args;
    reader.call(
      { name: item.toolName, args, id, kind, status, inner: codeModeInner(item.toolName, args, id) },
      path,
    );
    return true;
  }
  if (type === 'tool-approval-request') {
    // A step's part holds its toolCall; a model message's part and a UI stream chunk its toolCallId.
    const callId = id ?? (isObject(item.toolCall) ? text(item.toolCall.toolCallId) : undefined);
    const approvalId = text(item.approvalId);
    if (callId !== undefined) {
      if (approvalId !== undefined) reader.alias(approvalId, callId);
      reader.awaiting(callId);
    }
    return true;
  }
  if (type === 'tool-approval-response') {
    // A denial: the tool never ran. A model message's part names only the approval (aliased to
    // its call by the request); a step's part holds its toolCall. A grant says nothing of the run.
    if (item.approved === false) {
      const callId = isObject(item.toolCall) ? text(item.toolCall.toolCallId) : undefined;
      reader.result('error', { id: callId ?? text(item.approvalId) });
    }
    return true;
  }
  if (type === 'custom' && typeof item.kind === 'string') {
    // ai 7's provider-specific content (`kind` is `<provider>.<type>`): no call, no result.
    return true;
  }
  if (type === 'tool-result' || type === 'tool-error') {
    // ai 4's ToolResultPart (and the provider-level tool result) flags a failure with `isError`.
    const failed =
      type === 'tool-error' || item.isError === true || outputFailed(item.output) || mcpFailed(item.result);
    reader.result(failed ? 'error' : 'ok', { id, name: text(item.toolName) });
    return true;
  }
  return false;
};

/**
 * What an ai 7 code mode call (`@ai-sdk/code-mode`, a local tool caller) says of the calls made
 * inside it: its input is `{ js }`, a program that calls the tools routed to it as
 * `tools.<name>(input)`, and those calls run inside the call, so the record holds none of them.
 * Code mode gives each the toolCallId `<call id>:tool-<n>`: once the record holds one, they are
 * shown. A program that never names `tools` calls none, and reads as any other call.
 */
function codeModeInner(name: string, input: unknown, id: string | undefined): InnerCalls | undefined {
  const args = parseArguments(input);
  if (!isObject(args) || typeof args.js !== 'string' || Object.keys(args).length !== 1) return undefined;
  if (!/\btools\b/.test(args.js)) return undefined;
  return {
    reason: `the record cannot show the calls made inside ${name} (ai 7 code mode: the tools its program calls run inside that call, and the run records none of them); log each from its tool's execute, whose toolCallId code mode sets to '<call id>:tool-<n>', and add them to the record as tool-call parts with that id`,
    idPrefix: id === undefined ? undefined : `${id}:tool-`,
  };
}

function readContainer(item: Json, path: string, reader: Reader): boolean {
  if (typeof item.role === 'string' || typeof item.type === 'string') return false;
  // A whole result: every step. Its own toolCalls and content are its last step's only, and its
  // `output` is the structured output, not a list of calls.
  const steps: unknown = item.steps;
  if (Array.isArray(steps)) {
    reader.visit(steps, `${path}.steps`);
    return true;
  }
  // A streamText result: its steps are a promise until the stream ends, and a record is read now.
  if (isThenable(steps)) {
    throw new AiEvalError(
      'INVALID_TOOL_CALLS',
      `The tool-call record at ${path} is a streamText result, whose steps are a promise until its stream ends: pass \`await result.steps\` (or the messages of every step: \`await result.responseMessages\` in ai 7, \`(await result.response).messages\` in ai 5 and 6; ai 7's \`response.messages\` are the last step's only).`,
    );
  }
  // A step: its content holds its calls and their results, in order. Its response.messages (every
  // step so far in ai 5 and 6, its own in ai 7) are not read.
  if (Array.isArray(item.content) && ('stepNumber' in item || 'finishReason' in item)) {
    reader.visit(item.content, `${path}.content`);
    return true;
  }
  return false;
}

function uiStatus(part: Json): ToolCallStatus {
  if (part.state === 'output-available') {
    if (part.preliminary === true) return 'unknown';
    return mcpFailed(part.output) ? 'error' : 'ok';
  }
  if (part.state === 'approval-responded' && isObject(part.approval) && part.approval.approved === false) {
    return 'error';
  }
  return part.state === 'output-error' || part.state === 'output-denied' ? 'error' : 'unknown';
}
