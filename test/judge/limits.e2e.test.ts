import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configure, gradeQuestion, isAiEvalError, resetConfig } from '../../src/index.js';
import { acquireSlot, defaultLimitDir } from '../../src/judge/limiter.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { makeProject, runNode } from '../helpers/project.js';

/**
 * A worker process: configures the packed ai-eval against the local server, waits at a barrier
 * until every worker is ready (so they overlap for sure), then grades `count` questions at once.
 */
const WORKER = `
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configure, gradeQuestion } from 'ai-eval';
const [baseURL, limitDir, concurrency, rpm, windowMs, count, name, peers] = process.argv.slice(2);
configure({
  judge: {
    baseURL, apiKey: 'sk-worker-key', model: 'test-judge', limitDir,
    concurrency: Number(concurrency),
    ...(rpm === '0' ? {} : { requestsPerMinute: Number(rpm) }),
    rateWindowMs: Number(windowMs), timeoutMs: 60000,
  },
});
writeFileSync(join(limitDir, 'ready-' + name), '');
while (!peers.split(',').every((p) => existsSync(join(limitDir, 'ready-' + p)))) {
  await new Promise((r) => setTimeout(r, 5));
}
const results = await Promise.all(
  Array.from({ length: Number(count) }, (_, i) =>
    gradeQuestion({ question: { id: name + i, input: 'question ' + name + ' ' + i }, response: 'answer', graders: ['relevance_grader'] }),
  ),
);
console.log('RESULT ' + JSON.stringify(results.map((r) => [r.grades[0].score, r.grades[0].reason])));
`;

let server: OpenAIServer;
let project: string;
beforeAll(async () => {
  server = await startOpenAIServer();
  project = makeProject('judge-limits', { 'worker.mjs': WORKER });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function workers(
  options: { concurrency: number; rpm: number; windowMs: number; count: number },
  names = ['a', 'b'],
) {
  const limitDir = mkdtempSync(join(tmpdir(), 'ai-eval-limits-'));
  const args = (name: string) => [
    server.baseURL,
    limitDir,
    String(options.concurrency),
    String(options.rpm),
    String(options.windowMs),
    String(options.count),
    name,
    names.join(','),
  ];
  const runs = await Promise.all(names.map((name) => runNode('worker.mjs', args(name), project)));
  for (const run of runs) {
    expect(run.code, run.output).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    const scores = JSON.parse(line!.slice(7)) as Array<[number | null, string]>;
    expect(scores).toHaveLength(options.count);
    for (const [score, reason] of scores) expect([score, reason]).toEqual([4, 'scripted default']);
  }
}

describe('judge limits across worker processes', () => {
  it('never has more calls in flight than judge.concurrency, across two processes', async () => {
    server.fallback = () => ({ answer: { score: 4, reason: 'scripted default' }, delayMs: 300 });
    await workers({ concurrency: 2, rpm: 0, windowMs: 60_000, count: 4 });
    expect(server.requests).toHaveLength(8);
    // Eight calls of 300 ms wait on two slots: the server sees exactly two at a time, never more.
    expect(server.maxInFlight).toBe(2);
  });

  it('never lets more than requestsPerMinute calls reach the server in any window, across five processes', async () => {
    // Answers take a while, and not the same while: a process that is slow to send, or an answer
    // that is slow to come, must not let a later call in early.
    let n = 0;
    server.fallback = () => ({ answer: { score: 4, reason: 'scripted default' }, delayMs: (n++ % 3) * 150 });
    const windowMs = 2000;
    const limit = 5;
    await workers({ concurrency: 10, rpm: limit, windowMs, count: 3 }, ['a', 'b', 'c', 'd', 'e']);
    expect(server.requests).toHaveLength(15);
    const arrivals = server.requests.map((r) => r.receivedAt).sort((a, b) => a - b);
    // No window of windowMs holds more than `limit` arrivals, as the server saw them: the call
    // `limit` places after another arrived at least a window after it (no margin needed, since a
    // call counts until a window after its answer came back).
    for (let i = 0; i + limit < arrivals.length; i += 1) {
      expect(arrivals[i + limit]! - arrivals[i]!, `arrivals ${i} and ${i + limit}`).toBeGreaterThanOrEqual(
        windowMs,
      );
    }
  });

  it('reclaims a slot held by a process that died', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-limits-'));
    const settings = { dir, key: 'k', concurrency: 1, windowMs: 60_000, holdLimitMs: 600_000 };
    const release = await acquireSlot(settings);
    await release();
    const [state] = readdirSync(dir).filter((f) => f.endsWith('.json'));
    const file = join(dir, state!);
    const holders = () =>
      (JSON.parse(readFileSync(file, 'utf8')) as { inflight: Array<{ pid: number }> }).inflight;
    const heldBy = (pid: number) =>
      writeFileSync(file, JSON.stringify({ inflight: [{ token: 't', pid, at: Date.now() }], starts: [] }));
    // Held by a live process (this one), the only slot is not free...
    heldBy(process.pid);
    await expect(acquireSlot(settings, AbortSignal.timeout(300))).rejects.toThrow();
    // ...held by a dead one, it is taken over.
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    heldBy(Number(dead));
    const again = await acquireSlot(settings, AbortSignal.timeout(5000));
    expect(holders().map((h) => h.pid)).toEqual([process.pid]);
    await again();
    expect(holders()).toEqual([]);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'reclaims a slot whose holder died and whose pid another process has now (Linux)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ai-eval-limits-'));
      const settings = { dir, key: 'k', concurrency: 1, windowMs: 60_000, holdLimitMs: 600_000 };
      await (
        await acquireSlot(settings)
      )();
      const [state] = readdirSync(dir).filter((f) => f.endsWith('.json'));
      const file = join(dir, state!);
      // The parent (Vitest's) is alive, but it is not the process that started at tick 1. The pid
      // alone kept the slot for holdLimitMs (ten minutes here).
      const held = { token: 't', pid: process.ppid, start: '1', at: Date.now() };
      writeFileSync(file, JSON.stringify({ inflight: [held], starts: [] }));
      const release = await acquireSlot(settings, AbortSignal.timeout(3000));
      const { inflight } = JSON.parse(readFileSync(file, 'utf8')) as {
        inflight: Array<{ pid: number; start?: string }>;
      };
      expect(inflight).toEqual([
        expect.objectContaining({ pid: process.pid, start: expect.stringMatching(/^\d+$/) }),
      ]);
      await release();
    },
  );

  it('takes over the limiter lock of a process that died holding it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-limits-'));
    const settings = { dir, key: 'k', concurrency: 1, windowMs: 60_000, holdLimitMs: 600_000 };
    await (
      await acquireSlot(settings)
    )();
    const [state] = readdirSync(dir).filter((f) => f.endsWith('.json'));
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString(),
    );
    // What a worker killed with kill -9 inside the lock leaves behind.
    mkdirSync(join(dir, `${state!}.lock`));
    writeFileSync(
      join(dir, `${state!}.lock`, 'owner.json'),
      JSON.stringify({ pid: dead, host: hostname(), token: 'dead' }),
    );
    // The old lock waited 10 s for such a lock to go stale; it is taken over at once now.
    const release = await acquireSlot(settings, AbortSignal.timeout(8000));
    await release();
    expect(readdirSync(dir).sort()).toEqual([state!]);
  });

  it('refuses an AI_EVAL_RUN_ID that is not a plain name', async () => {
    const saved = process.env.AI_EVAL_RUN_ID;
    try {
      for (const bad of ['..', '.', '../elsewhere', 'a/b', 'a\\b', 'x..y', 'sp ace', '/abs']) {
        process.env.AI_EVAL_RUN_ID = bad;
        expect(() => defaultLimitDir(), bad).toThrow(/AI_EVAL_RUN_ID must be a name of letters, digits/);
        let error: unknown;
        try {
          defaultLimitDir();
        } catch (e) {
          error = e;
        }
        expect(isAiEvalError(error, 'INVALID_CONFIG')).toBe(true);
      }
      for (const good of ['ci-1234', 'run_7.2', 'a.b']) {
        process.env.AI_EVAL_RUN_ID = good;
        expect(defaultLimitDir().endsWith(join('judge-limits', good))).toBe(true);
      }
      process.env.AI_EVAL_RUN_ID = '';
      expect(defaultLimitDir().endsWith(join('judge-limits', 'shared'))).toBe(true);
      // A judge configured without limitDir errs naming the variable, and calls nothing.
      process.env.AI_EVAL_RUN_ID = '..';
      resetConfig();
      configure({ judge: { baseURL: server.baseURL, apiKey: 'sk-x-0123456789abcdef', model: 'test-judge' } });
      const saveDir = process.env.AI_EVAL_JUDGE_LIMIT_DIR;
      delete process.env.AI_EVAL_JUDGE_LIMIT_DIR;
      try {
        const result = await gradeQuestion({
          question: { input: 'q' },
          response: 'r',
          graders: ['relevance_grader'],
        });
        expect(result.grades[0]).toMatchObject({ error: true, score: null });
        expect(result.grades[0]!.reason).toContain('AI_EVAL_RUN_ID must be a name');
        expect(server.requests).toHaveLength(0);
      } finally {
        if (saveDir !== undefined) process.env.AI_EVAL_JUDGE_LIMIT_DIR = saveDir;
      }
    } finally {
      if (saved === undefined) delete process.env.AI_EVAL_RUN_ID;
      else process.env.AI_EVAL_RUN_ID = saved;
      resetConfig();
    }
  });

  it('makes a waiting call wait while the only slot is held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-limits-'));
    const settings = { dir, key: 'k', concurrency: 1, windowMs: 60_000, holdLimitMs: 600_000 };
    const held = await acquireSlot(settings);
    await expect(acquireSlot(settings, AbortSignal.timeout(300))).rejects.toThrow();
    await held();
    const next = await acquireSlot(settings, AbortSignal.timeout(5000));
    await next();
  });
});
