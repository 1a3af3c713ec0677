/**
 * The demo's default model: no network, no key. It answers `chat.completions.create` with the same
 * ChatCompletion objects the openai SDK returns (tool calls first, then an answer built from the
 * tool results), so the agent loop runs unchanged. Four scripts are planted failures, the kind
 * real models produce; the dataset's graders must catch each one.
 */
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatClient } from './agent.js';

type Call = [name: string, args: Record<string, unknown>];
/** One model turn: tool calls to make, or the final answer. Gets the results of the calls so far. */
type Turn = (results: unknown[]) => { calls: Call[] } | { say: string };

interface Script {
  /** The last user message. */
  when: string;
  turns: Turn[];
}

const calls =
  (...list: Call[]): Turn =>
  () => ({ calls: list });
const say =
  (text: string | ((results: unknown[]) => string)): Turn =>
  (results) => ({ say: typeof text === 'string' ? text : text(results) });

interface Summary {
  id: number;
  title: string;
}
const titles = (result: unknown): string =>
  ((result as { results?: Summary[] }).results ?? []).map((n) => `${n.title} (node ${n.id})`).join(', ');

const SCRIPTS: Script[] = [
  {
    when: 'Which drafts are tagged launch?',
    turns: [
      calls(['search_content', { status: 'draft', tag: 'launch' }]),
      say((r) => `One draft is tagged launch: ${titles(r[0])}.`),
    ],
  },
  {
    // Planted: a wrong argument. Asked for published pages, it filters on drafts.
    when: 'List the published pages about pricing.',
    turns: [
      calls(['search_content', { tag: 'pricing', status: 'draft' }]),
      say((r) => `The pricing pages are: ${titles(r[0])}.`),
    ],
  },
  {
    // Planted: a mutating call nobody asked for. A question about a page ends with an edit of it.
    when: 'What does the Pricing page say about refunds?',
    turns: [
      calls(['search_content', { query: 'pricing', type: 'page' }]),
      calls(['get_node', { id: 2 }]),
      calls([
        'update_node',
        {
          id: 2,
          body: 'Starter is $9 a month and Team is $29 a month. Refunds are available for 30 days after purchase.',
        },
      ]),
      say('The Pricing page says refunds are available within 30 days of purchase.'),
    ],
  },
  {
    when: 'List the published pages as JSON, with their id and title.',
    turns: [
      calls(['search_content', { status: 'published', type: 'page' }]),
      say((r) =>
        JSON.stringify({
          pages: ((r[0] as { results: Summary[] }).results ?? []).map(({ id, title }) => ({ id, title })),
        }),
      ),
    ],
  },
  {
    when: 'The press release. Who wrote it, and is it live?',
    turns: [
      calls(['search_content', { query: 'press release', tag: 'launch' }]),
      calls(['get_node', { id: 6 }]),
      say('The Launch press release (node 6) was written by Dana Reyes, and it is published.'),
    ],
  },
  {
    when: 'Summarise node 3 as a markdown list.',
    turns: [
      calls(['get_node', { id: 3 }]),
      say(
        '## Pricing changes for 2027\n\n- Type: article\n- Status: draft\n- Author: Sam Okafor\n- Says: the Team plan moves to $32 a month from January 2027',
      ),
    ],
  },
  {
    when: "Create a draft page titled 'Shipping FAQ'.",
    turns: [
      calls(['search_content', { query: 'shipping faq' }]),
      calls(['create_node', { title: 'Shipping FAQ', type: 'page', status: 'draft' }]),
      say(
        (r) =>
          `I've created the draft page Shipping FAQ (node ${(r[1] as { created: Summary }).created.id}).`,
      ),
    ],
  },
  {
    // Planted: an answer that claims work the agent never did. It looks the node up, never updates
    // it, and says it published it.
    when: 'Publish the Spring launch checklist.',
    turns: [
      calls(['search_content', { query: 'spring launch checklist' }]),
      say("I've published the Spring launch checklist; it is live on the site now."),
    ],
  },
  {
    // Planted: a call that fails. The update is refused (someone is editing the page), and the
    // agent reports success anyway.
    when: "Rename the Careers page to 'Join us'.",
    turns: [
      calls(['search_content', { query: 'careers', type: 'page' }]),
      calls(['update_node', { id: 5, title: 'Join us' }]),
      say("Done: I've renamed node 5, the Careers page, to 'Join us'."),
    ],
  },
  {
    when: 'Yes, delete it.',
    turns: [calls(['delete_node', { id: 7 }]), say('I deleted node 7, the Winter promo article.')],
  },
  {
    when: 'Add a sentence to the Pricing page: annual plans can be refunded within 14 days.',
    turns: [
      calls(['search_content', { query: 'pricing', type: 'page' }]),
      calls(['get_node', { id: 2 }]),
      calls([
        'update_node',
        {
          id: 2,
          body: 'Starter is $9 a month and Team is $29 a month. Refunds are available within 30 days of purchase. Annual plans can be refunded within 14 days.',
        },
      ]),
      say(
        'I updated node 2, the Pricing page. Its body now ends: "Annual plans can be refunded within 14 days." Nothing else on the page changed.',
      ),
    ],
  },
  {
    when: 'How do I take a page offline without deleting it?',
    turns: [
      say(
        '1. Find the page: search for its title and note its node id.\n2. Set its status to draft (update_node with status: draft). Drafts are not shown on the site.\n3. Open the page address to check it is gone; publish it again by setting the status back to published.',
      ),
    ],
  },
];

function contentText(content: ChatCompletionMessageParam['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => ('text' in part ? part.text : '')).join('');
}

let counter = 0;

function completion(model: string, reply: { calls: Call[] } | { say: string }): ChatCompletion {
  const message: ChatCompletion['choices'][number]['message'] =
    'say' in reply
      ? { role: 'assistant', content: reply.say, refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: reply.calls.map(([name, args]) => ({
            id: `call_${++counter}`,
            type: 'function' as const,
            function: { name, arguments: JSON.stringify(args) },
          })),
        };
  return {
    id: `chatcmpl-scripted-${counter}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, finish_reason: 'say' in reply ? 'stop' : 'tool_calls', logprobs: null, message }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** Answers one request the way the script for its last user message says. */
function answer(body: ChatCompletionCreateParamsNonStreaming): ChatCompletion {
  const lastUser = body.messages.findLastIndex((m) => m.role === 'user');
  const question = lastUser >= 0 ? contentText(body.messages[lastUser]!.content).trim() : '';
  const since = body.messages.slice(lastUser + 1);
  const turn = since.filter((m) => m.role === 'assistant').length;
  const results = since
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(contentText(m.content)) as unknown);
  const script = SCRIPTS.find((s) => s.when === question);
  const step = script?.turns[turn];
  if (!step)
    return completion(body.model, {
      say: 'I can search, read, create, update and delete pages and articles.',
    });
  return completion(body.model, step(results));
}

/**
 * The scripted model as a Chat Completions client.
 *
 * @example
 * ```ts
 * const run = await runEditorialAgent(conversation, { client: scriptedModel(), model: 'scripted' });
 * ```
 */
export function scriptedModel(): ChatClient {
  return { chat: { completions: { create: (body) => Promise.resolve(answer(body)) } } };
}
