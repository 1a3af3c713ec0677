import { describe, expect, it } from 'vitest';
import { chrf } from '../../src/graders/rubric/chrf.js';

// Expected values are computed independently of the implementation: by hand from sacreBLEU's
// definition (orders 1-6, whitespace removed, precision and recall averaged over the orders that
// have n-grams on both sides, then F-beta with beta 2), or taken from sacreBLEU's documented output.
describe('chrF (sacreBLEU definition)', () => {
  it('matches the value sacreBLEU documents for a sentence pair', () => {
    // The chrF metric card (huggingface/datasets metrics/chrf, computed with sacreBLEU's CHRF):
    // {'score': 61.576379378113785, 'char_order': 6, 'word_order': 0, 'beta': 2}
    const hyp = 'The relationship between Obama and Netanyahu is not exactly friendly.';
    const ref = 'The ties between Obama and Netanyahu are not particularly friendly.';
    expect(chrf(hyp, ref) * 100).toBeCloseTo(61.576379378113785, 9);
  });

  it('matches a hand computation where the higher orders have no n-grams', () => {
    // hyp "ab", ref "abc". n=1: hyp {a,b} (2), ref {a,b,c} (3), common 2: P 1, R 2/3.
    // n=2: hyp {ab} (1), ref {ab,bc} (2), common 1: P 1, R 1/2. n>=3: hyp has none, skipped.
    // P = 1, R = (2/3 + 1/2) / 2 = 7/12; F2 = 5 P R / (4 P + R) = (35/12) / (55/12) = 7/11.
    expect(chrf('ab', 'abc')).toBeCloseTo(7 / 11, 12);
    // Swapped, precision and recall swap: P = 7/12, R = 1; F2 = 5 (7/12) / (4 (7/12) + 1) = 35/40.
    expect(chrf('abc', 'ab')).toBeCloseTo(35 / 40, 12);
  });

  it('removes whitespace before counting, clips repeated n-grams, and is 1 for identical text', () => {
    expect(chrf('a b  c', 'abc')).toBe(1);
    expect(chrf('the same text', 'the same text')).toBe(1);
    // hyp "aa", ref "a". n=1: hyp {a:2} (2), ref {a:1} (1), common min(2,1) = 1: P 1/2, R 1.
    // n=2: ref has none, skipped. F2 = 5 (1/2)(1) / (4 (1/2) + 1) = 2.5 / 3 = 5/6.
    expect(chrf('aa', 'a')).toBeCloseTo(5 / 6, 12);
  });

  it('is 0 for disjoint or empty text', () => {
    expect(chrf('xyz', 'abc')).toBe(0);
    expect(chrf('', 'abc')).toBe(0);
    expect(chrf('   ', '')).toBe(0);
  });
});
