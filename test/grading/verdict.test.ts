import { describe, expect, it } from 'vitest';
import { defineGrader } from '../../src/grading/define-grader.js';
import { negatedVerdict, questionVerdict, type VerdictGrade } from '../../src/grading/verdict.js';

const gradient = defineGrader({
  id: 'gradient_g',
  label: 'Gradient',
  grade: (_i, _r, _c, { result }) => result(5, ''),
});
const binary = defineGrader({
  id: 'binary_g',
  label: 'Binary',
  minScore: 0,
  maxScore: 1,
  grade: (_i, _r, _c, { result }) => result(1, ''),
});

describe('questionVerdict', () => {
  it('means the non-null composites and passes at the threshold', () => {
    const v = questionVerdict([gradient.result(5, 'a'), gradient.result(1, 'b')], 3);
    expect(v).toMatchObject({ composite: 3, passed: true, degraded: false, unscored: false });
    expect(questionVerdict([gradient.result(5, 'a'), gradient.result(1, 'b')], 3.5).passed).toBe(false);
  });

  it('maps a binary pass to 5 before averaging', () => {
    expect(questionVerdict([binary.result(1, 'ok'), gradient.result(3, 'ok')], 3.5).composite).toBe(4);
  });

  it('leaves a skip out of the mean: never a zero', () => {
    expect(questionVerdict([binary.result(1, 'ok'), gradient.result(null, 'n/a')], 3.5)).toMatchObject({
      composite: 5,
      passed: true,
      unscored: false,
    });
  });

  it('an error is not a zero, but the question is degraded and does not pass', () => {
    const v = questionVerdict([binary.result(1, 'ok'), gradient.result(null, 'judge down', true)], 3.5);
    expect(v).toMatchObject({ composite: 5, degraded: true, passed: false, unscored: false });
  });

  it('a question nothing scored is unscored and does not pass', () => {
    expect(questionVerdict([], 3.5)).toMatchObject({ composite: null, unscored: true, passed: false });
    expect(questionVerdict([gradient.result(null, 'n/a')], 0)).toMatchObject({
      unscored: true,
      passed: false,
    });
  });

  it('leaves negated grades out of the composite', () => {
    const v = questionVerdict([binary.result(1, 'ok'), { ...binary.result(0, 'wrote'), negated: true }], 3.5);
    expect(v).toMatchObject({ composite: 5, passed: true });
  });

  it('means per trial, then over the scored trials', () => {
    const v = questionVerdict(
      [
        { ...gradient.result(5, ''), trial: 1 },
        { ...gradient.result(3, ''), trial: 1 },
        { ...gradient.result(2, ''), trial: 2 },
        { ...gradient.result(null, 'n/a'), trial: 3 },
      ],
      3,
    );
    expect(v.trialComposites).toEqual([4, 2, null]);
    expect(v.composite).toBe(3);
    expect(v.passed).toBe(true);
  });
});

describe('errored and negated verdicts', () => {
  it('calls a question errored when nothing scored it because something errored, or nothing arrived', () => {
    expect(questionVerdict([gradient.result(null, 'run failed', true)], 3.5)).toMatchObject({
      unscored: true,
      errored: true,
    });
    expect(questionVerdict([gradient.result(null, 'n/a')], 3.5)).toMatchObject({
      unscored: true,
      errored: false,
    });
    expect(questionVerdict([], 3.5)).toMatchObject({ unscored: true, errored: true });
    // Scored but degraded: not errored, and still not passed.
    expect(
      questionVerdict([gradient.result(5, 'ok'), gradient.result(null, 'judge down', true)], 3.5),
    ).toMatchObject({ errored: false, degraded: true, passed: false });
  });

  it('passes a negated assertion only on a real verdict of "did not pass"', () => {
    expect(negatedVerdict([{ ...binary.result(0, 'wrote'), negated: true }], 3.5)).toEqual({
      composite: 0,
      passThreshold: 3.5,
      passed: true,
    });
    expect(negatedVerdict([binary.result(1, 'read only')], 3.5).passed).toBe(false);
    expect(negatedVerdict([binary.result(null, 'no record', true)], 3.5).passed).toBe(false);
    expect(negatedVerdict([binary.result(null, 'n/a')], 3.5).passed).toBe(false);
  });
});

describe('questionVerdict of one trial (its shortcut)', () => {
  /** The verdict of one trial's grades as the grouping by trial gives it, written plainly. */
  function plainVerdict(grades: readonly VerdictGrade[], passThreshold: number) {
    const counted = grades
      .filter((g) => g.negated !== true && g.composite !== null)
      .map((g) => g.composite as number);
    const degraded = grades.some((g) => g.error);
    const trial = counted.length === 0 ? null : counted.reduce((s, c) => s + c, 0) / counted.length;
    const composite = trial === null ? null : trial / 1;
    const passed = !degraded && composite !== null && composite >= passThreshold;
    return {
      composite,
      trialComposites: [trial],
      trialPasses: [passed],
      passThreshold,
      passed,
      degraded,
      unscored: composite === null,
      errored: composite === null && degraded,
    };
  }

  it('gives what grouping by trial gives, for every mix of scores, skips, errors and negated grades', () => {
    const kinds: VerdictGrade[] = [
      { composite: 5, error: false },
      { composite: 0, error: false },
      { composite: 3.3333333333333335, error: false, trial: 1 },
      { composite: 0.1, error: false },
      { composite: 0.2, error: false },
      { composite: null, error: false },
      { composite: null, error: true },
      { composite: 4, error: false, negated: true },
    ];
    let checked = 0;
    for (let mask = 1; mask < 1 << kinds.length; mask++) {
      const grades = kinds.filter((_, i) => mask & (1 << i));
      for (const threshold of [0, 0.30000000000000004, 3.5, 5]) {
        expect(questionVerdict(grades, threshold), JSON.stringify({ grades, threshold })).toEqual(
          plainVerdict(grades, threshold),
        );
        checked += 1;
      }
    }
    expect(checked).toBe(255 * 4);
    // A grade of a second trial takes the grouping path: two trials, two composites.
    expect(
      questionVerdict(
        [
          { composite: 5, error: false },
          { composite: 1, error: false, trial: 2 },
        ],
        3.5,
      ).trialComposites,
    ).toEqual([5, 1]);
  });
});
