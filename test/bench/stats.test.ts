import { describe, expect, it } from 'vitest';

type Stats = {
  median: (values: number[]) => number;
  spread: (values: number[], digits?: number) => string;
  verdict: (ratios: number[], target: number) => string;
  straddles: (lo: number, hi: number, target: number) => boolean;
};
// The benchmarks' own arithmetic (bench/lib/stats.mjs): what bench/results.md marks met or not.
// @ts-expect-error a plain ESM script without declarations
const { median, spread, verdict, straddles } = (await import('../../bench/lib/stats.mjs')) as Stats;

describe('bench verdicts', () => {
  it('takes the median of an odd and an even number of pairs', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(spread([1.31, 1.1, 1.23])).toBe('1.23 (1.10-1.31)');
  });

  it('judges by the median and says nothing more when every pair is on one side', () => {
    expect(verdict([1.01, 1.03, 1.05], 1.1)).toBe('met (1.03x)');
    expect(verdict([1.2, 1.25, 1.3], 1.1)).toBe('not met (1.25x)');
  });

  it('says a run cannot tell when its pairs fall on both sides of the target', () => {
    expect([straddles(1.05, 1.31, 1.1), straddles(1.1, 1.2, 1.1), straddles(1.11, 1.2, 1.1)]).toEqual([
      true,
      true,
      false,
    ]);
    // bench/replay.mjs printed "met (1.03x)" for 3 pairs of 0.99-1.16x; 8 pairs then read 1.16x.
    expect(verdict([0.99, 1.03, 1.16], 1.1)).toBe(
      'met (1.03x; its pairs ran 0.99-1.16x, on both sides of 1.1x: this run alone cannot tell)',
    );
    expect(verdict([1.05, 1.16, 1.31], 1.1)).toBe(
      'not met (1.16x; its pairs ran 1.05-1.31x, on both sides of 1.1x: this run alone cannot tell)',
    );
  });
});
