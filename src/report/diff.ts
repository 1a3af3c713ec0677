import { mean } from '../internal/numbers.js';
import { own } from '../internal/own.js';
import { BASELINE_EPSILON, takeMatch } from './baseline.js';
import { newcombeInterval, type Interval } from './interval.js';
import type { Advisory, EvalReport, LoadFailureReport, QuestionReport, TargetReport } from './model.js';

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
 * Why a question of base is absent from head, from what head says about the question's dataset:
 * - `not-loaded`: its dataset did not load in head (head has a load failure for it);
 * - `filtered`: the environment filters (`AI_EVAL_IDS`, ...) left its suite without a question in head;
 * - `disabled`: head lists it as disabled in its dataset;
 * - `removed-from-dataset`: its dataset loaded in head with other content (another hash than in
 *   base) and head has no such question: it was taken out of the dataset (or renamed);
 * - `missing`: anything else (the dataset is unchanged, or nothing says what became of it: a bare
 *   matcher's question, a test file that did not run, a shard, a filter inside the suite).
 *
 * @example
 * ```ts
 * const gone = diff.targets.flatMap((t) => t.questions).filter((q) => q.absent?.reason === ('not-loaded' satisfies AbsenceReason));
 * ```
 */
export type AbsenceReason = 'not-loaded' | 'filtered' | 'disabled' | 'removed-from-dataset' | 'missing';

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
  /**
   * On a `removed` question: why it is absent from head, the dataset it came from (when known), the
   * load failure's problems (`not-loaded`) and the dataset's hash in each report (`null` when that
   * report has none for it).
   */
  absent?: {
    reason: AbsenceReason;
    dataset?: string;
    problems?: string[];
    hashes?: { base: string | null; head: string | null };
  };
  /**
   * It counts as a regression: it passed in base and does not pass in head, either `regressed` or
   * absent from head for a reason other than `removed-from-dataset` or `disabled` (a question that
   * is not in head did not pass there).
   */
  regression: boolean;
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
  /** The target's datasets that did not load in head (its `loadFailures` there). */
  notLoaded: LoadFailureReport[];
  /**
   * A question counts as a regression (see {@link QuestionDiff.regression}), the pass share dropped
   * beyond noise, or a dataset of the target did not load in head.
   */
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
  /** Every dataset that did not load in head, with its target: each makes its target regress. */
  notLoaded: Array<LoadFailureReport & { target: string }>;
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

/** What head says about the datasets, to tell why a question of base is absent from it. */
interface HeadDatasets {
  baseHashes: Readonly<Record<string, string>>;
  headHashes: Readonly<Record<string, string>>;
  notLoaded: ReadonlyArray<LoadFailureReport & { target: string }>;
  filtered: EvalReport['skippedByFilter'];
  disabled: NonNullable<EvalReport['disabled']>;
}

function headDatasets(base: EvalReport, head: EvalReport): HeadDatasets {
  return {
    baseHashes: base.datasetHashes ?? {},
    headHashes: head.datasetHashes ?? {},
    notLoaded: head.targets.flatMap((t) => (t.loadFailures ?? []).map((f) => ({ ...f, target: t.name }))),
    filtered: head.skippedByFilter ?? [],
    disabled: head.disabled ?? [],
  };
}

/** Why `q`, a question of `target` in base, is not in head. */
function absence(q: QuestionReport, target: string, head: HeadDatasets): NonNullable<QuestionDiff['absent']> {
  const dataset = q.dataset;
  if (dataset === undefined) return { reason: 'missing' };
  const failures = head.notLoaded.filter((f) => f.dataset === dataset);
  const failure = failures.find((f) => f.target === target) ?? failures[0];
  if (failure) return { reason: 'not-loaded', dataset, problems: [...failure.problems] };
  if (head.filtered.some((s) => s.dataset === dataset && s.target === target))
    return { reason: 'filtered', dataset };
  if (head.disabled.some((d) => d.dataset === dataset && d.target === target && d.question === q.id))
    return { reason: 'disabled', dataset };
  const before = own(head.baseHashes, dataset) ?? null;
  const after = own(head.headHashes, dataset) ?? null;
  const hashes = { base: before, head: after };
  if (before !== null && after !== null && before !== after)
    return { reason: 'removed-from-dataset', dataset, hashes };
  return { reason: 'missing', dataset, hashes };
}

function removedRow(q: QuestionReport, target: string, head: HeadDatasets): QuestionDiff {
  const absent = absence(q, target, head);
  return {
    id: q.id,
    test: q.test.file,
    change: 'removed',
    before: verdictOf(q),
    after: null,
    delta: null,
    absent,
    regression: q.passed && absent.reason !== 'removed-from-dataset' && absent.reason !== 'disabled',
  };
}

function questionDiffs(before: TargetReport, after: TargetReport, head: HeadDatasets): QuestionDiff[] {
  const left = [...before.questions];
  const rows: QuestionDiff[] = [];
  for (const q of after.questions) {
    const prev = takeMatch(left, q, after.questions);
    if (!prev) {
      rows.push(newRow(q));
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
      regression: change === 'regressed',
    });
  }
  for (const q of left) rows.push(removedRow(q, after.name, head));
  return rows;
}

function compareTarget(before: TargetReport, after: TargetReport, head: HeadDatasets): TargetDiff {
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
  const questions = questionDiffs(before, after, head);
  const notLoaded = [...(after.loadFailures ?? [])];
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
    notLoaded,
    regressed:
      questions.some((q) => q.regression) || (interval !== null && interval.high < 0) || notLoaded.length > 0,
  };
}

/** A question only head has. */
function newRow(q: QuestionReport): QuestionDiff {
  return {
    id: q.id,
    test: q.test.file,
    change: 'new',
    before: null,
    after: verdictOf(q),
    delta: null,
    regression: false,
  };
}

function lone(t: TargetReport, status: 'new' | 'removed', head: HeadDatasets): TargetDiff {
  const s = side(t);
  const questions: QuestionDiff[] =
    status === 'removed' ? t.questions.map((q) => removedRow(q, t.name, head)) : t.questions.map(newRow);
  const notLoaded = status === 'new' ? [...(t.loadFailures ?? [])] : [];
  return {
    name: t.name,
    status,
    before: status === 'removed' ? s : null,
    after: status === 'new' ? s : null,
    averageDelta: null,
    passRateDelta: null,
    passRateInterval: null,
    beyondNoise: null,
    questions,
    graders: [],
    advisories:
      status === 'new'
        ? { appeared: t.advisories ?? [], gone: [] }
        : { appeared: [], gone: t.advisories ?? [] },
    notLoaded,
    regressed: questions.some((q) => q.regression) || notLoaded.length > 0,
  };
}

/**
 * Compares two JSON reports per target and per question: composites and verdicts, new and removed
 * questions, graders whose mean moved, advisories that appeared or went away, and whether a
 * target's pass-share change is beyond noise (a 95% interval on the difference that excludes 0).
 * A target regresses when a question that passed in base does not pass in head (absent from head
 * included, unless head's dataset loaded without it: see {@link AbsenceReason}), when its pass
 * share dropped beyond noise, or when a dataset of it did not load in head.
 *
 * @example
 * ```ts
 * const result = diffReports(readBaseline('main.json'), readBaseline('branch.json'));
 * for (const t of result.targets) console.log(t.name, t.passRateDelta, t.beyondNoise);
 * ```
 */
export function diffReports(base: EvalReport, head: EvalReport): ReportDiff {
  const datasets = headDatasets(base, head);
  const before = new Map(base.targets.map((t) => [t.name, t]));
  const targets: TargetDiff[] = [];
  for (const t of head.targets) {
    const old = before.get(t.name);
    targets.push(old ? compareTarget(old, t, datasets) : lone(t, 'new', datasets));
    before.delete(t.name);
  }
  for (const old of before.values()) targets.push(lone(old, 'removed', datasets));
  return {
    base: { timestamp: base.timestamp, verdict: base.verdict },
    head: { timestamp: head.timestamp, verdict: head.verdict },
    targets,
    notLoaded: [...datasets.notLoaded],
    regressions: targets.filter((t) => t.regressed).length,
    fixed: targets.reduce((n, t) => n + t.questions.filter((q) => q.change === 'fixed').length, 0),
  };
}
