import { formatNumber } from '../internal/numbers.js';
import type { GradeResult } from '../grading/types.js';

/** What {@link gradeMessage} needs to explain one grade. */
export interface GradeMessageInput {
  /** The runner's matcher hint, for example `expect(received).toPassGrader(grader)`. */
  hint: string;
  /** The grader's label with its scale, for example `Read-only run (binary, 0-1)`. */
  label: string;
  grade: GradeResult;
  /** The composite the grade had to reach. */
  threshold: number;
  /** The assertion was negated with `.not`. */
  isNot: boolean;
}

/** How a grade that could not be checked reads, by kind. */
function headline(grade: GradeResult, isNot: boolean): string {
  if (grade.error)
    return 'The grader could not grade the response, so nothing was checked. An error never passes, not even under .not.';
  if (grade.skipped)
    return 'The grader did not apply, so nothing was checked. A skip never passes, not even under .not.';
  return isNot
    ? 'Expected the grade to stay below the threshold, but it reached it.'
    : 'Expected the grade to reach the threshold, but it fell short.';
}

function score(grade: GradeResult): string {
  if (grade.error) return 'error (no score)';
  if (grade.skipped || grade.score === null || grade.composite === null) return 'skipped (no score)';
  return `${formatNumber(grade.score)} (composite ${formatNumber(grade.composite)} of 5)`;
}

/**
 * The one failure message of the ai-eval matchers: matcher hint, a headline, the grader label with
 * its scale, score and composite, the threshold and the grader's reason.
 *
 * @example
 * ```ts
 * gradeMessage({ hint: 'expect(received).toPassGrader(grader)', label: 'Read-only run (binary, 0-1)',
 *   grade: readOnlyRun.result(0, 'called node_delete'), threshold: 3.5, isNot: false });
 * ```
 */
export function gradeMessage({ hint, label, grade, threshold, isNot }: GradeMessageInput): string {
  const verdict = !grade.error && !grade.skipped;
  return [
    hint,
    '',
    headline(grade, isNot),
    '',
    `Grader:    ${label}`,
    `Score:     ${score(grade)}`,
    `Threshold: composite ${verdict && isNot ? '<' : '>='} ${formatNumber(threshold)}`,
    `Reason:    ${grade.reason}`,
  ].join('\n');
}
