import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { makeProject, runJest, runVitest } from '../helpers/project.js';

/** The judges through the matchers, in real Vitest and Jest runs against the local server. */
const CONFIG = `{ judge: { baseURL: process.env.JUDGE_URL, apiKey: 'sk-matcher-key', model: 'test-judge' } }`;

const tests = (style: 'esm' | 'cjs') => `${style === 'esm' ? "import { expect, it } from 'vitest';" : ''}
it('a relevant answer passes', async () => {
  await expect('Paris is the capital of France.').toScoreAtLeast('relevance_grader', 4, {
    question: { id: 'good', input: 'What is the capital of France? [good]' },
  });
});
it('an irrelevant answer fails with the judge reason', async () => {
  await expect('Bananas are yellow.').toScoreAtLeast('relevance_grader', 4, {
    question: { id: 'bad', input: 'What is the capital of France? [bad]' },
  });
});
it('a malformed judge answer fails as an error, not a zero', async () => {
  await expect('Paris.').toPassGrader('relevance_grader', {
    question: { id: 'broken', input: 'What is the capital of France? [broken]' },
  });
});
`;

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer();
  server.fallback = (request) =>
    request.prompt.includes('[good]')
      ? { answer: { score: 5, reason: 'answers it directly' } }
      : request.prompt.includes('[bad]')
        ? { answer: { score: 1, reason: 'talks about bananas instead' } }
        : { content: 'I would give it a five.' };
});
afterAll(() => server.close());

describe('judges through the matchers', () => {
  it('grade in a real Vitest run', async () => {
    const dir = makeProject('judge-matchers-vitest', {
      'vitest.config.js': `export default { test: { include: ['*.test.js'], setupFiles: ['./setup.js'] } };`,
      'setup.js': `import 'ai-eval/vitest';\nimport { configure } from 'ai-eval';\nconfigure(${CONFIG});`,
      'judges.test.js': tests('esm'),
    });
    const run = await runVitest(dir, [], { JUDGE_URL: server.baseURL });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/2 failed \| 1 passed/);
    expect(run.output).toContain('talks about bananas instead');
    expect(run.output).toContain('the judge did not answer with JSON: "I would give it a five."');
  });

  it('grade in a real Jest run', async () => {
    const dir = makeProject('judge-matchers-jest', {
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', testMatch: ['<rootDir>/*.test.cjs'], setupFilesAfterEnv: ['<rootDir>/setup.cjs'], transform: {} };`,
      'setup.cjs': `require('ai-eval/jest');\nconst { configure } = require('ai-eval');\nconfigure(${CONFIG});`,
      'judges.test.cjs': tests('cjs'),
    });
    const run = await runJest(dir, [], { JUDGE_URL: server.baseURL });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/Tests:\s+2 failed, 1 passed, 3 total/);
    expect(run.output).toContain('talks about bananas instead');
    expect(run.output).toContain('the judge did not answer with JSON: "I would give it a five."');
  });
});
