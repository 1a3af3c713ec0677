import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { validateReport } from '../helpers/report-schema.js';
import { makeProject, runJest, runVitest } from '../helpers/project.js';

/**
 * A retried test counts by its last attempt, as the runner's verdict does. Before, Vitest pooled
 * every attempt's grades into one trial (a question whose agent crashed once, then answered, read
 * "5.00 (degraded)", and a matcher that failed once, then passed, 2.50 and failed, under a green
 * test), and Jest dropped the retry's records (the crashed first attempt alone was reported, and the
 * run failed while Jest passed every test).
 */

const OPTIONS = { outputFile: 'ai-eval.json', gate: { level: 'hard', minAverage: 3.5 } };

for (const runner of ['vitest', 'jest'] as const) {
  describe(`${runner}: a retried test counts by its last attempt`, () => {
    it('reports the attempt that passed, with no error left over from the one that did not', async () => {
      const dir = makeProject(`retries-${runner}`, {}, 'verdicts');
      const env = { REPORTER_OPTIONS: JSON.stringify(OPTIONS) };
      const result =
        runner === 'vitest'
          ? await runVitest(dir, ['vitest/retried.test', '--retry=1'], env)
          : await runJest(dir, ['--config', 'jest.config.cjs', 'jest/retried.test'], env);
      expect(result.code, result.output).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'ai-eval.json'), 'utf8')) as EvalReport;
      expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
      expect(report.verdict).toBe('passed');
      const questions = report.targets.flatMap((t) =>
        t.questions.map((q) => ({
          target: t.name,
          id: q.id,
          composite: q.composite,
          passed: q.passed,
          degraded: q.degraded,
          grades: q.grades.length,
        })),
      );
      questions.sort((a, b) => a.id.localeCompare(b.id));
      expect(questions).toEqual([
        expect.objectContaining({
          id: 'flaky matcher',
          composite: 5,
          passed: true,
          degraded: false,
          grades: 1,
        }),
        expect.objectContaining({
          target: 'retry-bot',
          id: 'r1',
          composite: 5,
          passed: true,
          degraded: false,
          grades: 1,
        }),
      ]);
      expect(report.targets.reduce((n, t) => n + t.coverage.errored, 0)).toBe(0);
    });
  });
}
