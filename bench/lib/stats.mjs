// Medians, ranges and verdicts of the benchmarks' interleaved pairs: pure, so the tests can check
// them (test/bench/stats.test.ts) without measure.mjs's side effects (it exposes V8's gc).

/** The median of a list of numbers. */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** `1.23 (1.10-1.31)`: median and range. */
export function spread(values, digits = 2) {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return `${median(values).toFixed(digits)} (${lo.toFixed(digits)}-${hi.toFixed(digits)})`;
}

/**
 * The verdict on "at most `target`x" from per-pair ratios: `met` or `not met` by their median, with
 * the median; when the pairs fall on both sides of the target, it says so, since on a shared
 * machine such a run alone cannot tell (docs/benchmarks.md).
 *
 *   verdict([1.05, 1.08, 1.14], 1.1) // 'met (1.08x; its pairs ran 1.05-1.14x, on both sides of 1.1x: this run alone cannot tell)'
 */
export function verdict(ratios, target) {
  const m = median(ratios);
  const lo = Math.min(...ratios);
  const hi = Math.max(...ratios);
  const split = straddles(lo, hi, target);
  return `${m <= target ? 'met' : 'not met'} (${m.toFixed(2)}x${
    split
      ? `; its pairs ran ${lo.toFixed(2)}-${hi.toFixed(2)}x, on both sides of ${target}x: this run alone cannot tell`
      : ''
  })`;
}

/** Whether a run's pairs, from `lo` to `hi`, fell on both sides of `target`: it alone cannot tell. */
export function straddles(lo, hi, target) {
  return lo <= target && hi > target;
}
