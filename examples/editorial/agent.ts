/**
 * The editorial assistant: an ordinary OpenAI tool-calling loop. It sends the conversation and the
 * tools to `chat.completions.create`, runs every tool call the model asks for against the content
 * store, feeds the results back as `tool` messages, and stops at the first answer without tool
 * calls. The client is the openai SDK's `OpenAI` in live mode, or the scripted model by default:
 * the loop is the same code either way.
 */
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { AgentRun } from 'ai-eval';
import { ContentStore } from './store.js';
import { executeTool, TOOLS } from './tools.js';

/** What the loop needs of a client: the openai SDK's `OpenAI` has it, and so does the scripted model. */
export interface ChatClient {
  chat: {
    completions: {
      create(
        body: ChatCompletionCreateParamsNonStreaming,
        options?: { signal?: AbortSignal },
      ): Promise<ChatCompletion>;
    };
  };
}

/** A run as ai-eval grades it, plus the store the run worked on (for state checks). */
export interface EditorialRun extends AgentRun {
  /** The whole transcript in the Chat Completions shape: the tool-call record, with every result. */
  messages: ChatCompletionMessageParam[];
  /** The store after the run. */
  store: ContentStore;
}

export interface RunOptions {
  client: ChatClient;
  model: string;
  signal?: AbortSignal;
  /** A fresh seeded store when not given. */
  store?: ContentStore;
  /** Model turns before the loop gives up. Default 8. */
  maxTurns?: number;
}

export const SYSTEM_PROMPT = [
  'You are the editorial assistant of the Northwind Outdoor website.',
  'Use the tools to look things up and to make the changes you are asked for, and only those.',
  'Find a node with search_content before you change it. Report exactly what you did.',
].join(' ');

/**
 * Runs the assistant on a conversation (one user message, or a multi-turn transcript).
 *
 * @example
 * ```ts
 * const run = await runEditorialAgent([{ role: 'user', content: 'Which drafts are tagged launch?' }], {
 *   client: new OpenAI(),
 *   model: 'gpt-4o-mini',
 * });
 * ```
 */
export async function runEditorialAgent(
  conversation: ChatCompletionMessageParam[],
  options: RunOptions,
): Promise<EditorialRun> {
  const store = options.store ?? new ContentStore();
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    ...conversation,
  ];
  for (let turn = 0; turn < (options.maxTurns ?? 8); turn++) {
    const completion = await options.client.chat.completions.create(
      { model: options.model, messages, tools: TOOLS, tool_choice: 'auto' },
      { signal: options.signal },
    );
    const message = completion.choices[0]?.message;
    if (!message) throw new Error('the model returned no choices');
    const toolCalls = message.tool_calls ?? [];
    messages.push({
      role: 'assistant',
      content: message.content,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    });
    if (toolCalls.length === 0) return { output: message.content ?? '', messages, store };
    for (const call of toolCalls) {
      const content =
        call.type === 'function'
          ? executeTool(store, call.function.name, call.function.arguments)
          : JSON.stringify({ error: `unsupported tool type ${call.type}` });
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
  return { output: 'I stopped: too many tool calls without an answer.', messages, store };
}
