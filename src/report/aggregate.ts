import { recordedGrade, type EvalRecord, type RecordTarget } from '../run/record-types.js';
import { redactText } from './redact.js';
import { questionVerdict } from '../grading/verdict.js';
import { mean } from '../internal/numbers.js';
import type { GradeReport, JudgeTokens, QuestionReport, Totals, TrialsReport } from './model.js';

/** A target as the records describe it, with its questions grouped. */
export interface TargetGroup {
  name: string;
  declared: RecordTarget | null;
  questions: QuestionReport[];
}

/**
 * Groups records into targets and questions, purely. A record's target is its `target`, else a
 * target named after its test file (`file`, relative to `root` when given). Questions are keyed by
 * target and question id; their grades keep their trial numbers. Targets and questions are sorted
 * by name, so shards merged later give the same order as one run.
 *
 * @example
 * ```ts
 * const groups = groupRecords(records, { root: process.cwd() });
 * groups[0].questions[0].composite; // mean of the non-null composites
 * ```
 */
export function groupRecords(records: readonly EvalRecord[], options: { root?: string } = {}): TargetGroup[] {
  const targets = new Map<string, { declared: RecordTarget | null; byQuestion: Map<string, EvalRecord[]> }>();
  for (const record of records) {
    const file = relativeTo(record.test.file, options.root);
    const name = record.target?.name ?? file;
    let target = targets.get(name);
    if (!target) {
      target = { declared: record.target ? copyTarget(record.target) : null, byQuestion: new Map() };
      targets.set(name, target);
    }
    if (record.target) target.declared = mergeDeclared(target.declared, record.target);
    const list = target.byQuestion.get(record.question) ?? [];
    list.push({ ...record, test: { file, name: record.test.name } });
    target.byQuestion.set(record.question, list);
  }
  return [...targets.entries()]
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, { declared, byQuestion }]) => ({
      name,
      declared,
      questions: [...byQuestion.entries()]
        .sort(([a], [b]) => compareNames(a, b))
        .map(([id, list]) => buildQuestion(id, list)),
    }));
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
  return a.localeCompare(b, 'en', { numeric: true });
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

function buildQuestion(id: string, records: EvalRecord[]): QuestionReport {
  const sorted = [...records].sort((a, b) => a.trial - b.trial || a.at - b.at);
  const first = sorted[0] as EvalRecord;
  return questionFromGrades(id, first.test, first.passThreshold, sorted.map(toGrade));
}

/**
 * Builds a question's verdict from its grades: per trial the mean of the non-null composites,
 * then the mean over the scored trials; passed at or above the threshold; degraded when a grade
 * errored; trials, pass@k and pass^k when it ran more than once. `ai-eval merge` reuses it.
 *
 * @example
 * ```ts
 * const q = questionFromGrades('q1', { file: 'a.test.ts', name: 'q1' }, 3.5, grades);
 * q.passed; // composite >= 3.5
 * ```
 */
export function questionFromGrades(
  id: string,
  test: { file: string; name: string },
  passThreshold: number,
  grades: GradeReport[],
): QuestionReport {
  const verdict = questionVerdict(grades, passThreshold);
  const question: QuestionReport = {
    id,
    test,
    composite: verdict.composite,
    passThreshold,
    passed: verdict.passed,
    degraded: verdict.degraded,
    unscored: verdict.unscored,
    grades,
  };
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

/**
 * Summarises questions: average of the scored composites, pass rate, errors, degraded, unscored,
 * judge tokens, and pass@k / pass^k over the questions that ran several trials.
 *
 * @example
 * ```ts
 * totalsOf(questions).passRate; // 0.75
 * ```
 */
export function totalsOf(questions: readonly QuestionReport[]): Totals {
  const tokens: JudgeTokens = { prompt: 0, completion: 0, total: 0 };
  for (const q of questions)
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
    errorCount: questions.reduce((n, q) => n + q.grades.filter((g) => g.error).length, 0),
    degradedCount: questions.filter((q) => q.degraded).length,
    unscoredCount: questions.filter((q) => q.unscored).length,
    judgeTokens: tokens,
  };
  if (multi.length > 0) {
    totals.passAtK = multi.filter((q) => q.trials?.passAtK).length / multi.length;
    totals.passHatK = multi.filter((q) => q.trials?.passHatK).length / multi.length;
  }
  return totals;
}
