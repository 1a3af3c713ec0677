import { describe, expect, it } from 'vitest';
import 'ai-eval/vitest';
import { runSiteAssistant } from './agent.js';

describe('site assistant, one assertion at a time', () => {
  it('answers a lookup without writing anything', async () => {
    const run = runSiteAssistant('Which pages are still drafts?');
    await expect(run).toPassGrader('read_only_run', { target: 'site-assistant-matchers' });
  });

  it('calls the tools the question needs', async () => {
    const run = runSiteAssistant('Create a draft page called "FAQ".');
    await expect(run).toPassGrader('tool_usage_grader', {
      target: 'site-assistant-matchers',
      question: { expected_tools: ['list_nodes', { name: 'create_node', after: 'list_nodes' }] },
    });
  });
});
