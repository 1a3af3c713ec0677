import { describe, expect, it } from 'vitest';
import { type Question } from '../../src/grading/types.js';
import { createSplitter, splitPosition } from '../../src/datasets/index.js';

const questions: Question[] = Array.from({ length: 200 }, (_, i) => ({ id: `q${i}`, input: 'x' }));

describe('the splitter', () => {
  it('puts listed ids and labelled questions in a split', () => {
    const splitter = createSplitter({ smoke: ['q1', 'q3'] });
    const labelled: Question[] = [...questions.slice(0, 5), { id: 'extra', input: 'x', split: 'smoke' }];
    expect(splitter.problems).toEqual([]);
    expect(splitter.select(labelled, 'smoke').map((q) => q.id)).toEqual(['q1', 'q3', 'extra']);
    expect(splitter.names(labelled)).toEqual(['smoke']);
    expect(splitter.unknownIds(questions.slice(0, 2))).toEqual([{ split: 'smoke', id: 'q3' }]);
  });

  it('holds out a deterministic fraction by a stable hash of seed and id', () => {
    const held = createSplitter({ holdout: { fraction: 0.25, seed: 7 } }).select(questions, 'holdout');
    expect(held.length).toBeGreaterThan(30);
    expect(held.length).toBeLessThan(70);
    const again = createSplitter({ holdout: { fraction: 0.25, seed: 7 } }).select(questions, 'holdout');
    expect(again).toEqual(held);
    // Adding questions never moves an existing one in or out.
    const more = [...questions, ...Array.from({ length: 50 }, (_, i) => ({ id: `new${i}`, input: 'x' }))];
    const heldIds = new Set(held.map((q) => q.id));
    const fromMore = createSplitter({ holdout: { fraction: 0.25, seed: 7 } }).select(more, 'holdout');
    expect(fromMore.filter((q) => q.id.startsWith('q')).map((q) => q.id)).toEqual([...heldIds]);
    // Another seed holds out other questions.
    const other = createSplitter({ holdout: { fraction: 0.25, seed: 'x' } }).select(questions, 'holdout');
    expect(other.map((q) => q.id)).not.toEqual(held.map((q) => q.id));
    // The position is a pure function of seed and id (a pinned value guards the hash).
    expect(splitPosition(7, 'q0')).toBe(splitPosition(7, 'q0'));
    expect(splitPosition(7, 'q0')).toBe(parseInt('5a3ec982', 16) / 2 ** 32);
    expect(createSplitter({ all: { fraction: 1, seed: 1 } }).select(questions, 'all')).toHaveLength(200);
  });

  it('validates the shape of the block with clear messages and places nothing when it is wrong', () => {
    expect(createSplitter(['smoke']).problems).toEqual([
      {
        path: '/splits',
        message: 'must be a map of split names, got a list. Fix: `splits: { smoke: [q1, q2] }`.',
      },
    ]);
    const splitter = createSplitter({
      a: 'q1',
      b: { fraction: 0, seed: 1.5 },
      c: ['q1', ''],
      ok: ['q1'],
    });
    expect(splitter.problems).toEqual([
      {
        path: '/splits/a',
        message:
          'must be a list of question ids or { fraction, seed }, got "q1". Fix: e.g. `a: [q1, q2]` or `a: { fraction: 0.2, seed: 1 }`.',
      },
      {
        path: '/splits/b/fraction',
        message: 'must be a number greater than 0 and at most 1 (the share of questions held out), got 0.',
      },
      {
        path: '/splits/b/seed',
        message: 'must be a string or an integer that fixes which questions are held out, got 1.5.',
      },
      { path: '/splits/c/1', message: 'must be a question id (a non-empty string), got "".' },
    ]);
    expect(splitter.select(questions, 'ok')).toEqual([]);
    expect(createSplitter(undefined).problems).toEqual([]);
  });
});
