import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { makeProject, runJest, runVitest } from '../helpers/project.js';

/**
 * The reporters fed by the real matchers and generated suites (not hand-made records): a scripted
 * agent answers a dataset under an action-observing target (two trials) and a blind one, and a bare
 * `toPassGrader` runs without a target.
 */
describe('the reporters with the real matchers and evalSuite', () => {
  for (const runner of ['vitest', 'jest'] as const) {
    it(`${runner}: aggregates what evalSuite and toPassGrader recorded`, async () => {
      const dir = makeProject(`reporter-real-${runner}`, {}, 'reporter-real');
      const result =
        runner === 'vitest' ? await runVitest(dir) : await runJest(dir, ['--config', 'jest.config.cjs']);
      // q2 scores 0, q3 is degraded (so not passed), blind q1 is unscored: those tests fail, so the run does too.
      expect(result.code).toBe(1);
      const file = runner === 'vitest' ? 'suite.test.js' : 'suite.test.cjs';
      const lines = result.output.split('\n');
      expect(lines).toContain(
        'ai-eval: 3 targets, 5 questions, average 3.75 over 4 of 5 scored, 40% passed, 2 errors, 1 degraded',
      );
      expect(
        lines.some((l) => /^ {2}support-bot +█{13}░{7} {3}3\.33 {6}3\/3 {4}33% {7}2 {9}1$/.test(l)),
      ).toBe(true);
      expect(lines).toContain('      2 trials: mean 0.00 ± 0.00 (min 0.00, max 0.00), pass@2 no, pass^2 no');
      // It passed, so it is not among the weakest questions.
      expect(lines.some((l) => l.startsWith(`  ✓ ${file} › bare matcher  5.00`))).toBe(false);
      expect(lines).toContain(
        '  ! NO_ACTION_OBSERVER  blind-agent is scored by nothing that can see what the agent did.',
      );
      expect(lines).toContain(
        '  ! GRADER_ALWAYS_SKIPPED  blind-agent: every grade of format_grader was skipped (1 grade), so it scored nothing.',
      );
      expect(lines).toContain(
        '  ! NO_TOOL_CALL_RECORD  support-bot: tool_usage_grader had no tool-call record available for 1 question (q3), so it could not see what the agent did.',
      );

      const text = readFileSync(join(dir, 'ai-eval.json'), 'utf8');
      expect(text).not.toContain('sk-secretsecret');
      const report = JSON.parse(text) as EvalReport;
      expect(report.targets.map((t) => [t.name, t.mode, t.actionObserving])).toEqual([
        ['blind-agent', 'agent', []],
        [file, null, ['read_only_run']],
        ['support-bot', 'agent', ['tool_usage_grader', 'read_only_run']],
      ]);
      const support = report.targets[2]!;
      expect(
        support.questions.map((q) => [q.id, q.composite, q.passed, q.degraded, q.trials?.count]),
      ).toEqual([
        ['q1', 5, true, false, 2],
        ['q2', 0, false, false, 2],
        ['q3', 5, false, true, 2],
      ]);
      expect(support.questions[0]!.test.name).toBe(runner === 'vitest' ? 'support > q1' : 'support q1');
      const q3 = support.questions[2]!.grades.find((g) => g.grader === 'read_only_run' && g.trial === 2);
      expect(q3).toMatchObject({ error: true, score: null, min: 0, max: 1, composite: null });
      expect(support).toMatchObject({ errorCount: 2, degradedCount: 1, passAtK: 1 / 3, passHatK: 1 / 3 });
      const bare = report.targets[1]!.questions[0]!;
      expect(bare.grades.map((g) => [g.composite, g.negated ?? false])).toEqual([[5, false]]);
      expect(bare).toMatchObject({ composite: 5, passed: true });
      // The negated assertion is reported apart, with its own verdict: it passed (the grader failed).
      expect(report.targets[1]!.negated).toMatchObject([
        { question: 'bare matcher', grader: 'read_only_run', composite: 0, passed: true },
      ]);
      expect(report.targets[1]!).toMatchObject({ questionCount: 1, passRate: 1 });
      expect(lines).toContain(`  ✓ ${file} › bare matcher  not read_only_run: 0.00 (threshold 3.50)`);
    });
  }
});
