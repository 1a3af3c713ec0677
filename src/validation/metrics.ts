import { cohenKappa, quadraticWeightedKappa, spearman, wilson } from '../internal/stats.js';
import { rateOf, type JudgeMetrics } from '../report/judge-trust.js';

/**
 * One gold item as the judge graded it: the person's verdict and score, the judge's verdict and
 * score (`null` when the judge could not grade it: an error).
 *
 * @example
 * ```ts
 * const outcome: GoldOutcome = { label: 'pass', personScore: 5, judgePassed: true, judgeScore: 4 };
 * ```
 */
export interface GoldOutcome {
  label: 'pass' | 'fail';
  personScore?: number | undefined;
  /** `null` when the judge errored on (or skipped) the item. */
  judgePassed: boolean | null;
  judgeScore: number | null;
  /** The judge skipped the item as not applicable (rather than erroring). */
  skipped?: boolean;
}

/**
 * The agreement figures of one judge over its gold items: the confusion counts (errors counted
 * apart, never as agreement or disagreement), TPR, TNR and raw agreement with Wilson 95% intervals,
 * Cohen's kappa, and, over the items with a person's score, the mean absolute error, Spearman's rho
 * and the quadratic weighted kappa on the judge's scale (`min..max`, scores rounded to whole points).
 *
 * @example
 * ```ts
 * const metrics = judgeMetrics(outcomes, { min: 0, max: 5 });
 * metrics.tpr.value; // of the responses people passed, the share the judge passed
 * ```
 */
export function judgeMetrics(
  outcomes: readonly GoldOutcome[],
  scale: { min: number; max: number },
): JudgeMetrics {
  let tp = 0;
  let fn = 0;
  let fp = 0;
  let tn = 0;
  let errors = 0;
  let skipped = 0;
  const person: number[] = [];
  const judge: number[] = [];
  for (const o of outcomes) {
    if (o.judgePassed === null || o.judgeScore === null) {
      if (o.skipped) skipped += 1;
      else errors += 1;
      continue;
    }
    if (o.label === 'pass') {
      if (o.judgePassed) tp += 1;
      else fn += 1;
    } else if (o.judgePassed) fp += 1;
    else tn += 1;
    if (typeof o.personScore === 'number') {
      person.push(o.personScore);
      judge.push(o.judgeScore);
    }
  }
  const n = tp + fn + fp + tn;
  const round = (s: number) =>
    Math.min(Math.round(scale.max), Math.max(Math.round(scale.min), Math.round(s)));
  const lo = Math.round(scale.min);
  const hi = Math.round(scale.max);
  return {
    n,
    tp,
    fn,
    fp,
    tn,
    errors,
    skipped,
    tpr: rateOf(tp, tp + fn, wilson(tp, tp + fn)),
    tnr: rateOf(tn, tn + fp, wilson(tn, tn + fp)),
    agreement: rateOf(tp + tn, n, wilson(tp + tn, n)),
    kappa: cohenKappa([
      [tp, fn],
      [fp, tn],
    ]),
    scored: person.length,
    mae: person.length ? person.reduce((s, p, i) => s + Math.abs(p - judge[i]!), 0) / person.length : null,
    spearman: spearman(person, judge),
    qwk: hi > lo ? quadraticWeightedKappa(person.map(round), judge.map(round), lo, hi) : null,
  };
}
