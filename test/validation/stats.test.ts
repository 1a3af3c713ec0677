import { describe, expect, it } from 'vitest';
import {
  cochranSampleSize,
  cohenKappa,
  quadraticWeightedKappa,
  roganGladen,
  roganGladenInterval,
  spearman,
  wilson,
  zForConfidence,
} from '../../src/internal/stats.js';

describe('agreement statistics against published values', () => {
  it('Wilson score intervals match Newcombe (1998), Table I, method 3 (score interval without continuity correction)', () => {
    // Newcombe RG. Two-sided confidence intervals for the single proportion: comparison of seven
    // methods. Statistics in Medicine 1998;17:857-872. Examples (i) to (iv).
    const cases: Array<[number, number, number, number]> = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];
    for (const [x, n, low, high] of cases) {
      const interval = wilson(x, n);
      expect(interval?.low).toBeCloseTo(low, 4);
      expect(interval?.high).toBeCloseTo(high, 4);
    }
    expect(wilson(0, 0)).toBeNull();
  });

  it("Cohen's kappa is 0.4 on Wikipedia's worked example (20 yes/yes, 5, 10, 15 no/no of 50)", () => {
    // https://en.wikipedia.org/wiki/Cohen%27s_kappa, "Simple example": p_o = 0.7, p_e = 0.5, kappa = 0.4.
    expect(
      cohenKappa([
        [20, 5],
        [10, 15],
      ]),
    ).toBeCloseTo(0.4, 10);
    // Perfect agreement is 1; a table that is all one cell has no chance-corrected figure.
    expect(
      cohenKappa([
        [3, 0],
        [0, 7],
      ]),
    ).toBeCloseTo(1, 10);
    expect(
      cohenKappa([
        [5, 0],
        [0, 0],
      ]),
    ).toBeNull();
  });

  it('quadratic weighted kappa matches the Maple EssayTools[QuadraticWeightedKappa] help examples', () => {
    // Maple help page, EssayTools/QuadraticWeightedKappa, Examples 1 and 2 (min and max from the data: 1..10).
    const a = [9, 7, 8, 7, 6, 8, 3, 5, 10];
    expect(quadraticWeightedKappa(a, [8, 8, 6, 6, 7, 6, 1, 4, 8], 1, 10)).toBeCloseTo(0.758620689655172, 12);
    expect(quadraticWeightedKappa(a, [3, 5, 6, 6, 7, 6, 1, 4, 8], 1, 10)).toBeCloseTo(0.438095238095238, 12);
    // Empty categories at either end change nothing.
    expect(quadraticWeightedKappa(a, [8, 8, 6, 6, 7, 6, 1, 4, 8], 0, 12)).toBeCloseTo(0.758620689655172, 12);
  });

  it("Spearman's rho is -29/165 on Wikipedia's IQ and television example", () => {
    // https://en.wikipedia.org/wiki/Spearman%27s_rank_correlation_coefficient, "Example": rho = -29/165 = -0.175757...
    const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
    expect(spearman(iq, tv)).toBeCloseTo(-29 / 165, 12);
    // Ties take their mean rank: [1, 2, 2] ranks as [1, 2.5, 2.5]; against [1, 2, 3] that is sqrt(3)/2.
    expect(spearman([1, 2, 2], [1, 2, 3])).toBeCloseTo(Math.sqrt(3) / 2, 12);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
  });

  it("Cochran's sample size is 385 for a 5% margin at 95% confidence and p = 0.5", () => {
    // Cochran WG. Sampling Techniques, 3rd ed. (1977): n0 = z^2 p q / e^2 = 1.96^2 * 0.25 / 0.0025 = 384.16, so 385.
    expect(cochranSampleSize({ margin: 0.05 })).toBe(385);
    // 1.96^2 * 0.25 / 0.01 = 96.04, so 97 for a 10% margin.
    expect(cochranSampleSize({ margin: 0.1 })).toBe(97);
    expect(zForConfidence(0.95)).toBeCloseTo(1.959964, 6);
    // The 99% two-sided quantile is 2.575829 (standard normal tables).
    expect(zForConfidence(0.99)).toBeCloseTo(2.575829, 5);
  });

  it('Rogan-Gladen: (p + TNR - 1) / (TPR + TNR - 1), clamped, and null for a judge no better than chance', () => {
    // Rogan WJ, Gladen B. Estimating prevalence from the results of a screening test. Am J Epidemiol 1978;107:71-76.
    // p = 0.7, Se = 0.9, Sp = 0.8: (0.7 + 0.8 - 1) / (0.9 + 0.8 - 1) = 0.5 / 0.7.
    expect(roganGladen(0.7, 0.9, 0.8)).toBeCloseTo(5 / 7, 12);
    expect(roganGladen(0.1, 0.9, 0.8)).toBe(0);
    expect(roganGladen(1, 0.9, 0.95)).toBe(1);
    expect(roganGladen(0.5, 0.5, 0.5)).toBeNull();
    const interval = roganGladenInterval(
      { low: 0.6, high: 0.8 },
      { low: 0.85, high: 0.95 },
      { low: 0.75, high: 0.85 },
    );
    expect(interval.low).toBeLessThan(5 / 7);
    expect(interval.high).toBeGreaterThan(5 / 7);
    expect(
      roganGladenInterval({ low: 0.6, high: 0.8 }, { low: 0.4, high: 0.9 }, { low: 0.5, high: 0.9 }),
    ).toEqual({
      low: 0,
      high: 1,
    });
  });
});
