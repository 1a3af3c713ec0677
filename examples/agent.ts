/**
 * A scripted site-assistant agent for the demo: no model, no network. It picks tools by keyword,
 * runs them against an in-memory content store and answers in prose, returning its tool calls in
 * the OpenAI Chat Completions shape, exactly as a real agent loop would hand them to ai-eval.
 */
import type { AgentRun } from 'ai-eval';

interface Node {
  id: number;
  title: string;
  status: 'published' | 'draft';
}

interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Runs the agent on one user message and returns what it said and what it did. */
export function runSiteAssistant(input: string): AgentRun {
  const nodes: Node[] = [
    { id: 1, title: 'Welcome', status: 'published' },
    { id: 2, title: 'Pricing', status: 'published' },
    { id: 3, title: 'Roadmap', status: 'draft' },
  ];
  const calls: OpenAiToolCall[] = [];
  const call = (name: string, args: Record<string, unknown>): void => {
    calls.push({
      id: `call_${calls.length + 1}`,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    });
  };
  const text = input.toLowerCase();

  if (text.startsWith('create')) {
    const title = /"([^"]+)"/.exec(input)?.[1] ?? 'Untitled';
    call('list_nodes', { title });
    call('create_node', { title, status: 'draft' });
    return { output: `Created the draft "${title}".`, toolCalls: calls };
  }
  if (text.includes('draft')) {
    call('list_nodes', { status: 'draft' });
    const drafts = nodes.filter((n) => n.status === 'draft');
    return {
      output: `There is ${drafts.length} draft: ${drafts.map((n) => n.title).join(', ')}.`,
      toolCalls: calls,
    };
  }
  if (text.includes('json')) {
    call('list_nodes', { status: 'published' });
    const published = nodes
      .filter((n) => n.status === 'published')
      .map((n) => ({ id: n.id, title: n.title }));
    return { output: JSON.stringify({ published }), toolCalls: calls };
  }
  if (text.includes('pricing')) {
    call('get_node', { id: 2 });
    return { output: '## Pricing\n\nThe Pricing page (node 2) is published.', toolCalls: calls };
  }
  return { output: 'I can list, read and create pages.', toolCalls: calls };
}
