import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configure, gradeQuestion } from '../../src/index.js';
import { withJudgeServer } from './judge-env.js';

const env = withJudgeServer();

// The limiter folder as CI shares it between the workers of a run: through the environment.
let saved: string | undefined;
beforeEach(() => {
  saved = process.env.AI_EVAL_JUDGE_LIMIT_DIR;
  process.env.AI_EVAL_JUDGE_LIMIT_DIR = mkdtempSync(join(tmpdir(), 'ai-eval-limits-'));
  configure({ judge: { limitDir: undefined, timeoutMs: 2000 } });
});
afterEach(() => {
  if (saved === undefined) delete process.env.AI_EVAL_JUDGE_LIMIT_DIR;
  else process.env.AI_EVAL_JUDGE_LIMIT_DIR = saved;
});

const grade = async (id: string) =>
  (
    await gradeQuestion({
      question: { id, input: `Question ${id}?` },
      response: 'Answer.',
      graders: ['relevance_grader'],
      // The test's own bound: a call that waited for the block would be cut here instead.
      signal: AbortSignal.timeout(4000),
    })
  ).grades[0]!;

describe('a Retry-After that outlasts the timeout, shared through the limiter folder', () => {
  it('makes a later call fail at once with an errored grade, not wait for it', async () => {
    env.server.script({ status: 429, headers: { 'retry-after': '3600' } });
    const first = await grade('a');
    expect(first).toMatchObject({ score: null, error: true });
    expect(first.reason).toContain('Retry-After asked for 3600000 ms, beyond the 2000 ms timeout');

    // The block is in the shared state: every later call, here or in another worker, meets it, and
    // fails before it sends anything (the reason says so), not after its timeout.
    const later = await grade('b');
    expect(later).toMatchObject({ score: null, error: true, judgeCall: { outcome: 'failed' } });
    expect(later.reason).toMatch(
      /^judge call failed before any request was sent: the provider asked to wait (\d+) ms \(Retry-After\) before the next request, beyond the 2000 ms timeout$/,
    );
    const waitMs = Number(/wait (\d+) ms/.exec(later.reason)![1]);
    expect(waitMs).toBeGreaterThan(3_590_000);
    expect(waitMs).toBeLessThanOrEqual(3_600_000);
    expect(env.server.requests).toHaveLength(1);
  });

  it('frees the slot of a call it fails, so others fail at once too', async () => {
    configure({ judge: { concurrency: 1 } });
    env.server.script({ status: 429, headers: { 'retry-after': '3600' } });
    await grade('a');
    const grades = await Promise.all(['b', 'c', 'd'].map(grade));
    for (const g of grades) expect(g.reason).toContain('the provider asked to wait');
    expect(env.server.requests).toHaveLength(1);
  });

  it('lets a later call wait out a block that ends within its timeout', async () => {
    // One attempt, too short to wait out the Retry-After itself: the first call fails on its 429.
    configure({ judge: { timeoutMs: 3000, maxAttempts: 1, attemptTimeoutMs: 500 } });
    env.server.script({ status: 429, headers: { 'retry-after-ms': '1200' } });
    expect((await grade('a')).error).toBe(true);
    env.server.script({ answer: { score: 4, reason: 'after the block' } });
    expect(await grade('b')).toMatchObject({ score: 4, error: false });
    const [refused, answered] = env.server.requests;
    expect(answered!.receivedAt - refused!.receivedAt).toBeGreaterThanOrEqual(1100);
  });
});
