import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configure, gradeQuestion, resetConfig } from '../../src/index.js';
import { REASON_CHAR_LIMIT, TRUNCATED_MARKER } from '../../src/internal/reason.js';
import { toRecords } from '../../src/run/record.js';
import { getGrader } from '../../src/index.js';
import { TEST_KEY, withJudgeServer } from './judge-env.js';

const env = withJudgeServer({ maxAttempts: 1 });

const grade = async (grader = 'relevance_grader') =>
  (
    await gradeQuestion({
      question: { id: 'q1', input: 'What is the capital of France?' },
      response: 'Paris.',
      graders: [grader],
    })
  ).grades[0]!;

const message = (content: unknown) => ({
  id: 'c',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content } }],
});

describe('judge replies of the wrong shape are errors that say what came back', () => {
  it.each([
    [
      'choices as an object',
      { choices: { 0: { message: { content: '{"score":5,"reason":"x"}' } } } },
      'choices is an object with keys 0, not a list',
    ],
    ['no choices', { id: 'c' }, 'choices is missing, not a list'],
    ['an empty choices list', { choices: [] }, 'choices is an empty list'],
    ['a message that is a string', { choices: [{ message: 'hi' }] }, 'choices[0].message is the string "hi"'],
    [
      'an array as content',
      message([{ type: 'text', text: '{"score":5}' }]),
      'content is an array, not text',
    ],
    ['a number as content', message(5), 'content is number 5, not text'],
    ['an object as content', message({ score: 5 }), 'content is an object with keys score, not text'],
    ['a number as refusal', { choices: [{ message: { content: null, refusal: 1 } }] }, 'refusal is number 1'],
  ])('%s', async (_what, body, says) => {
    env.server.script({ status: 200, body });
    const result = await grade();
    expect(result).toMatchObject({ score: null, composite: null, error: true });
    expect(result.reason).toContain('the judge endpoint sent no usable chat completion: ');
    expect(result.reason).toContain(says);
    expect(result.reason).not.toContain('is not a function');
    expect(env.server.requests).toHaveLength(1);
  });

  it('a JSON string body is text, not an empty answer', async () => {
    env.server.script({
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: 'overloaded, try later',
    });
    const result = await grade();
    expect(result.error).toBe(true);
    expect(result.reason).toContain(
      'it answered with text, not chat completion JSON: ""overloaded, try later""',
    );
  });
});

describe('a completion that did not finish', () => {
  const finished = (finish_reason: string, content: string | null) => ({
    id: 'c',
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason, message: { role: 'assistant', content, refusal: null } }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });

  it.each([
    [
      'content_filter',
      'the judge answer was filtered by the provider (finish_reason content_filter)',
      'refused',
    ],
    ['length', 'the judge answer was cut off at the token limit (finish_reason length)', 'unparseable'],
  ])(
    'with finish_reason %s is an errored grade, even when its content parses',
    async (reason, says, outcome) => {
      env.server.script({ status: 200, body: finished(reason, '{"score": 5, "reason": "looks fine"}') });
      const result = await grade();
      expect(result).toMatchObject({
        score: null,
        composite: null,
        error: true,
        judgeCall: { source: 'live', outcome },
        // What it cost is counted all the same.
        usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      });
      expect(result.reason).toContain(says);
      expect(env.server.requests).toHaveLength(1);
    },
  );

  it('is never recorded in the replay cache', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ai-eval-cache-'));
    configure({ judge: { cache: 'auto', cacheDir } });
    env.server.script(
      { status: 200, body: finished('length', '{"score": 5, "reason": "cut"}') },
      { answer: { score: 3, reason: 'whole' } },
    );
    expect((await grade()).error).toBe(true);
    expect(await grade()).toMatchObject({ score: 3, reason: 'whole', error: false });
    expect(env.server.requests).toHaveLength(2);
  });

  it.each(['stop', 'tool_calls', null])('with finish_reason %s scores as usual', async (reason) => {
    env.server.script({ status: 200, body: finished(reason as string, '{"score": 4, "reason": "ok"}') });
    expect(await grade()).toMatchObject({ score: 4, error: false });
  });
});

describe('bodies the scripted server cannot send', () => {
  let server: Server;
  let baseURL = '';
  const replies: Array<{ type: string; body: string }> = [];
  let requests = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests += 1;
        const reply = replies.shift() ?? { type: 'application/json', body: 'null' };
        res.writeHead(200, { 'content-type': reply.type });
        res.end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  const use = (maxAttempts: number) => {
    resetConfig();
    requests = 0;
    configure({
      judge: {
        baseURL,
        apiKey: TEST_KEY,
        model: 'test-judge',
        maxAttempts,
        limitDir: mkdtempSync(join(tmpdir(), 'ai-eval-limits-')),
      },
    });
  };

  it('a null body is an error naming it, not a connection error, and is not retried', async () => {
    use(3);
    replies.push({ type: 'application/json', body: 'null' });
    const result = await grade();
    expect(result).toMatchObject({ score: null, error: true });
    expect(result.reason).toBe(
      'the judge endpoint sent no usable chat completion: it answered null, not a chat completion object',
    );
    expect(requests).toBe(1);
  });

  it('an HTML page with status 200 is an error showing the page, not an empty answer', async () => {
    use(1);
    replies.push({
      type: 'text/html; charset=utf-8',
      body: '<!doctype html><html><head><title>Sign in</title></head><body>Proxy login</body></html>',
    });
    const result = await grade();
    expect(result.error).toBe(true);
    expect(result.reason).toContain(
      'it answered with text, not chat completion JSON: "<!doctype html><html><head><title>Sign in</title>',
    );
    expect(result.reason).not.toContain('empty answer');
  });
});

describe('reason lengths', () => {
  it('a 10 MB judge reason is cut to the cap, with a marker, in the grade and its record', async () => {
    env.server.script({ answer: { score: 4, reason: `${'long '.repeat(2_000_000)}end` } });
    const result = await gradeQuestion({
      question: { id: 'q1', input: 'What is the capital of France?' },
      response: 'Paris.',
      graders: ['relevance_grader'],
    });
    const [g] = result.grades;
    expect(g).toMatchObject({ score: 4, error: false });
    expect(g!.reason).toHaveLength(REASON_CHAR_LIMIT);
    expect(g!.reason.endsWith(TRUNCATED_MARKER)).toBe(true);
    const [record] = toRecords(result, [getGrader('relevance_grader')], {
      identity: { file: 'f', name: 'n', title: 'n', isRunning: () => true },
      target: null,
      question: 'q1',
      trial: 1,
    });
    expect(record!.reason).toBe(g!.reason);
  });

  it('a grader reason of any size is capped too', async () => {
    const result = await gradeQuestion({
      question: { input: 'q' },
      response: 'r',
      graders: [
        {
          ...getGrader('read_only_run'),
          grade: (_i, _r, _c, { result: r }) => r(1, 'x'.repeat(REASON_CHAR_LIMIT * 10)),
        },
      ],
    });
    expect(result.grades[0]!.reason).toHaveLength(REASON_CHAR_LIMIT);
  });
});
