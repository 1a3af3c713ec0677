import { describe, expect, it } from 'vitest';
import { clipAtWord, shorten } from '../../src/internal/text.js';
import { oneLine } from '../../src/report/render-terminal.js';

describe('cutting text for the terminal', () => {
  const reason = 'the agent claimed it created the ticket but never called create_ticket at all';

  it('cuts a reason at a word boundary, never mid-word', () => {
    const cut = oneLine(reason, 36); // the old cut gave 'the agent claimed it created the tic…'
    expect(cut).toBe('the agent claimed it created the…');
    expect(cut.length).toBeLessThanOrEqual(36);
    // Every word before the ellipsis is a whole word of the reason.
    const words = cut.slice(0, -1).split(' ');
    expect(reason.split(' ').slice(0, words.length)).toEqual(words);
  });

  it('keeps text that fits, and cuts one long word where it must', () => {
    expect(oneLine('short reason', 40)).toBe('short reason');
    expect(clipAtWord('https://example.com/a/very/long/path/without/spaces', 20)).toBe(
      'https://example.com…',
    );
    expect(clipAtWord('https://example.com/a/very/long/path/without/spaces', 20)).toHaveLength(20);
  });

  it('shorten keeps at most max characters before the ellipsis, at a word', () => {
    expect(shorten('the judge did not answer with JSON at all', 20)).toBe('the judge did not…');
    expect(shorten('a\n b', 10)).toBe('a b');
  });
});
