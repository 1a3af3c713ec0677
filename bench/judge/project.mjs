// The judged-suite benchmark project: `count` questions over `files` test files (concurrent
// evalSuites), each question graded by one LLM judge (relevance_grader) against the local server,
// for Vitest and for Jest. A setup file applies BENCH_JUDGE (JSON judge settings) when it is set.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate, installPackage } from '../suite/generate.mjs';

/** Writes the project into `dir`, with `ai-eval` installed from `pkg`. */
export function writeJudgeProject(dir, { count, files, pkg, repo, deterministic = false }) {
  mkdirSync(join(dir, 'datasets'), { recursive: true });
  installPackage(dir, { pkg, repo });
  const { dataset } = generate(count);
  const per = Math.ceil(count / files);
  for (let f = 0; f < files; f++) {
    const questions = dataset.questions.slice(f * per, (f + 1) * per);
    writeFileSync(join(dir, 'datasets', `part-${f}.json`), JSON.stringify({ name: `part-${f}`, questions }));
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-judge', private: true }));
  const graders = deterministic
    ? `['read_only_run', 'tool_usage_grader']`
    : `['read_only_run', 'tool_usage_grader', 'relevance_grader']`;
  const run = `(question) => ({ output: 'Here is what I found about ' + question.id, toolCalls: [{ function_name: 'search', arguments: { q: question.input } }] })`;
  writeFileSync(
    join(dir, 'setup.mjs'),
    `import { configure } from 'ai-eval';
if (process.env.BENCH_JUDGE) configure({ judge: JSON.parse(process.env.BENCH_JUDGE) });
`,
  );
  writeFileSync(
    join(dir, 'setup.cjs'),
    `const { configure } = require('ai-eval');
if (process.env.BENCH_JUDGE) configure({ judge: JSON.parse(process.env.BENCH_JUDGE) });
`,
  );
  for (let f = 0; f < files; f++) {
    const options = `{ dataset: 'datasets/part-${f}.json', target: { name: 'judged', mode: 'agent', graders: ${graders} }, run: ${run}, concurrent: true }`;
    writeFileSync(
      join(dir, `judged-${f}.test.js`),
      `import { evalSuite } from 'ai-eval/vitest';\n\nevalSuite('part ${f}', ${options});\n`,
    );
    writeFileSync(
      join(dir, `judged-${f}.test.cjs`),
      `const { evalSuite } = require('ai-eval/jest');\n\nevalSuite('part ${f}', ${options});\n`,
    );
  }
  writeFileSync(
    join(dir, 'vitest.judge.config.js'),
    `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['judged-*.test.js'],
    setupFiles: ['./setup.mjs'],
    pool: 'forks',
    maxWorkers: Number(process.env.BENCH_WORKERS ?? 1),
    testTimeout: 600000,
    reporters: ['default', ['ai-eval/reporter/vitest', { outputFile: 'ai-eval.json' }]],
  },
});
`,
  );
  writeFileSync(
    join(dir, 'jest.judge.config.cjs'),
    `module.exports = {
  rootDir: __dirname,
  testMatch: ['**/judged-*.test.cjs'],
  setupFiles: ['<rootDir>/setup.cjs'],
  testEnvironment: 'node',
  testTimeout: 600000,
  reporters: ['default', ['ai-eval/reporter/jest', { outputFile: 'ai-eval.json' }]],
};
`,
  );
}
