import { describe, expect, it } from 'vitest';
import { newcombeInterval, wilsonInterval } from '../../src/report/interval.js';

describe('the intervals on pass shares', () => {
  it("match Newcombe's published hybrid score intervals (Statistics in Medicine 17, 1998, table II, method 10)", () => {
    // Independently published values, to four decimals: x1/n1 - x2/n2 -> [low, high].
    const table: Array<[number, number, number, number, number, number]> = [
      [56, 70, 48, 80, 0.0524, 0.3339],
      [9, 10, 3, 10, 0.1705, 0.809],
      [6, 7, 2, 7, 0.0582, 0.8062],
      [5, 56, 0, 29, -0.0381, 0.1926],
      [0, 10, 0, 20, -0.1611, 0.2775],
      [0, 10, 0, 10, -0.2775, 0.2775],
      [10, 10, 0, 20, 0.6791, 1],
    ];
    for (const [x1, n1, x2, n2, low, high] of table) {
      const interval = newcombeInterval(x1, n1, x2, n2);
      expect(interval.low, `${x1}/${n1} - ${x2}/${n2}`).toBeCloseTo(low, 4);
      expect(interval.high, `${x1}/${n1} - ${x2}/${n2}`).toBeCloseTo(high, 4);
    }
  });

  it("match the published Wilson interval of a single proportion (Newcombe 1998, 'Two-sided confidence intervals for the single proportion': 81/263)", () => {
    const { low, high } = wilsonInterval(81, 263);
    expect(low).toBeCloseTo(0.2553, 4);
    expect(high).toBeCloseTo(0.3662, 4);
    expect(() => wilsonInterval(3, 0)).toThrow(RangeError);
  });
});
