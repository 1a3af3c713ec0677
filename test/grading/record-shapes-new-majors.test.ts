import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAiEvalError } from '../../src/errors.js';
import { normalizeToolCalls } from '../../src/grading/tool-calls.js';
import type { ToolCall } from '../../src/grading/types.js';
import { gradeQuestion } from '../../src/run/grade-question.js';
import { ROOT } from '../helpers/paths.js';

// Records of the SDK majors after the ones record-shapes.test.ts covers: ai 7 (with @ai-sdk/mcp 2),
// @google/genai 3 and @anthropic-ai/sdk 1.16, built by running them (fixtures/records/generate.ts,
// groups ai-sdk-v7-*, google-genai-v3, anthropic-v1-16).

/** A fixture built from an SDK (fixtures/records/generate.ts): its value, and the package it came from. */
function fixture(name: string): { value: unknown; source: { package: string; version: string } } {
  return JSON.parse(readFileSync(join(ROOT, 'fixtures', 'records', `${name}.json`), 'utf8')) as {
    value: unknown;
    source: { package: string; version: string };
  };
}
const value = (name: string): unknown => fixture(name).value;
const outcomes = (calls: ToolCall[]) => calls.map((c) => [c.function_name, c.status]);

describe('the new-major fixtures name the SDK and exact version they were built from', () => {
  it.each([
    ['ai-sdk/v7-generate-text', 'ai', '7.0.173'],
    ['ai-sdk/v7-response-messages', 'ai', '7.0.173'],
    ['ai-sdk/v7-final-response-messages', 'ai', '7.0.173'],
    ['ai-sdk/v7-approval-pending', 'ai', '7.0.173'],
    ['ai-sdk/v7-approval-denied', 'ai', '7.0.173'],
    ['ai-sdk/v7-approval-granted', 'ai', '7.0.173'],
    ['ai-sdk/v7-ui-messages', 'ai', '7.0.173'],
    ['ai-sdk/v7-ui-messages-steered', 'ai', '7.0.173'],
    ['ai-sdk/v7-mcp-tool-error', '@ai-sdk/mcp', '2.0.99'],
    ['ai-sdk/v7-mcp-ui-messages', '@ai-sdk/mcp', '2.0.99'],
    ['google-genai/v3-afc-response', '@google/genai', '3.3.0'],
    ['google-genai/v3-chat-history', '@google/genai', '3.3.0'],
    ['google-genai/v3-afc-limit', '@google/genai', '3.3.0'],
    ['google-genai/v3-function-calls', '@google/genai', '3.3.0'],
    ['google-genai/v3-stream-args-history', '@google/genai', '3.3.0'],
    ['google-genai/v3-stream-args-first-chunk', '@google/genai', '3.3.0'],
    ['ai-sdk/v7-code-mode', '@ai-sdk/code-mode', '1.0.42'],
    ['ai-sdk/v7-code-mode-nested', '@ai-sdk/code-mode', '1.0.42'],
    ['ai-sdk/v7-code-mode-no-tools', '@ai-sdk/code-mode', '1.0.42'],
    ['anthropic/v1-16-beta-message', '@anthropic-ai/sdk', '1.16.0'],
  ])('%s', (name, pkg, version) => {
    expect(fixture(name).source).toEqual({ package: pkg, version });
  });
});

describe('Vercel AI SDK 7', () => {
  const ran = [
    { function_name: 'delete_draft', arguments: { draft: 7 }, status: 'ok' },
    { function_name: 'notify_customer', arguments: { draft: 7 }, status: 'error' },
  ];
  type V7Result = {
    content: unknown[];
    toolCalls: unknown[];
    toolResults: unknown[];
    steps: unknown[];
    finalStep: unknown;
    responseMessages: unknown[];
  };

  it('reads a generateText result past its custom and reasoning-file parts (new in ai 7), by its steps', () => {
    // Step 1 holds { type: 'custom', kind: 'anthropic.compaction' } and a reasoning-file: they were
    // refused as unknown shapes.
    const result = value('ai-sdk/v7-generate-text') as V7Result;
    expect(normalizeToolCalls(result)).toEqual(ran);
    expect(normalizeToolCalls(result.steps)).toEqual(ran);
  });

  it("reads ai 7's every-step content, toolCalls with toolResults, and responseMessages alike", () => {
    const result = value('ai-sdk/v7-generate-text') as V7Result;
    expect(normalizeToolCalls(result.content)).toEqual(ran);
    // toolResults leaves tool errors out (content holds them as tool-error parts): the call that threw
    // has no result there, so it is unknown, never ok.
    expect(
      outcomes(normalizeToolCalls({ toolCalls: result.toolCalls, toolResults: result.toolResults })),
    ).toEqual([
      ['delete_draft', 'ok'],
      ['notify_customer', 'unknown'],
    ]);
    expect(normalizeToolCalls(result.responseMessages)).toEqual(ran);
    expect(normalizeToolCalls(value('ai-sdk/v7-response-messages'))).toEqual(ran);
  });

  it('holds no call in the final step alone: result.finalStep and the deprecated result.response.messages', () => {
    // ai 7 limits a step's response.messages to that step, and result.response is the final step's:
    // what ai 6 users passed as the run's messages is now its last turn. responseMessages is the run.
    const result = value('ai-sdk/v7-generate-text') as V7Result;
    expect(normalizeToolCalls(result.finalStep)).toEqual([]);
    expect(normalizeToolCalls(value('ai-sdk/v7-final-response-messages'))).toEqual([]);
  });

  it('fails read_only_run on an ai 7 result that deleted a draft', async () => {
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Clean up draft 7.' },
      response: {
        output: 'I deleted draft 7 and told the customer.',
        toolCalls: value('ai-sdk/v7-generate-text'),
      },
      graders: ['read_only_run'],
    });
    expect(graded.grades[0]).toMatchObject({ score: 0, reason: expect.stringContaining('delete_draft') });
  });

  it('refuses a streamText result whose steps are a promise, pointing ai 7 users at responseMessages', () => {
    const streaming = { steps: Promise.resolve([]), text: Promise.resolve('') };
    let caught: unknown;
    try {
      normalizeToolCalls(streaming);
    } catch (error) {
      caught = error;
    }
    expect(isAiEvalError(caught) && caught.code).toBe('INVALID_TOOL_CALLS');
    expect((caught as Error).message).toContain('await result.steps');
    expect((caught as Error).message).toContain('responseMessages');
  });

  it('reads UIMessages past their custom part: ran, threw, denied by toolApproval, awaiting a user', () => {
    expect(outcomes(normalizeToolCalls(value('ai-sdk/v7-ui-messages')))).toEqual([
      ['calculator', 'ok'],
      ['delete_node', 'ok'],
      ['web_lookup', 'error'],
      ['archive_node', 'error'],
      ['unpublish_node', 'unknown'],
    ]);
  });

  it("reads a steered run past its steering-message part (new in ai 7): the user's words are no call", async () => {
    const steered = value('ai-sdk/v7-ui-messages-steered');
    expect(outcomes(normalizeToolCalls(steered))).toEqual([
      ['calculator', 'ok'],
      ['delete_node', 'ok'],
    ]);
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'What is 2+2?' },
      response: { output: 'It is 4, and node 9 is deleted.', messages: steered as unknown[] },
      graders: ['read_only_run'],
    });
    expect(graded.grades[0]).toMatchObject({ score: 0, reason: expect.stringContaining('delete_node') });
  });

  it('fails an MCP tool (@ai-sdk/mcp 2) whose server answered isError, in the result, its steps and the UIMessage', async () => {
    const failed = [{ function_name: 'publish_node', arguments: { nid: 3 }, status: 'error' }];
    const result = value('ai-sdk/v7-mcp-tool-error') as { steps: unknown[] };
    expect(normalizeToolCalls(result)).toEqual(failed);
    expect(normalizeToolCalls(result.steps)).toEqual(failed);
    expect(normalizeToolCalls(value('ai-sdk/v7-mcp-ui-messages'))).toEqual(failed);
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
});

describe('AI SDK 7 approvals: a user approval, and the automatic ones of the toolApproval option', () => {
  const drafts = (status: string) => [
    { function_name: 'delete_draft', arguments: { draft: 'old draft' }, status },
    { function_name: 'archive_draft', arguments: { draft: 'new draft' }, status: 'error' },
    { function_name: 'publish_draft', arguments: { draft: 'final draft' }, status: 'ok' },
  ];

  it('a run stopped at a user approval: that call is unknown, the automatic denial failed, the automatic approval ran', async () => {
    const result = value('ai-sdk/v7-approval-pending') as { content: unknown[]; responseMessages: unknown[] };
    expect(normalizeToolCalls(result)).toEqual(drafts('unknown'));
    expect(normalizeToolCalls(result.content)).toEqual(drafts('unknown'));
    expect(normalizeToolCalls(result.responseMessages)).toEqual(drafts('unknown'));
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Tidy the drafts.' },
      response: { output: 'I deleted, archived and published the drafts.', toolCalls: result },
      graders: ['read_only_run'],
    });
    expect(graded.grades[0]!.score).toBe(0);
  });

  it('resumed after the user denied or granted it: denied fails the call, granted ran it', () => {
    expect(normalizeToolCalls(value('ai-sdk/v7-approval-denied'))).toEqual(drafts('error'));
    expect(normalizeToolCalls(value('ai-sdk/v7-approval-granted'))).toEqual(drafts('ok'));
  });
});

describe('Google GenAI 3', () => {
  const booked = [
    { function_name: 'get_weather', arguments: { city: 'Ghent' }, status: 'ok' },
    { function_name: 'book_table', arguments: { people: 2, time: '20:00' }, status: 'error' },
  ];

  it('reads an automatic function calling response and a chat history: the failed booking is an error', async () => {
    expect(normalizeToolCalls(value('google-genai/v3-afc-response'))).toEqual(booked);
    expect(normalizeToolCalls(value('google-genai/v3-chat-history'))).toEqual(booked);
    const graded = await gradeQuestion({
      question: {
        id: 'q',
        input: 'Book a table for two tonight.',
        expected_tools: [{ name: 'book_table', succeeded: true }],
      },
      response: {
        output: 'Booked a table for two at 20:00.',
        toolCalls: value('google-genai/v3-afc-response'),
      },
      graders: ['tool_usage_grader'],
    });
    expect(graded.grades[0]!.score).toBeLessThan(5);
  });

  it('reads a response stopped at maximumRemoteCalls once, and the functionCalls getter as bare calls', () => {
    expect(normalizeToolCalls(value('google-genai/v3-afc-limit'))).toEqual([
      { function_name: 'delete_node', arguments: { id: 7 }, status: 'ok' },
    ]);
    expect(normalizeToolCalls(value('google-genai/v3-function-calls'))).toEqual([
      { function_name: 'send_confirmation', arguments: { to: 'ana@example.com' } },
    ]);
  });
});

describe('Anthropic 1.16 (typed against its BetaMessage)', () => {
  it('reads advisor and encrypted code execution results, a code-called tool_use, and passes over compaction, fallback and MCP listings', async () => {
    const calls = normalizeToolCalls(value('anthropic/v1-16-beta-message'));
    expect(calls.map((c) => [c.function_name, c.kind, c.status])).toEqual([
      ['advisor', 'hosted', 'ok'],
      ['advisor', 'hosted', 'error'],
      ['code_execution', 'hosted', 'error'],
      ['delete_node', undefined, 'unknown'],
    ]);
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'Which nodes are stale?' },
      response: { output: 'Node 3 is deleted.', toolCalls: value('anthropic/v1-16-beta-message') },
      graders: ['read_only_run'],
    });
    expect(graded.grades[0]!.score).toBe(0);
  });
});

describe('Google GenAI 3: function-call arguments streamed in pieces (streamFunctionCallArguments)', () => {
  it('a piece (willContinue, partialArgs) is an error naming the fix, never a finished call with partial arguments', () => {
    // The first chunk names delete_node with no args yet: it read as delete_node({}) that ran.
    for (const name of ['google-genai/v3-stream-args-first-chunk', 'google-genai/v3-stream-args-history']) {
      let thrown: unknown;
      try {
        normalizeToolCalls(value(name));
      } catch (error) {
        thrown = error;
      }
      expect(isAiEvalError(thrown) && thrown.code).toBe('INVALID_TOOL_CALLS');
      expect(String((thrown as Error).message)).toMatch(/streamed in pieces.*streamFunctionCallArguments/);
    }
    // A nameless piece alone (partialArgs) names the same fix, not only a missing name.
    expect(() =>
      normalizeToolCalls([
        { functionCall: { partialArgs: [{ jsonPath: '$.id', numberValue: 7 }], willContinue: true } },
      ]),
    ).toThrow(/streamed in pieces/);
  });

  it('a whole call that says willContinue: false is read as before', () => {
    expect(
      normalizeToolCalls([{ functionCall: { name: 'delete_node', args: { id: 7 }, willContinue: false } }]),
    ).toEqual([{ function_name: 'delete_node', arguments: { id: 7 } }]);
  });
});
