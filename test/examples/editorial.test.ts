import { describe, expect, it } from 'vitest';
import { runEditorialAgent } from '../../examples/editorial/agent.js';
import { scriptedModel } from '../../examples/editorial/scripted-model.js';
import { ContentStore, inspect } from '../../examples/editorial/store.js';
import { executeTool } from '../../examples/editorial/tools.js';
import { normalizeToolCalls } from '../../src/index.js';

// The demo agent's parts, in-process: the loop over the scripted model, the store it changes and
// the record ai-eval reads from its transcript. test/demo.e2e.test.ts runs the whole demo.
const ask = (content: string) =>
  runEditorialAgent([{ role: 'user', content }], { client: scriptedModel(), model: 'scripted' });

describe('the editorial demo agent', () => {
  it('creates a node in its own store, and the transcript is the tool-call record', async () => {
    const run = await ask("Create a draft page titled 'Shipping FAQ'.");
    expect(run.output).toBe("I've created the draft page Shipping FAQ (node 9).");
    expect(inspect(run.store, { title: 'Shipping FAQ' })).toMatchObject({
      node: { id: 9, type: 'page', status: 'draft' },
      changes: [{ op: 'create', id: 9 }],
    });
    expect(normalizeToolCalls(run.messages)).toEqual([
      { function_name: 'search_content', arguments: { query: 'shipping faq' }, status: 'ok' },
      {
        function_name: 'create_node',
        arguments: { title: 'Shipping FAQ', type: 'page', status: 'draft' },
        status: 'ok',
      },
    ]);
    // Every run starts from the seed.
    expect(inspect(new ContentStore(), { title: 'Shipping FAQ' }).node).toBeNull();
  });

  it('records a refused update as failed and leaves the store unchanged', async () => {
    const run = await ask("Rename the Careers page to 'Join us'.");
    expect(normalizeToolCalls(run.messages).map((c) => [c.function_name, c.status])).toEqual([
      ['search_content', 'ok'],
      ['update_node', 'error'],
    ]);
    expect(run.messages.at(-2)).toMatchObject({
      role: 'tool',
      content: '{"error":"node 5 is locked: Sam Okafor is editing it"}',
    });
    expect(inspect(run.store, { id: 5 })).toMatchObject({ node: { title: 'Careers' }, changes: [] });
  });

  it('keeps the truth a claim of work can be checked against', async () => {
    const run = await ask('Publish the Spring launch checklist.');
    expect(run.output).toContain("I've published the Spring launch checklist");
    expect(inspect(run.store, { id: 4 })).toMatchObject({ node: { status: 'draft' }, changes: [] });
  });

  it('shows a lookup that wrote, and a deletion, in the change log', async () => {
    const lookup = await ask('What does the Pricing page say about refunds?');
    expect(inspect(lookup.store, {}).changes.map((c) => [c.op, c.id])).toEqual([['update', 2]]);
    const deleted = await runEditorialAgent(
      [
        { role: 'user', content: 'Delete the Winter promo article.' },
        { role: 'assistant', content: 'Shall I go ahead?' },
        { role: 'user', content: 'Yes, delete it.' },
      ],
      { client: scriptedModel(), model: 'scripted' },
    );
    expect(inspect(deleted.store, { id: 7 })).toEqual({ node: null, changes: [{ op: 'delete', id: 7 }] });
  });

  it('returns failures to the model as error results, never throws them', () => {
    const store = new ContentStore();
    expect(executeTool(store, 'get_node', '{"id":42}')).toBe('{"error":"node 42 not found"}');
    expect(executeTool(store, 'get_node', '{"id":"2"}')).toBe('{"error":"id must be an integer"}');
    expect(executeTool(store, 'get_node', '{not json')).toMatch(/^\{"error":".*JSON/);
    expect(executeTool(store, 'publish_node', '{}')).toBe('{"error":"unknown tool publish_node"}');
    expect(executeTool(store, 'create_node', '{"title":"x"}')).toBe(
      '{"error":"title and type are required"}',
    );
    expect(store.changes).toEqual([]);
  });

  it('answers an unscripted question without tools', async () => {
    const run = await ask('What is the weather like?');
    expect(normalizeToolCalls(run.messages)).toEqual([]);
    expect(run.output).toContain('I can search, read, create, update and delete');
  });
});
