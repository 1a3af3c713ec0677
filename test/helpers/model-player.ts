import type { RecordedRequest, Step } from './openai-server.js';

interface Message {
  role?: string;
  content?: unknown;
  tool_call_id?: string;
}

/** Whether a request comes from an agent loop (it offers tools) rather than from a judge. */
export function isAgentRequest(request: RecordedRequest): boolean {
  return Array.isArray(request.body.tools);
}

/** The request's messages. */
export function messagesOf(request: RecordedRequest): Message[] {
  return Array.isArray(request.body.messages) ? (request.body.messages as Message[]) : [];
}

const text = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content));

/**
 * Plays the model of the demo's live mode, for the agent and for the judges alike, as the answer of
 * a scripted server's `fallback`:
 * - an agent request (it offers `tools`) with no tool result since the last user message asks for
 *   tool calls: `search_content` then `create_node` in one turn when the user asks to create
 *   something, else one `search_content` for `launch`; ids start `call_<n>`, n counting the
 *   conversations so far;
 * - an agent request after tool results answers in prose: that it created the page, or quoting
 *   the last result;
 * - a judge request answers a score on the judge's scale (0-1 for groundedness, else 0-5).
 *
 * @example
 * ```ts
 * const server = await startOpenAIServer();
 * server.fallback = editorialModelPlayer();
 * ```
 */
export function editorialModelPlayer(): (request: RecordedRequest) => Step {
  let calls = 0;
  return (request) => {
    if (!isAgentRequest(request)) {
      const binary = request.prompt.includes('single dimension: groundedness');
      return { answer: { score: binary ? 1 : 4, reason: 'live test judge', evasive: false } };
    }
    const messages = messagesOf(request);
    const lastUser = messages.map((m) => m.role).lastIndexOf('user');
    const results = messages.slice(lastUser + 1).filter((m) => m.role === 'tool');
    const asked = text(messages[lastUser]?.content);
    if (results.length > 0) {
      if (/^create/i.test(asked)) return { content: "I've created the draft page Shipping FAQ." };
      return { content: `Here is what I found: ${text(results[results.length - 1]!.content)}` };
    }
    calls += 1;
    if (/^create/i.test(asked)) {
      // Two calls in one turn: look for a duplicate, then create.
      return {
        toolCalls: [
          {
            id: `call_${calls}a`,
            name: 'search_content',
            arguments: JSON.stringify({ query: 'shipping faq' }),
          },
          {
            id: `call_${calls}b`,
            name: 'create_node',
            arguments: JSON.stringify({ title: 'Shipping FAQ', type: 'page', status: 'draft' }),
          },
        ],
      };
    }
    return {
      toolCalls: [
        { id: `call_${calls}`, name: 'search_content', arguments: JSON.stringify({ query: 'launch' }) },
      ],
    };
  };
}
