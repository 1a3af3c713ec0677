import { mean } from '../internal/numbers.js';
import type { GradeResult } from './types.js';

/** What {@link questionVerdict} reads of a grade: the result, its trial and whether it was negated. */
export type VerdictGrade = Pick<GradeResult, 'composite' | 'error'> & {
  /** 1-based trial; absent means trial 1. */
  trial?: number;
  /** From a negated assertion (`.not`): its low score was the expectation, so it does not count. */
  negated?: boolean;
};

/**
 * The verdict of one question: the one place that decides it, used by `gradeQuestion`, the
 * matchers, the generated suites and the report alike.
 */
export interface QuestionVerdict {
  /**
   * Per trial the mean of the counted non-null composites, then the mean over the scored trials;
   * `null` when nothing scored the question.
   */
  composite: number | null;
  /** The composite of each trial, in trial order (`null` for an unscored trial). */
  trialComposites: Array<number | null>;
  /** Whether each trial, in trial order, passed on its own (scored, at the threshold, not degraded). */
  trialPasses: boolean[];
  passThreshold: number;
  /** Scored, at or above the threshold, and no grader errored. */
  passed: boolean;
  /** Some grader could not grade (errored). */
  degraded: boolean;
  /** Nothing scored the question; it does not pass. */
  unscored: boolean;
  /**
   * Unscored because something failed: a grader or the run errored, or no grade arrived at all.
   * An errored question is also unscored; one whose graders all skipped is unscored, not errored.
   */
  errored: boolean;
}

/**
 * Decides a question from its grades: composite, passed, degraded and unscored. A skip or an error
 * is never a zero: both are left out of the mean. A question nothing scored does not pass, and a
 * degraded question (a grader errored) does not pass either, since part of it went unchecked.
 * Grades of negated assertions are listed elsewhere but never counted here.
 *
 * @example
 * ```ts
 * questionVerdict([readOnly.result(1, 'ok'), accuracy.result(null, 'no facts')], 3.5);
 * // { composite: 5, passed: true, degraded: false, unscored: false, ... }
 * ```
 */
export function questionVerdict(grades: readonly VerdictGrade[], passThreshold: number): QuestionVerdict {
  if (grades.length > 0 && grades.every((g) => g.trial === undefined || g.trial === 1))
    return oneTrialVerdict(grades, passThreshold);
  const byTrial = new Map<number, { composites: number[]; degraded: boolean }>();
  let degraded = false;
  for (const grade of grades) {
    const trial = grade.trial ?? 1;
    let entry = byTrial.get(trial);
    if (!entry) byTrial.set(trial, (entry = { composites: [], degraded: false }));
    if (grade.error) degraded = entry.degraded = true;
    if (grade.negated !== true && grade.composite !== null) entry.composites.push(grade.composite);
  }
  const trials = [...byTrial.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
  const trialComposites = trials.map((t) => mean(t.composites));
  const trialPasses = trials.map(
    (t, i) => !t.degraded && trialComposites[i] !== null && (trialComposites[i] ?? 0) >= passThreshold,
  );
  const composite = mean(trialComposites.filter((c): c is number => c !== null));
  return {
    composite,
    trialComposites,
    trialPasses,
    passThreshold,
    passed: composite !== null && composite >= passThreshold && !degraded,
    degraded,
    unscored: composite === null,
    errored: composite === null && (degraded || grades.length === 0),
  };
}

/**
 * {@link questionVerdict} of grades that are all of trial 1 (most questions), without grouping them
 * by trial: the same mean, summed in the same order, and the same fields.
 */
function oneTrialVerdict(grades: readonly VerdictGrade[], passThreshold: number): QuestionVerdict {
  let sum = 0;
  let counted = 0;
  let degraded = false;
  for (const grade of grades) {
    if (grade.error) degraded = true;
    if (grade.negated !== true && grade.composite !== null) {
      sum += grade.composite;
      counted += 1;
    }
  }
  const composite = counted === 0 ? null : sum / counted;
  const passed = composite !== null && composite >= passThreshold && !degraded;
  return {
    composite,
    trialComposites: [composite],
    trialPasses: [passed],
    passThreshold,
    passed,
    degraded,
    unscored: composite === null,
    errored: composite === null && degraded,
  };
}

/** The verdict of a negated assertion (`expect(run).not.toPassGrader(...)`). */
export interface NegatedVerdict {
  /** The composite the grader gave (mean over trials); `null` when it skipped or errored. */
  composite: number | null;
  passThreshold: number;
  /**
   * The negated assertion passed: the grader scored, did not error, and did not pass. A skip or an
   * error is no verdict, so it never passes a negated assertion either.
   */
  passed: boolean;
}

/**
 * Decides a negated assertion from its grades (marked `negated` or not): it passes when the grader
 * gave a real verdict and that verdict was "did not pass". Reports list it apart from the
 * question's composite and the target's pass rate.
 *
 * @example
 * ```ts
 * negatedVerdict([readOnly.result(0, 'delete_node called')], 3.5); // { composite: 0, passed: true, ... }
 * negatedVerdict([readOnly.result(null, 'no record', true)], 3.5).passed; // false: no verdict
 * ```
 */
export function negatedVerdict(grades: readonly VerdictGrade[], passThreshold: number): NegatedVerdict {
  const verdict = questionVerdict(
    grades.map(({ negated: _negated, ...grade }) => grade),
    passThreshold,
  );
  return {
    composite: verdict.composite,
    passThreshold,
    passed: !verdict.unscored && !verdict.degraded && !verdict.passed,
  };
}
