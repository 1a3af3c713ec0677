import { plural } from '../internal/text.js';
import { compareNatural, comparePlain } from '../internal/collate.js';
import { coverageDetail, failsRun, fmt, pct, scoredOf } from './gates.js';
import type { Coverage, EvalReport, QuestionReport, RunVerdict, TargetReport } from './model.js';

/**
 * The verdict as one word for a headline.
 *
 * @example
 * ```ts
 * VERDICT_WORDS.incomplete; // 'INCOMPLETE'
 * ```
 */
export const VERDICT_WORDS: Record<RunVerdict, string> = {
  passed: 'PASSED',
  failed: 'FAILED',
  incomplete: 'INCOMPLETE',
  ungated: 'NO GATE',
  partial: 'PARTIAL',
};

/**
 * The figures of the run in one line: targets, questions, the average with the coverage beside it,
 * pass rate, errors and degraded questions.
 *
 * @example
 * ```ts
 * figuresLine(report); // '3 targets, 6 questions, average 5.00 over 1 of 6 scored, 17% passed, 5 errors, 5 degraded'
 * ```
 */
export function figuresLine(report: EvalReport): string {
  const n = report.questionCount;
  return [
    plural(report.targetCount, 'target'),
    plural(n, 'question'),
    `average ${fmt(report.averageScore)} over ${scoredOf(report.coverage)}`,
    `${pct(report.passRate)} passed`,
    plural(report.errorCount, 'error'),
    `${report.degradedCount} degraded`,
  ].join(', ');
}

/**
 * The coverage in a headline: `all 5 planned questions scored`, or what happened to the rest.
 *
 * @example
 * ```ts
 * coverageSentence(report.coverage); // '1 of 6 planned questions scored, 5 errored'
 * ```
 */
export function coverageSentence(coverage: Coverage): string {
  if (coverage.planned === 0) return 'no question was planned';
  if (coverage.scored === coverage.planned)
    return coverage.planned === 1
      ? 'the 1 planned question scored'
      : `all ${coverage.planned} planned questions scored`;
  return coverageDetail(coverage);
}

/**
 * The failed tests in a headline; `undefined` when the runner did not say.
 *
 * @example
 * ```ts
 * testsSentence(report); // '5 tests failed'
 * ```
 */
export function testsSentence(report: Pick<EvalReport, 'failedTests'>): string | undefined {
  if (report.failedTests === null) return undefined;
  return report.failedTests === 0 ? 'no test failed' : `${plural(report.failedTests, 'test')} failed`;
}

/**
 * The gates in a headline: none configured, failed (with their messages), deferred, or passed.
 *
 * @example
 * ```ts
 * gatesSentence(report); // '1 hard gate failed: run: coverage 17% (...) is below the minimum 100%'
 * ```
 */
export function gatesSentence(report: EvalReport, withMessages = true): string {
  if (report.gates.length === 0) return 'no gate configured';
  const failed = report.gates.filter(failsRun);
  if (failed.length > 0) {
    const head = `${plural(failed.length, 'hard gate')} failed`;
    return withMessages ? `${head}: ${failed.map((g) => g.message).join('; ')}` : head;
  }
  const deferred = report.gates.filter((g) => g.deferred === true).length;
  const warned = report.gates.filter((g) => g.level === 'soft' && !g.passed).length;
  const parts = [
    deferred ? `${plural(deferred, 'hard gate verdict')} deferred to ai-eval merge` : 'no hard gate failed',
    warned ? `${plural(warned, 'soft gate')} warned` : '',
  ].filter((p) => p !== '');
  return parts.join(', ');
}

/**
 * The run's verdict in one sentence, as the terminal, Markdown and JUnit summaries give it: the
 * verdict, then failed tests, coverage and gates.
 *
 * @example
 * ```ts
 * verdictSentence(report); // 'FAILED: 5 tests failed; 1 of 6 planned questions scored, 5 errored; 1 hard gate failed: ...'
 * ```
 */
export function verdictSentence(report: EvalReport, withMessages = true): string {
  const shard = report.partial ? `shard ${report.partial.shard.index} of ${report.partial.shard.count}` : '';
  const parts = [
    shard,
    testsSentence(report) ?? '',
    coverageSentence(report.coverage),
    gatesSentence(report, withMessages),
  ].filter((p) => p !== '');
  return `${VERDICT_WORDS[report.verdict]}: ${parts.join('; ')}`;
}

/**
 * Whether a question belongs among the weakest: it did not pass, or it degraded or went unscored.
 *
 * @example
 * ```ts
 * target.questions.filter(isWeak);
 * ```
 */
export function isWeak(question: QuestionReport): boolean {
  return !question.passed || question.degraded || question.unscored;
}

/**
 * The weakest questions of a report: only those that did not pass (or degraded or went
 * unscored), unscored first, then by composite, then by name.
 *
 * @example
 * ```ts
 * weakestQuestions(report, 3).map(({ question }) => question.id);
 * ```
 */
export function weakestQuestions(
  report: EvalReport,
  count: number,
): Array<{ target: TargetReport; question: QuestionReport }> {
  const weak: Array<{ target: TargetReport; question: QuestionReport }> = [];
  for (const target of report.targets)
    for (const question of target.questions) if (isWeak(question)) weak.push({ target, question });
  if (count > SELECT_UP_TO) return weak.sort(byWeakness).slice(0, count);
  // The first `count` of a stable sort, without sorting the rest: an equal item goes after the
  // ones already kept, as the sort would put it.
  const kept: typeof weak = [];
  for (const item of weak) {
    if (kept.length >= count && (count <= 0 || byWeakness(item, kept[kept.length - 1]!) >= 0)) continue;
    let at = kept.length;
    while (at > 0 && byWeakness(item, kept[at - 1]!) < 0) at -= 1;
    kept.splice(at, 0, item);
    if (kept.length > count) kept.pop();
  }
  return kept;
}

/** Up to how many weakest questions are picked without sorting them all. */
const SELECT_UP_TO = 100;

/** Unscored first, then by composite, target, question id (natural order) and test file. */
function byWeakness(
  a: { target: TargetReport; question: QuestionReport },
  b: { target: TargetReport; question: QuestionReport },
): number {
  return (
    (a.question.composite ?? -1) - (b.question.composite ?? -1) ||
    comparePlain(a.target.name, b.target.name) ||
    compareNatural(a.question.id, b.question.id) ||
    comparePlain(a.question.test.file, b.question.test.file)
  );
}
