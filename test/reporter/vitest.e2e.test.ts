import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { reporterOptions } from '../helpers/report-fixtures.js';
import { readReport } from '../helpers/report-schema.js';
import { makeProject, runVitest } from '../helpers/project.js';

/** The report without what differs between two runs of the same tests. */
function stable(report: EvalReport): unknown {
  return { ...report, timestamp: '' };
}

describe('the Vitest reporter', () => {
  it('prints the table after Vitest, writes JSON, JUnit and Markdown, and warns on a soft gate', async () => {
    const dir = makeProject('reporter-vitest', {}, 'reporter-vitest');
    const result = await runVitest(
      dir,
      [],
      reporterOptions({
        outputFile: 'reports/ai-eval.json',
        junitFile: 'reports/junit.xml',
        markdownFile: 'reports/summary.md',
        htmlFile: 'reports/ai-eval.html',
        gate: { level: 'soft', minPassRate: 0.9 },
      }),
    );
    expect(result.code, result.output).toBe(0);
    const out = result.stdout;
    // Our summary comes after Vitest's own.
    expect(out.indexOf('ai-eval: 3 targets')).toBeGreaterThan(out.indexOf('Test Files'));
    const lines = result.output.split('\n');
    expect(lines).toContain(
      'ai-eval: 3 targets, 5 questions, average 3.30 over 5 of 5 scored, 60% passed, 1 error, 1 degraded',
    );
    expect(lines).toContain(
      '  Target               Score                   Avg   Scored   Pass  Errors  Degraded',
    );
    expect(lines).toContain(
      '  blind-agent          ████████████░░░░░░░░   3.00      1/1     0%       0         0',
    );
    expect(lines).toContain(
      '  support-bot          ███████████░░░░░░░░░   2.83      3/3    67%       1         1',
    );
    expect(lines).toContain(
      '  tests/other.test.js  ████████████████████   5.00      1/1   100%       0         0',
    );
    expect(lines).toContain('  ✗ support-bot › q2  0.00 (degraded)');
    expect(lines).toContain('      accuracy_judge: judge timed out after 3 attempts');
    expect(lines).toContain(
      '  ! NO_ACTION_OBSERVER  blind-agent is scored by nothing that can see what the agent did.',
    );
    expect(lines).toContain(
      '  ! NO_TOOL_CALL_RECORD  support-bot: tool_usage_grader had no tool-call record available for 1 question (q3), so it could not see what the agent did.',
    );
    expect(lines).toContain('  ! warn soft  run: pass rate 60% is below the minimum 90%');
    expect(lines).toContain(
      'ai-eval: PASSED: no test failed; all 5 planned questions scored; no hard gate failed, 1 soft gate warned',
    );
    expect(out).not.toContain('\u001b['); // not a TTY: no colour

    const report = readReport(join(dir, 'reports/ai-eval.json'));
    // htmlFile: the HTML report of the same run, one row per question.
    const html = readFileSync(join(dir, 'reports/ai-eval.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html.match(/<details class="q"/g)).toHaveLength(report.questionCount);
    expect(report).toMatchObject({ questionCount: 5, errorCount: 1, degradedCount: 1, passed: true });
    expect(report.judgeTokens.total).toBe(440);
    const support = report.targets.find((t) => t.name === 'support-bot')!;
    expect(support).toMatchObject({ mode: 'agent', actionObserving: ['tool_usage_grader'], passRate: 2 / 3 });
    expect(support.questions.map((q) => [q.id, q.test.name, q.composite, q.passed, q.degraded])).toEqual([
      ['q1', 'support > q1', 4.5, true, false],
      ['q2', 'support > q2', 0, false, true],
      ['q3', 'support > q3', 4, true, false],
    ]);
    const bare = report.targets.find((t) => t.name === 'tests/other.test.js')!;
    expect(bare).toMatchObject({ mode: null, graders: ['tone_judge'] });

    const junit = readFileSync(join(dir, 'reports/junit.xml'), 'utf8');
    // One testcase per question, and one per gate verdict in the 'ai-eval verdict' testsuite.
    expect(junit.match(/<testcase classname="(?!ai-eval\.gates)/g)).toHaveLength(5);
    expect(junit).toContain('<property name="verdict" value="passed"/>');
    expect(junit).toContain(
      '<property name="grade.tool_usage_grader" value="0 of 0-1, composite 0: list_nodes was never called"/>',
    );
    const md = readFileSync(join(dir, 'reports/summary.md'), 'utf8');
    expect(md).toContain('| support-bot | agent | 2.83 | 3 of 3 | 67% | 3 | 1 | 1 |');
    expect(md).toContain('- ⚠️ soft: run: pass rate 60% is below the minimum 90%');
  });

  it('fails the run with exit code 1 and prints the reason when a hard gate fails', async () => {
    const dir = makeProject('reporter-vitest-hard', {}, 'reporter-vitest');
    const result = await runVitest(
      dir,
      [],
      reporterOptions({ gates: { 'support-bot': { level: 'hard', minAverage: 3.5 } } }),
    );
    expect(result.output).toMatch(/Tests\s+6 passed/);
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      'ai-eval: FAILED: no test failed; all 5 planned questions scored; 1 hard gate failed: support-bot: average 2.83 over 3 of 3 scored is below the minimum 3.50',
    );
  });

  it('fails on advisories and errors when asked, and annotates in GitHub Actions', async () => {
    const dir = makeProject('reporter-vitest-strict', {}, 'reporter-vitest');
    const summary = join(dir, 'step-summary.md');
    const result = await runVitest(dir, [], {
      ...reporterOptions({ failOnAdvisory: true, failOnError: true }),
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('  ✗ FAIL hard  2 advisories and failOnAdvisory is set');
    expect(result.output).toContain('  ✗ FAIL hard  1 grader error and failOnError is set');
    expect(result.stdout).toContain(
      '::warning title=ai-eval NO_ACTION_OBSERVER::blind-agent is scored by nothing that can see what the agent did.',
    );
    expect(readFileSync(summary, 'utf8')).toMatch(/^## ai-eval\n\n❌ \*\*Failed\*\*/);
  });

  it('compares with a baseline report and fails on a drop beyond maxDrop', async () => {
    const dir = makeProject('reporter-vitest-baseline', {}, 'reporter-vitest');
    const first = await runVitest(dir, [], reporterOptions({ outputFile: 'base.json' }));
    expect(first.code, first.output).toBe(0);
    const same = await runVitest(dir, [], reporterOptions({ baseline: 'base.json', maxDrop: 0.5 }));
    expect(same.code, same.output).toBe(0);
    expect(same.output).toContain('  no changes');
    const worse = await runVitest(dir, [], {
      ...reporterOptions({ baseline: 'base.json', maxDrop: 0.5, outputFile: 'now.json' }),
      FIXTURE_REGRESS: '1',
    });
    expect(worse.code).toBe(1);
    const lines = worse.output.split('\n');
    expect(lines).toContain('  ▼ regressed support-bot  2.83 -> 2.17 (-0.67)');
    expect(lines).toContain('  ▼ regressed support-bot › q1  4.50 -> 2.50 (-2.00)');
    expect(lines).toContain('  ✗ FAIL hard  support-bot: average 2.83 -> 2.17 (-0.67), allowed drop 0.50');
    const report = readReport(join(dir, 'now.json'));
    expect(report.baseline?.changes.filter((c) => c.kind === 'regressed')).toHaveLength(2);
    expect(report.passed).toBe(false);
  });

  it('works as an instance in the config', async () => {
    const dir = makeProject(
      'reporter-vitest-instance',
      {
        'vitest.config.js': `import { defineConfig } from 'vitest/config';
import AiEvalReporter from 'ai-eval/reporter/vitest';
export default defineConfig({
  test: { include: ['tests/**/*.test.js'], reporters: ['default', new AiEvalReporter({ outputFile: 'out.json', weakest: 1 })] },
});
`,
      },
      'reporter-vitest',
    );
    const result = await runVitest(dir);
    expect(result.code, result.output).toBe(0);
    expect(readReport(join(dir, 'out.json')).questionCount).toBe(5);
    expect(result.output.split('\n').filter((l) => /^ {2}[✓✗] /.test(l))).toEqual([
      '  ✗ support-bot › q2  0.00 (degraded)',
    ]);
  });

  it('rejects a bad option before any test runs, naming it', async () => {
    const dir = makeProject('reporter-vitest-bad', {}, 'reporter-vitest');
    const result = await runVitest(dir, [], reporterOptions({ gate: { level: 'hard', minAverage: 9 } }));
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(
      'ai-eval reporter option gate.minAverage: expected a number from 0 to 5, got 9',
    );
  });

  it('gives the same report from --shard blobs merged with --merge-reports as from one run', async () => {
    const dir = makeProject('reporter-vitest-shard', {}, 'reporter-vitest');
    const env = reporterOptions({ outputFile: 'ai-eval.json' });
    const whole = await runVitest(dir, [], env);
    expect(whole.code, whole.output).toBe(0);
    const single = readReport(join(dir, 'ai-eval.json'));
    for (const shard of ['1/2', '2/2']) {
      const part = await runVitest(dir, [`--shard=${shard}`, '--reporter=blob'], env);
      expect(part.code, part.output).toBe(0);
    }
    expect(existsSync(join(dir, '.vitest-reports'))).toBe(true);
    const merged = await runVitest(dir, ['--merge-reports'], reporterOptions({ outputFile: 'merged.json' }));
    expect(merged.code, merged.output).toBe(0);
    expect(merged.output).toContain(
      'ai-eval: 3 targets, 5 questions, average 3.30 over 5 of 5 scored, 60% passed, 1 error, 1 degraded',
    );
    expect(stable(readReport(join(dir, 'merged.json')))).toEqual(stable(single));
  });
});
