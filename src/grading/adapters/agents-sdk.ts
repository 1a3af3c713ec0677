import { isObject, outcomeOfOutput, text, type Adapter, type Json, type Reader } from './core.js';
import { openaiResponses } from './openai-responses.js';

/**
 * The OpenAI Agents SDK (`@openai/agents`): run items (`result.newItems`: `tool_call_item`,
 * `tool_call_output_item`, `handoff_call_item`, ... read through their `rawItem`), a run result
 * (`newItems`), and the protocol items of `result.history` (and of a session) that the Responses
 * adapter does not already read: `function_call` in the SDK's own form (its link id is `callId`,
 * where a Responses item has `call_id`), `function_call_result` (failed when `incomplete` or when
 * its text reports an error, as the SDK's default "An error occurred while running the tool" does)
 * and `hosted_tool_call`, read as the Responses item it wraps, so an Agents SDK hosted search and a
 * Responses one record the same call. The SDK records a `function_call_result` for every function
 * call it runs, so such a call with none linked never ran (it awaits approval, or the run ended
 * first): its status is `unknown` even when the record holds no other result. So is its own
 * `shell_call`, `apply_patch_call` or `computer_call` (linked by `callId`, read as the Responses item
 * of that type) with no output linked: the SDK records a `shell_call_output`,
 * `apply_patch_call_output` or `computer_call_result` for each one it runs, rejects or aborts, so
 * such a call never ran (a shell command awaiting approval, in a session's items). A
 * `tool_approval_item` (an interruption) marks its call as awaiting approval in the same way. The
 * SDK's own hosted `mcp_approval_response` (its answer to an approval decision on a hosted MCP
 * call) is no call: a rejection fails the `mcp_approval_request` it names, as on Responses.
 *
 * @example
 * ```ts
 * agentsSdk({ type: 'tool_call_item', rawItem: { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}' } }, '$[0]', reader); // true
 * ```
 */
export const agentsSdk: Adapter = (item, path, reader) => {
  const type = item.type;
  if (typeof type !== 'string') return readRunResult(item, path, reader);
  if (type.endsWith('_item') && isObject(item.rawItem)) {
    // A pending approval repeats a call that its tool_call_item already holds, and says it has
    // not run: unless its output (or the SDK's rejection text) follows, it is awaiting approval.
    if (type !== 'tool_approval_item') reader.visit(item.rawItem, `${path}.rawItem`);
    else {
      const id = text(item.rawItem.callId) ?? text(item.rawItem.call_id);
      if (id !== undefined) reader.awaiting(id);
      // The call itself, unless the record holds it elsewhere (`result.interruptions` alone).
      reader.standIn(item.rawItem, `${path}.rawItem`);
    }
    return true;
  }
  if (type === 'function_call' && item.call_id === undefined && typeof item.name === 'string') {
    const id = text(item.callId);
    if (id !== undefined) {
      // The SDK's own function call: unless its function_call_result is linked, it never ran.
      const fields = { name: item.name, args: item.arguments, id, pluginId: text(item.namespace) };
      reader.call(fields, path);
      reader.awaiting(id);
      return true;
    }
  }
  if (CLIENT_CALLS.has(type) && item.call_id === undefined) {
    const id = text(item.callId);
    if (id !== undefined && openaiResponses(item, path, reader)) {
      // The SDK's own client-run call: unless its output item is linked, it never ran.
      reader.awaiting(id);
      return true;
    }
  }
  if (type === 'function_call_result') {
    const outcome = item.status === 'incomplete' ? 'error' : outcomeOfOutput(item.output);
    reader.result(outcome, { id: text(item.callId) ?? text(item.call_id), name: text(item.name) });
    return true;
  }
  if (type === 'hosted_tool_call' && typeof item.name === 'string') {
    readHosted(item, item.name, path, reader);
    return true;
  }
  return false;
};

/**
 * The SDK's own calls of the tools it runs itself (a local shell, an apply_patch editor, a
 * computer), each answered by an output item once it ran or its approval was rejected.
 */
const CLIENT_CALLS: ReadonlySet<string> = new Set(['shell_call', 'apply_patch_call', 'computer_call']);

/** The Responses items of a hosted MCP approval, which are no calls of their own. */
const MCP_APPROVAL_ITEMS: ReadonlySet<string> = new Set(['mcp_approval_request', 'mcp_approval_response']);

function readHosted(item: Json, name: string, path: string, reader: Reader): void {
  const data = isObject(item.providerData) ? item.providerData : undefined;
  if (data && data.type === name) {
    // The Responses item the SDK converted, minus what it moved out: rebuild it.
    const rebuilt = { ...data, ...(item.status !== undefined ? { status: item.status } : {}) };
    reader.visit(
      item.output !== undefined ? { ...rebuilt, output: item.output } : rebuilt,
      `${path}.providerData`,
    );
    return;
  }
  if (data && data.type === undefined && MCP_APPROVAL_ITEMS.has(name)) {
    // The SDK writes its own answer to an approval decision as the Responses item's fields
    // without their type ({ approve, approval_request_id, reason }): read it as that item.
    const id = data.id ?? item.id;
    reader.visit({ ...data, type: name, ...(id !== undefined ? { id } : {}) }, `${path}.providerData`);
    return;
  }
  if (name === 'mcp_list_tools' || MCP_APPROVAL_ITEMS.has(name)) return;
  const status =
    item.status === undefined
      ? undefined
      : item.status === 'completed'
        ? 'ok'
        : item.status === 'failed'
          ? 'error'
          : 'unknown';
  reader.call(
    { name: name.replace(/_call$/, ''), args: item.arguments, id: text(item.id), kind: 'hosted', status },
    path,
  );
}

/** A RunResult (or its JSON): the items this run produced. */
function readRunResult(item: Json, path: string, reader: Reader): boolean {
  if (typeof item.role === 'string' || !Array.isArray(item.newItems)) return false;
  reader.visit(item.newItems, `${path}.newItems`);
  return true;
}
