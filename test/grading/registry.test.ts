import { afterEach, describe, expect, it } from 'vitest';
import { isAiEvalError } from '../../src/errors.js';
import { defineGrader, type Grader } from '../../src/grading/define-grader.js';
import {
  actionObservingGraders,
  getGrader,
  hasGrader,
  listGraders,
  registerGrader,
  resolveGrader,
  unregisterGrader,
} from '../../src/registry/graders.js';

const make = (id: string, observesActions = false): Grader =>
  defineGrader({
    id,
    label: `Label ${id}`,
    observesActions,
    grade: (_i, _r, _c, { result }) => result(5, 'ok'),
  });

function caught(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

const registered: string[] = [];
afterEach(() => {
  for (const id of registered.splice(0)) unregisterGrader(id);
});
const register = (grader: Grader): Grader => {
  registered.push(grader.id);
  return registerGrader(grader);
};

describe('the grader registry', () => {
  it('knows the shipped graders without registration', () => {
    const ids = listGraders().map((g) => g.id);
    expect(ids).toEqual(expect.arrayContaining(['read_only_run', 'tool_usage_grader', 'format_grader']));
    expect(getGrader('read_only_run').displayLabel).toBe('Read-only run (binary, 0-1)');
  });

  it('registers, looks up, lists after the shipped ones and unregisters', () => {
    const mine = register(make('reg_mine'));
    expect(getGrader('reg_mine')).toBe(mine);
    expect(hasGrader('reg_mine')).toBe(true);
    expect(listGraders().at(-1)).toBe(mine);
    expect(unregisterGrader('reg_mine')).toBe(true);
    expect(hasGrader('reg_mine')).toBe(false);
  });

  it('makes an unknown id an UNKNOWN_GRADER error listing the known ids', () => {
    register(make('reg_known'));
    const error = caught(() => getGrader('no_such_grader'));
    expect(isAiEvalError(error, 'UNKNOWN_GRADER')).toBe(true);
    expect(error.message).toContain("Unknown grader 'no_such_grader'");
    expect(error.message).toMatch(
      /Known graders: .*read_only_run.*tool_usage_grader.*format_grader.*reg_known/,
    );
  });

  it('treats registering the same grader (or an identical re-import) again as a no-op', () => {
    const first = register(make('reg_again'));
    expect(() => registerGrader(first)).not.toThrow();
    const reimported = make('reg_again');
    expect(() => registerGrader(reimported)).not.toThrow();
    // The latest copy wins.
    expect(getGrader('reg_again')).toBe(reimported);
  });

  it('returns the shipped grader when the other module copy passes its twin in', () => {
    const shipped = getGrader('read_only_run');
    const twin = defineGrader({
      id: shipped.id,
      label: shipped.label,
      description: shipped.description,
      minScore: shipped.minScore,
      maxScore: shipped.maxScore,
      observesActions: shipped.observesActions,
      grade: shipped.grade,
    });
    expect(registerGrader(twin)).toBe(shipped);
    expect(getGrader('read_only_run')).toBe(shipped);
  });

  it('refuses a different grader under a taken id, and shipped ids', () => {
    register(make('reg_taken'));
    const other = defineGrader({
      id: 'reg_taken',
      label: 'Another grader',
      grade: (_i, response, _c, { result }) => result(response.length > 0 ? 5 : 0, 'length'),
    });
    const error = caught(() => registerGrader(other));
    expect(isAiEvalError(error, 'DUPLICATE_GRADER')).toBe(true);
    expect(error.message).toContain("already registered as 'reg_taken'");
    const shipped = caught(() => registerGrader(make('read_only_run')));
    expect(isAiEvalError(shipped, 'DUPLICATE_GRADER')).toBe(true);
  });

  it('resolves ids and grader objects', () => {
    const inline = make('reg_inline');
    expect(resolveGrader(inline)).toBe(inline);
    expect(resolveGrader('format_grader').id).toBe('format_grader');
  });

  it('lists the action-observing graders among ids', () => {
    register(make('reg_observer', true));
    expect(
      actionObservingGraders(['format_grader', 'tool_usage_grader', 'read_only_run', 'reg_observer']),
    ).toEqual(['tool_usage_grader', 'read_only_run', 'reg_observer']);
    expect(actionObservingGraders(['format_grader'])).toEqual([]);
  });

  it('keeps its state on globalThis under a Symbol.for key', () => {
    register(make('reg_global'));
    const map = (globalThis as Record<symbol, unknown>)[Symbol.for('ai-eval.grader-registry')] as Map<
      string,
      Grader
    >;
    expect(map.get('reg_global')?.id).toBe('reg_global');
  });
});
