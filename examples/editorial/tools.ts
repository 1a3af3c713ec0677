/**
 * The editorial assistant's tools, declared for the OpenAI Chat Completions API, and the code that
 * runs a tool call against the content store.
 */
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { StoreError, type ContentNode, type ContentStore } from './store.js';

const id = { type: 'integer', description: 'The node id.' } as const;
const status = { type: 'string', enum: ['draft', 'published'] } as const;
const type = { type: 'string', enum: ['page', 'article'] } as const;

const tool = (
  name: string,
  description: string,
  properties: Record<string, unknown>,
  required: string[] = [],
) =>
  ({
    type: 'function',
    function: {
      name,
      description,
      parameters: { type: 'object', properties, required, additionalProperties: false },
    },
  }) satisfies ChatCompletionFunctionTool;

/** The tools the agent is given: the `tools` of every request, and the targets' tool catalog. */
export const TOOLS: ChatCompletionFunctionTool[] = [
  tool('search_content', 'Find pages and articles. Every given filter must match.', {
    query: { type: 'string', description: 'Words that must all appear in the title, body or tags.' },
    status,
    type,
    tag: { type: 'string' },
  }),
  tool('get_node', 'Read one page or article in full.', { id }, ['id']),
  tool(
    'create_node',
    'Create a page or article.',
    {
      title: { type: 'string' },
      type,
      body: { type: 'string' },
      status,
      tags: { type: 'array', items: { type: 'string' } },
    },
    ['title', 'type'],
  ),
  tool(
    'update_node',
    'Change fields of a page or article; fields not given stay as they are.',
    {
      id,
      title: { type: 'string' },
      body: { type: 'string' },
      status,
      tags: { type: 'array', items: { type: 'string' } },
    },
    ['id'],
  ),
  tool('delete_node', 'Delete a page or article. It cannot be undone.', { id }, ['id']),
];

type Args = Record<string, unknown>;

const summary = (n: ContentNode) => ({
  id: n.id,
  type: n.type,
  title: n.title,
  status: n.status,
  tags: n.tags,
});

function numberArg(args: Args, key: string): number {
  const value = args[key];
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new StoreError(`${key} must be an integer`);
  return value;
}

function fieldsOf(args: Args): Partial<Omit<ContentNode, 'id'>> {
  const fields: Partial<Omit<ContentNode, 'id'>> = {};
  if (typeof args.title === 'string') fields.title = args.title;
  if (typeof args.body === 'string') fields.body = args.body;
  if (args.status === 'draft' || args.status === 'published') fields.status = args.status;
  if (args.type === 'page' || args.type === 'article') fields.type = args.type;
  if (Array.isArray(args.tags)) fields.tags = args.tags.filter((t): t is string => typeof t === 'string');
  return fields;
}

/**
 * Runs one tool call against the store and returns the tool message content: JSON of the result,
 * or `{"error": "..."}` when the call failed (a bad argument, a missing or locked node, an unknown
 * tool). Failures go back to the model as results, as a real agent loop does.
 */
export function executeTool(store: ContentStore, name: string, rawArguments: string): string {
  try {
    const parsed: unknown = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new StoreError('arguments must be a JSON object');
    }
    const args = parsed as Args;
    switch (name) {
      case 'search_content': {
        const filter = fieldsOf(args);
        const query = typeof args.query === 'string' ? args.query : undefined;
        const tag = typeof args.tag === 'string' ? args.tag : undefined;
        const results = store.search({ query, status: filter.status, type: filter.type, tag });
        return JSON.stringify({ results: results.map(summary) });
      }
      case 'get_node':
        return JSON.stringify(store.get(numberArg(args, 'id')));
      case 'create_node': {
        const fields = fieldsOf(args);
        if (!fields.title || !fields.type) throw new StoreError('title and type are required');
        const node = store.create({
          title: fields.title,
          type: fields.type,
          body: fields.body ?? '',
          status: fields.status ?? 'draft',
          tags: fields.tags ?? [],
          author: 'Editorial assistant',
        });
        return JSON.stringify({ created: summary(node) });
      }
      case 'update_node':
        return JSON.stringify({ updated: summary(store.update(numberArg(args, 'id'), fieldsOf(args))) });
      case 'delete_node': {
        const nodeId = numberArg(args, 'id');
        store.delete(nodeId);
        return JSON.stringify({ deleted: nodeId });
      }
      default:
        throw new StoreError(`unknown tool ${name}`);
    }
  } catch (error) {
    if (error instanceof StoreError || error instanceof SyntaxError)
      return JSON.stringify({ error: error.message });
    throw error;
  }
}
