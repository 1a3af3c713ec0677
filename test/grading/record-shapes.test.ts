import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAiEvalError } from '../../src/errors.js';
import { normalizeToolCalls, recordOf } from '../../src/grading/tool-calls.js';
import type { ToolCall } from '../../src/grading/types.js';
import { gradeQuestion } from '../../src/run/grade-question.js';
import {
  chatCustomToolCompletion,
  chatErrorTranscript,
  chatRunToolsUnknownTool,
  chatTurnScopedIds,
  responsesHosted,
  responsesInput,
  responsesMcpApprovalPending,
  responsesMcpApproved,
  responsesMcpDenied,
} from '../../fixtures/records/openai.js';
import { ROOT } from '../helpers/paths.js';

/** A fixture built from an SDK (fixtures/records/generate.ts): its value, and the package it came from. */
function fixture(name: string): { value: unknown; source: { package: string; version: string } } {
  return JSON.parse(readFileSync(join(ROOT, 'fixtures', 'records', `${name}.json`), 'utf8')) as {
    value: unknown;
    source: { package: string; version: string };
  };
}
const value = (name: string): unknown => fixture(name).value;
const names = (calls: ToolCall[]) => calls.map((c) => c.function_name);

describe('fixtures name the SDK and exact version they were built from', () => {
  it.each([
    ['ai-sdk/ui-messages', 'ai', '6.0.326'],
    ['ai-sdk/v4-generate-text', 'ai', '4.3.19'],
    ['agents-sdk/tool-timeout', '@openai/agents-core', '0.20.0'],
    ['langchain/chunks', '@langchain/core', '1.4.0'],
    ['google-genai/afc-limit', '@google/genai', '2.32.0'],
    ['agents-sdk/run-items', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/rejected-approval', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/shell-computer', '@openai/agents-core', '0.20.0'],
    ['ai-sdk/v4-is-error', 'ai', '4.3.19'],
    ['ai-sdk/mcp-tool-error', '@ai-sdk/mcp', '1.0.102'],
    ['ai-sdk/mcp-ui-messages', '@ai-sdk/mcp', '1.0.102'],
    ['ai-sdk/v4-mcp-tool-error', 'ai', '4.3.19'],
    ['ai-sdk/v4-redacted-reasoning', 'ai', '4.3.19'],
    ['langchain/anthropic-hosted', '@langchain/anthropic', '1.5.11'],
    ['langchain/openai-hosted', '@langchain/openai', '1.6.0'],
    ['langchain/serialised', '@langchain/core', '1.4.0'],
    ['google-genai/response', '@google/genai', '2.32.0'],
    ['anthropic/server-tools-message', '@anthropic-ai/sdk', '1.14.0'],
    ['mcp/session', '@modelcontextprotocol/sdk', '1.32.2'],
    ['mcp/task-session', '@modelcontextprotocol/sdk', '1.32.2'],
    ['ai-sdk/approval-pending', 'ai', '6.0.326'],
    ['ai-sdk/approval-denied', 'ai', '6.0.326'],
    ['ai-sdk/approval-granted', 'ai', '6.0.326'],
    ['agents-sdk/pending-approval', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/pending-approval-history', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/pending-approval-session', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/pending-approval-interruptions', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/raw-responses', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/hosted-mcp-pending', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/hosted-mcp-rejected', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/hosted-mcp-approved', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/pending-client-tools', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/pending-client-tools-session', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/approved-client-tools-session', '@openai/agents-core', '0.20.0'],
    ['agents-sdk/rejected-client-tools-session', '@openai/agents-core', '0.20.0'],
  ])('%s', (name, pkg, version) => {
    expect(fixture(name).source).toEqual({ package: pkg, version });
  });
});

describe('Vercel AI SDK', () => {
  it('reads UIMessage tool parts (useChat messages), never an empty record', () => {
    expect(normalizeToolCalls(value('ai-sdk/ui-messages'))).toEqual([
      { function_name: 'calculator', arguments: { expression: '2+2' }, status: 'ok' },
      { function_name: 'delete_node', arguments: { nid: 3 }, status: 'ok' },
      { function_name: 'web_lookup', arguments: { url: 'https://example.com' }, status: 'error' },
    ]);
  });

  it('fails read_only_run on a UIMessage run whose parts show tool-delete_node', async () => {
    const result = await gradeQuestion({
      question: { id: 'q', input: 'What is 2+2?' },
      response: { output: 'It is 4.', messages: value('ai-sdk/ui-messages') as unknown[] },
      graders: ['read_only_run'],
    });
    expect(result.grades[0]).toMatchObject({ score: 0, reason: expect.stringContaining('delete_node') });
  });

  it('reads a generateText result with structured output by its steps, not its output array', () => {
    const result = value('ai-sdk/generate-text-output') as { output: unknown };
    expect(result.output).toEqual(['approved', 'rf_inv_123']);
    expect(normalizeToolCalls(result)).toEqual([
      { function_name: 'lookup_invoice', arguments: { id: 'rf_inv_123' }, status: 'ok' },
      { function_name: 'approve_refund', arguments: { invoice: 'rf_inv_123' }, status: 'error' },
    ]);
  });

  it('reads an AI SDK 4 generateText result and its steps (text, toolCalls, toolResults; no content)', async () => {
    // Each v4 step has a `text`: it was once taken for a Gemini text part and read as no calls.
    const result = value('ai-sdk/v4-generate-text') as { steps: unknown[] };
    const expected = [{ function_name: 'delete_node', arguments: { id: 7 }, status: 'ok' }];
    expect(normalizeToolCalls(result)).toEqual(expected);
    expect(normalizeToolCalls(result.steps)).toEqual(expected);
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Which pages are still drafts?' },
      response: { output: 'No pages were deleted.', toolCalls: result },
      graders: ['read_only_run'],
    });
    expect(graded.grades[0]).toMatchObject({ score: 0, reason: expect.stringContaining('delete_node') });
  });

  it('reads an object holding toolCalls beside a text, and fails loudly on a text beside an unknown list', () => {
    const calls = [{ function_name: 'delete_node', arguments: { id: 7 } }];
    expect(normalizeToolCalls({ text: 'Done.', toolCalls: calls })).toEqual(calls);
    expect(() => normalizeToolCalls({ text: 'Done.', foo: [1] })).toThrow(
      /Unrecognised tool-call record at \$/,
    );
  });

  it('refuses a streamText result whose steps are still a promise, saying to await them', () => {
    // The surface of ai 6's DefaultStreamTextResult: getters that return promises.
    class StreamTextResult {
      get steps(): Promise<unknown[]> {
        return Promise.resolve([]);
      }
      get text(): Promise<string> {
        return Promise.resolve('No pages were deleted.');
      }
      get toolCalls(): Promise<unknown[]> {
        return Promise.resolve([]);
      }
    }
    expect(() => normalizeToolCalls(new StreamTextResult())).toThrow(
      expect.objectContaining({
        code: 'INVALID_TOOL_CALLS',
        message: expect.stringContaining('pass `await result.steps`'),
      }),
    );
  });

  it('reads model messages, an error-text tool result failing its call', () => {
    expect(
      normalizeToolCalls(value('ai-sdk/model-messages')).map((c) => [c.function_name, c.status]),
    ).toEqual([
      ['lookup_invoice', 'ok'],
      ['approve_refund', 'error'],
    ]);
  });

  it('passes over the redacted-reasoning parts of AI SDK 4 model messages instead of refusing the record', () => {
    expect(normalizeToolCalls(value('ai-sdk/v4-redacted-reasoning'))).toEqual([
      { function_name: 'delete_node', arguments: { id: 7 }, status: 'ok' },
    ]);
  });

  it('fails an AI SDK 4 tool-result part that carries isError', () => {
    expect(normalizeToolCalls(value('ai-sdk/v4-is-error'))).toEqual([
      { function_name: 'unpublish_node', arguments: { id: 7 }, status: 'error' },
    ]);
  });

  it('fails an MCP tool whose server answered isError: the AI SDK MCP clients return that result as the output', async () => {
    const failed = [{ function_name: 'publish_node', arguments: { nid: 3 }, status: 'error' }];
    const result = value('ai-sdk/mcp-tool-error') as { steps: unknown[] };
    expect(normalizeToolCalls(result)).toEqual(failed);
    expect(normalizeToolCalls(result.steps)).toEqual(failed);
    expect(normalizeToolCalls(value('ai-sdk/mcp-ui-messages'))).toEqual(failed);
    const v4 = value('ai-sdk/v4-mcp-tool-error') as { response: { messages: unknown[] } };
    expect(normalizeToolCalls(v4)).toEqual(failed);
    expect(normalizeToolCalls(v4.response.messages)).toEqual(failed);
    const graded = await gradeQuestion({
      question: {
        id: 'q',
        input: 'Publish node 3',
        expected_tools: [{ name: 'publish_node', succeeded: true }],
      },
      response: { output: 'Node 3 is published.', toolCalls: result },
      graders: ['tool_usage_grader'],
    });
    expect(graded.grades[0]!.score).toBeLessThan(5);
  });

  it('records a provider-executed call as hosted, and a UI part still waiting for its output as unknown', () => {
    expect(
      normalizeToolCalls([
        {
          type: 'tool-call',
          toolCallId: 't1',
          toolName: 'web_search',
          input: { query: 'x' },
          providerExecuted: true,
        },
        { type: 'tool-result', toolCallId: 't1', toolName: 'web_search', output: [], providerExecuted: true },
        { type: 'tool-search', toolCallId: 't2', state: 'input-available', input: { q: 'y' } },
      ]),
    ).toEqual([
      { function_name: 'web_search', arguments: { query: 'x' }, kind: 'hosted', status: 'ok' },
      { function_name: 'search', arguments: { q: 'y' }, status: 'unknown' },
    ]);
  });
});

describe('tool approval: a call awaiting approval has no result, a denied one failed', () => {
  const draft = { function_name: 'delete_draft', arguments: { draft: 'old draft' } };

  it('AI SDK 6: a call whose tool-approval-request has no response is unknown, even with no other result', () => {
    const result = value('ai-sdk/approval-pending') as { response: { messages: unknown[] } };
    expect(normalizeToolCalls(result)).toEqual([{ ...draft, status: 'unknown' }]);
    expect(normalizeToolCalls(result.response.messages)).toEqual([{ ...draft, status: 'unknown' }]);
  });

  it('AI SDK 6: a denied approval fails its call, by its tool-approval-response alone or its execution-denied result', () => {
    const messages = value('ai-sdk/approval-denied') as unknown[];
    expect(normalizeToolCalls(messages)).toEqual([{ ...draft, status: 'error' }]);
    // Before the run resumed: only the approval response, linked to its call by the approval id.
    expect(normalizeToolCalls(messages.slice(0, 3))).toEqual([{ ...draft, status: 'error' }]);
  });

  it('AI SDK 6: a granted approval whose tool then ran is ok; granted but not yet run is unknown', () => {
    const messages = value('ai-sdk/approval-granted') as unknown[];
    expect(normalizeToolCalls(messages)).toEqual([{ ...draft, status: 'ok' }]);
    expect(normalizeToolCalls(messages.slice(0, 3))).toEqual([{ ...draft, status: 'unknown' }]);
  });

  it('AI SDK 6 UIMessage parts: approval-requested is unknown, approval-responded denied is an error', () => {
    const part = (state: string, approval: Record<string, unknown>) => ({
      type: 'tool-delete_draft',
      toolCallId: 'call_1',
      state,
      input: { draft: 'old draft' },
      approval,
    });
    expect(
      normalizeToolCalls([
        part('approval-requested', { id: 'a1' }),
        part('approval-responded', { id: 'a2', approved: false }),
        part('approval-responded', { id: 'a3', approved: true }),
      ]).map((c) => c.status),
    ).toEqual(['unknown', 'error', 'unknown']);
  });

  it('OpenAI Responses: a hosted MCP call awaiting approval is a call that never ran, and read_only_run and claims_grader see it', async () => {
    const node = { function_name: 'delete_node', plugin_id: 'drupal', arguments: { nid: 3 }, kind: 'hosted' };
    expect(normalizeToolCalls(responsesMcpApprovalPending)).toEqual([{ ...node, status: 'unknown' }]);
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Delete node 3.' },
      response: { output: 'I deleted node 3.', toolCalls: responsesMcpApprovalPending },
      graders: ['read_only_run', 'claims_grader'],
    });
    // The agent asked to delete (read_only_run fails it), and the deletion it claims never ran.
    expect(graded.grades.map((g) => [g.grader, g.score])).toEqual([
      ['read_only_run', 0],
      ['claims_grader', 0],
    ]);
    expect(graded.grades[1]!.reason).toContain('no result came back for it');
  });

  it('OpenAI Responses: an approved MCP call is one call, its mcp_call; a denied one failed', () => {
    const node = { function_name: 'delete_node', plugin_id: 'drupal', kind: 'hosted' };
    expect(normalizeToolCalls(responsesMcpApproved)).toEqual([
      { ...node, arguments: { nid: 3 }, status: 'ok' },
    ]);
    // Approved, but the call is not in the record yet: still waiting to run.
    expect(normalizeToolCalls(responsesMcpApproved.slice(0, 2))).toEqual([
      { ...node, arguments: { nid: 3 }, status: 'unknown' },
    ]);
    expect(normalizeToolCalls(responsesMcpDenied)).toEqual([
      { ...node, arguments: { nid: 4 }, status: 'error' },
    ]);
  });

  it('Agents SDK: a run interrupted for approval records the call as unknown (its tool_approval_item, no output)', () => {
    const items = value('agents-sdk/pending-approval');
    const expected = [{ function_name: 'delete_order', arguments: { order_id: '#W1' }, status: 'unknown' }];
    expect(normalizeToolCalls(items)).toEqual(expected);
    expect(normalizeToolCalls({ newItems: items })).toEqual(expected);
  });

  it('Agents SDK: a function_call with no function_call_result never ran, even when the record holds no result at all', async () => {
    // The session of the interrupted run: the pending call, with no result and no interruption.
    const session = value('agents-sdk/pending-approval-session');
    expect(normalizeToolCalls(session)).toEqual([
      { function_name: 'delete_order', arguments: { order_id: '#W1' }, status: 'unknown' },
    ]);
    const graded = await gradeQuestion({
      question: {
        id: 'q',
        input: 'Delete order #W1.',
        expected_tools: [{ name: 'delete_order', succeeded: true }],
      },
      response: { output: 'Order #W1 has been deleted.', toolCalls: session },
      graders: ['read_only_run', 'claims_grader', 'tool_usage_grader'],
    });
    // The agent asked to delete (read_only_run fails it); the deletion it claims never ran, so it
    // neither backs the claim nor meets succeeded: true.
    expect(graded.grades.map((g) => [g.grader, g.score])).toEqual([
      ['read_only_run', 0],
      ['claims_grader', 0],
      ['tool_usage_grader', 0],
    ]);
    expect(graded.grades[1]!.reason).toContain(
      'call #1 delete_order matches delete + order, but no result came back for it',
    );
    expect(graded.grades[2]!.reason).toContain('none that succeeded (no result came back for #1)');
  });

  it('Agents SDK: result.interruptions alone hold the calls awaiting approval; with newItems each counts once', async () => {
    // The approval item repeats its call. Passed alone, it was read as no call at all: read_only_run
    // passed a run that asked to delete an order.
    const interruptions = value('agents-sdk/pending-approval-interruptions');
    const pending = { function_name: 'delete_order', arguments: { order_id: '#W1' }, status: 'unknown' };
    expect(normalizeToolCalls(interruptions)).toEqual([pending]);
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Delete order #W1.' },
      response: { output: 'Order #W1 has been deleted.', toolCalls: interruptions },
      graders: ['read_only_run', 'claims_grader'],
    });
    expect(graded.grades.map((g) => [g.grader, g.score])).toEqual([
      ['read_only_run', 0],
      ['claims_grader', 0],
    ]);
    // newItems hold the call and its approval; with the interruptions beside them, in either order,
    // the call is still one call.
    const items = value('agents-sdk/pending-approval') as unknown[];
    const both = [...items, ...(interruptions as unknown[])];
    expect(normalizeToolCalls(items)).toEqual([pending]);
    expect(normalizeToolCalls(both)).toEqual([pending]);
    expect(normalizeToolCalls([...(interruptions as unknown[]), ...items])).toEqual([pending]);
  });

  it("Agents SDK: result.history and result.output of an interrupted run leave the pending call out (the SDK's own filter)", async () => {
    expect(value('agents-sdk/pending-approval-history')).toEqual([
      { type: 'message', role: 'user', content: 'Delete order #W1' },
    ]);
    expect(normalizeToolCalls(value('agents-sdk/pending-approval-history'))).toEqual([]);
    // No call backs the claim either.
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Delete order #W1.' },
      response: {
        output: 'Order #W1 has been deleted.',
        toolCalls: value('agents-sdk/pending-approval-history'),
      },
      graders: ['claims_grader'],
    });
    expect(graded.grades[0]!.score).toBe(0);
  });

  it('Agents SDK: a hosted MCP call awaiting approval is a hosted call that never ran, read from its run items', async () => {
    const node = { function_name: 'delete_node', plugin_id: 'drupal', arguments: { nid: 3 }, kind: 'hosted' };
    const items = value('agents-sdk/hosted-mcp-pending');
    expect(normalizeToolCalls(items)).toEqual([{ ...node, status: 'unknown' }]);
    // The tool_approval_item repeats the request: one call, not two.
    expect(normalizeToolCalls({ newItems: items })).toEqual([{ ...node, status: 'unknown' }]);
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Delete node 3.' },
      response: { output: 'I deleted node 3.', toolCalls: items },
      graders: ['read_only_run', 'claims_grader'],
    });
    expect(graded.grades.map((g) => [g.grader, g.score])).toEqual([
      ['read_only_run', 0],
      ['claims_grader', 0],
    ]);
    expect(graded.grades[1]!.reason).toContain('no result came back for it');
  });

  it("Agents SDK: the SDK's own mcp_approval_response is no call; a rejection fails the hosted request, a grant leaves it to its mcp_call", async () => {
    const node = { function_name: 'delete_node', plugin_id: 'drupal', arguments: { nid: 3 }, kind: 'hosted' };
    const rejected = value('agents-sdk/hosted-mcp-rejected');
    expect(normalizeToolCalls(rejected)).toEqual([{ ...node, status: 'error' }]);
    expect(normalizeToolCalls(value('agents-sdk/hosted-mcp-approved'))).toEqual([{ ...node, status: 'ok' }]);
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Delete node 3.' },
      response: { output: 'Node 3 is deleted.', toolCalls: rejected },
      graders: ['claims_grader'],
    });
    expect(graded.grades[0]!.score).toBe(0);
    expect(graded.grades[0]!.reason).toContain('only failed call #1 delete_node');
  });

  it('Agents SDK: a shell, apply_patch or computer call with no output never ran, even when the record holds no result at all', async () => {
    const shell = {
      function_name: 'shell',
      arguments: { commands: ['psql -f migrations/0042_add_index.sql'] },
    };
    const patch = {
      function_name: 'apply_patch',
      arguments: {
        type: 'update_file',
        path: 'src/config.ts',
        diff: '@@\n-export const retries = 3;\n+export const retries = 5;\n',
      },
    };
    const computer = {
      function_name: 'computer',
      arguments: { action: { type: 'click', x: 640, y: 480, button: 'left' } },
    };
    const grade = (toolCalls: unknown) =>
      gradeQuestion({
        question: {
          id: 'q',
          input: 'Run the migration.',
          expected_tools: ['shell', 'apply_patch', 'computer'].map((name) => ({ name, succeeded: true })),
          metadata: {
            forbidden_tool_prefixes: ['shell', 'apply_patch', 'computer'],
            claim_patterns: [
              { action: 'run', verbs: ['ran'], tools: ['shell'] },
              { action: 'update', verbs: ['updated'], tools: ['patch'] },
              { action: 'click', verbs: ['clicked'], tools: ['computer'] },
            ],
          },
        },
        response: { output: 'I ran the migration, updated the config and clicked the button.', toolCalls },
        graders: ['read_only_run', 'claims_grader', 'tool_usage_grader'],
      });
    // The session of a run interrupted for their approval: the calls, with no output and no
    // interruption. The run items read the same, by their tool_approval_items.
    const session = value('agents-sdk/pending-client-tools-session');
    const pending = [shell, patch, computer].map((c) => ({ ...c, status: 'unknown' }));
    expect(normalizeToolCalls(session)).toEqual(pending);
    expect(normalizeToolCalls(value('agents-sdk/pending-client-tools'))).toEqual(pending);
    const graded = await grade(session);
    // The agent asked for all three (read_only_run fails it); none ran, so none backs its claim or
    // meets succeeded: true.
    expect(graded.grades.map((g) => [g.grader, g.score])).toEqual([
      ['read_only_run', 0],
      ['claims_grader', 0],
      ['tool_usage_grader', 0],
    ]);
    expect(graded.grades[1]!.reason).toContain('3 of 3 claims');
    expect(graded.grades[1]!.reason).toContain(
      'call #1 shell matches run + migration, but no result came back for it',
    );
    expect(graded.grades[2]!.reason).toContain('none that succeeded (no result came back for #3)');
    // Approved and resumed, each ran and its output follows it: ok, and the same claims are backed.
    const approved = value('agents-sdk/approved-client-tools-session');
    expect(normalizeToolCalls(approved)).toEqual(
      [shell, patch, computer].map((c) => ({ ...c, status: 'ok' })),
    );
    const ran = await grade(approved);
    expect(ran.grades.map((g) => [g.grader, g.score])).toEqual([
      ['read_only_run', 0],
      ['claims_grader', 1],
      ['tool_usage_grader', 5],
    ]);
    // Rejected and resumed: the SDK answers each call, though none ran. The computer's answer is a
    // placeholder screenshot marked approvalStatus: 'rejected', which read as a click that worked
    // and backed "clicked the button".
    const rejected = value('agents-sdk/rejected-client-tools-session');
    expect(normalizeToolCalls(rejected)).toEqual(
      [shell, patch, computer].map((c) => ({ ...c, status: 'error' })),
    );
    const refused = await grade(rejected);
    expect(refused.grades.map((g) => [g.grader, g.score])).toEqual([
      ['read_only_run', 0],
      ['claims_grader', 0],
      ['tool_usage_grader', 0],
    ]);
    expect(refused.grades[1]!.reason).toContain(
      '"clicked the button" (only failed call #3 computer matches click + button',
    );
  });

  it('Agents SDK: a computer call the run aborted before it ran failed (the SDK answers it with a placeholder screenshot)', () => {
    // The shape of agents-core 0.20.0's buildComputerAbortResult (runner/streamReconciliation.mjs),
    // which a streamed run cancelled before the action ran records; only streaming makes it.
    const aborted = [
      {
        type: 'computer_call',
        id: 'cu_1',
        callId: 'call_c1',
        status: 'completed',
        action: { type: 'click', x: 1, y: 2, button: 'left' },
      },
      {
        type: 'computer_call_result',
        callId: 'call_c1',
        output: { type: 'computer_screenshot', data: 'data:image/png;base64,iVBORw0KGgo=' },
        providerData: { status: 'incomplete' },
      },
    ];
    expect(normalizeToolCalls(aborted)).toEqual([
      {
        function_name: 'computer',
        arguments: { action: { type: 'click', x: 1, y: 2, button: 'left' } },
        status: 'error',
      },
    ]);
  });
});

describe('OpenAI Chat Completions and Responses (typed against openai 7)', () => {
  it('reads custom tool calls as kind custom, in a whole completion', () => {
    expect(normalizeToolCalls(chatCustomToolCompletion)).toEqual([
      { function_name: 'run_sql', arguments: 'DELETE FROM drafts WHERE id = 3', kind: 'custom' },
      { function_name: 'list_drafts', arguments: {} },
    ]);
  });

  it('gives each call the outcome of its tool turn', () => {
    expect(normalizeToolCalls(chatErrorTranscript).map((c) => [c.function_name, c.status])).toEqual([
      ['find_user', 'ok'],
      ['create_ticket', 'error'],
    ]);
  });

  it('links each result to its own call when a model reuses a call id in a later turn', () => {
    // Both results once went to the first call: the failed delete of node 3 read as ok.
    expect(normalizeToolCalls(chatTurnScopedIds)).toEqual([
      { function_name: 'delete_node', arguments: { nid: 3 }, status: 'error' },
      { function_name: 'delete_node', arguments: { nid: 4 }, status: 'ok' },
    ]);
  });

  it("reads runTools' answer to a call of a tool it was not given as a failed call", () => {
    expect(normalizeToolCalls(chatRunToolsUnknownTool)).toEqual([
      { function_name: 'save_node', arguments: { id: 7 }, status: 'error' },
    ]);
  });

  it('records hosted calls as calls of kind hosted, with their own status', () => {
    expect(normalizeToolCalls(responsesHosted)).toEqual([
      {
        function_name: 'web_search',
        arguments: { type: 'search', query: 'refund policy' },
        kind: 'hosted',
        status: 'ok',
      },
      {
        function_name: 'file_search',
        arguments: { queries: ['refund policy'] },
        kind: 'hosted',
        status: 'ok',
      },
      {
        function_name: 'code_interpreter',
        arguments: { code: '1 / 0', container_id: 'cntr_1' },
        kind: 'hosted',
        status: 'error',
      },
      {
        function_name: 'list_nodes',
        plugin_id: 'drupal',
        arguments: { type: 'page' },
        kind: 'hosted',
        status: 'ok',
      },
      {
        function_name: 'delete_node',
        plugin_id: 'drupal',
        arguments: { nid: 3 },
        kind: 'hosted',
        status: 'error',
      },
      // The output holds no tool results, so the client-run calls carry no status.
      { function_name: 'run_sql', arguments: 'SELECT 1', kind: 'custom' },
      { function_name: 'create_ticket', arguments: { title: 'x' } },
    ]);
  });

  it('reads custom_tool_call_output and function_call_output items as results, never calls', () => {
    expect(normalizeToolCalls(responsesInput)).toEqual([
      { function_name: 'run_sql', arguments: 'SELECT * FROM drafts', kind: 'custom', status: 'error' },
      { function_name: 'create_ticket', arguments: { title: 'x' }, status: 'ok' },
    ]);
  });
});

describe('hosted calls are recorded alike on every provider', () => {
  it('an expected hosted web search is met on OpenAI Responses, Anthropic and the Agents SDK', async () => {
    const records: unknown[] = [
      responsesHosted,
      value('anthropic/server-tools-message'),
      value('agents-sdk/run-items'),
    ];
    for (const toolCalls of records) {
      const result = await gradeQuestion({
        question: { id: 'q', input: 'x', expected_tools: [{ name: 'web_search', succeeded: true }] },
        response: { output: 'Found it.', toolCalls },
        graders: ['tool_usage_grader'],
      });
      expect(result.grades[0]!.score).toBe(5);
      expect(normalizeToolCalls(toolCalls).find((c) => c.function_name === 'web_search')!.kind).toBe(
        'hosted',
      );
    }
  });
});

describe('Anthropic (typed against @anthropic-ai/sdk)', () => {
  it('reads every server tool and result block of a whole Message, and passes over container_upload', () => {
    expect(
      normalizeToolCalls(value('anthropic/server-tools-message')).map((c) => [
        c.function_name,
        c.kind,
        c.status,
      ]),
    ).toEqual([
      ['web_search', 'hosted', 'ok'],
      ['web_fetch', 'hosted', 'error'],
      ['code_execution', 'hosted', 'ok'],
      ['bash_code_execution', 'hosted', 'error'],
      ['text_editor_code_execution', 'hosted', 'ok'],
      ['tool_search_tool_regex', 'hosted', 'ok'],
      ['create_ticket', undefined, 'unknown'],
    ]);
  });

  it('fails a call whose tool_result is_error', () => {
    expect(normalizeToolCalls(value('anthropic/transcript'))).toEqual([
      { function_name: 'create_ticket', arguments: { title: 'Site down' }, status: 'error' },
    ]);
  });

  it('reads mcp_tool_use as a hosted call under its server, with its mcp_tool_result', () => {
    expect(normalizeToolCalls(value('anthropic/mcp-message'))).toEqual([
      {
        function_name: 'list_nodes',
        plugin_id: 'drupal',
        arguments: { type: 'page' },
        kind: 'hosted',
        status: 'ok',
      },
    ]);
  });
});

describe('OpenAI Agents SDK (a real run)', () => {
  const expected = [
    {
      function_name: 'web_search',
      arguments: { type: 'search', query: 'order W1 policy' },
      kind: 'hosted',
      status: 'ok',
    },
    { function_name: 'get_order_details', arguments: { order_id: '#W1' }, status: 'ok' },
    {
      function_name: 'cancel_pending_order',
      arguments: { order_id: '#W1', reason: 'no longer needed' },
      status: 'error',
    },
  ];

  it('reads run items (tool_call_item rawItem, function_call_result) and the SDK default error text', () => {
    expect(normalizeToolCalls(value('agents-sdk/run-items'))).toEqual(expected);
  });

  it("reads the SDK's tool timeout text as a failed call", () => {
    expect(normalizeToolCalls(value('agents-sdk/tool-timeout'))).toEqual([
      { function_name: 'slow_lookup', arguments: {}, status: 'error' },
    ]);
  });

  it('reads a call whose approval was rejected (the SDK default rejection text) as failed', () => {
    expect(normalizeToolCalls(value('agents-sdk/rejected-approval'))).toEqual([
      { function_name: 'delete_order', arguments: { order_id: '#W1' }, status: 'error' },
    ]);
  });

  it('reads shell outputs by their exitCode: non-zero, or null (rejected or thrown), is a failed command', () => {
    const calls = normalizeToolCalls(value('agents-sdk/shell-computer'));
    expect(calls.filter((c) => c.function_name === 'shell')).toEqual([
      { function_name: 'shell', arguments: { commands: ['rm -rf /srv/cache'] }, status: 'error' },
      { function_name: 'shell', arguments: { commands: ['psql -c "DROP TABLE orders"'] }, status: 'error' },
    ]);
  });

  it('reads a computer action that threw (the SDK writes an empty screenshot) as failed', () => {
    const calls = normalizeToolCalls(value('agents-sdk/shell-computer'));
    expect(calls.find((c) => c.function_name === 'computer')).toEqual({
      function_name: 'computer',
      arguments: { action: { type: 'click', x: 10, y: 20, button: 'left' } },
      status: 'error',
    });
  });

  it('reads rawResponses (model turns, which never hold a result) with every function call unknown', async () => {
    const raw = value('agents-sdk/raw-responses');
    expect(normalizeToolCalls(raw)).toEqual([
      expected[0],
      { ...expected[1], status: 'unknown' },
      { ...expected[2], status: 'unknown' },
    ]);
    // The cancel failed in the run: the model's turns cannot show it, and back no claim of it.
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Cancel order #W1.' },
      response: { output: 'I have cancelled order #W1.', toolCalls: raw },
      graders: ['claims_grader'],
    });
    expect(graded.grades[0]!.score).toBe(0);
  });

  it('reads history items alike, and a run result by its newItems', () => {
    expect(normalizeToolCalls(value('agents-sdk/history'))).toEqual(expected);
    expect(normalizeToolCalls({ newItems: value('agents-sdk/run-items'), finalOutput: 'x' })).toEqual(
      expected,
    );
  });
});

describe('LangChain and LangGraph', () => {
  const expected = [
    { function_name: 'close_ticket', arguments: { ticket_id: 42 }, status: 'error' },
    { function_name: 'count_open_tickets', arguments: {}, status: 'ok' },
  ];

  it.each(['langchain/serialised', 'langchain/stored', 'langchain/dicts'])('reads %s', (name) => {
    expect(normalizeToolCalls(value(name))).toEqual(expected);
  });

  it('refuses streamed AIMessageChunks that were never merged, naming the fragment', () => {
    // Unmerged, the second chunk's arguments sit in a nameless invalid_tool_call and were dropped.
    expect(() => normalizeToolCalls(value('langchain/chunks'))).toThrow(
      expect.objectContaining({
        code: 'INVALID_TOOL_CALLS',
        message: expect.stringContaining('$[1].kwargs.tool_call_chunks[0] is a fragment of a streamed call'),
      }),
    );
  });

  it("reads ChatAnthropic's hosted calls, which are only in the AI message content, never in tool_calls", async () => {
    // They were dropped: a hosted MCP delete_node was invisible to read_only_run.
    const record = value('langchain/anthropic-hosted');
    expect(normalizeToolCalls(record)).toEqual([
      {
        function_name: 'web_search',
        arguments: { query: 'node 3 owner' },
        kind: 'hosted',
        status: 'ok',
      },
      {
        function_name: 'delete_node',
        plugin_id: 'drupal',
        arguments: { nid: 3 },
        kind: 'hosted',
        status: 'error',
      },
    ]);
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Who owns node 3?' },
      response: { output: 'Node 3 is deleted.', messages: record as unknown[] },
      graders: ['read_only_run'],
    });
    expect(graded.grades[0]).toMatchObject({ score: 0, reason: expect.stringContaining('delete_node') });
  });

  it("reads ChatOpenAI's Responses hosted calls, which are only in additional_kwargs.tool_outputs", () => {
    expect(normalizeToolCalls(value('langchain/openai-hosted'))).toEqual([
      {
        function_name: 'web_search',
        arguments: { type: 'search', query: 'node 3 owner' },
        kind: 'hosted',
        status: 'ok',
      },
      {
        function_name: 'delete_node',
        plugin_id: 'drupal',
        arguments: { nid: 3 },
        kind: 'hosted',
        status: 'error',
      },
    ]);
  });

  it('reads invalid_tool_calls as failed calls and does not count additional_kwargs copies twice', () => {
    const ai = {
      type: 'ai',
      content: [{ type: 'tool_use', id: 'call_1', name: 'search', input: { q: 'x' } }],
      tool_calls: [{ id: 'call_1', name: 'search', args: { q: 'x' }, type: 'tool_call' }],
      invalid_tool_calls: [{ id: 'call_2', name: 'save', args: '{"a":', error: 'bad json' }],
      additional_kwargs: {
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: '{}' } }],
      },
    };
    expect(normalizeToolCalls([ai])).toEqual([
      { function_name: 'search', arguments: { q: 'x' } },
      { function_name: 'save', arguments: '{"a":', status: 'error' },
    ]);
  });
});

describe('Google GenAI', () => {
  it('reads a GenerateContentResponse: its function-calling history, code execution and function calls', () => {
    expect(normalizeToolCalls(value('google-genai/response'))).toEqual([
      { function_name: 'get_weather', arguments: { city: 'Ghent' }, status: 'ok' },
      { function_name: 'book_table', arguments: { people: 2, time: '20:00' }, status: 'error' },
      {
        function_name: 'code_execution',
        arguments: { code: 'print(2 * 45)', language: 'PYTHON' },
        kind: 'hosted',
        status: 'ok',
      },
      { function_name: 'send_confirmation', arguments: { to: 'ana@example.com' }, status: 'unknown' },
    ]);
  });

  it('reads a response of automatic function calling stopped at maximumRemoteCalls once, not twice', () => {
    const response = value('google-genai/afc-limit') as {
      candidates: Array<{ content: unknown }>;
      automaticFunctionCallingHistory: unknown[];
    };
    const expected = [{ function_name: 'delete_node', arguments: { id: 7 }, status: 'ok' }];
    expect(normalizeToolCalls(response)).toEqual(expected);
    // In memory the SDK's candidate is the very object in its history.
    const history = response.automaticFunctionCallingHistory;
    const live = { ...response, candidates: [{ ...response.candidates[0], content: history[1] }] };
    expect(normalizeToolCalls(live)).toEqual(expected);
  });

  it('reads the functionCalls list as bare { name, args } calls', () => {
    expect(normalizeToolCalls(value('google-genai/function-calls'))).toEqual([
      { function_name: 'send_confirmation', arguments: { to: 'ana@example.com' } },
    ]);
  });
});

describe('MCP', () => {
  it('reads tools/call requests as calls and their responses as results', () => {
    expect(normalizeToolCalls(value('mcp/session'))).toEqual([
      { function_name: 'list_nodes', arguments: {}, status: 'ok' },
      { function_name: 'publish_node', arguments: { nid: 3 }, status: 'error' },
    ]);
  });

  it('reads a task-augmented tools/call by its tasks/result, never by the response that only created the task', () => {
    const log = value('mcp/task-session') as unknown[];
    // The created task once read as a successful call.
    expect(normalizeToolCalls(log)).toEqual([
      { function_name: 'list_nodes', arguments: {}, status: 'ok' },
      { function_name: 'purge_cache', arguments: { scope: 'all' }, status: 'error' },
    ]);
    expect(normalizeToolCalls(log.slice(0, 6)).map((c) => c.status)).toEqual(['ok', 'unknown']);
    // A tasks/get answering `failed` fails the call without a tasks/result.
    const got = log[5] as { result: Record<string, unknown> };
    const failed = [...log.slice(0, 5), { ...got, result: { ...got.result, status: 'failed' } }];
    expect(normalizeToolCalls(failed).map((c) => c.status)).toEqual(['ok', 'error']);
  });

  it('counts only responses to tools/call as results: an initialize response gives no call a status', () => {
    const log = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: {} } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_nodes', arguments: {} } },
    ];
    expect(normalizeToolCalls(log)).toEqual([{ function_name: 'list_nodes', arguments: {} }]);
  });
});

describe('bare and benchmark shapes', () => {
  it('reads { name, arguments }, { name, args } and tau-bench { name, kwargs }', () => {
    expect(
      normalizeToolCalls([
        { name: 'a', arguments: '{"x":1}' },
        { name: 'b', args: { y: 2 } },
        { name: 'c', kwargs: { z: 3 } },
      ]),
    ).toEqual([
      { function_name: 'a', arguments: { x: 1 } },
      { function_name: 'b', arguments: { y: 2 } },
      { function_name: 'c', arguments: { z: 3 } },
    ]);
  });

  it('reads a tau-bench trajectory, its "Error: ..." tool output failing the call', () => {
    const calls = normalizeToolCalls(value('tau-bench/retail-exchange'));
    expect(calls).toHaveLength(12);
    expect(calls[6]).toEqual({
      function_name: 'get_product_details',
      arguments: { product_id: '1656367' },
      status: 'error',
    });
    expect(calls.filter((c) => c.status === 'ok')).toHaveLength(11);
  });

  it('reads tau2-bench messages: tool calls in assistant turns, { id, error } tool turns, user tools left out', () => {
    const messages = [
      {
        role: 'user',
        content: 'My phone has no signal.',
        tool_calls: [{ id: 'u1', name: 'toggle_airplane_mode', arguments: {}, requestor: 'user' }],
      },
      { role: 'tool', id: 'u1', content: 'ok', requestor: 'user', error: false },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a1', name: 'get_line_details', arguments: { line_id: 'L1' }, requestor: 'assistant' },
        ],
      },
      { role: 'tool', id: 'a1', content: 'Line not found', requestor: 'assistant', error: true },
    ];
    expect(normalizeToolCalls(messages)).toEqual([
      { function_name: 'get_line_details', arguments: { line_id: 'L1' }, status: 'error' },
    ]);
  });
});

describe('unknown shapes stay loud', () => {
  it.each([
    [
      'an unknown Responses item',
      [{ type: 'teleport_call', id: 'x' }],
      /at \$\[0\]: expected a tool call, a tool result or a message/,
    ],
    [
      'an unknown UIMessage part',
      [{ role: 'assistant', parts: [{ type: 'widget', x: 1 }] }],
      /at \$\[0\]\.parts\[0\]/,
    ],
    ['a structured-output array without steps', { output: ['approved'] }, /at \$: /],
    [
      'an unknown LangChain class',
      [{ lc: 1, type: 'constructor', id: ['x', 'Weird'], kwargs: {} }],
      /at \$\[0\]/,
    ],
    ['an object-prototype key as a type', [{ type: 'toString' }, { type: 'constructor' }], /at \$\[0\]/],
  ])('%s is an INVALID_TOOL_CALLS error, never an empty record', (_label, record, message) => {
    let caught: unknown;
    try {
      normalizeToolCalls(record);
    } catch (error) {
      caught = error;
    }
    expect(isAiEvalError(caught, 'INVALID_TOOL_CALLS')).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });

  it('reads a run whose messages are UIMessages through recordOf', () => {
    expect(names(recordOf({ output: 'x', messages: value('ai-sdk/ui-messages') as unknown[] })!)).toEqual([
      'calculator',
      'delete_node',
      'web_lookup',
    ]);
  });
});
