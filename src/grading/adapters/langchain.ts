import { AiEvalError } from '../../errors.js';
import { isObject, outcomeOfOutput, text, type Adapter, type Json, type Reader } from './core.js';

/** LangChain message classes by the `type` their instances and dicts carry. */
const CLASSES = new Map<string, string>(
  Object.entries({
    AIMessage: 'ai',
    AIMessageChunk: 'ai',
    HumanMessage: 'human',
    HumanMessageChunk: 'human',
    SystemMessage: 'system',
    SystemMessageChunk: 'system',
    ToolMessage: 'tool',
    ToolMessageChunk: 'tool',
    FunctionMessage: 'function',
    FunctionMessageChunk: 'function',
    ChatMessage: 'generic',
    ChatMessageChunk: 'generic',
    RemoveMessage: 'remove',
  }),
);
const TYPES: ReadonlySet<string> = new Set([...CLASSES.values(), 'developer']);

/**
 * LangChain and LangGraph messages in every form they are stored in: message instances and plain
 * dicts (`{ type: 'ai', content, tool_calls }`), serialised objects (`{ lc: 1, type: 'constructor',
 * id: [..., 'AIMessage'], kwargs }`, what `JSON.stringify` makes of a message) and stored messages
 * (`{ type: 'ai', data }`, from `mapChatMessagesToStoredMessages`). An AI message's calls are its
 * `tool_calls` (`{ id, name, args, type: 'tool_call' }`), `invalid_tool_calls` (recorded as
 * failed), the Anthropic hosted calls ChatAnthropic leaves in `content` (`server_tool_use`,
 * `mcp_tool_use` and their results) and the Responses hosted call items ChatOpenAI keeps in
 * `additional_kwargs.tool_outputs`; its provider-specific copies of `tool_calls`
 * (`additional_kwargs`, `tool_use` content blocks) are not read twice.
 * Streamed `AIMessageChunk`s must be merged: a chunk holding a fragment of a call is an error. A
 * `ToolMessage` is a result; `status: 'error'` fails it.
 *
 * @example
 * ```ts
 * langchain({ type: 'ai', content: '', tool_calls: [{ id: 'c1', name: 'search', args: {}, type: 'tool_call' }] }, '$[1]', reader); // true
 * ```
 */
export const langchain: Adapter = (item, path, reader) => {
  const type = item.type;
  if (item.lc === 1 && type === 'constructor' && Array.isArray(item.id) && isObject(item.kwargs)) {
    const cls: unknown = item.id[item.id.length - 1];
    const kind = typeof cls === 'string' ? CLASSES.get(cls) : undefined;
    if (kind === undefined) return false;
    readMessage(kind, item.kwargs, `${path}.kwargs`, reader);
    return true;
  }
  if (typeof type !== 'string') return false;
  if (TYPES.has(type) && isObject(item.data) && !('content' in item)) {
    readMessage(type, item.data, `${path}.data`, reader);
    return true;
  }
  if (TYPES.has(type) && 'content' in item) {
    readMessage(type, item, path, reader);
    return true;
  }
  if (type === 'tool_call' && typeof item.name === 'string') {
    reader.call({ name: item.name, args: item.args, id: text(item.id) }, path);
    return true;
  }
  if (type === 'invalid_tool_call') {
    // A call whose arguments did not parse never ran; one without a name cannot be recorded.
    if (typeof item.name === 'string' && item.name !== '') {
      reader.call({ name: item.name, args: item.args, id: text(item.id), status: 'error' }, path);
    }
    return true;
  }
  return false;
};

function readMessage(type: string, message: Json, path: string, reader: Reader): void {
  if (type === 'ai') {
    checkMerged(message, path);
    if (Array.isArray(message.tool_calls)) reader.visit(message.tool_calls, `${path}.tool_calls`);
    const invalid = message.invalid_tool_calls;
    if (Array.isArray(invalid)) {
      const typed = invalid.map((c: unknown) => (isObject(c) ? { ...c, type: 'invalid_tool_call' } : c));
      reader.visit(typed, `${path}.invalid_tool_calls`);
    }
    if (Array.isArray(message.content)) {
      message.content.forEach((block: unknown, i) => {
        if (isHostedBlock(block)) reader.visit(block, `${path}.content[${i}]`);
      });
    }
    // ChatOpenAI on the Responses API keeps hosted call items (`web_search_call`, `mcp_call`, ...)
    // only in `additional_kwargs.tool_outputs`.
    const kwargs = message.additional_kwargs;
    if (isObject(kwargs) && Array.isArray(kwargs.tool_outputs)) {
      reader.visit(kwargs.tool_outputs, `${path}.additional_kwargs.tool_outputs`);
    }
  } else if (type === 'tool') {
    const outcome =
      message.status === 'error'
        ? 'error'
        : message.status === 'success'
          ? 'ok'
          : outcomeOfOutput(message.content);
    reader.result(outcome, { id: text(message.tool_call_id), name: text(message.name) });
  } else if (type === 'function') {
    reader.result(outcomeOfOutput(message.content), { name: text(message.name) });
  }
}

/**
 * An Anthropic hosted call or its result in an AI message's content: ChatAnthropic makes only
 * `tool_use` blocks `tool_calls`, and leaves `server_tool_use`, `mcp_tool_use` and their
 * `*_tool_result` blocks in `content`, where nothing else records them.
 */
function isHostedBlock(block: unknown): boolean {
  if (!isObject(block) || typeof block.type !== 'string') return false;
  return (
    block.type === 'server_tool_use' || block.type === 'mcp_tool_use' || block.type.endsWith('_tool_result')
  );
}

/**
 * An `AIMessageChunk` of a stream that was never merged: a `tool_call_chunks` entry without a name
 * continues an earlier chunk's call, and its arguments would be lost (LangChain files them under
 * `invalid_tool_calls` with no name). An error, never a call read without its arguments.
 */
function checkMerged(message: Json, path: string): void {
  const chunks = message.tool_call_chunks;
  if (!Array.isArray(chunks)) return;
  const index = chunks.findIndex(
    (c: unknown) => isObject(c) && (typeof c.name !== 'string' || c.name === ''),
  );
  if (index < 0) return;
  throw new AiEvalError(
    'INVALID_TOOL_CALLS',
    `The tool-call record at ${path}.tool_call_chunks[${index}] is a fragment of a streamed call (a chunk without a tool name): merge the stream's AIMessageChunks first (\`chunks.reduce((a, b) => a.concat(b))\`, or \`concat\` from @langchain/core/utils/stream) and pass the merged message.`,
  );
}
