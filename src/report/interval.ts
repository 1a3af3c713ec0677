/**
 * A two-sided interval.
 *
 * @example
 * ```ts
 * const { low, high }: Interval = wilsonInterval(8, 10);
 * ```
 */
export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

/**
 * The Wilson score interval of a proportion: `successes` of `n`, at `z` (default 95%).
 *
 * @example
 * ```ts
 * wilsonInterval(8, 10); // { low: 0.490..., high: 0.943... }
 * ```
 */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): Interval {
  if (!(n > 0) || successes < 0 || successes > n)
    throw new RangeError(`wilsonInterval: ${successes} of ${n}`);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Newcombe's hybrid score interval (his method 10, 1998) for the difference of two independent
 * proportions `x1/n1 - x2/n2`, built from the two Wilson intervals. An interval that excludes 0 says
 * the difference is beyond noise at that level.
 *
 * @example
 * ```ts
 * newcombeInterval(56, 70, 48, 80); // { low: 0.0524..., high: 0.3339... } (Newcombe's example)
 * ```
 */
export function newcombeInterval(x1: number, n1: number, x2: number, n2: number, z: number = Z_95): Interval {
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const a = wilsonInterval(x1, n1, z);
  const b = wilsonInterval(x2, n2, z);
  const d = p1 - p2;
  return {
    low: d - Math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2),
    high: d + Math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2),
  };
}
