import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/internal/numbers.js';
import { isBinaryScale, scaleLabel, toComposite } from '../../src/grading/scale.js';

describe('toComposite', () => {
  it('maps linearly: 5 * (score - min) / (max - min)', () => {
    expect(toComposite(1, 0, 1)).toBe(5);
    expect(toComposite(0, 0, 1)).toBe(0);
    expect(toComposite(4, 0, 5)).toBe(4);
    expect(toComposite(5.5, 1, 10)).toBe(2.5);
    expect(toComposite(75, 0, 100)).toBe(3.75);
  });

  it('keeps null as null (skip or error) and clamps out-of-range scores', () => {
    expect(toComposite(null, 0, 5)).toBeNull();
    expect(toComposite(2, 0, 1)).toBe(5);
    expect(toComposite(-1, 0, 5)).toBe(0);
  });
});

describe('scaleLabel', () => {
  it('labels binary and gradient scales as ai_eval does', () => {
    expect(scaleLabel('Read-only run', 0, 1)).toBe('Read-only run (binary, 0-1)');
    expect(scaleLabel('Accuracy', 0, 5)).toBe('Accuracy (0-5)');
    expect(scaleLabel('Percent', 0, 100)).toBe('Percent (0-100)');
    expect(scaleLabel('Half', 0.5, 2.25)).toBe('Half (0.5-2.25)');
  });

  it('only calls exactly 0 to 1 binary', () => {
    expect(isBinaryScale(0, 1)).toBe(true);
    expect(isBinaryScale(1, 2)).toBe(false);
    expect(formatNumber(3.14159)).toBe('3.14');
  });
});
