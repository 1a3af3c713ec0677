import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FORBIDDEN_PREFIXES, readOnlyRun } from '../../src/graders/read-only-run.js';
import { buildContext } from '../../src/grading/context.js';
import { normalizeToolCatalog } from '../../src/grading/tool-catalog.js';
import { normalizeToolCalls } from '../../src/grading/tool-calls.js';
import type { GradeResult, ToolCall } from '../../src/grading/types.js';
import { ROOT } from '../helpers/paths.js';

const call = (function_name: string, plugin_id?: string): ToolCall => ({
  function_name,
  ...(plugin_id ? { plugin_id } : {}),
  arguments: {},
});

function grade(toolCalls: ToolCall[] | undefined, metadata?: Record<string, unknown>): GradeResult {
  const context = buildContext({ id: 'q', input: 'x', ...(metadata ? { metadata } : {}) }, { toolCalls });
  return readOnlyRun.grade('x', 'done', context, { result: readOnlyRun.result }) as GradeResult;
}

/** The normalised calls of a fixture under fixtures/records/<sdk>/<name>.json. */
function recordOf(sdk: string, name: string): ToolCall[] {
  const path = join(ROOT, 'fixtures', 'records', sdk, `${name}.json`);
  return normalizeToolCalls((JSON.parse(readFileSync(path, 'utf8')) as { value: unknown }).value);
}

/** read_only_run on `calls` with the target's tool catalog `tools`. */
function withCatalog(calls: ToolCall[], tools: unknown): GradeResult {
  const context = buildContext(
    { id: 'q', input: 'x' },
    { toolCalls: calls, tools: normalizeToolCatalog(tools) },
  );
  return readOnlyRun.grade('x', 'done', context, { result: readOnlyRun.result }) as GradeResult;
}

describe('read_only_run', () => {
  it('is binary 0-1 and observes actions', () => {
    expect(readOnlyRun.displayLabel).toBe('Read-only run (binary, 0-1)');
    expect([readOnlyRun.minScore, readOnlyRun.maxScore, readOnlyRun.observesActions]).toEqual([0, 1, true]);
    expect(DEFAULT_FORBIDDEN_PREFIXES).toEqual(['create_', 'update_', 'delete_', 'edit_', 'save_']);
  });

  it('errors without a record instead of passing', () => {
    expect(grade(undefined)).toMatchObject({
      score: null,
      error: true,
      reason: 'no tool-call record available, cannot verify the run was read-only',
    });
  });

  it('scores an empty record 1', () => {
    expect(grade([])).toMatchObject({
      score: 1,
      composite: 5,
      error: false,
      reason: 'no mutating tool among 0 recorded calls (from the agent tool-call record)',
    });
  });

  it('passes read-only calls, counting them', () => {
    expect(grade([call('list_nodes'), call('get_user')]).reason).toBe(
      'no mutating tool among 2 recorded calls (from the agent tool-call record)',
    );
  });

  it('fails on a mutating fragment anywhere in the name, naming each offender once', () => {
    const r = grade([
      call('create_node'),
      call('list_nodes'),
      call('bulk_update_nodes'),
      call('create_node'),
    ]);
    expect(r).toMatchObject({ score: 0, composite: 0 });
    expect(r.reason).toBe(
      'mutating tools called: create_node, bulk_update_nodes (from the agent tool-call record)',
    );
  });

  it('falls back to plugin_id when function_name is empty, and matches names case-sensitively as the seed', () => {
    expect(grade([call('', 'save_config')]).reason).toBe(
      'mutating tools called: save_config (from the agent tool-call record)',
    );
    expect(grade([call('Create_Node')]).score).toBe(1);
  });

  it('fails a mutating call still awaiting approval: the agent asked to mutate, though it never ran', () => {
    const pending = JSON.parse(
      readFileSync(join(ROOT, 'fixtures', 'records', 'ai-sdk', 'approval-pending.json'), 'utf8'),
    ) as { value: unknown };
    const calls = normalizeToolCalls(pending.value);
    expect(calls).toEqual([
      { function_name: 'delete_draft', arguments: { draft: 'old draft' }, status: 'unknown' },
    ]);
    const g = grade(calls);
    expect(g.score).toBe(0);
    expect(g.reason).toContain('mutating tools called: delete_draft');
  });

  it('uses metadata.forbidden_tool_prefixes: strings only, trimmed, lowercased', () => {
    const metadata = { forbidden_tool_prefixes: ['  PUBLISH_ ', 7, '', null] };
    expect(grade([call('publish_node')], metadata).score).toBe(0);
    // The configured list replaces the defaults.
    expect(grade([call('create_node')], metadata).score).toBe(1);
  });

  it('falls back to the defaults for an empty or unusable list', () => {
    for (const forbidden_tool_prefixes of [[], [' ', 3], 'create_', null]) {
      expect(grade([call('delete_user')], { forbidden_tool_prefixes }).score).toBe(0);
    }
  });
});

describe('read_only_run with a tool catalog', () => {
  it('tau-bench: write tools the fragments miss fail once the catalog says they are not read-only', () => {
    const calls = [call('get_order_details'), call('exchange_delivered_order_items')];
    // By name alone, exchange_ is no mutating fragment: the run passes.
    expect(grade(calls).score).toBe(1);
    const tools = [
      { name: 'get_order_details', readOnly: true },
      { name: 'exchange_delivered_order_items', readOnly: false },
    ];
    expect(withCatalog(calls, tools)).toMatchObject({
      score: 0,
      reason:
        'mutating tools called: exchange_delivered_order_items (from the agent tool-call record; read-only or not as the tool catalog declares: get_order_details, exchange_delivered_order_items)',
    });
  });

  it('MCP annotations: readOnlyHint beats a fragment, destructiveHint marks a write, unknown tools fall back to fragments', () => {
    const list = JSON.parse(
      readFileSync(join(ROOT, 'fixtures', 'records', 'mcp', 'tools-list.json'), 'utf8'),
    ) as {
      value: unknown;
    };
    // create_preview contains create_ but declares readOnlyHint; archive_node declares nothing.
    expect(
      withCatalog([call('create_preview'), call('archive_node'), call('list_nodes')], list.value).score,
    ).toBe(1);
    expect(withCatalog([call('purge_cache')], list.value).reason).toBe(
      'mutating tools called: purge_cache (from the agent tool-call record; read-only or not as the tool catalog declares: purge_cache)',
    );
    expect(withCatalog([call('publish_node')], list.value).score).toBe(0);
    // A tool the catalog does not list still meets the fragments.
    expect(withCatalog([call('delete_node')], list.value).reason).toBe(
      'mutating tools called: delete_node (from the agent tool-call record)',
    );
  });
});

describe('read_only_run and a catalog that declares a whole toolset or MCP server', () => {
  // @anthropic-ai/sdk 1.16 browser toolset (fixtures/records/generate.ts, group
  // anthropic-v1-16-browser-toolset): each member call is a tool_use with toolset_name 'browser'.
  const browser = recordOf('anthropic', 'v1-16-browser-toolset');

  it('reads a toolset member with its toolset as plugin_id', () => {
    expect(browser.map((c) => [c.function_name, c.plugin_id, c.status])).toEqual([
      ['navigate', 'browser', 'ok'],
      ['get_page_text', 'browser', 'ok'],
      ['form_input', 'browser', 'ok'],
    ]);
    // No fragment marks a browser action; form_input may have changed something, so the run
    // cannot be verified without a catalog, while navigating and reading can.
    expect(grade(browser)).toMatchObject({ score: null, error: true });
    expect(grade(browser).reason).toMatch(/^form_input may have changed something/);
    expect(grade(browser.slice(0, 2)).score).toBe(1);
  });

  it('a toolset declared not read-only makes its members mutating, unless a member is declared itself', () => {
    // It passed: the catalog named 'browser', the calls 'navigate', 'get_page_text', 'form_input'.
    expect(withCatalog(browser, [{ name: 'browser', readOnly: false }])).toMatchObject({
      score: 0,
      reason:
        'mutating tools called: navigate, get_page_text, form_input (from the agent tool-call record; read-only or not as the tool catalog declares: browser)',
    });
    const members = [
      { name: 'browser', readOnly: false },
      { name: 'navigate', readOnly: true },
      { name: 'get_page_text', readOnly: true },
    ];
    expect(withCatalog(browser, members)).toMatchObject({
      score: 0,
      reason:
        'mutating tools called: form_input (from the agent tool-call record; read-only or not as the tool catalog declares: navigate, get_page_text, browser)',
    });
    expect(withCatalog(browser.slice(0, 2), members).score).toBe(1);
  });

  it('a toolset or server declared read-only never clears a member the fragments or the catalog call mutating', () => {
    const mcp = [{ function_name: 'delete_repo', plugin_id: 'github', arguments: {} }];
    expect(withCatalog(mcp, [{ name: 'github', readOnly: true }]).score).toBe(0);
    expect(
      withCatalog(browser, [
        { name: 'browser', readOnly: true },
        { name: 'form_input', readOnly: false },
      ]).score,
    ).toBe(0);
  });
});

describe('read_only_run and built-in tools that act by their nature', () => {
  // @openai/agents-core 0.20.0 (fixtures/records/generate.ts, group agents-sdk-pending-client-tools):
  // a shell command, a patch of src/config.ts and a click, approved and run.
  const session = recordOf('agents-sdk', 'approved-client-tools-session');
  const withoutPatch = session.filter((c) => c.function_name !== 'apply_patch');

  it('a patch writes: 0, though no fragment is in its name', () => {
    // It passed: apply_patch, shell and computer contain no create_, update_, delete_ ...
    expect(grade(session)).toMatchObject({
      score: 0,
      reason: 'mutating tools called: apply_patch (from the agent tool-call record)',
    });
  });

  it('a shell command or a click may have written: an error naming them and the fix, never a pass', () => {
    const graded = grade(withoutPatch);
    expect(graded).toMatchObject({ score: null, error: true });
    expect(graded.reason).toBe(
      "shell, computer may have changed something (a shell command, a click or keys typed) and the record cannot tell: cannot verify the run was read-only. If they only read here, declare them in the target's tool catalog (tools: [{ name: 'shell', readOnly: true }])",
    );
    const declared = [
      { name: 'shell', readOnly: true },
      { name: 'computer', readOnly: true },
    ];
    expect(withCatalog(withoutPatch, declared).score).toBe(1);
    expect(withCatalog(withoutPatch, [{ name: 'shell', readOnly: false }]).score).toBe(0);
  });

  it('looking is reading: a screenshot, a scroll, a text editor view', () => {
    const reads: ToolCall[] = [
      { function_name: 'computer', arguments: { action: { type: 'screenshot' } } },
      { function_name: 'computer', arguments: { actions: [{ type: 'scroll' }, { type: 'wait' }] } },
      { function_name: 'computer', arguments: { action: 'mouse_move', coordinate: [10, 20] } },
      { function_name: 'str_replace_based_edit_tool', arguments: { command: 'view', path: 'a.ts' } },
    ];
    expect(grade(reads).score).toBe(1);
    expect(grade([{ function_name: 'computer', arguments: { action: 'left_click' } }]).error).toBe(true);
    expect(
      grade([
        { function_name: 'str_replace_based_edit_tool', arguments: { command: 'str_replace', path: 'a.ts' } },
      ]),
    ).toMatchObject({
      score: 0,
      reason: 'mutating tools called: str_replace_based_edit_tool (from the agent tool-call record)',
    });
  });

  it('a browser toolset declared read-only settles its clicks and form inputs, never a fragment', () => {
    const browser = recordOf('anthropic', 'v1-16-browser-toolset');
    expect(withCatalog(browser, [{ name: 'browser', readOnly: true }]).score).toBe(1);
    const deleting = [...browser, { function_name: 'delete_cookie', plugin_id: 'browser', arguments: {} }];
    expect(withCatalog(deleting, [{ name: 'browser', readOnly: true }]).score).toBe(0);
  });
});

describe('read_only_run and calls made inside another call (ai 7 code mode)', () => {
  // @ai-sdk/code-mode 1.0.42 on ai 7.0.173 (fixtures/records/generate.ts, group ai-sdk-v7-code-mode):
  // the model's program called delete_draft inside the `code` call; the record holds only `code`.
  const record = (name: string): unknown =>
    (
      JSON.parse(readFileSync(join(ROOT, 'fixtures', 'records', 'ai-sdk', `${name}.json`), 'utf8')) as {
        value: unknown;
      }
    ).value;
  const codeMode = record('v7-code-mode') as { steps: unknown[]; responseMessages: unknown[] };

  it('errors when a code-mode call ran a program that calls tools, never passes', () => {
    for (const shape of [codeMode, codeMode.steps, codeMode.responseMessages]) {
      const graded = grade(normalizeToolCalls(shape));
      expect(graded).toMatchObject({ score: null, error: true });
      expect(graded.reason).toMatch(/cannot show the calls made inside code\b.*code mode.*:tool-<n>/);
    }
  });

  it('grades the calls made inside once the record holds them (code mode ids <call id>:tool-<n>)', () => {
    const graded = grade(
      normalizeToolCalls([...codeMode.responseMessages, ...(record('v7-code-mode-nested') as unknown[])]),
    );
    expect(graded).toMatchObject({ score: 0, error: false });
    expect(graded.reason).toMatch(/^mutating tools called: delete_draft /);
    const readOnly = grade(
      normalizeToolCalls([
        ...codeMode.responseMessages,
        { type: 'tool-call', toolCallId: 'call_1:tool-1', toolName: 'list_drafts', input: {} },
      ]),
    );
    expect(readOnly).toMatchObject({ score: 1, error: false });
  });

  it('a visible mutating call still fails the run, and a program that calls no tool reads as before', () => {
    const mutating = normalizeToolCalls([
      ...codeMode.responseMessages,
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'delete_node', input: {} },
    ]);
    expect(grade(mutating)).toMatchObject({ score: 0, error: false });
    expect(grade(normalizeToolCalls(record('v7-code-mode-no-tools')))).toMatchObject({
      score: 1,
      error: false,
    });
  });

  it('keeps the mark when the normalised record is read again', () => {
    expect(grade(normalizeToolCalls(normalizeToolCalls(codeMode)))).toMatchObject({
      score: null,
      error: true,
    });
  });
});
