import { describe, expectTypeOf, it } from 'vitest';
import {
  defineJudge,
  judgeIdentity,
  type BuiltinGraderId,
  type Grader,
  type Judge,
  type JudgeAnswer,
  type JudgeCacheMode,
  type JudgeChatClient,
  type JudgeConfig,
} from '../../src/index.js';

describe('judge types', () => {
  it('a judge is a grader with its prompt parts', () => {
    const judge = defineJudge({
      id: 'house_tone',
      label: 'House tone',
      dimension: 'house_tone',
      dimensionDescription: 'house tone',
      scoringGuidance: '5: plain',
      interpretScore: (raw: number, answer: JudgeAnswer) => (answer.fields.ok === true ? raw : null),
    });
    expectTypeOf(judge).toEqualTypeOf<Judge>();
    expectTypeOf(judge).toExtend<Grader>();
    expectTypeOf(judge.judge.buildPrompt).returns.toEqualTypeOf<string>();
  });

  it('the shipped judges are typed builtin ids', () => {
    expectTypeOf<'accuracy_grader'>().toExtend<BuiltinGraderId>();
    expectTypeOf<'groundedness_grader'>().toExtend<BuiltinGraderId>();
    expectTypeOf<'fact_match_grader'>().toExtend<BuiltinGraderId>();
  });

  it('cache modes and identity are precise', () => {
    expectTypeOf<JudgeCacheMode>().toEqualTypeOf<'auto' | 'record' | 'replay' | 'off'>();
    expectTypeOf(judgeIdentity()).toEqualTypeOf<{ model: string; hash: string; overridden: string[] }>();
  });

  it('refuses an interpretScore that returns a string', () => {
    defineJudge({
      id: 'x_judge',
      label: 'X',
      dimension: 'x',
      dimensionDescription: 'x',
      scoringGuidance: 'x',
      // @ts-expect-error interpretScore returns number | null
      interpretScore: () => 'five',
    });
  });

  it('types judge.client as a chat client', () => {
    expectTypeOf<NonNullable<JudgeConfig['client']>>().toEqualTypeOf<JudgeChatClient>();
    // @ts-expect-error an object without chat.completions.create is not a client
    const notAClient: JudgeConfig = { client: {} };
    expectTypeOf(notAClient).toEqualTypeOf<JudgeConfig>();
  });
});
