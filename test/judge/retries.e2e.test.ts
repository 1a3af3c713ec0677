import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIError } from 'openai';
import {
  AiEvalError,
  captureLogsAsync,
  configure,
  gradeQuestion,
  logger,
  type LogEntry,
} from '../../src/index.js';
import { callJudge } from '../../src/judge/client.js';
import { TEST_KEY, withJudgeServer } from './judge-env.js';

const env = withJudgeServer();
const logs: LogEntry[] = [];
let stop: () => void;
beforeAll(() => {
  stop = logger.subscribe((entry) => logs.push(entry));
});
afterAll(() => stop());
afterEach(() => {
  // Secrets never leave: not in any log line.
  expect(JSON.stringify(logs)).not.toContain(TEST_KEY);
});

const grade = async () =>
  (
    await gradeQuestion({
      question: { id: 'q', input: 'Question?' },
      response: 'Answer.',
      graders: ['relevance_grader'],
    })
  ).grades[0]!;

describe('retries, backoff and timeouts', () => {
  it('waits as long as Retry-After says after a 429, then succeeds', async () => {
    env.server.script(
      { status: 429, headers: { 'retry-after': '1' } },
      { answer: { score: 5, reason: 'spot on' } },
    );
    const result = await grade();
    expect(result).toMatchObject({ score: 5, error: false, reason: 'spot on' });
    expect(env.server.requests).toHaveLength(2);
    // The SDK's own first backoff is at most 500 ms, so only honouring Retry-After explains the gap.
    expect(env.server.requests[1]!.receivedAt - env.server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(
      950,
    );
  });

  it('honours retry-after-ms too', async () => {
    env.server.script(
      { status: 429, headers: { 'retry-after-ms': '800' } },
      { answer: { score: 3, reason: 'ok' } },
    );
    expect(await grade()).toMatchObject({ score: 3, error: false });
    // Longer than the SDK's own first backoff (at most 500 ms).
    expect(env.server.requests[1]!.receivedAt - env.server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(
      780,
    );
  });

  it('reads Retry-After as an HTTP date too', async () => {
    const at = new Date(Date.now() + 2000);
    env.server.script(
      { status: 503, headers: { 'retry-after': at.toUTCString() } },
      { answer: { score: 4, reason: 'ok' } },
    );
    expect(await grade()).toMatchObject({ score: 4, error: false });
    // HTTP dates have whole seconds: the retry comes no earlier than that second.
    expect(env.server.requests[1]!.receivedAt).toBeGreaterThanOrEqual(
      Math.floor(at.getTime() / 1000) * 1000 - 50,
    );
  });

  it('gives up at once when Retry-After reaches past the timeout', async () => {
    configure({ judge: { timeoutMs: 2000 } });
    env.server.script({ status: 429, headers: { 'retry-after': '120' } });
    const result = await grade();
    expect(result).toMatchObject({ score: null, error: true });
    expect(result.reason).toContain('judge call failed after 1 attempt: HTTP 429');
    expect(result.reason).toContain('Retry-After asked for 120000 ms, beyond the 2000 ms timeout');
    expect(env.server.requests).toHaveLength(1);
  });

  it('ends repeated 500s in an errored grade after maxAttempts', async () => {
    env.server.script(
      { status: 500 },
      { status: 502 },
      { status: 503 },
      { answer: { score: 5, reason: 'too late' } },
    );
    const result = await grade();
    expect(result).toMatchObject({ score: null, composite: null, error: true, skipped: false });
    expect(result.reason).toMatch(/^judge call failed after 3 attempts: HTTP 503/);
    expect(env.server.requests).toHaveLength(3);
  });

  it('recovers from a 500 within the attempt budget', async () => {
    env.server.script({ status: 500 }, { answer: { score: 2, reason: 'weak' } });
    expect(await grade()).toMatchObject({ score: 2, error: false });
    expect(env.server.requests).toHaveLength(2);
  });

  it('honours a smaller maxAttempts', async () => {
    configure({ judge: { maxAttempts: 1 } });
    env.server.script({ status: 500 }, { answer: { score: 2, reason: 'never reached' } });
    expect((await grade()).reason).toMatch(/^judge call failed after 1 attempt: HTTP 500/);
    expect(env.server.requests).toHaveLength(1);
  });

  it('retries a request that hangs once, instead of spending the whole timeout on it', async () => {
    configure({ judge: { timeoutMs: 5000, attemptTimeoutMs: 200 } });
    env.server.script({ hang: true }, { answer: { score: 5, reason: 'after the hang' } });
    const result = await grade();
    expect(result).toMatchObject({ score: 5, error: false, reason: 'after the hang' });
    expect(env.server.requests).toHaveLength(2);
  });

  it('gives each attempt a share of the timeout by default, so every attempt is made', async () => {
    // maxAttempts 3, timeoutMs 2400: the SDK waits at most 500 + 1000 ms between the attempts,
    // which leaves each attempt (2400 - 1500) / 3 = 300 ms.
    configure({ judge: { timeoutMs: 2400 } });
    env.server.script({ hang: true }, { hang: true }, { hang: true });
    const result = await grade();
    expect(result).toMatchObject({ score: null, error: true });
    expect(result.reason).toMatch(/^judge call failed after 3 attempts: the request timed out/);
    expect(env.server.requests).toHaveLength(3);
  });

  it('names the attempt timeout when an attempt runs out of it', async () => {
    configure({ judge: { maxAttempts: 1, timeoutMs: 5000, attemptTimeoutMs: 150 } });
    env.server.script({ hang: true });
    const result = await grade();
    expect(result.reason).toBe(
      'judge call failed after 1 attempt: the request timed out (no answer within the 150 ms attempt timeout)',
    );
    expect(env.server.requests).toHaveLength(1);
  });

  it('stops a hanging server at the overall timeout', async () => {
    configure({ judge: { timeoutMs: 400, attemptTimeoutMs: 10_000 } });
    env.server.script({ hang: true }, { hang: true }, { hang: true });
    const result = await grade();
    expect(result).toMatchObject({ score: null, error: true });
    expect(result.reason).toBe(
      'judge call failed after 1 attempt: the request timed out; the 400 ms timeout ran out',
    );
    expect(env.server.requests).toHaveLength(1);
  });

  it('refuses an attemptTimeoutMs that is not a positive integer', async () => {
    configure({ judge: { attemptTimeoutMs: 0 } });
    const result = await grade();
    expect(result.error).toBe(true);
    expect(result.reason).toContain('judge.attemptTimeoutMs must be a positive integer');
    expect(env.server.requests).toHaveLength(0);
  });

  it('chains the last underlying error as the cause of the final error, without the key', async () => {
    configure({ judge: { maxAttempts: 2 } });
    env.server.script(
      { status: 500 },
      {
        status: 503,
        body: { error: { message: `overloaded for ${TEST_KEY}`, type: 'server_error' } },
      },
    );
    const error = await callJudge({
      judge: 'relevance_grader',
      messages: [{ role: 'user', content: 'Rate this.' }],
      answerSchema: { type: 'object' },
      trial: 1,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AiEvalError);
    expect((error as AiEvalError).message).toMatch(/^judge call failed after 2 attempts: HTTP 503/);
    const cause = (error as AiEvalError).cause;
    expect(cause).toBeInstanceOf(Error);
    expect(cause).toMatchObject({ status: 503 });
    expect((cause as Error).message).toContain('overloaded for');
    expect((cause as Error).message).not.toContain(TEST_KEY);
    expect(env.server.requests).toHaveLength(2);
  });

  it('keeps the SDK error itself as the cause when it holds no secret', async () => {
    configure({ judge: { maxAttempts: 1 } });
    env.server.script({ status: 500 });
    const error = await callJudge({
      judge: 'relevance_grader',
      messages: [{ role: 'user', content: 'Rate this.' }],
      answerSchema: { type: 'object' },
      trial: 1,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const cause = (error as AiEvalError).cause;
    expect(cause).toBeInstanceOf(APIError);
    expect(cause).toMatchObject({ status: 500 });
  });

  it('does not retry a 401 and keeps the key out of the reason', async () => {
    env.server.script({
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${TEST_KEY}. Bearer ${TEST_KEY}`,
          type: 'invalid_request_error',
        },
      },
    });
    const result = await grade();
    expect(result.error).toBe(true);
    expect(result.reason).toContain('judge call failed after 1 attempt: HTTP 401');
    expect(result.reason).not.toContain(TEST_KEY);
    expect(result.reason).not.toContain('SECRET');
    expect(env.server.requests).toHaveLength(1);
  });

  it('retries connection errors and names them', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    configure({ judge: { baseURL: `http://127.0.0.1:${port}/v1` } });
    const result = await grade();
    expect(result.error).toBe(true);
    expect(result.reason).toMatch(/^judge call failed after 3 attempts: connection error/);
  });

  it('falls back to plain JSON when the provider refuses structured output', async () => {
    configure({ judge: { model: 'no-structured-output' } });
    env.server.script(
      {
        status: 400,
        body: {
          error: {
            message:
              "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
          },
        },
      },
      { answer: { score: 4, reason: 'fine' } },
    );
    const { value: result, logs: warnings } = await captureLogsAsync(grade);
    expect(result).toMatchObject({ score: 4, error: false });
    expect(env.server.requests[0]!.body).toHaveProperty('response_format');
    expect(env.server.requests[1]!.body).not.toHaveProperty('response_format');
    expect(warnings.map((w) => w.message).join('\n')).toContain('refused structured output');
  });

  it('drops the seed for a provider that refuses it', async () => {
    configure({ judge: { model: 'no-seed-model' } });
    env.server.script(
      { status: 400, body: { error: { message: 'Unrecognized request argument supplied: seed' } } },
      { answer: { score: 3, reason: 'fine' } },
    );
    expect(await grade()).toMatchObject({ score: 3, error: false });
    expect(env.server.requests[0]!.body).toHaveProperty('seed', 0);
    expect(env.server.requests[1]!.body).not.toHaveProperty('seed');
    expect(env.server.requests[1]!.body).toHaveProperty('response_format');
  });

  it('stops waiting when the test aborts the grade', async () => {
    env.server.script({ hang: true });
    const controller = new AbortController();
    const pending = gradeQuestion({
      question: { id: 'q', input: 'Question?' },
      response: 'Answer.',
      graders: ['relevance_grader'],
      signal: controller.signal,
    });
    while (env.server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const result = (await pending).grades[0]!;
    expect(result).toMatchObject({ score: null, error: true });
    expect(result.reason).toBe('the judge call was aborted (test timeout or cancellation)');
    expect(env.server.requests).toHaveLength(1);
  });

  it('refuses an unreachable default provider without a key with a clear error', async () => {
    configure({ judge: { baseURL: undefined, apiKey: undefined } });
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    try {
      const result = await grade();
      expect(result.error).toBe(true);
      expect(result.reason).toContain('no judge API key: set OPENAI_API_KEY');
    } finally {
      if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
      if (saved.url !== undefined) process.env.OPENAI_BASE_URL = saved.url;
    }
  });
});
