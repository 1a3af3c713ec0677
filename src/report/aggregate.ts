import { recordedGrade, type AiEvalRecord, type EvalRecord, type RecordTarget } from '../run/record-types.js';
import { redactText } from './redact.js';
import { negatedVerdict, questionVerdict } from '../grading/verdict.js';
import { mean } from '../internal/numbers.js';
import { compareNatural } from '../internal/collate.js';
import type {
  DisabledQuestionReport,
  GradeReport,
  LoadFailureReport,
  NegatedReport,
  QuestionReport,
  SkippedSuiteReport,
  TrialEvidence,
  TrialsReport,
} from './model.js';

export { totalsOf, coverageOf } from './totals.js';

/** A target as the records describe it, with its questions grouped. */
export interface TargetGroup {
  name: string;
  declared: RecordTarget | null;
  questions: QuestionReport[];
  /** Negated assertions filed under the target, each with its own verdict. */
  negated: NegatedReport[];
  /** Suites of the target whose dataset gave nothing to evaluate. */
  loadFailures: LoadFailureReport[];
}

interface Bucket {
  declared: RecordTarget | null;
  /** The record target merged last: the records of a suite share one, merged once. */
  lastMerged: RecordTarget | null;
  byQuestion: Map<string, EvalRecord[]>;
  negated: EvalRecord[];
  loadFailures: LoadFailureReport[];
}

/**
 * Groups records into targets and questions, purely. A record's target is its `target`, else a
 * target named after its test file (`file`, relative to `root` when given). Questions are keyed by
 * target, question id and test file (the same id from two files stays two questions); their grades
 * keep their trial numbers. Negated assertions and load failures are kept beside the questions,
 * and filter skips are left to {@link skippedSuites}. Targets and questions are sorted by name, so
 * shards merged later give the same order as one run.
 *
 * @example
 * ```ts
 * const groups = groupRecords(records, { root: process.cwd() });
 * groups[0].questions[0].composite; // mean of the non-null composites
 * ```
 */
export function groupRecords(
  records: readonly AiEvalRecord[],
  options: { root?: string; prebuilt?: PrebuiltQuestions | undefined } = {},
): TargetGroup[] {
  const targets = new Map<string, Bucket>();
  const files = new Map<string, string>();
  for (const record of records) {
    if (record.kind === 'filter-skip' || record.kind === 'disabled') continue;
    let file = files.get(record.test.file);
    if (file === undefined) {
      file = relativeTo(record.test.file, options.root);
      files.set(record.test.file, file);
    }
    const test = { file, name: record.test.name };
    const name = record.target?.name ?? file;
    let target = targets.get(name);
    if (!target) {
      target = { declared: null, lastMerged: null, byQuestion: new Map(), negated: [], loadFailures: [] };
      targets.set(name, target);
    }
    // Merging a declaration again changes nothing (mergeDeclared is idempotent).
    if (record.target && record.target !== target.lastMerged) {
      target.declared = mergeDeclared(target.declared, record.target);
      target.lastMerged = record.target;
    }
    if (record.kind === 'load-failure') {
      const { suite, dataset, problems } = record;
      target.loadFailures.push({ suite, dataset: dataset.ref, test, problems: [...problems] });
      continue;
    }
    if (record.negated === true) {
      target.negated.push({ ...record, test });
      continue;
    }
    // The records go in as they are; a question's test (its file relative to root) is made once.
    const key = questionKey(record.question, file);
    let list = target.byQuestion.get(key);
    if (list === undefined) target.byQuestion.set(key, (list = []));
    list.push(record);
  }
  const testOf = (record: EvalRecord) => ({ file: files.get(record.test.file)!, name: record.test.name });
  // Questions built while the run went on, when they were built from these very records.
  const prebuilt = options.prebuilt?.root === options.root ? options.prebuilt : undefined;
  const question = (list: EvalRecord[]): QuestionReport =>
    prebuilt?.take(list) ?? buildQuestion(list, testOf);
  return [...targets.entries()]
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, { declared, byQuestion, negated, loadFailures }]) => ({
      name,
      declared,
      questions: [...byQuestion.values()].map(question).sort(compareQuestions),
      negated: negated.map(negatedOf).sort(compareNegated),
      loadFailures: loadFailures.sort(compareLoadFailures),
    }));
}

/**
 * The questions of finished tests, built while the run goes on, so that the report at its end
 * builds only what changed since: a reporter adds each test's records when the test finishes, and
 * {@link groupRecords} takes a question built here only when its records at the end are the very
 * same record objects, in the same order (a question whose records were added to later, or came
 * again, is built afresh). Each built question is taken at most once. `root` must be the root the
 * report is grouped with; another root uses none of them.
 *
 * @example
 * ```ts
 * const prebuilt = new PrebuiltQuestions(root);
 * prebuilt.add(recordsOfOneTest); // as each test finishes
 * groupRecords(allRecords, { root, prebuilt }); // at the end
 * ```
 */
export class PrebuiltQuestions {
  /** The root the questions' test files are made relative to. */
  readonly root: string | undefined;
  /** Built questions by the first of the records they were built from. */
  readonly #byFirst = new WeakMap<EvalRecord, { records: readonly EvalRecord[]; question: QuestionReport }>();
  /** Each test file made relative to the root, once (a suite's questions share one file). */
  readonly #files = new Map<string, string>();

  constructor(root: string | undefined) {
    this.root = root;
  }

  /** Builds the questions of `records` (one test's, as it finished) now. */
  add(records: readonly AiEvalRecord[]): void {
    // Grouped as groupRecords groups them (negated assertions and suite records are not questions).
    const lists = new Map<string, EvalRecord[]>();
    for (const record of records) {
      if (record.kind !== 'grade' || record.negated === true) continue;
      const key = `${record.target?.name ?? ''}\u0000${questionKey(record.question, record.test.file)}`;
      let list = lists.get(key);
      if (list === undefined) lists.set(key, (list = []));
      list.push(record);
    }
    const testOf = (record: EvalRecord) => {
      let file = this.#files.get(record.test.file);
      if (file === undefined)
        this.#files.set(record.test.file, (file = relativeTo(record.test.file, this.root)));
      return { file, name: record.test.name };
    };
    for (const list of lists.values())
      this.#byFirst.set(list[0]!, { records: list, question: buildQuestion(list, testOf) });
  }

  /** The question built from exactly `records`, if any (given once). */
  take(records: readonly EvalRecord[]): QuestionReport | undefined {
    const first = records[0];
    if (first === undefined) return undefined;
    const built = this.#byFirst.get(first);
    if (built === undefined || built.records.length !== records.length) return undefined;
    for (let i = 0; i < records.length; i++) if (built.records[i] !== records[i]) return undefined;
    this.#byFirst.delete(first);
    return built.question;
  }
}

/**
 * The suites the environment filters left without a question, sorted by suite and file.
 *
 * @example
 * ```ts
 * skippedSuites(records, { root }).map((s) => s.suite); // ['billing', 'refunds']
 * ```
 */
export function skippedSuites(
  records: readonly AiEvalRecord[],
  options: { root?: string } = {},
): SkippedSuiteReport[] {
  const out: SkippedSuiteReport[] = [];
  for (const r of records) {
    if (r.kind !== 'filter-skip') continue;
    const test = { file: relativeTo(r.test.file, options.root), name: r.test.name };
    out.push({ suite: r.suite, target: r.target.name, dataset: r.dataset.ref, test, filters: r.filters });
  }
  return out.sort(compareLoadFailures);
}

/**
 * The disabled questions of the run's suites, sorted by target, question and file.
 *
 * @example
 * ```ts
 * disabledQuestions(records, { root }).map((d) => d.question); // ['old-question']
 * ```
 */
export function disabledQuestions(
  records: readonly AiEvalRecord[],
  options: { root?: string } = {},
): DisabledQuestionReport[] {
  const out: DisabledQuestionReport[] = [];
  for (const r of records) {
    if (r.kind !== 'disabled') continue;
    const test = { file: relativeTo(r.test.file, options.root), name: r.test.name };
    out.push({ target: r.target.name, suite: r.suite, dataset: r.dataset.ref, question: r.question, test });
  }
  return out.sort(compareDisabled);
}

/**
 * The order of disabled questions in a report: by target, question id, then test file.
 *
 * @example
 * ```ts
 * disabled.sort(compareDisabled);
 * ```
 */
export function compareDisabled(a: DisabledQuestionReport, b: DisabledQuestionReport): number {
  return (
    compareNames(a.target, b.target) ||
    compareNames(a.question, b.question) ||
    compareNames(a.test.file, b.test.file)
  );
}

/**
 * The key a question is pooled under within its target: id and test file.
 *
 * @example
 * ```ts
 * questionKey('q1', 'test/a.test.ts') === questionKey('q1', 'test/b.test.ts'); // false
 * ```
 */
export function questionKey(id: string, file: string): string {
  return `${id}\u0000${file}`;
}

/**
 * The order of questions in a report: by id, then by test file.
 *
 * @example
 * ```ts
 * questions.sort(compareQuestions);
 * ```
 */
export function compareQuestions(
  a: Pick<QuestionReport, 'id' | 'test'>,
  b: Pick<QuestionReport, 'id' | 'test'>,
): number {
  return compareNames(a.id, b.id) || compareNames(a.test.file, b.test.file);
}

/**
 * The order of negated assertions: by question, test file, grader and test name.
 *
 * @example
 * ```ts
 * negated.sort(compareNegated);
 * ```
 */
export function compareNegated(a: NegatedReport, b: NegatedReport): number {
  return (
    compareNames(a.question, b.question) ||
    compareNames(a.test.file, b.test.file) ||
    compareNames(a.grader, b.grader) ||
    compareNames(a.test.name, b.test.name)
  );
}

/**
 * The order of load failures (and skipped suites): by suite name, then test file.
 *
 * @example
 * ```ts
 * loadFailures.sort(compareLoadFailures);
 * ```
 */
export function compareLoadFailures(
  a: { suite: string; test: { file: string } },
  b: { suite: string; test: { file: string } },
): number {
  return compareNames(a.suite, b.suite) || compareNames(a.test.file, b.test.file);
}

function copyTarget(t: RecordTarget): RecordTarget {
  return { ...t, graders: [...t.graders], actionObserving: [...t.actionObserving] };
}

/**
 * Two matchers may name the same target with different graders: the target runs every one of
 * them. Graders and action-observing graders are the union (sorted when the lists differ); mode, gate,
 * threshold and scoreBy come from the first declaration, except that `agent` wins over `chat`.
 *
 * @example
 * ```ts
 * mergeDeclared(formatOnly, toolUsageOnly).actionObserving; // ['tool_usage_grader']
 * ```
 */
export function mergeDeclared(into: RecordTarget | null, next: RecordTarget): RecordTarget {
  if (!into) return copyTarget(next);
  // One declaration's order stands; a union of different lists is sorted, so it does not depend
  // on which test ran first.
  const union = (a: readonly string[], b: readonly string[]): string[] =>
    a.length === b.length && b.every((id) => a.includes(id))
      ? [...a]
      : [...new Set([...a, ...b])].sort(compareNames);
  return {
    ...into,
    mode: into.mode === 'agent' || next.mode === 'agent' ? 'agent' : into.mode,
    graders: union(into.graders, next.graders),
    actionObserving: union(into.actionObserving, next.actionObserving),
  };
}

/**
 * Natural order.
 *
 * @example
 * ```ts
 * ['q10', 'q2'].sort(compareNames); // ['q2', 'q10']
 * ```
 */
export function compareNames(a: string, b: string): number {
  return compareNatural(a, b);
}

function relativeTo(file: string, root: string | undefined): string {
  const norm = file.replace(/\\/g, '/');
  if (!root) return norm;
  const base = root.replace(/\\/g, '/').replace(/\/$/, '') + '/';
  return norm.startsWith(base) ? norm.slice(base.length) : norm;
}

function toGrade(record: EvalRecord): GradeReport {
  const grade = recordedGrade(record);
  grade.reason = redactText(record.reason);
  return grade;
}

const trialOrder = (a: EvalRecord, b: EvalRecord): number => a.trial - b.trial || a.at - b.at;

/** The records in trial order (then time), copied and sorted only when they are not in it already. */
function byTrial(records: readonly EvalRecord[]): readonly EvalRecord[] {
  for (let i = 1; i < records.length; i++)
    if (trialOrder(records[i - 1]!, records[i]!) > 0) return [...records].sort(trialOrder);
  return records;
}

function buildQuestion(
  records: EvalRecord[],
  testOf: (record: EvalRecord) => { file: string; name: string },
): QuestionReport {
  const sorted = records.length > 1 ? byTrial(records) : records;
  const first = sorted[0] as EvalRecord;
  const dataset = sorted.find((r) => r.dataset)?.dataset?.ref;
  const question = questionFromGrades(
    first.question,
    testOf(first),
    first.passThreshold,
    sorted.map(toGrade),
    dataset,
  );
  const evidence = evidenceByTrial(sorted);
  if (evidence.length > 0) question.evidence = evidence;
  return question;
}

/** What each trial's graders were shown: the first record of the trial that carries it. */
function evidenceByTrial(sorted: readonly EvalRecord[]): TrialEvidence[] {
  const out: TrialEvidence[] = [];
  for (const r of sorted) {
    if (r.evidence === undefined || out.some((e) => e.trial === r.trial)) continue;
    // Key by key, in the record's order (a spread costs several times as much on Node 20).
    const { response, toolCalls, omittedCalls } = r.evidence;
    const evidence: TrialEvidence = { trial: r.trial, response, toolCalls };
    if (omittedCalls !== undefined) evidence.omittedCalls = omittedCalls;
    out.push(evidence);
  }
  return out;
}

function negatedOf(record: EvalRecord): NegatedReport {
  const grades = [toGrade(record)];
  const verdict = negatedVerdict(grades, record.passThreshold);
  return {
    question: record.question,
    test: record.test,
    grader: record.grader,
    composite: verdict.composite,
    passThreshold: record.passThreshold,
    passed: verdict.passed,
    grades,
  };
}

/**
 * Builds a question's verdict from its grades with `questionVerdict`: per trial the mean of the
 * non-null composites, then the mean over the scored trials; passed at or above the threshold;
 * degraded when a grade errored; errored when nothing scored it because something errored; trials,
 * pass@k and pass^k when it ran more than once. `ai-eval merge` reuses it.
 *
 * @example
 * ```ts
 * const q = questionFromGrades('q1', { file: 'a.test.ts', name: 'q1' }, 3.5, grades);
 * q.passed; // composite >= 3.5 and not degraded
 * ```
 */
export function questionFromGrades(
  id: string,
  test: { file: string; name: string },
  passThreshold: number,
  grades: GradeReport[],
  dataset?: string,
): QuestionReport {
  const verdict = questionVerdict(grades, passThreshold);
  // Key by key, `dataset` after `test` when there is one (a conditional spread costs several times
  // as much on Node 20).
  const question = { id, test } as QuestionReport;
  if (dataset !== undefined) question.dataset = dataset;
  question.composite = verdict.composite;
  question.passThreshold = passThreshold;
  question.passed = verdict.passed;
  question.degraded = verdict.degraded;
  question.unscored = verdict.unscored;
  question.errored = verdict.errored;
  question.grades = grades;
  if (verdict.trialComposites.length > 1)
    question.trials = trialsOf(verdict.trialComposites, verdict.trialPasses);
  return question;
}

function trialsOf(trialComposites: Array<number | null>, passes: boolean[]): TrialsReport {
  const scored = trialComposites.filter((c): c is number => c !== null);
  const avg = mean(scored);
  return {
    count: trialComposites.length,
    composites: trialComposites,
    mean: avg,
    stdev: avg === null ? null : Math.sqrt(scored.reduce((s, c) => s + (c - avg) ** 2, 0) / scored.length),
    min: scored.length ? Math.min(...scored) : null,
    max: scored.length ? Math.max(...scored) : null,
    passAtK: passes.some(Boolean),
    passHatK: passes.every(Boolean),
  };
}
