import { formatNumber } from '../internal/numbers.js';

/**
 * Maps a score on a grader's declared scale onto the composite 0 to 5 scale:
 * `5 * (score - min) / (max - min)`. A `null` score (skip or error) stays `null`.
 *
 * @example
 * ```ts
 * toComposite(1, 0, 1); // 5: a binary pass
 * toComposite(4, 0, 5); // 4: a gradient score passes through
 * ```
 */
export function toComposite(score: number | null, min: number, max: number): number | null {
  if (score === null) return null;
  const clamped = Math.min(max, Math.max(min, score));
  return (5 * (clamped - min)) / (max - min);
}

/**
 * True when a grader's scale is binary (exactly 0 to 1).
 *
 * @example
 * ```ts
 * isBinaryScale(0, 1); // true
 * isBinaryScale(0, 5); // false
 * ```
 */
export function isBinaryScale(min: number, max: number): boolean {
  return min === 0 && max === 1;
}

/**
 * The label a grader shows in messages and reports: its label followed by its scale.
 *
 * @example
 * ```ts
 * scaleLabel('Read-only run', 0, 1); // 'Read-only run (binary, 0-1)'
 * scaleLabel('Accuracy', 0, 5); // 'Accuracy (0-5)'
 * ```
 */
export function scaleLabel(label: string, min: number, max: number): string {
  const range = `${formatNumber(min)}-${formatNumber(max)}`;
  return isBinaryScale(min, max) ? `${label} (binary, ${range})` : `${label} (${range})`;
}
