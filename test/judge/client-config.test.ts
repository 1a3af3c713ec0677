import { describe, expect, it } from 'vitest';
import {
  configure,
  gradeQuestion,
  type JudgeChatBody,
  type JudgeChatClient,
  type JudgeChatCompletion,
} from '../../src/index.js';
import { judgeSettings } from '../../src/judge/settings.js';
import { tokenHash } from '../helpers/openai-server.js';
import { TEST_KEY, withJudgeServer } from './judge-env.js';

const env = withJudgeServer();

const grade = async () =>
  (
    await gradeQuestion({
      question: { id: 'q', input: 'Which port does the dev server use?' },
      response: 'Port 5173.',
      graders: ['relevance_grader'],
    })
  ).grades[0]!;

type CreateOptions = Parameters<JudgeChatClient['chat']['completions']['create']>[1];

describe('an injected judge.client', () => {
  it('receives the judge request body and its answer becomes the grade', async () => {
    const calls: Array<{ body: JudgeChatBody; options: CreateOptions }> = [];
    const client: JudgeChatClient = {
      chat: {
        completions: {
          create(body, options): Promise<JudgeChatCompletion> {
            calls.push({ body, options });
            return Promise.resolve({
              choices: [{ message: { content: '{"score": 4, "reason": "from the stub"}', refusal: null } }],
              usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
            });
          },
        },
      },
    };
    configure({ judge: { client, model: 'stub-model' } });
    const result = await grade();
    expect(result).toMatchObject({
      grader: 'relevance_grader',
      score: 4,
      error: false,
      reason: 'from the stub',
      usage: { promptTokens: 11, completionTokens: 7, totalTokens: 18 },
    });
    expect(calls).toHaveLength(1);
    const { body, options } = calls[0]!;
    expect(body).toMatchObject({ model: 'stub-model', temperature: 0, seed: 0 });
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]!.role).toBe('user');
    expect(body.messages[0]!.content).toContain('Which port does the dev server use?');
    expect(body.messages[0]!.content).toContain('Port 5173.');
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'judge_answer', strict: true },
    });
    expect(body.response_format!.json_schema.schema).toMatchObject({ required: ['score', 'reason'] });
    // A plain client is called once and does its own retries: it gets the settings as hints.
    expect(options).toMatchObject({ maxRetries: 2, timeout: judgeSettings().attemptTimeoutMs });
    expect(options!.signal).toBeInstanceOf(AbortSignal);
    // The configured server is not called when a client is injected.
    expect(env.server.requests).toHaveLength(0);
  });

  it('is held to timeoutMs even when it ignores the abort signal, and frees its limiter slot', async () => {
    let calls = 0;
    const client: JudgeChatClient = {
      chat: {
        completions: {
          // Never answers, and never looks at options.signal.
          create: () => {
            calls += 1;
            return new Promise<JudgeChatCompletion>(() => undefined);
          },
        },
      },
    };
    configure({ judge: { client, timeoutMs: 300, concurrency: 1 } });
    // The test's own bound: without the timer this call would hang until it.
    const graded = async () =>
      (
        await gradeQuestion({
          question: { id: 'q', input: 'Which port does the dev server use?' },
          response: 'Port 5173.',
          graders: ['relevance_grader'],
          signal: AbortSignal.timeout(4000),
        })
      ).grades[0]!;
    const first = await graded();
    expect(first).toMatchObject({ score: null, error: true, judgeCall: { outcome: 'failed' } });
    expect(first.reason).toBe(
      'judge call failed after 1 attempt: the request timed out; the 300 ms timeout ran out',
    );
    // With one slot, a second call could only start if the first freed its slot: one left waiting
    // would end on the test's 4 s signal, with another reason.
    const second = await graded();
    expect(second.reason).toBe(first.reason);
    expect(calls).toBe(2);
  });

  it('refuses an object without chat.completions.create as an errored grade', async () => {
    configure({ judge: { client: {} as unknown as JudgeChatClient } });
    const result = await grade();
    expect(result).toMatchObject({ score: null, error: true });
    expect(result.reason).toBe(
      'judge.client must be an OpenAI client or an object with chat.completions.create(body, options).',
    );
    expect(env.server.requests).toHaveLength(0);
  });
});

describe('configuration from the environment', () => {
  it('takes the model, key and base URL from AI_EVAL_JUDGE_MODEL, OPENAI_API_KEY and OPENAI_BASE_URL', async () => {
    const envKey = 'sk-env-SECRET-fedcba9876543210';
    const names = ['AI_EVAL_JUDGE_MODEL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const;
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    configure({ judge: { model: undefined, apiKey: undefined, baseURL: undefined } });
    process.env.AI_EVAL_JUDGE_MODEL = 'env-judge-model';
    process.env.OPENAI_API_KEY = envKey;
    process.env.OPENAI_BASE_URL = env.server.baseURL;
    try {
      env.server.script({ answer: { score: 3, reason: 'via env' } });
      const result = await grade();
      expect(result).toMatchObject({ score: 3, error: false, reason: 'via env' });
      expect(env.server.requests).toHaveLength(1);
      expect(env.server.requests[0]!.body.model).toBe('env-judge-model');
      expect(env.server.requests[0]!.tokenHash).toBe(tokenHash(envKey));
      expect(env.server.requests[0]!.tokenHash).not.toBe(tokenHash(TEST_KEY));
    } finally {
      for (const n of names) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
    }
  });

  it('lets the configuration win over the environment', async () => {
    const names = ['AI_EVAL_JUDGE_MODEL', 'OPENAI_API_KEY'] as const;
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    process.env.AI_EVAL_JUDGE_MODEL = 'env-judge-model';
    process.env.OPENAI_API_KEY = 'sk-env-SECRET-fedcba9876543210';
    try {
      await grade();
      expect(env.server.requests).toHaveLength(1);
      expect(env.server.requests[0]!.body.model).toBe('test-judge');
      expect(env.server.requests[0]!.tokenHash).toBe(tokenHash(TEST_KEY));
    } finally {
      for (const n of names) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
    }
  });

  it('follows every change to the configuration and the environment between two reads', () => {
    const names = ['AI_EVAL_JUDGE_MODEL', 'AI_EVAL_JUDGE_CACHE', 'AI_EVAL_JUDGE_LIMIT_DIR'] as const;
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    configure({ judge: { model: undefined, cache: undefined, limitDir: undefined } });
    try {
      process.env.AI_EVAL_JUDGE_MODEL = 'first-model';
      const first = judgeSettings();
      expect(first.model).toBe('first-model');
      // Read again with nothing changed: the same (frozen) settings.
      expect(judgeSettings()).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      process.env.AI_EVAL_JUDGE_MODEL = 'second-model';
      expect(judgeSettings().model).toBe('second-model');
      process.env.AI_EVAL_JUDGE_CACHE = 'replay';
      expect(judgeSettings().cache).toBe('replay');
      process.env.AI_EVAL_JUDGE_LIMIT_DIR = '/tmp/ai-eval-limits-elsewhere';
      expect(judgeSettings().limitDir).toBe('/tmp/ai-eval-limits-elsewhere');
      configure({ judge: { model: 'configured-model', cache: 'off' } });
      expect(judgeSettings()).toMatchObject({ model: 'configured-model', cache: 'off' });
      // A bad value is refused on every read, not only the first.
      configure({ judge: { cache: undefined } });
      process.env.AI_EVAL_JUDGE_CACHE = 'sometimes';
      expect(() => judgeSettings()).toThrow('must be one of auto, record, replay, off');
      expect(() => judgeSettings()).toThrow('must be one of auto, record, replay, off');
    } finally {
      for (const n of names) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
    }
  });
});
