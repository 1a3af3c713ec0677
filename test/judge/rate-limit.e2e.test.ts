import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { makeProject, runJest, runVitest } from '../helpers/project.js';

const PEERS = ['vitest-a', 'vitest-b', 'jest-c', 'jest-d'];
const QUESTIONS = 8;

/** One test file's body: wait until every peer runs, then grade its questions at once, defaults only. */
function body(name: string): string {
  return `
  const dir = process.env.BARRIER_DIR;
  writeFileSync(join(dir, 'ready-${name}'), '');
  const deadline = Date.now() + 60000;
  while (!${JSON.stringify(PEERS)}.every((p) => existsSync(join(dir, 'ready-' + p))) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const results = await Promise.all(Array.from({ length: ${QUESTIONS} }, (_, i) =>
    gradeQuestion({ question: { id: '${name}-' + i, input: 'q ${name} ' + i }, response: 'a', graders: ['relevance_grader'] })));
  expect(results.map((r) => [r.grades[0].score, r.grades[0].error])).toEqual(Array(${QUESTIONS}).fill([4, false]));
`;
}

const vitestFile = (name: string) => `import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { gradeQuestion } from 'ai-eval';
it('judges under the provider rate limit', async () => {${body(name)}}, 110000);
`;

const jestFile = (name: string) => `const { existsSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { gradeQuestion } = require('ai-eval');
it('judges under the provider rate limit', async () => {${body(name)}}, 110000);
`;

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer();
  server.fallback = () => ({ answer: { score: 4, reason: 'within the limit' }, delayMs: 50 });
  // Below the controller's first rate, so the run has to find the limit.
  server.rateLimit = 4;
});
afterAll(() => server.close());

describe('the adaptive judge rate across real Vitest and Jest workers', () => {
  it('grades everything under a limit nobody configured, and settles below it', async () => {
    const dir = makeProject('judge-rate-limit', {
      'vitest.config.mjs': `export default { test: { include: ['vt/*.test.mjs'], pool: 'forks', maxWorkers: 2, fileParallelism: true } };`,
      'vt/a.test.mjs': vitestFile('vitest-a'),
      'vt/b.test.mjs': vitestFile('vitest-b'),
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', testMatch: ['<rootDir>/jt/*.test.cjs'], transform: {} };`,
      'jt/c.test.cjs': jestFile('jest-c'),
      'jt/d.test.cjs': jestFile('jest-d'),
    });
    const env = {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-rate-key',
      AI_EVAL_JUDGE_MODEL: 'test-judge',
      AI_EVAL_JUDGE_LIMIT_DIR: mkdtempSync(join(tmpdir(), 'ai-eval-limits-')),
      BARRIER_DIR: mkdtempSync(join(tmpdir(), 'ai-eval-barrier-')),
    };
    const [vitest, jest] = await Promise.all([
      runVitest(dir, [], env),
      runJest(dir, ['--maxWorkers=2'], env),
    ]);
    // Every grade scored: no call ran out of attempts on a 429.
    expect(vitest.code, vitest.output).toBe(0);
    expect(jest.code, jest.output).toBe(0);
    expect(server.requests).toHaveLength(PEERS.length * QUESTIONS);
    // The limit was hit, and the clients settled below it: in the second half of the run a 429 is
    // the rare probe of a client that looks for more (about one a second among the four), not the
    // answer to most requests that a client which never slowed down would meet. (Fewer 429s late
    // than early held on a quiet machine, where the first second's burst dominates; on a loaded
    // one the processes start apart, there is no burst, and the probes alone made a tie.)
    const refused = server.refused;
    expect(refused.length).toBeGreaterThan(0);
    const middle = server.requests[Math.floor(server.requests.length / 2)]!.receivedAt;
    const late = refused.filter((t) => t > middle).length;
    const admittedLate = server.requests.filter((r) => r.receivedAt > middle).length;
    expect(late, `429s at ${refused.map((t) => t - refused[0]!).join(', ')} ms`).toBeLessThan(
      admittedLate / 2,
    );
  });
});
