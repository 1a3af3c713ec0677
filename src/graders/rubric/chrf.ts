/**
 * chrF as sacreBLEU defines it (Popović 2015; sacreBLEU's `CHRF` with its defaults): character
 * n-grams of orders 1 to 6, whitespace removed before counting, beta 2 (recall weighs twice as
 * much as precision). For each order with n-grams on both sides, precision and recall are the
 * clipped n-gram matches over the hypothesis and reference counts; both are averaged over those
 * orders, and the score is `(1 + beta²) P R / (beta² P + R)`. Returns 0 to 1 (sacreBLEU prints it
 * times 100); 0 when no order has n-grams on both sides.
 *
 * @example
 * ```ts
 * chrf('ab', 'abc'); // 7/11: P = 1, R = (2/3 + 1/2) / 2
 * chrf('same text', 'same text'); // 1
 * ```
 */
export function chrf(hypothesis: string, reference: string, order = 6, beta = 2): number {
  const hyp = [...hypothesis.replace(/\s+/gu, '')];
  const ref = [...reference.replace(/\s+/gu, '')];
  let precision = 0;
  let recall = 0;
  let effective = 0;
  for (let n = 1; n <= order; n++) {
    const hypGrams = ngrams(hyp, n);
    const refGrams = ngrams(ref, n);
    const hypCount = hyp.length - n + 1;
    const refCount = ref.length - n + 1;
    if (hypCount <= 0 || refCount <= 0) continue;
    let common = 0;
    for (const [gram, count] of hypGrams) common += Math.min(count, refGrams.get(gram) ?? 0);
    precision += common / hypCount;
    recall += common / refCount;
    effective += 1;
  }
  if (effective === 0) return 0;
  precision /= effective;
  recall /= effective;
  if (precision + recall === 0) return 0;
  const b2 = beta * beta;
  return ((1 + b2) * precision * recall) / (b2 * precision + recall);
}

function ngrams(chars: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= chars.length; i++) {
    const gram = chars.slice(i, i + n).join('');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}
