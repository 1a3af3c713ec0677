import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acquireSlot } from '../../src/judge/limiter.js';
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

async function twoWorkers(options: { concurrency: number; rpm: number; windowMs: number; count: number }) {
  const limitDir = mkdtempSync(join(tmpdir(), 'ai-eval-limits-'));
  const args = (name: string) => [
    server.baseURL,
    limitDir,
    String(options.concurrency),
    String(options.rpm),
    String(options.windowMs),
    String(options.count),
    name,
    'a,b',
  ];
  const runs = await Promise.all([
    runNode('worker.mjs', args('a'), project),
    runNode('worker.mjs', args('b'), project),
  ]);
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
    await twoWorkers({ concurrency: 2, rpm: 0, windowMs: 60_000, count: 4 });
    expect(server.requests).toHaveLength(8);
    // Eight calls of 300 ms wait on two slots: the server sees exactly two at a time, never more.
    expect(server.maxInFlight).toBe(2);
  });

  it('never starts more than requestsPerMinute calls per window, across two processes', async () => {
    server.fallback = () => ({ answer: { score: 4, reason: 'scripted default' } });
    const windowMs = 3000;
    const limit = 3;
    await twoWorkers({ concurrency: 10, rpm: limit, windowMs, count: 3 });
    expect(server.requests).toHaveLength(6);
    const arrivals = server.requests.map((r) => r.receivedAt).sort((a, b) => a - b);
    // Count-based: any span shorter than the window (less a generous margin for request latency
    // on a loaded machine) holds at most `limit` arrivals. Without the shared limiter all six
    // arrive at once.
    const span = windowMs - 1000;
    for (let i = 0; i + limit < arrivals.length; i += 1) {
      const inSpan = arrivals.filter((t) => t >= arrivals[i]! && t < arrivals[i]! + span).length;
      expect(inSpan).toBeLessThanOrEqual(limit);
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
