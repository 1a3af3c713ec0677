import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { makeProject, runJest, runVitest } from '../helpers/project.js';

/**
 * The reporters fed by real LLM judges: the openai SDK talks over HTTP to a local
 * OpenAI-compatible server, the matchers record the judges' token usage, and the report carries
 * the tokens, the judge model and the judges' identity hash, and never the API key.
 */
const KEY = 'sk-reporter-secret-key-0123456789';
// The model is configured in the workers' setup file only: the reporter learns it from the records.
const CONFIG = `{ judge: { baseURL: process.env.JUDGE_URL, apiKey: '${KEY}', model: 'test-judge', retryBaseDelayMs: 1 } }`;

const body = `
it('good', async () => {
  await expect('Paris is the capital of France.').toScoreAtLeast('relevance_grader', 4, {
    question: { id: 'good', input: 'What is the capital of France? [good]' },
    target: 'qa-bot',
  });
});
it('bad', async () => {
  await expect('Bananas are yellow.').not.toScoreAtLeast('relevance_grader', 4, {
    question: { id: 'bad', input: 'What is the capital of France? [bad]' },
    target: 'qa-bot',
  });
});
`;

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer();
  server.fallback = (request) =>
    request.prompt.includes('[good]')
      ? { answer: { score: 5, reason: 'answers it directly' } }
      : { answer: { score: 1, reason: `talks about bananas; api_key=${KEY}` } };
});
afterAll(() => server.close());

function check(dir: string, output: string): void {
  const text = readFileSync(join(dir, 'ai-eval.json'), 'utf8');
  expect(text).not.toContain(KEY);
  expect(output).not.toContain(KEY);
  const report = JSON.parse(text) as EvalReport;
  // 'bad' is a negated assertion: reported apart with its own verdict, so only 'good' is a question.
  expect(report).toMatchObject({ judgeModel: 'test-judge', questionCount: 1, averageScore: 5 });
  expect(report.promptHashes).toHaveProperty('relevance_grader');
  expect(report.judgeHash).toMatch(/^[0-9a-f]{12}$/);
  expect(report.judgeTokens).toEqual({ prompt: 240, completion: 32, total: 272 });
  const [qa] = report.targets;
  expect(qa).toMatchObject({ name: 'qa-bot', mode: 'chat', passRate: 1 });
  expect(qa!.judgeTokens.total).toBe(272); // the negated assertion's judge spent tokens too
  expect(qa!.negated).toMatchObject([{ question: 'bad', grader: 'relevance_grader', passed: true }]);
  expect(qa!.negated[0]!.grades[0]).toMatchObject({ grader: 'relevance_grader', llm: true, score: 1 });
  expect(qa!.negated[0]!.grades[0]!.reason).toContain('api_key=[redacted]');
  expect(output).toContain('judge tokens: 272');
}

describe('the reporters with real LLM judges', () => {
  it('vitest', async () => {
    const dir = makeProject('reporter-judge-vitest', {
      'vitest.config.js': `export default { test: { include: ['*.test.js'], setupFiles: ['./setup.js'],
        reporters: ['default', ['ai-eval/reporter/vitest', { outputFile: 'ai-eval.json' }]] } };`,
      'setup.js': `import 'ai-eval/vitest';\nimport { configure } from 'ai-eval';\nconfigure(${CONFIG});`,
      'judges.test.js': `import { expect, it } from 'vitest';\n${body}`,
    });
    const run = await runVitest(dir, [], { JUDGE_URL: server.baseURL, AI_EVAL_JUDGE_MODEL: undefined });
    expect(run.code, run.output).toBe(0);
    check(dir, run.output);
  });

  it('jest', async () => {
    const dir = makeProject('reporter-judge-jest', {
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', testMatch: ['<rootDir>/*.test.cjs'],
        setupFilesAfterEnv: ['<rootDir>/setup.cjs'], transform: {},
        reporters: ['default', ['ai-eval/reporter/jest', { outputFile: 'ai-eval.json' }]] };`,
      'setup.cjs': `require('ai-eval/jest');\nconst { configure } = require('ai-eval');\nconfigure(${CONFIG});`,
      'judges.test.cjs': body,
    });
    const run = await runJest(dir, [], { JUDGE_URL: server.baseURL, AI_EVAL_JUDGE_MODEL: undefined });
    expect(run.code, run.output).toBe(0);
    check(dir, run.output);
  });
});
