/**
 * Agreement statistics for judge validation and the report: Wilson intervals, Cohen's kappa,
 * quadratic weighted kappa, Spearman's rho, Cochran's sample size and the Rogan-Gladen correction.
 * Pure functions; each returns `null` where the figure is undefined (no data, no variance).
 */

/** The two-sided 95% normal quantile. */
export const Z95 = 1.959963984540054;

/** A closed interval. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval of `successes` out of `n` (Wilson 1927), `null` when `n` is 0.
 *
 * @example
 * ```ts
 * wilson(81, 263); // { low: 0.2553, high: 0.3662 } (rounded)
 * ```
 */
export function wilson(successes: number, n: number, z: number = Z95): Interval | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Cohen's kappa of a square agreement table (`table[i][j]`: rater A said i, rater B said j),
 * `null` when the table is empty or chance agreement is 1.
 *
 * @example
 * ```ts
 * cohenKappa([[20, 5], [10, 15]]); // 0.4
 * ```
 */
export function cohenKappa(table: readonly (readonly number[])[]): number | null {
  return weightedKappa(table, (i, j) => (i === j ? 0 : 1));
}

/**
 * Quadratic weighted kappa (Cohen 1968) of two lists of integer ratings on `min..max`, `null`
 * when there are none or expected disagreement is 0 (both raters constant).
 *
 * @example
 * ```ts
 * quadraticWeightedKappa([9, 7, 8, 7, 6, 8, 3, 5, 10], [8, 8, 6, 6, 7, 6, 1, 4, 8], 1, 10); // 0.7586...
 * ```
 */
export function quadraticWeightedKappa(
  a: readonly number[],
  b: readonly number[],
  min: number,
  max: number,
): number | null {
  const k = max - min + 1;
  if (a.length === 0 || a.length !== b.length || k < 2) return null;
  const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < a.length; i++) {
    const row = Math.round(a[i]!) - min;
    const col = Math.round(b[i]!) - min;
    table[row]![col]! += 1;
  }
  return weightedKappa(table, (i, j) => ((i - j) * (i - j)) / ((k - 1) * (k - 1)));
}

function weightedKappa(
  table: readonly (readonly number[])[],
  weight: (i: number, j: number) => number,
): number | null {
  const k = table.length;
  let n = 0;
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const c = table[i]![j] ?? 0;
      n += c;
      rows[i]! += c;
      cols[j]! += c;
    }
  if (n === 0) return null;
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const w = weight(i, j);
      observed += (w * (table[i]![j] ?? 0)) / n;
      expected += (w * rows[i]! * cols[j]!) / (n * n);
    }
  if (expected === 0) return null;
  return 1 - observed / expected;
}

/** Ranks (1-based), ties given the mean of the ranks they span. */
function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((x, y) => x[0] - y[0]);
  const out = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]![0] === order[start]![0]) end++;
    const rank = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) out[order[i]![1]] = rank;
    start = end + 1;
  }
  return out;
}

/**
 * Spearman's rank correlation: Pearson's r of the ranks (ties share their mean rank), `null` with
 * fewer than two pairs or when either side is constant.
 *
 * @example
 * ```ts
 * spearman([1, 2, 3], [1, 3, 2]); // 0.5
 * ```
 */
export function spearman(a: readonly number[], b: readonly number[]): number | null {
  if (a.length < 2 || a.length !== b.length) return null;
  const ra = ranks(a);
  const rb = ranks(b);
  const mean = (ra.length + 1) / 2;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < ra.length; i++) {
    const da = ra[i]! - mean;
    const db = rb[i]! - mean;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  if (saa === 0 || sbb === 0) return null;
  return sab / Math.sqrt(saa * sbb);
}

/**
 * Cochran's sample size for estimating a proportion: `z² p (1 - p) / e²`, rounded up. With no
 * estimate of `p`, 0.5 (the largest).
 *
 * @example
 * ```ts
 * cochranSampleSize({ margin: 0.05 }); // 385
 * ```
 */
export function cochranSampleSize(options: { margin: number; p?: number; z?: number }): number {
  const p = options.p ?? 0.5;
  const z = options.z ?? Z95;
  return Math.ceil((z * z * p * (1 - p)) / (options.margin * options.margin) - 1e-9);
}

/**
 * The normal quantile of a two-sided confidence level (0.95 gives 1.96), by the Acklam
 * approximation (relative error below 1.2e-9).
 *
 * @example
 * ```ts
 * zForConfidence(0.95); // 1.959963...
 * ```
 */
export function zForConfidence(confidence: number): number {
  return normalQuantile(1 - (1 - confidence) / 2);
}

function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/**
 * The Rogan-Gladen estimate of the true pass rate behind an observed one, given the judge's
 * measured TPR (sensitivity) and TNR (specificity): `(p + TNR - 1) / (TPR + TNR - 1)`, clamped to
 * [0, 1]; `null` when `TPR + TNR <= 1` (the judge is no better than chance).
 *
 * @example
 * ```ts
 * roganGladen(0.7, 0.9, 0.8); // 0.7142857
 * ```
 */
export function roganGladen(p: number, tpr: number, tnr: number): number | null {
  const denominator = tpr + tnr - 1;
  if (denominator <= 0) return null;
  return Math.min(1, Math.max(0, (p + tnr - 1) / denominator));
}

/**
 * A conservative interval for {@link roganGladen}: the corrected rate at every corner of the
 * intervals of `p`, TPR and TNR (it is monotone in each), lowest to highest, clamped to [0, 1];
 * `[0, 1]` when a corner leaves the judge no better than chance.
 *
 * @example
 * ```ts
 * roganGladenInterval({ low: 0.6, high: 0.8 }, { low: 0.85, high: 0.95 }, { low: 0.75, high: 0.85 });
 * ```
 */
export function roganGladenInterval(p: Interval, tpr: Interval, tnr: Interval): Interval {
  let low = 1;
  let high = 0;
  for (const pp of [p.low, p.high])
    for (const se of [tpr.low, tpr.high])
      for (const sp of [tnr.low, tnr.high]) {
        const value = roganGladen(pp, se, sp);
        if (value === null) return { low: 0, high: 1 };
        low = Math.min(low, value);
        high = Math.max(high, value);
      }
  return { low, high };
}
