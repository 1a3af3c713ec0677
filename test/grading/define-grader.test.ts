import { describe, expect, it } from 'vitest';
import { type AiEvalError, isAiEvalError } from '../../src/errors.js';
import { createResultFactory, defineGrader, type GraderOptions } from '../../src/grading/define-grader.js';

const grade: GraderOptions['grade'] = (_i, _r, _c, { result }) => result(5, 'ok');

function definitionError(options: Partial<GraderOptions>): AiEvalError {
  try {
    defineGrader({ id: 'valid_id', label: 'Valid', grade, ...options });
  } catch (error) {
    if (isAiEvalError(error)) return error;
    throw error;
  }
  throw new Error('defineGrader accepted the definition');
}

describe('defineGrader', () => {
  it('applies the ai_eval defaults', () => {
    const g = defineGrader({ id: 'polite_reply', label: 'Polite reply', grade });
    expect(g).toMatchObject({
      id: 'polite_reply',
      label: 'Polite reply',
      description: '',
      llm: false,
      minScore: 0,
      maxScore: 5,
      seesToolCalls: false,
      observesActions: false,
      displayLabel: 'Polite reply (0-5)',
    });
    expect(Object.isFrozen(g)).toBe(true);
  });

  it.each(['ReadOnly', 'read-only', 'read__only', '1st_grader', '_private', 'trailing_', 'read only', ''])(
    'rejects the non-snake_case id %j with INVALID_GRADER',
    (id) => {
      const error = definitionError({ id });
      expect(error.code).toBe('INVALID_GRADER');
      expect(error.message).toContain('the id must be snake_case');
      expect(error.message).toContain(JSON.stringify(id));
    },
  );

  it.each(['read_only_run', 'a', 'grader2', 'v2_check'])('accepts the snake_case id %j', (id) => {
    expect(defineGrader({ id, label: 'X', grade }).id).toBe(id);
  });

  it.each([
    [5, 5],
    [3, 1],
    [0, Number.NaN],
    [Number.NEGATIVE_INFINITY, 1],
  ])('rejects minScore %d >= maxScore %d or a non-finite bound', (minScore, maxScore) => {
    const error = definitionError({ minScore, maxScore });
    expect(error.code).toBe('INVALID_GRADER');
    expect(error.message).toMatch(/minScore .* must be a finite number below maxScore/);
  });

  it('rejects seesToolCalls without llm, and accepts it with llm', () => {
    const error = definitionError({ seesToolCalls: true });
    expect(error.code).toBe('INVALID_GRADER');
    expect(error.message).toContain('seesToolCalls only applies to LLM judges');
    expect(
      defineGrader({ id: 'judge_x', label: 'J', llm: true, seesToolCalls: true, grade }).seesToolCalls,
    ).toBe(true);
  });

  it('rejects an empty label and a missing grade function', () => {
    expect(definitionError({ label: ' ' }).message).toContain('label must be a non-empty string');
    expect(definitionError({ grade: undefined }).message).toContain('grade must be a function');
  });
});

describe('result()', () => {
  const gradient = createResultFactory('accuracy_grader', 0, 5);
  const binary = createResultFactory('read_only_run', 0, 1);

  it('stamps the grader id and declared scale', () => {
    expect(binary(1, 'fine')).toEqual({
      grader: 'read_only_run',
      score: 1,
      min: 0,
      max: 1,
      composite: 5,
      reason: 'fine',
      error: false,
      skipped: false,
    });
  });

  it('clamps scores into [min, max]', () => {
    expect(gradient(7, 'r')).toMatchObject({ score: 5, composite: 5 });
    expect(gradient(-2, 'r')).toMatchObject({ score: 0, composite: 0 });
    expect(binary(0.5, 'r')).toMatchObject({ score: 0.5, composite: 2.5 });
  });

  it('makes null a skip: no score, no composite, not an error', () => {
    expect(gradient(null, 'not applicable')).toMatchObject({
      score: null,
      composite: null,
      skipped: true,
      error: false,
      reason: 'not applicable',
    });
  });

  it('makes null with error true an error, never a zero', () => {
    expect(gradient(null, 'could not grade', true)).toMatchObject({
      score: null,
      composite: null,
      skipped: false,
      error: true,
    });
    // An error never carries a score, even if one was passed.
    expect(gradient(3, 'partial', true)).toMatchObject({ score: null, composite: null, error: true });
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'makes the non-finite score %d an error, not a clamp',
    (score) => {
      const r = gradient(score, 'bad maths');
      expect(r).toMatchObject({ score: null, composite: null, error: true, skipped: false });
      expect(r.reason).toBe(`grader returned a non-finite score (${String(score)}): bad maths`);
    },
  );

  it('is the same factory a defined grader exposes', () => {
    const g = defineGrader({ id: 'binary_one', label: 'Binary', minScore: 0, maxScore: 1, grade });
    expect(g.result(1, 'x')).toMatchObject({ grader: 'binary_one', min: 0, max: 1, composite: 5 });
  });
});
