import { mean } from '../internal/numbers.js';
import { BASELINE_EPSILON, takeMatch } from './baseline.js';
import { newcombeInterval, type Interval } from './interval.js';
import type { Advisory, EvalReport, QuestionReport, TargetReport } from './model.js';

/**
 * Pass counts of one side of a target: each scored trial of a question that ran several, else the
 * question itself (an unscored one does not pass, as in the pass rate).
 *
 * @example
 * ```ts
 * const { passed, units }: PassUnits = passUnits(target);
 * ```
 */
export interface PassUnits {
  passed: number;
  units: number;
}

/**
 * One question's change between two reports.
 *
 * @example
 * ```ts
 * const broke = diff.targets.flatMap((t) => t.questions).filter((q: QuestionDiff) => q.change === 'regressed');
 * ```
 */
export interface QuestionDiff {
  id: string;
  test: string;
  /** `regressed`: passed before, not now; `fixed`: the other way; `new` / `removed`; `changed`: the composite moved, the verdict did not; `same`. */
  change: 'regressed' | 'fixed' | 'new' | 'removed' | 'changed' | 'same';
  before: { composite: number | null; passed: boolean } | null;
  after: { composite: number | null; passed: boolean } | null;
  /** `after - before` of the composites; `null` when either is missing or unscored. */
  delta: number | null;
}

/**
 * A grader whose mean composite over the target's questions moved.
 *
 * @example
 * ```ts
 * for (const g of targetDiff.graders) console.log(g.grader, g.before, '->', g.after);
 * ```
 */
export interface GraderDiff {
  grader: string;
  before: number | null;
  after: number | null;
  delta: number | null;
}

/**
 * One target's change between two reports.
 *
 * @example
 * ```ts
 * if (targetDiff.beyondNoise && (targetDiff.passRateDelta ?? 0) < 0) console.log(`${targetDiff.name} got worse`);
 * ```
 */
export interface TargetDiff {
  name: string;
  status: 'compared' | 'new' | 'removed';
  before: { averageScore: number | null; passRate: number | null; passUnits: PassUnits } | null;
  after: { averageScore: number | null; passRate: number | null; passUnits: PassUnits } | null;
  averageDelta: number | null;
  passRateDelta: number | null;
  /**
   * 95% interval on the difference of pass shares (after minus before, over {@link PassUnits}):
   * Newcombe's hybrid score interval from the two Wilson intervals. `null` when a side has none.
   */
  passRateInterval: (Interval & { level: 0.95 }) | null;
  /** The interval excludes 0; `null` when there is no interval. */
  beyondNoise: boolean | null;
  questions: QuestionDiff[];
  graders: GraderDiff[];
  advisories: { appeared: Advisory[]; gone: Advisory[] };
  /** A question regressed, or the pass share dropped beyond noise. */
  regressed: boolean;
}

/**
 * What `ai-eval diff` computes.
 *
 * @example
 * ```ts
 * const result: ReportDiff = diffReports(base, head);
 * if (result.regressions > 0) process.exitCode = 1;
 * ```
 */
export interface ReportDiff {
  base: { timestamp: string; verdict: string };
  head: { timestamp: string; verdict: string };
  targets: TargetDiff[];
  /** Targets that regressed. */
  regressions: number;
  /** Questions that went from not passing to passing. */
  fixed: number;
}

/**
 * The pass counts of a target (see {@link PassUnits}).
 *
 * @example
 * ```ts
 * passUnits(target); // { passed: 7, units: 10 }
 * ```
 */
export function passUnits(target: TargetReport): PassUnits {
  let passed = 0;
  let units = 0;
  for (const q of target.questions) {
    if (q.trials && q.trials.count > 1) {
      for (const c of q.trials.composites) {
        units++;
        if (c !== null && c >= q.passThreshold) passed++;
      }
    } else {
      units++;
      if (q.passed) passed++;
    }
  }
  return { passed, units };
}

function side(t: TargetReport): NonNullable<TargetDiff['before']> {
  return { averageScore: t.averageScore, passRate: t.passRate, passUnits: passUnits(t) };
}

function delta(before: number | null | undefined, after: number | null | undefined): number | null {
  return before === null || before === undefined || after === null || after === undefined
    ? null
    : after - before;
}

function graderMeans(target: TargetReport): Map<string, number | null> {
  const scores = new Map<string, number[]>();
  for (const q of target.questions) {
    for (const g of q.grades) {
      if (g.negated) continue;
      const list = scores.get(g.grader) ?? [];
      if (g.composite !== null) list.push(g.composite);
      scores.set(g.grader, list);
    }
  }
  return new Map([...scores].map(([id, list]) => [id, mean(list)]));
}

function graderDiffs(before: TargetReport, after: TargetReport): GraderDiff[] {
  const a = graderMeans(before);
  const b = graderMeans(after);
  const ids = [...new Set([...a.keys(), ...b.keys()])].sort();
  return ids.flatMap((grader) => {
    const x = a.get(grader) ?? null;
    const y = b.get(grader) ?? null;
    const d = delta(x, y);
    const moved = d === null ? x !== y : Math.abs(d) >= BASELINE_EPSILON;
    return moved ? [{ grader, before: x, after: y, delta: d }] : [];
  });
}

const advisoryKey = (a: Advisory) => `${a.code}\u0000${a.target}\u0000${a.message}`;

function advisoryDiff(before: readonly Advisory[], after: readonly Advisory[]): TargetDiff['advisories'] {
  const a = new Set(before.map(advisoryKey));
  const b = new Set(after.map(advisoryKey));
  return {
    appeared: after.filter((x) => !a.has(advisoryKey(x))),
    gone: before.filter((x) => !b.has(advisoryKey(x))),
  };
}

function verdictOf(q: QuestionReport): { composite: number | null; passed: boolean } {
  return { composite: q.composite, passed: q.passed };
}

function questionDiffs(before: TargetReport, after: TargetReport): QuestionDiff[] {
  const left = [...before.questions];
  const rows: QuestionDiff[] = [];
  for (const q of after.questions) {
    const prev = takeMatch(left, q, after.questions);
    if (!prev) {
      rows.push({
        id: q.id,
        test: q.test.file,
        change: 'new',
        before: null,
        after: verdictOf(q),
        delta: null,
      });
      continue;
    }
    const d = delta(prev.composite, q.composite);
    const change: QuestionDiff['change'] =
      prev.passed && !q.passed
        ? 'regressed'
        : !prev.passed && q.passed
          ? 'fixed'
          : (d !== null && Math.abs(d) >= BASELINE_EPSILON) || (d === null && prev.composite !== q.composite)
            ? 'changed'
            : 'same';
    rows.push({
      id: q.id,
      test: q.test.file,
      change,
      before: verdictOf(prev),
      after: verdictOf(q),
      delta: d,
    });
  }
  for (const q of left)
    rows.push({
      id: q.id,
      test: q.test.file,
      change: 'removed',
      before: verdictOf(q),
      after: null,
      delta: null,
    });
  return rows;
}

function compareTarget(before: TargetReport, after: TargetReport): TargetDiff {
  const b = side(before);
  const a = side(after);
  const interval =
    b.passUnits.units > 0 && a.passUnits.units > 0
      ? {
          ...newcombeInterval(a.passUnits.passed, a.passUnits.units, b.passUnits.passed, b.passUnits.units),
          level: 0.95 as const,
        }
      : null;
  const beyondNoise = interval ? interval.low > 0 || interval.high < 0 : null;
  const questions = questionDiffs(before, after);
  return {
    name: after.name,
    status: 'compared',
    before: b,
    after: a,
    averageDelta: delta(b.averageScore, a.averageScore),
    passRateDelta: delta(b.passRate, a.passRate),
    passRateInterval: interval,
    beyondNoise,
    questions,
    graders: graderDiffs(before, after),
    advisories: advisoryDiff(before.advisories ?? [], after.advisories ?? []),
    regressed: questions.some((q) => q.change === 'regressed') || (interval !== null && interval.high < 0),
  };
}

function lone(t: TargetReport, status: 'new' | 'removed'): TargetDiff {
  const s = side(t);
  return {
    name: t.name,
    status,
    before: status === 'removed' ? s : null,
    after: status === 'new' ? s : null,
    averageDelta: null,
    passRateDelta: null,
    passRateInterval: null,
    beyondNoise: null,
    questions: t.questions.map((q) => ({
      id: q.id,
      test: q.test.file,
      change: status,
      before: status === 'removed' ? verdictOf(q) : null,
      after: status === 'new' ? verdictOf(q) : null,
      delta: null,
    })),
    graders: [],
    advisories:
      status === 'new'
        ? { appeared: t.advisories ?? [], gone: [] }
        : { appeared: [], gone: t.advisories ?? [] },
    regressed: false,
  };
}

/**
 * Compares two JSON reports per target and per question: composites and verdicts, new and removed
 * questions, graders whose mean moved, advisories that appeared or went away, and whether a
 * target's pass-share change is beyond noise (a 95% interval on the difference that excludes 0).
 *
 * @example
 * ```ts
 * const result = diffReports(readBaseline('main.json'), readBaseline('branch.json'));
 * for (const t of result.targets) console.log(t.name, t.passRateDelta, t.beyondNoise);
 * ```
 */
export function diffReports(base: EvalReport, head: EvalReport): ReportDiff {
  const before = new Map(base.targets.map((t) => [t.name, t]));
  const targets: TargetDiff[] = [];
  for (const t of head.targets) {
    const old = before.get(t.name);
    targets.push(old ? compareTarget(old, t) : lone(t, 'new'));
    before.delete(t.name);
  }
  for (const old of before.values()) targets.push(lone(old, 'removed'));
  return {
    base: { timestamp: base.timestamp, verdict: base.verdict },
    head: { timestamp: head.timestamp, verdict: head.verdict },
    targets,
    regressions: targets.filter((t) => t.regressed).length,
    fixed: targets.reduce((n, t) => n + t.questions.filter((q) => q.change === 'fixed').length, 0),
  };
}
