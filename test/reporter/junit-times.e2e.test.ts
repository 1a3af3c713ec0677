import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, runJest, runVitest } from '../helpers/project.js';

const DATASET = [
  'questions:',
  '  - { id: slow-lookup, input: Which pages are drafts? }',
  '  - { id: old-question, input: Where is the legacy export?, disabled: true }',
].join('\n');

/** A suite whose run takes at least 120 ms of real time (a timer), so its test's duration is known to be above 0.1 s. */
function suite(entry: string): string {
  return [
    `import { evalSuite } from '${entry}';`,
    `evalSuite('support', {`,
    `  dataset: 'evals/support.yaml',`,
    `  target: { name: 'support-bot', mode: 'agent', graders: ['read_only_run'] },`,
    `  run: async () => { await new Promise((r) => setTimeout(r, 120)); return { output: 'Two.', toolCalls: [] }; },`,
    `});`,
  ].join('\n');
}

function checkJunit(dir: string): void {
  const xml = readFileSync(join(dir, 'reports/ai-eval.xml'), 'utf8');
  const time = /<testcase classname="support-bot" name="slow-lookup" file="[^"]+" time="([\d.]+)">/.exec(
    xml,
  )?.[1];
  expect(time, xml).toBeDefined();
  expect(Number(time)).toBeGreaterThanOrEqual(0.1);
  expect(xml).toContain('name="old-question"');
  expect(xml).toContain('<skipped message="disabled in dataset file:evals/support.yaml"/>');
  expect(xml).toMatch(/<testsuite name="support-bot" tests="2" failures="0" errors="0" skipped="1"/);
}

describe('JUnit from a real run', () => {
  it('Vitest: the testcase time is the test duration, and a disabled question is <skipped/>', async () => {
    const dir = makeProject('junit-vitest', {
      'evals/support.yaml': DATASET,
      'vitest.config.ts': [
        `import { defineConfig } from 'vitest/config';`,
        `export default defineConfig({ test: { reporters: ['default', ['ai-eval/reporter/vitest', { junitFile: 'reports/ai-eval.xml' }]] } });`,
      ].join('\n'),
      'support.test.ts': suite('ai-eval/vitest'),
    });
    const result = await runVitest(dir);
    expect(result.code, result.output).toBe(0);
    checkJunit(dir);
  });

  it('Jest: the same', async () => {
    const dir = makeProject('junit-jest', {
      'evals/support.yaml': DATASET,
      'jest.config.mjs': `export default { testEnvironment: 'node', transform: {}, reporters: ['default', ['ai-eval/reporter/jest', { junitFile: 'reports/ai-eval.xml' }]] };`,
      'support.test.js': suite('ai-eval/jest'),
    });
    const result = await runJest(dir, [], {}, { esm: true });
    expect(result.code, result.output).toBe(0);
    checkJunit(dir);
  });
});
