import type { CombineMode } from '../../grading/rubric-types.js';

/** One executed check, as combining sees it: passed or not, its score (0 to 1) and weight. */
export interface CombinedCheck {
  pass: boolean;
  score: number;
  weight: number;
}

/**
 * Combines the outcomes of a rubric's executed checks into one value from 0 to 1: `all_pass` is 1
 * when every check passed, `any_pass` when one did (else 0); `weighted_avg` is the weighted mean of
 * the check scores; `min`, `max` and `median` take the scores unweighted (the median of an even
 * count is the mean of the middle two).
 *
 * @example
 * ```ts
 * combineChecks('weighted_avg', [{ pass: true, score: 1, weight: 3 }, { pass: false, score: 0, weight: 1 }]); // 0.75
 * ```
 */
export function combineChecks(mode: CombineMode, checks: readonly CombinedCheck[]): number {
  if (checks.length === 0) return 0;
  const scores = checks.map((c) => c.score);
  switch (mode) {
    case 'all_pass':
      return checks.every((c) => c.pass) ? 1 : 0;
    case 'any_pass':
      return checks.some((c) => c.pass) ? 1 : 0;
    case 'weighted_avg': {
      const total = checks.reduce((sum, c) => sum + c.weight, 0);
      return checks.reduce((sum, c) => sum + c.score * c.weight, 0) / total;
    }
    case 'min':
      return Math.min(...scores);
    case 'max':
      return Math.max(...scores);
    case 'median': {
      const sorted = [...scores].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    }
  }
}

/**
 * Whether a combine mode is numeric (it reads scores and may have a pass threshold).
 *
 * @example
 * ```ts
 * isNumericMode('median'); // true
 * ```
 */
export function isNumericMode(mode: CombineMode): boolean {
  return mode !== 'all_pass' && mode !== 'any_pass';
}
