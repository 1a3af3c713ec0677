import type { ToolCallStatus } from '../types.js';
import {
  isObject,
  outcomeOfOutput,
  text,
  type Adapter,
  type Json,
  type Outcome,
  type Reader,
} from './core.js';

/** Where a call's result points back to it: Responses `call_id`, the Agents SDK's `callId`. */
const callId = (item: Json): string | undefined => text(item.call_id) ?? text(item.callId);

/** The status of a hosted call item: `completed` ran, `failed` and `incomplete` did not. */
function hostedStatus(status: unknown): ToolCallStatus | undefined {
  if (status === undefined || status === null) return undefined;
  if (status === 'completed') return 'ok';
  return status === 'failed' || status === 'incomplete' ? 'error' : 'unknown';
}

function pick(item: Json, keys: readonly string[]): Json {
  return Object.fromEntries(
    keys.filter((k) => item[k] !== undefined && item[k] !== null).map((k) => [k, item[k]]),
  );
}

/** Hosted calls: the provider ran them. Name, the arguments worth matching on. */
const HOSTED = new Map<string, { name: string; args: (item: Json) => unknown }>(
  Object.entries({
    web_search_call: { name: 'web_search', args: (item: Json) => item.action },
    file_search_call: { name: 'file_search', args: (item: Json) => pick(item, ['queries']) },
    code_interpreter_call: {
      name: 'code_interpreter',
      args: (item: Json) => pick(item, ['code', 'container_id']),
    },
    image_generation_call: {
      name: 'image_generation',
      args: (item: Json) =>
        pick(item, ['action', 'revised_prompt', 'size', 'quality', 'output_format', 'background']),
    },
  }),
);

/** Built-in tools the client executes: name, and the field holding what was asked. */
const CLIENT = new Map<string, { name: string; args: (item: Json) => unknown }>(
  Object.entries({
    computer_call: { name: 'computer', args: (item: Json) => pick(item, ['action', 'actions']) },
    local_shell_call: { name: 'local_shell', args: (item: Json) => item.action },
    shell_call: { name: 'shell', args: (item: Json) => item.action },
    apply_patch_call: { name: 'apply_patch', args: (item: Json) => item.operation },
  }),
);

/**
 * OpenAI Responses items (and the OpenAI Agents SDK's protocol items of the same types): calls
 * (`function_call`, `custom_tool_call`; the hosted `mcp_call`, `web_search_call`,
 * `file_search_call`, `code_interpreter_call`, `image_generation_call`, `tool_search_call` with
 * server execution, `program`; the client-run `computer_call`, `local_shell_call`, `shell_call`,
 * `apply_patch_call`; an `mcp_approval_request`, a hosted MCP call awaiting approval, which the
 * `mcp_call` naming it stands for once it ran, and which a denying `mcp_approval_response` fails),
 * their outputs as results, and a whole response (`{ object: 'response', output }`).
 *
 * @example
 * ```ts
 * openaiResponses({ type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } }, '$[0]', reader); // true
 * ```
 */
export const openaiResponses: Adapter = (item, path, reader) => {
  if (typeof item.type !== 'string') return readResponse(item, path, reader);
  const type = item.type;
  if ((type === 'function_call' || type === 'custom_tool_call') && typeof item.name === 'string') {
    const args = type === 'function_call' ? item.arguments : item.input;
    const kind = type === 'custom_tool_call' ? 'custom' : undefined;
    reader.call({ name: item.name, args, id: callId(item), pluginId: text(item.namespace), kind }, path);
    return true;
  }
  if (type === 'mcp_approval_request' && typeof item.name === 'string') {
    // A hosted MCP call the model asked for, waiting for the app's approval: it has not run. Its
    // `mcp_call` (once approved) stands for it; a denial fails it.
    const id = text(item.id);
    const fields = { name: item.name, args: item.arguments, pluginId: text(item.server_label) };
    reader.call({ ...fields, id, kind: 'hosted' }, path);
    if (id !== undefined) reader.awaiting(id);
    return true;
  }
  if (type === 'mcp_approval_response') {
    const id = text(item.approval_request_id);
    if (id !== undefined && item.approve === false) reader.result('error', { id });
    return true;
  }
  if (type === 'mcp_call' && typeof item.name === 'string') {
    const request = text(item.approval_request_id);
    if (request !== undefined) reader.replaces(request);
    const failed = item.error !== undefined && item.error !== null;
    const status = failed
      ? 'error'
      : item.output !== undefined && item.output !== null
        ? 'ok'
        : hostedStatus(item.status);
    const fields = { name: item.name, args: item.arguments, pluginId: text(item.server_label) };
    reader.call({ ...fields, id: text(item.id), kind: 'hosted', status: status ?? 'unknown' }, path);
    return true;
  }
  const hosted = HOSTED.get(type);
  if (hosted) {
    const fields = { name: hosted.name, args: hosted.args(item), id: text(item.id) };
    reader.call({ ...fields, kind: 'hosted', status: hostedStatus(item.status) }, path);
    return true;
  }
  const client = CLIENT.get(type);
  if (client) {
    reader.call({ name: client.name, args: client.args(item), id: callId(item) ?? text(item.id) }, path);
    return true;
  }
  if (type === 'tool_search_call' || type === 'program') {
    const args = type === 'program' ? pick(item, ['code']) : item.arguments;
    const kind = type === 'program' || item.execution === 'server' ? 'hosted' : undefined;
    reader.call({ name: type === 'program' ? 'program' : 'tool_search', args, id: callId(item), kind }, path);
    return true;
  }
  return readOutput(item, reader);
};

/** Output items, linked to their call by `call_id` (`callId` in the Agents SDK). */
function readOutput(item: Json, reader: Reader): boolean {
  const outcome = outputOutcome(item);
  if (outcome === undefined) return false;
  reader.result(outcome, { id: callId(item) ?? text(item.id), name: text(item.name) });
  return true;
}

function outputOutcome(item: Json): Outcome | undefined {
  switch (item.type) {
    case 'function_call_output':
    case 'custom_tool_call_output':
      return outcomeOfOutput(item.output);
    case 'computer_call_result':
      return computerFailed(item) ? 'error' : 'ok';
    case 'computer_call_output':
    case 'local_shell_call_output':
    case 'tool_search_output':
      return 'ok';
    case 'apply_patch_call_output':
      return item.status === 'failed' ? 'error' : 'ok';
    case 'program_output':
      return item.status === 'incomplete' ? 'error' : 'ok';
    case 'shell_call_output':
      return Array.isArray(item.output) && item.output.some(shellFailed) ? 'error' : 'ok';
    default:
      return undefined;
  }
}

/**
 * A shell command that timed out or exited non-zero: Responses `exit_code`, or the Agents SDK's
 * `exitCode`, which the SDK sets to `null` when the command threw or its approval was rejected.
 */
function shellFailed(entry: unknown): boolean {
  const outcome = isObject(entry) && isObject(entry.outcome) ? entry.outcome : undefined;
  if (!outcome) return false;
  if (outcome.type === 'timeout') return true;
  if (typeof outcome.exit_code === 'number') return outcome.exit_code !== 0;
  return outcome.exitCode === null || (typeof outcome.exitCode === 'number' && outcome.exitCode !== 0);
}

/**
 * An Agents SDK computer action that did not run or threw. The SDK answers each with a screenshot:
 * an empty one when the action threw, a placeholder whose `providerData` says `approvalStatus:
 * 'rejected'` when its approval was rejected, and a placeholder under `providerData.status:
 * 'incomplete'` when the run was aborted before it ran.
 */
function computerFailed(item: Json): boolean {
  if (isObject(item.providerData) && item.providerData.status === 'incomplete') return true;
  const output = item.output;
  if (!isObject(output) || output.type !== 'computer_screenshot') return false;
  return (
    output.data === '' || (isObject(output.providerData) && output.providerData.approvalStatus === 'rejected')
  );
}

/** A whole Responses result: its `output` items. An AI SDK result (`steps`) is read before this. */
function readResponse(item: Json, path: string, reader: Reader): boolean {
  if (typeof item.role === 'string' || !Array.isArray(item.output)) return false;
  if (item.object !== 'response' && !item.output.every(isObject)) return false;
  reader.visit(item.output, `${path}.output`);
  return true;
}
