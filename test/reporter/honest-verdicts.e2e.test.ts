import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport, TargetReport } from '../../src/report/model.js';
import { packedDir } from '../helpers/paths.js';
import { validateReport } from '../helpers/report-schema.js';
import { makeProject, runJest, runNode, runVitest, type RunResult } from '../helpers/project.js';

/**
 * The ten cases of the "honest verdicts" issue, rerun as a new user would, in real Vitest and Jest
 * runs on the `verdicts` fixture project (fixtures/projects/verdicts/cases.cjs holds each case).
 */

type Runner = 'vitest' | 'jest';

function readReport(dir: string, file: string): EvalReport {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as EvalReport;
  expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
  return report;
}

function target(report: EvalReport, name: string): TargetReport {
  const found = report.targets.find((t) => t.name === name);
  if (!found) throw new Error(`no target ${name} in ${report.targets.map((t) => t.name).join(', ')}`);
  return found;
}

function run(
  runner: Runner,
  dir: string,
  args: string[],
  options: object,
  env: Record<string, string> = {},
): Promise<RunResult> {
  const all = { REPORTER_OPTIONS: JSON.stringify(options), ...env };
  return runner === 'vitest'
    ? runVitest(dir, args, all)
    : runJest(dir, ['--config', 'jest.config.cjs', ...args], all);
}

const README_GATE = { gate: { level: 'hard', minAverage: 3.5 } };
const ext = (runner: Runner): string => (runner === 'vitest' ? 'js' : 'cjs');

for (const runner of ['vitest', 'jest'] as const) {
  describe(`${runner}: every case of the issue, in one run with the README's gate`, () => {
    let dir: string;
    let result: RunResult;
    let report: EvalReport;
    const file = (name: string): string => `${runner}/${name}.test.${ext(runner)}`;

    beforeAll(async () => {
      dir = makeProject(`verdicts-${runner}`, {}, 'verdicts');
      const files = ['errors', 'load', 'dup-good', 'dup-bad', 'negated', 'untargeted', 'observer', 'slow'];
      result = await run(
        runner,
        dir,
        files.map((f) => `${runner}/${f}.test`),
        {
          ...README_GATE,
          outputFile: 'ai-eval.json',
          junitFile: 'junit.xml',
          markdownFile: 'summary.md',
        },
      );
      report = readReport(dir, 'ai-eval.json');
    });

    it('case 1: fails the gate when 5 of 6 questions errored, and says why', () => {
      expect(result.code).toBe(1);
      const support = target(report, 'support-bot');
      expect(support.coverage).toEqual({
        planned: 6,
        scored: 1,
        unscored: 0,
        errored: 5,
        degraded: 5,
        notLoaded: 0,
        share: 1 / 6,
      });
      expect(support.averageScore).toBe(5);
      expect(report).toMatchObject({ verdict: 'failed', passed: false });
      const coverage = report.gates.find((g) => g.message.startsWith('run: coverage'));
      expect(coverage).toMatchObject({ level: 'hard', passed: false });
      expect(result.output).toContain(`  ✗ FAIL hard  ${coverage!.message}`);
      expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(
        /^## ai-eval\n\n❌ \*\*Failed\*\*: 9 tests failed; /,
      );
    });

    it('case 2: a dataset that did not load is in the JSON, JUnit, Markdown and the terminal', () => {
      const loader = target(report, 'loader');
      expect(loader.loadFailures.map((f) => [f.suite, f.dataset, f.test.file])).toEqual([
        ['invalid', 'file:datasets/invalid.yaml', file('load')],
        ['near', 'file:./near.yaml', file('load')],
      ]);
      const near = loader.loadFailures[1]!;
      expect(near.problems.at(-1)).toBe(
        `Note: dataset paths are relative to the working directory (${dir}), not to the test file. ./near.yaml exists beside the test file: give \`dataset: '${runner}/near.yaml'\`.`,
      );
      expect(report.coverage.notLoaded).toBe(2);
      const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
      expect(junit).toContain(
        `<testcase classname="loader" name="near › dataset file:./near.yaml" file="${file('load')}" time="0">`,
      );
      expect(junit).toContain('type="load-failure"');
      expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('### Datasets that did not load');
      expect(result.output).toContain(`  ✗ loader › near: file:./near.yaml (${file('load')})`);
    });

    it('case 4: keeps the same target and question id from two files apart and flags it', () => {
      const dup = target(report, 'dup-bot');
      expect(dup.questions.map((q) => [q.id, q.test.file, q.composite])).toEqual([
        ['list-drafts', file('dup-bad'), 0],
        ['list-drafts', file('dup-good'), 5],
      ]);
      expect(dup.advisories.map((a) => a.message)).toEqual([
        `dup-bot: question list-drafts comes from 2 test files (${file('dup-bad')}, ${file('dup-good')}); they are reported apart, never averaged. Give each its own question id or its own target.`,
      ]);
    });

    it('case 5: a negated assertion has its own verdict and leaves the pass rate alone', () => {
      const negated = target(report, file('negated'));
      expect(negated).toMatchObject({ questionCount: 1, passRate: 1, averageScore: 5 });
      expect(negated.negated).toMatchObject([{ question: 'writes', grader: 'read_only_run', passed: true }]);
      expect(result.output).toContain(
        `  ✓ ${file('negated')} › writes  not read_only_run: 0.00 (threshold 3.50)`,
      );
    });

    it('case 6: the headline states failed tests, coverage and gates', () => {
      expect(report.failedTests).toBe(9);
      expect(result.output).toContain(
        'ai-eval: FAILED: 9 tests failed; 7 of 15 planned questions scored, 6 errored, 2 datasets not loaded; 1 hard gate failed: run: coverage 47%',
      );
      // Only questions that did not pass are among the weakest.
      const weakest = result.output
        .split('\n')
        .filter((l) => /^ {2}[✓✗] \S+ › /.test(l) && !l.includes(' not '));
      expect(weakest.length).toBeGreaterThan(0);
      expect(weakest.every((l) => l.startsWith('  ✗'))).toBe(true);
    });

    it('case 7: flags an agent run graded without a target by nothing action-observing', () => {
      expect(target(report, file('untargeted')).advisories).toEqual([
        {
          code: 'NO_ACTION_OBSERVER',
          target: file('untargeted'),
          message: `${file('untargeted')}: 1 agent run graded without a target (lists drafts) was scored by nothing that can see what the agent did. Grade it with an action-observing grader too (read_only_run, tool_usage_grader), or give the assertion a target.`,
        },
      ]);
    });

    it('case 8: flags an observer that scored without a record, naming it', () => {
      const observer = target(report, 'observer-bot');
      expect(observer.advisories.map((a) => a.code)).toEqual(['UNVERIFIED_OBSERVER']);
      expect(observer.advisories[0]!.message).toContain(
        'observer-bot: prose_observer declares observesActions but scored 1 question',
      );
      expect(observer.questions[0]!.grades[0]).toMatchObject({ toolCallRecord: false, unverified: true });
    });

    it('case 10: a slow agent gets a default fit for it, and a timeout says which option to raise', () => {
      const slow = target(report, 'slow-bot');
      const byId = Object.fromEntries(slow.questions.map((q) => [q.id, q]));
      // 5.5 s: past the runner's 5 s default, well within evalSuite's own.
      expect(byId['s-slow']).toMatchObject({ passed: true, composite: 5 });
      expect(byId['t-slow']!.grades[0]!.reason).toBe(
        'no response to grade: timed out after 150 ms (the suite timeout option); the run was aborted through its signal. If the agent needs longer, raise `timeout` in the evalSuite options (or `timeout` on the question, or `configure({ questionTimeout })` for every suite).',
      );
      expect(result.output).not.toContain('pass a timeout value as the last argument');
      expect(result.output).not.toContain('Exceeded timeout of 5000 ms');
    });
  });

  describe(`${runner}: filters`, () => {
    it('case 9: an id filter runs one question, skipping the suites without it', async () => {
      const dir = makeProject(`verdicts-ids-${runner}`, {}, 'verdicts');
      const files = [`${runner}/errors.test`, `${runner}/slow.test`];
      const one = await run(
        runner,
        dir,
        files,
        { ...README_GATE, outputFile: 'one.json' },
        { AI_EVAL_IDS: 'list-drafts' },
      );
      expect(one.code, one.output).toBe(0);
      const report = readReport(dir, 'one.json');
      expect(report).toMatchObject({ questionCount: 1, verdict: 'passed' });
      expect(report.skippedByFilter.map((s) => [s.suite, s.filters])).toEqual([
        ['slow', { ids: ['list-drafts'] }],
        ['tight', { ids: ['list-drafts'] }],
      ]);
      expect(one.output).toContain('Skipped by the filters (no question selected): 2 suites (slow, tight)');

      const none = await run(runner, dir, files, { outputFile: 'none.json' }, { AI_EVAL_IDS: 'q-nope' });
      expect(none.code).toBe(1);
      expect(none.output).toContain(
        '  ✗ FAIL hard  filters: ids q-nope selected no question in any suite (3 suites skipped); check AI_EVAL_IDS, AI_EVAL_TAGS and AI_EVAL_SPLIT',
      );
      expect(readReport(dir, 'none.json').verdict).toBe('failed');
    });
  });

  describe(`${runner}: shards`, () => {
    it('case 3: each shard defers its gate; merge judges the whole run and refuses other settings', async () => {
      const dir = makeProject(`verdicts-shards-${runner}`, {}, 'verdicts');
      const gate = { gate: { level: 'hard', minAverage: 4.5 }, outputFile: 'shard-[shard].json' };
      const shards = [`${runner}/shard-`];
      for (const n of [1, 2]) {
        const part = await run(runner, dir, [...shards, `--shard=${n}/2`], gate);
        // Every test of the shard passes, and its partial average is not the run's: it does not fail.
        expect(part.code, part.output).toBe(0);
        expect(part.output).toContain(`ai-eval: PARTIAL: shard ${n} of 2; no test failed;`);
        expect(readReport(dir, `shard-${n}-of-2.json`)).toMatchObject({
          verdict: 'partial',
          partial: { reason: 'shard', shard: { index: n, count: 2 } },
        });
      }
      const deferred = [1, 2].flatMap((n) => readReport(dir, `shard-${n}-of-2.json`).gates);
      expect(deferred.every((g) => g.deferred === true)).toBe(true);
      const bin = join(packedDir(), 'dist', 'cli', 'bin.cjs');
      const merged = await runNode(
        bin,
        ['merge', 'shard-1-of-2.json', 'shard-2-of-2.json', '-o', 'merged.json'],
        dir,
      );
      expect(merged.code, merged.output).toBe(0);
      expect(readReport(dir, 'merged.json')).toMatchObject({
        averageScore: 4.5,
        verdict: 'passed',
        partial: null,
      });
      expect(merged.stdout).toContain(
        '  ✓ pass hard  run: average 4.50 over 3 of 3 scored meets the minimum 4.50',
      );

      const other = await run(runner, dir, [...shards, '--shard=2/2'], {
        ...gate,
        gate: { level: 'hard', minAverage: 4 },
      });
      expect(other.code, other.output).toBe(0);
      const refused = await runNode(
        bin,
        ['merge', 'shard-1-of-2.json', 'shard-2-of-2.json', '-o', 'refused.json'],
        dir,
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        'ai-eval merge: shard-2-of-2.json was gated with other settings than shard-1-of-2.json (gate: {"level":"hard","minAverage":4.5} vs {"level":"hard","minAverage":4})',
      );
      const missing = await runNode(bin, ['merge', 'shard-1-of-2.json', '-o', 'missing.json'], dir);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('shard 2 of 2 is missing');
    });
  });
}
