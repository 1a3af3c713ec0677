import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { makeProject, runJest, runVitest } from '../helpers/project.js';

const PEERS = ['vitest-a', 'vitest-b', 'jest-c', 'jest-d'];

/** The body of one test file: wait until every peer file runs, then grade three questions at once. */
function body(name: string): string {
  return `
  configure({ judge: { concurrency: 2 } });
  const dir = process.env.BARRIER_DIR;
  writeFileSync(join(dir, 'ready-${name}'), '');
  const deadline = Date.now() + 60000;
  while (!${JSON.stringify(PEERS)}.every((p) => existsSync(join(dir, 'ready-' + p))) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(${JSON.stringify(PEERS)}.every((p) => existsSync(join(dir, 'ready-' + p)))).toBe(true);
  const results = await Promise.all([0, 1, 2].map((i) =>
    gradeQuestion({ question: { id: '${name}-' + i, input: 'q ${name} ' + i }, response: 'a', graders: ['relevance_grader'] })));
  expect(results.map((r) => [r.grades[0].score, r.grades[0].reason])).toEqual([[4, 'held'], [4, 'held'], [4, 'held']]);
`;
}

const vitestFile = (name: string) => `import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { configure, gradeQuestion } from 'ai-eval';
it('judges under the shared limit', async () => {${body(name)}}, 90000);
`;

const jestFile = (name: string) => `const { existsSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { configure, gradeQuestion } = require('ai-eval');
it('judges under the shared limit', async () => {${body(name)}}, 90000);
`;

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer();
  server.fallback = () => ({ answer: { score: 4, reason: 'held' }, delayMs: 250 });
});
afterAll(() => server.close());

describe('judge limits across real Vitest and Jest workers', () => {
  it('holds judge.concurrency for a Vitest run and a Jest run at the same time', async () => {
    const dir = makeProject('judge-runner-limits', {
      'vitest.config.mjs': `export default { test: { include: ['vt/*.test.mjs'], pool: 'forks', maxWorkers: 2, fileParallelism: true } };`,
      'vt/a.test.mjs': vitestFile('vitest-a'),
      'vt/b.test.mjs': vitestFile('vitest-b'),
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', testMatch: ['<rootDir>/jt/*.test.cjs'], transform: {} };`,
      'jt/c.test.cjs': jestFile('jest-c'),
      'jt/d.test.cjs': jestFile('jest-d'),
    });
    const env = {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-runner-key',
      AI_EVAL_JUDGE_MODEL: 'test-judge',
      AI_EVAL_JUDGE_LIMIT_DIR: mkdtempSync(join(tmpdir(), 'ai-eval-limits-')),
      BARRIER_DIR: mkdtempSync(join(tmpdir(), 'ai-eval-barrier-')),
    };
    const [vitest, jest] = await Promise.all([
      runVitest(dir, [], env),
      runJest(dir, ['--maxWorkers=2'], env),
    ]);
    expect(vitest.code, vitest.output).toBe(0);
    expect(jest.code, jest.output).toBe(0);
    expect(server.requests).toHaveLength(12);
    // Twelve calls of 250 ms on two slots shared by every worker of both runners: exactly two at a time.
    expect(server.maxInFlight).toBe(2);
  });
});
