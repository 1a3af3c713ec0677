import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { AiEvalError, configure, type JudgeChatClient } from '../../src/index.js';
import { callJudge, type JudgeReply } from '../../src/judge/client.js';
import { limitedFetch, type AttemptResponse } from '../../src/judge/limited-fetch.js';
import { TEST_KEY, withJudgeServer } from './judge-env.js';

const env = withJudgeServer();
afterEach(() => {
  env.server.fallback = () => ({ answer: { score: 4, reason: 'scripted default' } });
});

const ask = (n: number, signal?: AbortSignal): Promise<JudgeReply> =>
  callJudge({
    judge: 'relevance_grader',
    messages: [{ role: 'user', content: `Rate answer ${n}.` }],
    answerSchema: { type: 'object' },
    trial: 1,
    signal,
  });

const ANSWER = { answer: { score: 4, reason: 'held' }, delayMs: 200 } as const;

/** An openai SDK client of the user's own, with its own fetch, counting the calls to it. */
function userClient(): { client: JudgeChatClient; fetches: () => number } {
  let fetches = 0;
  const client = new OpenAI({
    baseURL: env.server.baseURL,
    apiKey: TEST_KEY,
    maxRetries: 0,
    fetch: (input, init) => {
      fetches += 1;
      return fetch(input, init);
    },
  });
  return { client, fetches: () => fetches };
}

describe('every HTTP attempt takes a limiter slot', () => {
  it.each(['built from the settings', 'injected as an openai SDK instance'])(
    'keeps an SDK retry inside judge.concurrency (client %s)',
    async (kind) => {
      const user = kind.startsWith('injected') ? userClient() : undefined;
      configure({ judge: { concurrency: 1, ...(user ? { client: user.client } : {}) } });
      // The first request is refused with "retry at once"; every other one holds its slot for a while.
      env.server.script({ status: 429, headers: { 'retry-after-ms': '0' } });
      env.server.fallback = () => ANSWER;
      const replies = await Promise.all([1, 2, 3].map((n) => ask(n)));
      expect(replies.map((r) => r.content)).toEqual(Array(3).fill('{"score":4,"reason":"held"}'));
      expect(replies.map((r) => r.attempts).sort()).toEqual([1, 1, 2]);
      expect(env.server.requests).toHaveLength(4);
      // A retry sent past the limiter would overlap another call's request.
      expect(env.server.maxInFlight).toBe(1);
      // The user's own fetch sent every attempt, and the SDK retried although it was built with maxRetries 0.
      if (user) expect(user.fetches()).toBe(4);
    },
  );

  it('counts SDK retries toward requestsPerMinute', async () => {
    configure({ judge: { requestsPerMinute: 2, rateWindowMs: 60_000 } });
    env.server.script(
      { status: 429, headers: { 'retry-after-ms': '0' } },
      { answer: { score: 4, reason: 'second try' } },
    );
    expect(await ask(1)).toMatchObject({ content: '{"score":4,"reason":"second try"}', attempts: 2 });
    // The first try and its retry used up the window: the next call waits for it (and is cut off).
    const error = await ask(2, AbortSignal.timeout(500)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AiEvalError);
    expect((error as AiEvalError).message).toBe('the judge call was aborted (test timeout or cancellation)');
    expect(env.server.requests).toHaveLength(2);
  });

  it('does not count the wait for a slot against attemptTimeoutMs or timeoutMs', async () => {
    // Twelve calls one at a time, 100 ms each: the last one queues for over a second.
    configure({ judge: { concurrency: 1, timeoutMs: 1000, attemptTimeoutMs: 1000 } });
    env.server.fallback = () => ({ answer: { score: 4, reason: 'queued' }, delayMs: 100 });
    const replies = await Promise.all(Array.from({ length: 12 }, (_, n) => ask(n)));
    expect(replies.map((r) => r.attempts)).toEqual(Array(12).fill(1));
    expect(env.server.requests).toHaveLength(12);
    expect(env.server.maxInFlight).toBe(1);
  });

  it('calls a plain client once per judge call, inside one slot', async () => {
    let inFlight = 0;
    let peak = 0;
    let calls = 0;
    const client: JudgeChatClient = {
      chat: {
        completions: {
          async create(body) {
            calls += 1;
            inFlight += 1;
            peak = Math.max(peak, inFlight);
            await new Promise((r) => setTimeout(r, 50));
            inFlight -= 1;
            if (body.messages[0]!.content.includes('3')) {
              throw Object.assign(new Error('503 overloaded'), { status: 503 });
            }
            return { choices: [{ message: { content: '{"score":4,"reason":"plain"}' } }] };
          },
        },
      },
    };
    configure({ judge: { client, concurrency: 1 } });
    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => ask(n)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({
      message: 'judge call failed after 1 attempt: HTTP 503: overloaded',
    });
    // Not retried by ai-eval: a plain client does its own retries.
    expect(calls).toBe(3);
    expect(peak).toBe(1);
  });
});

describe('the limited fetch', () => {
  it('shows each attempt, with its status and Retry-After, to onResponse', async () => {
    const seen: Array<Pick<AttemptResponse, 'attempt' | 'status' | 'retryAfterMs'>> = [];
    const limits = {
      dir: mkdtempSync(join(tmpdir(), 'ai-eval-limits-')),
      key: 'seam',
      concurrency: 1,
      windowMs: 60_000,
      holdLimitMs: 60_000,
    };
    const client = new OpenAI({
      baseURL: env.server.baseURL,
      apiKey: TEST_KEY,
      maxRetries: 2,
      fetch: limitedFetch({
        fetch: (input, init) => fetch(input, init),
        limits,
        attemptTimeoutMs: 5000,
        onResponse: ({ attempt, status, retryAfterMs }) => void seen.push({ attempt, status, retryAfterMs }),
      }),
    });
    env.server.script(
      { status: 429, headers: { 'retry-after-ms': '10' } },
      { status: 503, headers: { 'retry-after': '0' } },
      { answer: { score: 5, reason: 'third time' } },
    );
    const completion = await client.chat.completions.create({
      model: 'test-judge',
      messages: [{ role: 'user', content: 'Rate this.' }],
    });
    expect(completion.choices[0]!.message.content).toBe('{"score":5,"reason":"third time"}');
    expect(seen).toEqual([
      { attempt: 1, status: 429, retryAfterMs: 10 },
      { attempt: 2, status: 503, retryAfterMs: 0 },
      { attempt: 3, status: 200, retryAfterMs: undefined },
    ]);
  });
});
