import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAiEvalError } from '../../src/errors.js';
import { renderToolCalls } from '../../src/judge/tool-block.js';
import {
  displayArguments,
  displayToolCalls,
  MAX_ARGUMENT_CHARS,
  normalizeToolCalls,
  recordOf,
  TRUNCATION_MARKER,
} from '../../src/grading/tool-calls.js';
import { gradeQuestion } from '../../src/run/grade-question.js';

/** A local OpenAI-compatible server answering with canned tool calls, so the real SDK is driven. */
let server: Server;
let client: OpenAI;

const chatCompletion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'test-model',
  choices: [
    {
      index: 0,
      finish_reason: 'tool_calls',
      logprobs: null,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"drupal"}' } },
          { id: 'call_2', type: 'function', function: { name: 'save_node', arguments: '{"title": broken' } },
        ],
      },
    },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

const responsesResult = {
  id: 'resp_1',
  object: 'response',
  created_at: 0,
  status: 'completed',
  model: 'test-model',
  output: [
    { type: 'reasoning', id: 'rs_1', summary: [] },
    {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Ghent"}',
      status: 'completed',
    },
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
    },
  ],
  parallel_tool_calls: true,
  tool_choice: 'auto',
  tools: [],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = req.url?.endsWith('/responses') ? responsesResult : chatCompletion;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new OpenAI({ apiKey: 'test-key', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('OpenAI shapes, through the real SDK', () => {
  it('reads Chat Completions tool_calls, the message and the whole completion alike', async () => {
    const completion = await client.chat.completions.create({
      model: 'test-model',
      messages: [{ role: 'user', content: 'find drupal' }],
    });
    const expected = [
      { function_name: 'search', arguments: { q: 'drupal' } },
      // Unparseable JSON is kept as the raw string, never dropped.
      { function_name: 'save_node', arguments: '{"title": broken' },
    ];
    const message = completion.choices[0]!.message;
    expect(normalizeToolCalls(message.tool_calls)).toEqual(expected);
    expect(normalizeToolCalls([message])).toEqual(expected);
    expect(normalizeToolCalls(completion)).toEqual(expected);
  });

  it('reads a Chat Completions transcript: assistant turns only, in order', async () => {
    const completion = await client.chat.completions.create({
      model: 'test-model',
      messages: [{ role: 'user', content: 'find drupal' }],
    });
    const transcript = [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'find drupal' },
      completion.choices[0]!.message,
      { role: 'tool', tool_call_id: 'call_1', content: '{"results": []}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'list_nodes', arguments: '' } }],
      },
      { role: 'assistant', content: 'Nothing found.' },
    ];
    expect(normalizeToolCalls(transcript).map((c) => c.function_name)).toEqual([
      'search',
      'save_node',
      'list_nodes',
    ]);
    // Empty argument strings mean no arguments.
    expect(normalizeToolCalls(transcript)[2]!.arguments).toEqual({});
  });

  it('reads OpenAI Responses function_call items from the output and from the result', async () => {
    const response = await client.responses.create({ model: 'test-model', input: 'weather?' });
    const expected = [{ function_name: 'get_weather', arguments: { city: 'Ghent' } }];
    expect(normalizeToolCalls(response.output)).toEqual(expected);
    expect(normalizeToolCalls(response)).toEqual(expected);
    // A Responses input list (the transcript): the call's output item is its result, not a call.
    const transcript = [
      { role: 'user', content: 'weather?' },
      ...response.output,
      { type: 'function_call_output', call_id: 'call_1', output: '{"temp": 12}' },
    ];
    expect(normalizeToolCalls(transcript)).toEqual([{ ...expected[0], status: 'ok' }]);
  });

  it('reads Responses remote MCP calls as hosted, with the server label as plugin_id', () => {
    expect(
      normalizeToolCalls([
        { type: 'mcp_list_tools', id: 'l1', server_label: 'drupal', tools: [] },
        {
          type: 'mcp_call',
          id: 'm1',
          name: 'list_nodes',
          arguments: '{"type":"page"}',
          server_label: 'drupal',
        },
      ]),
    ).toEqual([
      {
        function_name: 'list_nodes',
        plugin_id: 'drupal',
        arguments: { type: 'page' },
        kind: 'hosted',
        status: 'unknown',
      },
    ]);
  });
});

describe('Vercel AI SDK shapes', () => {
  it('reads toolName with input (v5) and with args (v4)', () => {
    expect(
      normalizeToolCalls([
        { type: 'tool-call', toolCallId: 't1', toolName: 'search', input: { q: 'a' } },
        { type: 'tool-call', toolCallId: 't2', toolName: 'fetch', args: { url: 'https://x' } },
      ]),
    ).toEqual([
      { function_name: 'search', arguments: { q: 'a' } },
      { function_name: 'fetch', arguments: { url: 'https://x' } },
    ]);
  });

  it('reads steps and step content without counting tool results as calls', () => {
    const content = [
      { type: 'text', text: 'Looking.' },
      { type: 'tool-call', toolCallId: 't1', toolName: 'search', input: { q: 'a' } },
      { type: 'tool-result', toolCallId: 't1', toolName: 'search', input: { q: 'a' }, output: [] },
      { type: 'tool-error', toolCallId: 't2', toolName: 'fetch', input: {}, error: 'boom' },
    ];
    // The results are outcomes: t1 came back; t2's error part has no call here, so it counts for none.
    expect(normalizeToolCalls(content)).toEqual([
      { function_name: 'search', arguments: { q: 'a' }, status: 'ok' },
    ]);
    const result = {
      steps: [
        { toolCalls: [{ type: 'tool-call', toolCallId: 't1', toolName: 'search', input: { q: 'a' } }] },
        { toolCalls: [] },
      ],
    };
    expect(normalizeToolCalls(result)).toHaveLength(1);
  });

  it('reads every step of a whole generateText result, not just its last-step toolCalls', () => {
    const callOf = (toolName: string) => ({ type: 'tool-call', toolCallId: toolName, toolName, input: {} });
    const result = {
      text: 'Done.',
      toolCalls: [callOf('save_node')],
      steps: [{ toolCalls: [callOf('load_node')] }, { toolCalls: [callOf('save_node')] }],
    };
    expect(normalizeToolCalls(result).map((c) => c.function_name)).toEqual(['load_node', 'save_node']);
  });

  it('reads a model-message transcript', () => {
    const messages = [
      { role: 'user', content: 'find a' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'search', input: { q: 'a' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 't1', toolName: 'search', output: { type: 'json', value: [] } },
        ],
      },
      { role: 'assistant', content: 'Found nothing.' },
    ];
    expect(normalizeToolCalls(messages)).toEqual([
      { function_name: 'search', arguments: { q: 'a' }, status: 'ok' },
    ]);
  });
});

describe('Anthropic shapes', () => {
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude',
    stop_reason: 'tool_use',
    content: [
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'a' } },
    ],
  };

  it('reads tool_use blocks, alone, in a message and as a whole Message response', () => {
    const expected = [{ function_name: 'search', arguments: { q: 'a' } }];
    expect(normalizeToolCalls([message.content[1]])).toEqual(expected);
    expect(normalizeToolCalls([message])).toEqual(expected);
    expect(normalizeToolCalls(message)).toEqual(expected);
  });

  it('reads a transcript, passing over tool_result blocks in user turns', () => {
    const transcript = [
      { role: 'user', content: 'find a' },
      message,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'none' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'save', input: {} }] },
    ];
    expect(normalizeToolCalls(transcript).map((c) => c.function_name)).toEqual(['search', 'save']);
  });
});

describe('normalised records', () => {
  it('keeps function_name, plugin_id and arguments, parsing JSON strings', () => {
    expect(
      normalizeToolCalls([
        { function_name: 'list_nodes', plugin_id: 'node_tools', arguments: '{"type":"page"}' },
        { function_name: 'ping', arguments: {} },
      ]),
    ).toEqual([
      { function_name: 'list_nodes', plugin_id: 'node_tools', arguments: { type: 'page' } },
      { function_name: 'ping', arguments: {} },
    ]);
  });

  it('keeps long argument values whole, so graders match exactly what the call carried', async () => {
    const long = 'x'.repeat(MAX_ARGUMENT_CHARS + 100);
    const [call] = normalizeToolCalls([
      { function_name: 'save', arguments: { body: long, nested: [{ text: long }] } },
    ]);
    expect(call!.arguments).toEqual({ body: long, nested: [{ text: long }] });
    const graded = await gradeQuestion({
      question: { id: 'q', input: 'x', expected_tools: [{ name: 'save', args: { body: long } }] },
      response: { output: 'saved', toolCalls: [call] },
      graders: ['tool_usage_grader'],
    });
    expect(graded.grades[0]!.score).toBe(5);
  });

  it('cuts long values only for display, with the marker, nested ones and raw strings too', () => {
    const long = 'x'.repeat(MAX_ARGUMENT_CHARS + 100);
    const [shown] = displayToolCalls([
      { function_name: 'save', arguments: { body: long, nested: [{ text: long }] } },
    ]);
    const args = shown!.arguments as { body: string; nested: { text: string }[] };
    expect(args.body).toBe(`${'x'.repeat(MAX_ARGUMENT_CHARS)}${TRUNCATION_MARKER} (${long.length} chars)`);
    expect(args.nested[0]!.text.endsWith(`${TRUNCATION_MARKER} (${long.length} chars)`)).toBe(true);
    const exact = 'y'.repeat(MAX_ARGUMENT_CHARS);
    expect(displayArguments({ v: exact })).toEqual({ v: exact });
    expect(displayArguments(`{${long}`)).toContain(TRUNCATION_MARKER);
  });

  it('keeps argument names that are also names of Object.prototype as plain data', () => {
    const args = JSON.parse('{"__proto__": {"a": 1}, "constructor": "c", "toString": 2}') as Record<
      string,
      unknown
    >;
    const shown = displayArguments(args) as Record<string, unknown>;
    expect(Object.keys(shown)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(shown)).toBe(Object.prototype);
    expect(JSON.stringify(shown)).toBe('{"__proto__":{"a":1},"constructor":"c","toString":2}');
  });

  it('shows a judge names and cut arguments, never statuses or results', () => {
    const long = 'z'.repeat(MAX_ARGUMENT_CHARS + 1);
    const block = renderToolCalls(
      [{ function_name: 'create_ticket', arguments: { body: long }, status: 'error', kind: 'hosted' }],
      'tag',
    )!;
    expect(block).toContain(
      `1. create_ticket {"body":"${'z'.repeat(MAX_ARGUMENT_CHARS)}${TRUNCATION_MARKER} (501 chars)"}`,
    );
    expect(block).not.toMatch(/error|hosted|status/);
  });

  it('keeps an empty record empty', () => {
    expect(normalizeToolCalls([])).toEqual([]);
  });
});

describe('other call shapes in assistant turns', () => {
  it('reads the legacy Chat Completions function_call and Anthropic server tool calls', () => {
    expect(
      normalizeToolCalls([
        { role: 'assistant', content: null, function_call: { name: 'lookup', arguments: '{"id":1}' } },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Searching.' },
            { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'x' } },
            { type: 'web_search_tool_result', tool_use_id: 's1', content: [] },
          ],
        },
      ]),
    ).toEqual([
      { function_name: 'lookup', arguments: { id: 1 }, status: 'unknown' },
      { function_name: 'web_search', arguments: { query: 'x' }, kind: 'hosted', status: 'ok' },
    ]);
  });
});

describe('unrecognised shapes', () => {
  it.each([
    ['a string', 'search', /at \$: expected a tool call, a tool result or a message object, got "search"/],
    [
      'a number in a list',
      [42],
      /at \$\[0\]: expected a tool call, a tool result or a message object, got 42/,
    ],
    ['an unknown object', [{ tool: 'search' }], /at \$\[0\]: expected a tool call.* got \{"tool":"search"\}/],
    ['an object without calls', { foo: 1 }, /got \{"foo":1\}/],
    ['an empty tool name', [{ function_name: '', arguments: {} }], /expected a non-empty tool name/],
    [
      'an unknown content block in an assistant turn',
      [
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'ok' },
            { type: 'weird_block', name: 'x' },
          ],
        },
      ],
      /at \$\[0\]\.content\[1\]: expected a tool call, a tool result or a message of a known shape, got \{"type":"weird_block","name":"x"\}/,
    ],
    [
      'a promise (an agent call not awaited)',
      Promise.resolve([{ function_name: 'delete_node', arguments: {} }]),
      /at \$: expected a tool call.* got a promise: await it/,
    ],
    [
      'a promise in a list',
      [Promise.resolve({ function_name: 'delete_node', arguments: {} })],
      /at \$\[0\]: expected a tool call.* got a promise: await it/,
    ],
    [
      'a content block that is not an object',
      [{ role: 'assistant', content: ['hello'] }],
      /at \$\[0\]\.content\[0\]: expected a tool call, a tool result or a message object, got "hello"/,
    ],
  ])('throws a clear INVALID_TOOL_CALLS error for %s', (_label, record, message) => {
    let caught: unknown;
    try {
      normalizeToolCalls(record);
    } catch (error) {
      caught = error;
    }
    expect(isAiEvalError(caught, 'INVALID_TOOL_CALLS')).toBe(true);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).toContain(
      'Pass tool calls, results or messages of OpenAI Chat Completions or Responses, the Vercel AI SDK, Anthropic, the OpenAI Agents SDK, LangChain, Google GenAI or MCP',
    );
  });
});

describe('recordOf', () => {
  it('has no record for a string or a run without toolCalls and messages', () => {
    expect(recordOf('done')).toBeUndefined();
    expect(recordOf({ output: 'done' })).toBeUndefined();
  });

  it('keeps an empty record distinct from none', () => {
    expect(recordOf({ output: 'done', toolCalls: [] })).toEqual([]);
    expect(recordOf({ output: 'done', messages: [{ role: 'user', content: 'hi' }] })).toEqual([]);
  });

  it('prefers toolCalls over messages, and an explicit record over both', () => {
    const run = {
      output: 'done',
      toolCalls: [{ function_name: 'a', arguments: {} }],
      messages: [{ role: 'assistant', tool_calls: [{ function: { name: 'b', arguments: '{}' } }] }],
    };
    expect(recordOf(run)!.map((c) => c.function_name)).toEqual(['a']);
    expect(recordOf({ output: 'x', messages: run.messages })!.map((c) => c.function_name)).toEqual(['b']);
    expect(recordOf('done', [{ function_name: 'c', arguments: {} }])!.map((c) => c.function_name)).toEqual([
      'c',
    ]);
  });
});
