import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAiEvalError } from '../../src/errors.js';
import { buildContext } from '../../src/grading/context.js';
import { closestName, declaredMutating, normalizeToolCatalog } from '../../src/grading/tool-catalog.js';
import type { Question } from '../../src/grading/types.js';
import { resolveTarget } from '../../src/run/target.js';
import { responsesTools, tauRetailTools } from '../../fixtures/records/openai.js';
import { ROOT } from '../helpers/paths.js';

const mcpList = (
  JSON.parse(readFileSync(join(ROOT, 'fixtures', 'records', 'mcp', 'tools-list.json'), 'utf8')) as {
    value: unknown;
  }
).value;

describe('normalizeToolCatalog', () => {
  it('reads a Chat Completions tools array (tau-bench get_info shapes)', () => {
    expect(normalizeToolCatalog(tauRetailTools).map((t) => t.name)).toContain(
      'exchange_delivered_order_items',
    );
    expect(normalizeToolCatalog(tauRetailTools)).toHaveLength(11);
  });

  it('reads a Responses tools array: function tools, hosted tools by their call names, MCP servers', () => {
    expect(normalizeToolCatalog(responsesTools)).toEqual([
      { name: 'create_ticket' },
      { name: 'web_search', readOnly: true },
      { name: 'drupal' },
    ]);
  });

  it('reads an MCP tools/list result, bare or in its JSON-RPC response, keeping only stated hints', () => {
    const expected = [
      { name: 'list_nodes', readOnly: true },
      { name: 'get_node', readOnly: true },
      { name: 'publish_node', readOnly: false, destructive: false },
      { name: 'purge_cache', destructive: true },
      { name: 'create_preview', readOnly: true },
      { name: 'archive_node' },
    ];
    expect(normalizeToolCatalog(mcpList)).toEqual(expected);
    expect(normalizeToolCatalog({ jsonrpc: '2.0', id: 1, result: mcpList })).toEqual(expected);
  });

  it('reads a live AI SDK tools object by its keys', () => {
    const tools = {
      calculator: {
        description: 'adds',
        inputSchema: { jsonSchema: { type: 'object' } },
        execute: () => Promise.resolve(4),
      },
      delete_node: {
        description: 'deletes',
        inputSchema: { jsonSchema: { type: 'object' } },
        execute: () => Promise.resolve(1),
      },
    };
    expect(normalizeToolCatalog(tools)).toEqual([{ name: 'calculator' }, { name: 'delete_node' }]);
  });

  it('reads { name, readOnly } entries, Anthropic definitions, Gemini declarations and plain names', () => {
    expect(
      normalizeToolCatalog([
        { name: 'list_nodes', readOnly: true },
        { name: 'delete_node', readOnly: false, destructive: true },
        { name: 'create_ticket', description: 'Anthropic tool', input_schema: { type: 'object' } },
        { type: 'web_search_20250305', name: 'web_search' },
        { functionDeclarations: [{ name: 'get_weather', parameters: {} }] },
        'calculate',
      ]),
    ).toEqual([
      { name: 'list_nodes', readOnly: true },
      { name: 'delete_node', readOnly: false, destructive: true },
      { name: 'create_ticket' },
      { name: 'web_search' },
      { name: 'get_weather' },
      { name: 'calculate' },
    ]);
  });

  it('is a loud INVALID_TOOL_CATALOG error for an unknown shape, naming the path', () => {
    for (const [input, path] of [
      [[{ description: 'no name' }], 'tools[0]'],
      ['list_nodes', 'tools'],
      [{ calculator: 'not a tool' }, 'tools.calculator'],
    ] as const) {
      let caught: unknown;
      try {
        normalizeToolCatalog(input);
      } catch (error) {
        caught = error;
      }
      expect(isAiEvalError(caught, 'INVALID_TOOL_CATALOG')).toBe(true);
      expect((caught as Error).message).toContain(`Unrecognised tool catalog at ${path}:`);
    }
  });
});

describe('declaredMutating and closestName', () => {
  const catalog = normalizeToolCatalog(mcpList);

  it('says what the catalog declares, and nothing for tools it does not know or hint', () => {
    expect(declaredMutating(catalog, 'list_nodes')).toBe(false);
    expect(declaredMutating(catalog, 'publish_node')).toBe(true);
    expect(declaredMutating(catalog, 'purge_cache')).toBe(true);
    expect(declaredMutating(catalog, 'archive_node')).toBeUndefined();
    expect(declaredMutating(catalog, 'unknown_tool')).toBeUndefined();
  });

  it('suggests the closest name only when it is a likely typo', () => {
    expect(closestName('list_node', ['list_nodes', 'delete_node'])).toBe('list_nodes');
    expect(closestName('Get_Node', ['get_node'])).toBe('get_node');
    expect(closestName('send_email', ['list_nodes', 'delete_node'])).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });
});

describe('the catalog on a target and in the context', () => {
  it('is checked when the target is resolved', () => {
    expect(() =>
      resolveTarget({ name: 't', mode: 'agent', graders: ['read_only_run'], tools: [{ nope: 1 }] }),
    ).toThrow(/target "t": Unrecognised tool catalog at tools\[0\]/);
    expect(() =>
      resolveTarget({
        name: 't',
        mode: 'agent',
        graders: ['read_only_run'],
        tools: [{ name: 'list_nodes', readOnly: true }],
      }),
    ).not.toThrow();
  });

  it('checks the target claim patterns too', () => {
    expect(() =>
      resolveTarget({
        name: 't',
        mode: 'agent',
        graders: ['claims_grader'],
        claimPatterns: [{ action: 'x', verbs: [], tools: ['x'] }],
      }),
    ).toThrow('target "t": claimPatterns[0].verbs: must be a non-empty list of words');
  });

  it('sets context.tools and context.claim_patterns only from the target, never from the row', () => {
    const row = {
      id: 'q',
      input: 'x',
      tools: ['fake'],
      claim_patterns: ['fake'],
    } as unknown as Partial<Question>;
    const bare = buildContext(row);
    expect('tools' in bare).toBe(false);
    expect('claim_patterns' in bare).toBe(false);
    const patterns = [{ action: 'refund', verbs: ['refunded'], tools: ['refund'] }];
    const given = buildContext(row, { tools: [{ name: 'list_nodes' }], claimPatterns: patterns });
    expect(given.tools).toEqual([{ name: 'list_nodes' }]);
    expect(given.claim_patterns).toBe(patterns);
  });
});
