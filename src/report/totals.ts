import { mean } from '../internal/numbers.js';
import type { Coverage, JudgeTokens, NegatedReport, QuestionReport, Totals } from './model.js';

/**
 * What was planned and what got a verdict: every question is planned, and so is each dataset that
 * did not load; each planned question is scored, unscored (every grader skipped), errored (no
 * composite because something errored) or not loaded.
 *
 * @example
 * ```ts
 * coverageOf(questions, 1); // { planned: 7, scored: 1, errored: 5, notLoaded: 1, share: 1 / 7, ... }
 * ```
 */
export function coverageOf(questions: readonly QuestionReport[], notLoaded = 0): Coverage {
  const scored = questions.filter((q) => q.composite !== null).length;
  const errored = questions.filter((q) => q.composite === null && q.errored).length;
  const planned = questions.length + notLoaded;
  return {
    planned,
    scored,
    unscored: questions.length - scored - errored,
    errored,
    degraded: questions.filter((q) => q.degraded).length,
    notLoaded,
    share: planned === 0 ? null : scored / planned,
  };
}

/**
 * Summarises questions: average of the scored composites, pass rate, errors, degraded, unscored,
 * coverage (with `notLoaded` datasets that gave nothing), judge tokens (the negated assertions'
 * judges spent tokens too), and pass@k / pass^k over the questions that ran several trials.
 *
 * @example
 * ```ts
 * totalsOf(questions).passRate; // 0.75
 * totalsOf(questions, { notLoaded: 1 }).coverage.notLoaded; // 1
 * ```
 */
export function totalsOf(
  questions: readonly QuestionReport[],
  more: { notLoaded?: number; negated?: readonly NegatedReport[] } = {},
): Totals {
  const notLoaded = more.notLoaded ?? 0;
  const tokens: JudgeTokens = { prompt: 0, completion: 0, total: 0 };
  for (const q of [...questions, ...(more.negated ?? [])])
    for (const g of q.grades) {
      if (!g.usage) continue;
      tokens.prompt += g.usage.promptTokens;
      tokens.completion += g.usage.completionTokens;
      tokens.total += g.usage.totalTokens;
    }
  const passedCount = questions.filter((q) => q.passed).length;
  const multi = questions.filter((q) => q.trials);
  const totals: Totals = {
    questionCount: questions.length,
    averageScore: mean(questions.map((q) => q.composite).filter((c): c is number => c !== null)),
    passRate: questions.length === 0 ? null : passedCount / questions.length,
    passedCount,
    // A negated assertion's errored grade is a grader error too (its test failed on it).
    errorCount: [...questions, ...(more.negated ?? [])].reduce(
      (n, q) => n + q.grades.filter((g) => g.error).length,
      0,
    ),
    degradedCount: questions.filter((q) => q.degraded).length,
    unscoredCount: questions.filter((q) => q.unscored).length,
    coverage: coverageOf(questions, notLoaded),
    judgeTokens: tokens,
  };
  if (multi.length > 0) {
    totals.passAtK = multi.filter((q) => q.trials?.passAtK).length / multi.length;
    totals.passHatK = multi.filter((q) => q.trials?.passHatK).length / multi.length;
  }
  return totals;
}
