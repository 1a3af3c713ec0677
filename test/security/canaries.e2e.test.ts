import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { makeProject, runJest, runVitest, type RunResult } from '../helpers/project.js';

/**
 * Secrets planted in every input a user's run hands ai-eval: tool-call arguments under secret
 * keys, credentials in a response, a key in the question, a key-looking string in a grader's
 * reason and in a judge's, userinfo in the http source's base URL, and the API key itself. The
 * real Vitest and Jest runs below fail (so failure messages, annotations and warnings are all
 * written), and no output of either may hold any canary.
 */
const BASIC = Buffer.from('canaryuser:CANARYBASICPASS9d8c').toString('base64');
const CANARIES = {
  argApiKey: 'CANARY-arg-apikey-1a2b3c4d',
  argPassword: 'CANARY-arg-password-5e6f',
  argToken: 'CANARY-arg-token-7a8b9c',
  argSecret: 'CANARY-arg-clientsecret-0d1e',
  argAuth: 'CANARYargbearer2f3a4b5c',
  responseBearer: 'CANARYrespbearer6d7e8f9a',
  responseBasic: BASIC,
  basicPassword: 'CANARYBASICPASS9d8c',
  inputKey: 'sk-CANARYinputkey0123456789ab',
  reasonKey: 'sk-CANARYreasonkey0123456789ab',
  judgeKey: 'sk-CANARYjudgereason0123456789',
  urlPassword: 'CANARYURLPASS4e5f',
  apiKey: 'sk-CANARYapikey-0123456789abcdef',
};

const calls = [
  {
    function_name: 'login',
    arguments: {
      user: 'bob',
      api_key: CANARIES.argApiKey,
      password: CANARIES.argPassword,
      session: { token: CANARIES.argToken, client_secret: CANARIES.argSecret },
      headers: { Authorization: `Bearer ${CANARIES.argAuth}` },
    },
  },
  { function_name: 'list_users', arguments: { limit: 3 } },
];
const output = `Done: I sent Authorization: Bearer ${CANARIES.responseBearer} and Authorization: Basic ${BASIC}, and found 3 users.`;
const input = `List the users; my key is ${CANARIES.inputKey}.`;

const DATA = {
  'canaries.json': JSON.stringify({ calls, output, input, reasonKey: CANARIES.reasonKey }),
  'dataset.json': JSON.stringify({
    name: 'canaries',
    questions: [
      { id: 'leaky-1', input, metadata: { calls, output } },
      { id: 'leaky-2', input: `token=${CANARIES.argToken} again`, metadata: { calls, output } },
    ],
  }),
};

/** The body of the setup file: judges against the local server, a grader that echoes everything. */
const setup = (load: (m: string) => string) => `${load('ai-eval')}
${load('node:fs')}
const c = JSON.parse(readFileSync('canaries.json', 'utf8'));
configure({
  judge: { baseURL: process.env.JUDGE_URL, apiKey: process.env.JUDGE_KEY, model: 'test-judge', maxAttempts: 1,
    cache: 'record', cacheDir: '.ai-eval/judge-cache', limitDir: process.env.LIMIT_DIR },
  datasets: { httpBaseUrl: process.env.DATASET_URL },
});
registerGrader(defineGrader({
  id: 'echo_args',
  label: 'Echo args',
  observesActions: true,
  grade: (input, response, context, { result }) =>
    result(0, 'asked ' + input + '; called ' + JSON.stringify(context.tool_calls) + '; said ' + response + '; key ' + c.reasonKey),
}));
`;

const matcherTests = `
const c = JSON.parse(readFileSync('canaries.json', 'utf8'));
const run = { output: c.output, toolCalls: c.calls };
it('a deterministic grader that echoes the arguments', async () => {
  await expect(run).toPassGrader('echo_args', { question: { id: 'm1', input: c.input }, target: 'canary-bot' });
});
it('a judge that sees the arguments', async () => {
  await expect(run).toScoreAtLeast('accuracy_grader', 5, { question: { id: 'm2', input: c.input }, target: 'canary-bot' });
});
`;

const suiteTest = (entry: string, load: string) => `${load}
${entry === 'vitest' ? "import { agent } from './agent.js';" : "const { agent } = require('./agent.cjs');"}
evalSuite('canary suite', {
  dataset: 'dataset.json',
  target: { name: 'canary-suite', mode: 'agent', graders: ['echo_args', 'accuracy_grader'] },
  run: agent,
});
`;

const agent = `(question) => ({ output: question.metadata.output, toolCalls: question.metadata.calls })`;

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer();
  // A judge that quotes the tool-call block it was shown and names a key of its own.
  server.fallback = (request) => {
    const block = /<<<TOOL CALLS [0-9a-f]+>>>\n([\s\S]*?)\n<<<END TOOL CALLS/.exec(request.prompt)?.[1] ?? '';
    return {
      answer: { score: 1, reason: `saw ${block}; the agent leaked ${CANARIES.judgeKey}`, evasive: false },
    };
  };
});
afterAll(() => server.close());

const env = () => ({
  JUDGE_URL: server.baseURL,
  JUDGE_KEY: CANARIES.apiKey,
  DATASET_URL: `http://canaryuser:${CANARIES.urlPassword}@127.0.0.1:9/datasets/`,
  LIMIT_DIR: mkdtempSync(join(tmpdir(), 'ai-eval-limits-')),
  AI_EVAL_JUDGE_MODEL: undefined,
  OPENAI_API_KEY: undefined,
});

function files(dir: string, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const path = join(dir, name);
    expect(existsSync(path), `${name} was written`).toBe(true);
    out[name] = readFileSync(path, 'utf8');
  }
  const cache = join(dir, '.ai-eval', 'judge-cache');
  const entries = readdirSync(cache, { recursive: true }).filter((f) => String(f).endsWith('.json'));
  expect(entries.length, 'judge cache entries were recorded').toBeGreaterThan(0);
  for (const entry of entries)
    out[`cache/${String(entry)}`] = readFileSync(join(cache, String(entry)), 'utf8');
  return out;
}

function expectNoCanary(outputs: Record<string, string>): void {
  for (const [name, text] of Object.entries(outputs)) {
    for (const [which, canary] of Object.entries(CANARIES)) {
      expect(text.includes(canary), `${which} in ${name}`).toBe(false);
    }
  }
}

describe('no secret leaves a real run', () => {
  it('vitest: terminal, Vitest JSON and JUnit (failure messages, annotations), ai-eval reports, judge cache, warnings', async () => {
    const dir = makeProject('canaries-vitest', {
      ...DATA,
      'vitest.config.js': `export default { test: { include: ['*.test.js'], setupFiles: ['./setup.js'],
        reporters: ['default', ['json', { outputFile: 'vitest.json' }], ['junit', { outputFile: 'vitest-junit.xml' }],
          ['ai-eval/reporter/vitest', { outputFile: 'ai-eval.json', junitFile: 'ai-eval.xml', markdownFile: 'ai-eval.md' }]] } };`,
      'setup.js': `import 'ai-eval/vitest';\n${setup((m) => (m === 'ai-eval' ? "import { configure, defineGrader, registerGrader } from 'ai-eval';" : "import { readFileSync } from 'node:fs';"))}`,
      'agent.js': `export const agent = ${agent};`,
      'matchers.test.js': `import { readFileSync } from 'node:fs';\nimport { expect, it } from 'vitest';\nimport { loadDatasetWithWarnings } from 'ai-eval';\n${matcherTests}
it('a dataset from the http source, whose base URL carries credentials', async () => {
  const load = await loadDatasetWithWarnings({ source: 'http', ref: 'remote.yaml' });
  expect(load.questions, load.warnings.join('\\n')).toHaveLength(1);
});
`,
      'suite.test.js': suiteTest('vitest', "import { evalSuite } from 'ai-eval/vitest';"),
    });
    const run: RunResult = await runVitest(dir, [], env());
    expect(run.code, run.output).toBe(1);
    const outputs: Record<string, string> = {
      stdout: run.stdout,
      stderr: run.stderr,
      ...files(dir, ['vitest.json', 'vitest-junit.xml', 'ai-eval.json', 'ai-eval.xml', 'ai-eval.md']),
    };
    expectNoCanary(outputs);
    // The outputs say what happened, secrets replaced: not a test that passes by writing nothing.
    expect(outputs['vitest.json'] ?? '').toContain('"api_key\\":\\"[redacted]\\"');
    expect(outputs['vitest.json'] ?? '').toContain('Authorization: [redacted]');
    expect(outputs['vitest-junit.xml'] ?? '').toContain('echo_args');
    expect(outputs['vitest-junit.xml'] ?? '').toContain('[redacted]');
    expect(outputs['ai-eval.json'] ?? '').toContain('[redacted]');
    expect(outputs.stderr).toContain('GET http://[redacted]@127.0.0.1:9/datasets/remote.yaml failed');
    expect(JSON.parse(outputs['vitest.json'] ?? '{}').numFailedTests).toBe(5);
  });

  it('jest: terminal, Jest JSON (failure messages), ai-eval reports, judge cache', async () => {
    const dir = makeProject('canaries-jest', {
      ...DATA,
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', testMatch: ['<rootDir>/*.test.cjs'],
        setupFilesAfterEnv: ['<rootDir>/setup.cjs'], transform: {},
        reporters: ['default', ['ai-eval/reporter/jest', { outputFile: 'ai-eval.json', junitFile: 'ai-eval.xml', markdownFile: 'ai-eval.md' }]] };`,
      'setup.cjs': `require('ai-eval/jest');\n${setup((m) => (m === 'ai-eval' ? "const { configure, defineGrader, registerGrader } = require('ai-eval');" : "const { readFileSync } = require('node:fs');"))}`,
      'agent.cjs': `exports.agent = ${agent};`,
      'matchers.test.cjs': `const { readFileSync } = require('node:fs');\n${matcherTests}`,
      'suite.test.cjs': suiteTest('jest', "const { evalSuite } = require('ai-eval/jest');"),
    });
    const run = await runJest(dir, ['--json', '--outputFile=jest.json'], env());
    expect(run.code, run.output).toBe(1);
    const outputs: Record<string, string> = {
      stdout: run.stdout,
      stderr: run.stderr,
      ...files(dir, ['jest.json', 'ai-eval.json', 'ai-eval.xml', 'ai-eval.md']),
    };
    expectNoCanary(outputs);
    expect(outputs['jest.json'] ?? '').toContain('"api_key\\":\\"[redacted]\\"');
    expect(outputs['ai-eval.json'] ?? '').toContain('[redacted]');
    expect(JSON.parse(outputs['jest.json'] ?? '{}').numFailedTests).toBe(4);
  });
});
