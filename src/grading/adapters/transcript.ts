import { isObject, outcomeOfOutput, text, type Adapter, type Json, type Reader } from './core.js';

/**
 * Messages with a `role`, from every stack: assistant turns (`assistant`, Gemini's `model`) are
 * read for their calls (`tool_calls`, the legacy `function_call`, `content` blocks, AI SDK UI
 * `parts`, Gemini `parts`); `tool` turns are results (Chat Completions `tool_call_id`, AI SDK tool
 * messages, tau2-bench `{ id, error }`); a legacy `function` turn is a result by name; user, system
 * and developer turns are scanned for results only (Anthropic `tool_result` blocks, Gemini
 * `functionResponse` parts), never for calls.
 *
 * @example
 * ```ts
 * roleMessages({ role: 'assistant', tool_calls: [] }, '$[1]', reader); // true
 * ```
 */
export const roleMessages: Adapter = (item, path, reader) => {
  if (typeof item.role !== 'string') return false;
  if (item.role === 'assistant' || item.role === 'model') readAssistant(item, path, reader);
  else if (item.role === 'tool') readTool(item, path, reader);
  else if (item.role === 'function' && !Array.isArray(item.parts)) {
    reader.result(outcomeOfOutput(item.content), { name: text(item.name) });
  } else {
    for (const key of ['content', 'parts'])
      if (Array.isArray(item[key])) reader.scan(item[key], `${path}.${key}`);
  }
  return true;
};

function readAssistant(item: Json, path: string, reader: Reader): void {
  if (Array.isArray(item.tool_calls)) reader.visit(item.tool_calls, `${path}.tool_calls`);
  if (Array.isArray(item.toolCalls)) reader.visit(item.toolCalls, `${path}.toolCalls`);
  // The legacy Chat Completions shape: one call in `function_call`.
  const legacy = item.function_call;
  if (isObject(legacy) && typeof legacy.name === 'string') {
    reader.call({ name: legacy.name, args: legacy.arguments }, `${path}.function_call`);
  }
  if (Array.isArray(item.content)) reader.visit(item.content, `${path}.content`);
  if (Array.isArray(item.parts)) reader.visit(item.parts, `${path}.parts`);
  // AI SDK v4 UI messages: toolInvocations, which their parts repeat when they have parts.
  else if (Array.isArray(item.toolInvocations)) reader.visit(item.toolInvocations, `${path}.toolInvocations`);
}

function readTool(item: Json, path: string, reader: Reader): void {
  // tau2-bench: several results in one turn; a tool the simulated user ran is not the agent's.
  if (Array.isArray(item.tool_messages)) return reader.visit(item.tool_messages, `${path}.tool_messages`);
  if (item.requestor === 'user') return;
  const id = text(item.tool_call_id);
  if (id !== undefined || (text(item.id) !== undefined && !Array.isArray(item.content))) {
    const flagged = item.error === true || item.is_error === true || item.status === 'error';
    reader.result(flagged ? 'error' : outcomeOfOutput(item.content), {
      id: id ?? text(item.id),
      name: text(item.name),
    });
    return;
  }
  // AI SDK model messages: a tool turn whose content is tool-result parts.
  if (Array.isArray(item.content)) return reader.visit(item.content, `${path}.content`);
  reader.result(outcomeOfOutput(item.content), { name: text(item.name) });
}
