import { describe, expectTypeOf, it, type TaskMeta } from 'vitest';
import { expect } from 'vitest';
import '../../matchers/vitest.js';
import type { AiEvalRecord } from '../../src/run/record-types.js';
import type { AiEvalMatchers, GradeMatcherOptions } from '../../matchers/types.js';

describe('the Vitest augmentation', () => {
  it('adds asynchronous matchers to expect and to its negation', () => {
    expectTypeOf(expect('x').toPassGrader('read_only_run')).toEqualTypeOf<Promise<void>>();
    expectTypeOf(expect({ output: 'x' }).not.toScoreAtLeast('read_only_run', 4)).toEqualTypeOf<
      Promise<void>
    >();
    expectTypeOf(expect('x').toPassGrader).parameter(1).toEqualTypeOf<GradeMatcherOptions | undefined>();
    expectTypeOf<AiEvalMatchers['toScoreAtLeast']>().parameter(1).toEqualTypeOf<number>();
  });

  it('types task.meta.aiEval as the record list', () => {
    expectTypeOf<TaskMeta['aiEval']>().toEqualTypeOf<AiEvalRecord[] | undefined>();
  });

  it('refuses malformed options', () => {
    // @ts-expect-error threshold is a number
    void expect('x').toPassGrader('read_only_run', { threshold: 'high' });
    // @ts-expect-error the score is required
    void expect('x').toScoreAtLeast('read_only_run');
  });
});
