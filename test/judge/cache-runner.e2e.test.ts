import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../helpers/openai-server.js';
import { makeProject, runVitest } from '../helpers/project.js';

const FILES = {
  'vitest.config.js': `export default { test: { include: ['*.test.js'], setupFiles: ['./setup.js'] } };`,
  'setup.js': `import 'ai-eval/vitest';\nimport { configure } from 'ai-eval';\nconfigure({ judge: { model: 'test-judge', maxAttempts: 1 } });`,
  'judges.test.js': `import { expect, it } from 'vitest';
it('is relevant', async () => {
  await expect('Paris is the capital of France.').toScoreAtLeast('relevance_grader', 4, {
    question: { id: 'capital', input: 'What is the capital of France?' },
  });
});
it('is grounded', async () => {
  await expect({ output: 'Paris.', toolCalls: [] }).toPassGrader('groundedness_grader', {
    question: { id: 'grounded', input: 'What is the capital of France?' },
  });
});
`,
};

describe('the replay cache in real Vitest runs', () => {
  it('records with a server, then replays in the default directory with no server and no key', async () => {
    const server = await startOpenAIServer();
    server.fallback = (request) =>
      request.prompt.includes('dimension: groundedness')
        ? { answer: { score: 1, reason: 'supported' } }
        : { answer: { score: 5, reason: 'on topic' } };
    const dir = makeProject('judge-cache-runner', FILES);
    const recorded = await runVitest(dir, [], {
      AI_EVAL_JUDGE_CACHE: 'record',
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-record-key',
    });
    expect(recorded.code, recorded.output).toBe(0);
    expect(server.requests).toHaveLength(2);
    const baseURL = server.baseURL;
    await server.close();
    const entries = readdirSync(join(dir, '.ai-eval', 'judge-cache'), { recursive: true }).filter((f) =>
      String(f).endsWith('.json'),
    );
    expect(entries).toHaveLength(2);

    const replayed = await runVitest(dir, [], {
      AI_EVAL_JUDGE_CACHE: 'replay',
      OPENAI_BASE_URL: baseURL,
      OPENAI_API_KEY: '',
    });
    expect(replayed.code, replayed.output).toBe(0);
    expect(replayed.output).toMatch(/2 passed/);

    const changed = makeProject('judge-cache-runner-miss', {
      ...FILES,
      'judges.test.js': FILES['judges.test.js'].replace(
        'Paris is the capital of France.',
        'Paris, of course.',
      ),
    });
    const missed = await runVitest(changed, [], { AI_EVAL_JUDGE_CACHE: 'replay', OPENAI_BASE_URL: baseURL });
    expect(missed.code).toBe(1);
    expect(missed.output).toContain('judge cache miss in replay mode');
  });
});
