import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedDir } from '../helpers/paths.js';
import { reporterOptions } from '../helpers/report-fixtures.js';
import { readReport, withoutTimes } from '../helpers/report-schema.js';
import { expectHeldThenWritten, heldSuiteFiles } from '../helpers/held-suite.js';
import { makeProject, runJest, runNode } from '../helpers/project.js';

const CONFIG = ['--config', 'jest.config.cjs'];

describe('the Jest reporter', () => {
  it('joins worker records to Jest results, prints the table and writes the files', async () => {
    const dir = makeProject('reporter-jest', {}, 'reporter-jest');
    const result = await runJest(
      dir,
      [...CONFIG, '--maxWorkers=2'],
      reporterOptions({
        outputFile: 'reports/ai-eval.json',
        junitFile: 'reports/junit.xml',
        markdownFile: 'reports/summary.md',
        htmlFile: 'reports/ai-eval.html',
      }),
    );
    expect(result.code, result.output).toBe(0);
    // Both files ran in worker processes, which saw the channel the reporter made.
    const pids = readdirSync(dir).filter((f) => f.startsWith('pid-'));
    expect(pids.length).toBe(2); // two worker processes, not in band
    const channels = new Set(pids.map((f) => readFileSync(join(dir, f), 'utf8')));
    expect(channels.size).toBe(1);
    const [channel] = [...channels];
    expect(channel).toMatch(/ai-eval-channel-/);
    expect(existsSync(channel!)).toBe(false); // cleaned up
    const lines = result.output.split('\n');
    expect(lines).toContain(
      'ai-eval: 3 targets, 5 questions, average 3.30 over 5 of 5 scored, 60% passed, 1 error, 1 degraded',
    );
    expect(lines).toContain(
      '  support-bot           ███████████░░░░░░░░░   2.83      3/3    67%       1         1',
    );
    expect(lines).toContain(
      '  ! NO_ACTION_OBSERVER  blind-agent is scored by nothing that can see what the agent did.',
    );
    expect(result.output).toContain('[ai-eval] warning: 1 record of tests Jest did not report were dropped');
    // After Jest's own summary.
    expect(result.output.indexOf('ai-eval: 3 targets')).toBeGreaterThan(result.output.indexOf('Tests:'));
    const report = readReport(join(dir, 'reports/ai-eval.json'));
    // htmlFile: the HTML report of the same run, one row per question.
    const html = readFileSync(join(dir, 'reports/ai-eval.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html.match(/<details class="q"/g)).toHaveLength(report.questionCount);
    expect(report.targets.map((t) => [t.name, t.questionCount])).toEqual([
      ['blind-agent', 1],
      ['support-bot', 3],
      ['tests/other.test.cjs', 1],
    ]);
    expect(report.targets[1]!.questions[0]!.test).toEqual({
      file: 'tests/support.test.cjs',
      name: 'support q1',
    });
    expect(readFileSync(join(dir, 'reports/junit.xml'), 'utf8').match(/<testcase /g)).toHaveLength(5);
    expect(readFileSync(join(dir, 'reports/summary.md'), 'utf8')).toContain(
      '| support-bot | agent | 2.83 | 3 of 3 | 67% | 3 | 1 | 1 |',
    );
  });

  it('makes Jest exit 1 through getLastError when a hard gate fails, with the reason', async () => {
    const dir = makeProject('reporter-jest-hard', {}, 'reporter-jest');
    const result = await runJest(dir, CONFIG, reporterOptions({ gate: { level: 'hard', minPassRate: 0.8 } }));
    expect(result.output).toMatch(/Tests:\s+5 passed, 5 total/);
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      'ai-eval: FAILED: no test failed; all 5 planned questions scored; 1 hard gate failed: run: pass rate 60% is below the minimum 80%',
    );
  });

  it('rejects a bad option before any test runs, naming it', async () => {
    const dir = makeProject('reporter-jest-bad', {}, 'reporter-jest');
    const result = await runJest(dir, CONFIG, reporterOptions({ failOnError: 'yes' }));
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('ai-eval reporter option failOnError: expected true or false, got "yes"');
    expect(readdirSync(dir).filter((f) => f.startsWith('pid-'))).toEqual([]);
  });

  it('loads from an ESM jest.config.js with native ESM tests', async () => {
    const dir = makeProject(
      'reporter-jest-esm',
      {
        'jest.config.js': `export default {
  testMatch: ['**/tests/**/*.test.mjs'],
  transform: {},
  reporters: ['default', ['ai-eval/reporter/jest', { outputFile: 'esm.json' }]],
};
`,
        'tests/esm.test.mjs': `import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
const { SUPPORT, records, send } = createRequire(import.meta.url)('../data.cjs');
test('q1', () => {
  send(records(fileURLToPath(import.meta.url), 'q1', SUPPORT, 'q1', [['tool_usage_grader', 1, 'ok', { max: 1 }]]));
});
`,
      },
      'reporter-jest',
    );
    const result = await runJest(dir, ['--config', 'jest.config.js'], {}, { esm: true });
    expect(result.code, result.output).toBe(0);
    const report = readReport(join(dir, 'esm.json'));
    expect(report.targets.map((t) => [t.name, t.questionCount, t.averageScore])).toEqual([
      ['support-bot', 1, 5],
    ]);
  });

  it('only warns on a soft gate', async () => {
    const dir = makeProject('reporter-jest-soft', {}, 'reporter-jest');
    const result = await runJest(dir, CONFIG, reporterOptions({ gate: { level: 'soft', minPassRate: 0.8 } }));
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('  ! warn soft  run: pass rate 60% is below the minimum 80%');
  });

  it('merges --shard reports with `ai-eval merge` into the report of one run', async () => {
    const dir = makeProject('reporter-jest-shard', {}, 'reporter-jest');
    const whole = await runJest(dir, CONFIG, reporterOptions({ outputFile: 'whole.json' }));
    expect(whole.code, whole.output).toBe(0);
    for (const n of [1, 2]) {
      const part = await runJest(
        dir,
        [...CONFIG, `--shard=${n}/2`],
        reporterOptions({ outputFile: 'shard-[shard].json' }),
      );
      expect(part.code, part.output).toBe(0);
      expect(readReport(join(dir, `shard-${n}-of-2.json`)).questionCount).toBeLessThan(5);
    }
    const bin = join(packedDir(), 'dist', 'cli', 'bin.cjs');
    const merged = await runNode(
      bin,
      ['merge', 'shard-1-of-2.json', 'shard-2-of-2.json', '-o', 'merged.json', '--junit', 'merged.xml'],
      dir,
    );
    expect(merged.code, merged.output).toBe(0);
    expect(merged.stdout).toContain(
      'ai-eval: 3 targets, 5 questions, average 3.30 over 5 of 5 scored, 60% passed, 1 error, 1 degraded',
    );
    const one = readReport(join(dir, 'whole.json'));
    const both = readReport(join(dir, 'merged.json'));
    expect(withoutTimes(both)).toEqual(withoutTimes(one));
    expect(readFileSync(join(dir, 'merged.xml'), 'utf8')).toContain('<testsuites name="ai-eval" tests="5"');
  });

  it('`ai-eval merge` exits 1 on a failed hard gate and 2 on a bad report', async () => {
    const dir = makeProject('reporter-jest-merge', {}, 'reporter-jest');
    const run = await runJest(
      dir,
      CONFIG,
      reporterOptions({ outputFile: 'r.json', gate: { level: 'hard', minAverage: 4 } }),
    );
    expect(run.code).toBe(1);
    const bin = join(packedDir(), 'dist', 'cli', 'bin.cjs');
    const gated = await runNode(bin, ['merge', 'r.json', '-o', 'm.json'], dir);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toContain(
      'ai-eval: FAILED: no test failed; all 5 planned questions scored; 1 hard gate failed: run: average 3.30 over 5 of 5 scored is below the minimum 4.00',
    );
    const bad = await runNode(bin, ['merge', 'jest.config.cjs', '-o', 'm2.json'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('ai-eval merge: jest.config.cjs: not JSON');
    expect(existsSync(join(dir, 'm2.json'))).toBe(false);
    const usage = await runNode(bin, ['merge', 'r.json'], dir);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('name the merged report with -o <out.json>');
  });

  // Jest loads a fresh copy of ai-eval for every test file: a channel file kept open per copy
  // leaked one descriptor per file (EMFILE after a few hundred files on macOS's default limit).
  it.runIf(existsSync('/proc/self/fd'))(
    'holds no side-channel file open from one test file to the next, in band, and loses no record',
    async () => {
      const files: Record<string, string> = {
        'ds.json': JSON.stringify({
          questions: [
            { id: 'q1', input: 'Find it', expected_tools: ['search'] },
            { id: 'q2', input: 'Find it again', expected_tools: ['search'] },
          ],
        }),
        'jest.config.cjs': `module.exports = { testMatch: ['**/tests/*.test.cjs'], reporters: [['ai-eval/reporter/jest', { outputFile: 'ai-eval.json' }]] };\n`,
      };
      for (let i = 1; i <= 30; i++) {
        files[`tests/t${String(i).padStart(2, '0')}.test.cjs`] =
          `const { readdirSync, appendFileSync } = require('node:fs');
const { evalSuite } = require('ai-eval/jest');
const run = () => ({ output: 'Found.', toolCalls: [{ function_name: 'search', arguments: {} }] });
evalSuite('suite ${i}', { dataset: 'ds.json', target: { name: 'agent', mode: 'agent', graders: ['tool_usage_grader'] }, run });
test('open descriptors', async () => {
  await expect({ output: 'Found.', toolCalls: [{ function_name: 'search', arguments: {} }] }).toPassGrader('read_only_run');
  appendFileSync('fds.txt', readdirSync('/proc/self/fd').length + '\\n');
});
`;
      }
      const dir = makeProject('reporter-jest-descriptors', files);
      const result = await runJest(dir, [...CONFIG, '--runInBand']);
      expect(result.code, result.output).toBe(0);
      const counts = readFileSync(join(dir, 'fds.txt'), 'utf8').trim().split('\n').map(Number);
      expect(counts).toHaveLength(30);
      // A leak adds one per file; a fixed number of descriptors opened on the way is allowed.
      expect(Math.max(...counts) - Math.min(...counts), counts.join(' ')).toBeLessThan(5);
      const report = readReport(join(dir, 'ai-eval.json'));
      // 30 suites of 2 questions and 30 matcher tests, every record joined to its test.
      expect(report.questionCount).toBe(90);
      expect(report.passedCount).toBe(90);
    },
  );

  it("holds a generated suite's records in the worker until the suite's afterAll, then writes them all", async () => {
    const dir = makeProject('reporter-jest-held', {
      ...heldSuiteFiles(
        'tests/held.test.cjs',
        `const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { evalSuite } = require('ai-eval/jest');`,
      ),
      'jest.config.cjs': `module.exports = { testMatch: ['**/tests/*.test.cjs'], reporters: [['ai-eval/reporter/jest', { outputFile: 'ai-eval.json' }]] };\n`,
    });
    const result = await runJest(dir, CONFIG);
    expect(result.code, result.output).toBe(0);
    expectHeldThenWritten(dir);
  });
});
