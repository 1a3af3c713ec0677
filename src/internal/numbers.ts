/**
 * The arithmetic mean, or `null` for no values.
 *
 * @example
 * ```ts
 * mean([3, 5]); // 4
 * mean([]); // null
 * ```
 */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * A number for people: at most two decimals, no trailing zeros.
 *
 * @example
 * ```ts
 * formatNumber(4.5); // '4.5'
 * formatNumber(10 / 3); // '3.33'
 * ```
 */
export function formatNumber(n: number): string {
  return String(Math.round(n * 100) / 100);
}
