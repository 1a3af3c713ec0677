import { describe, expect, it } from 'vitest';
import { defineGrader } from '../../src/grading/define-grader.js';
import { gradeMessage } from '../../src/run/message.js';
import { matcherTargetRecord } from '../../src/run/record.js';
import { checkReceived } from '../../src/run/assertion.js';

const binary = defineGrader({
  id: 'polite_reply',
  label: 'Polite reply',
  minScore: 0,
  maxScore: 1,
  grade: (_i, _r, _c, { result }) => result(1, 'ok'),
});
const gradient = defineGrader({
  id: 'accuracy_like',
  label: 'Accuracy',
  observesActions: true,
  grade: (_i, _r, _c, { result }) => result(5, 'ok'),
});

const hint = 'expect(received).toPassGrader(grader)';

describe('gradeMessage', () => {
  it('explains a score below the threshold', () => {
    expect(
      gradeMessage({
        hint,
        label: binary.displayLabel,
        grade: binary.result(0, 'no polite wording'),
        threshold: 3.5,
        isNot: false,
      }),
    ).toMatchInlineSnapshot(`
      "expect(received).toPassGrader(grader)

      Expected the grade to reach the threshold, but it fell short.

      Grader:    Polite reply (binary, 0-1)
      Score:     0 (composite 0 of 5)
      Threshold: composite >= 3.5
      Reason:    no polite wording"
    `);
  });

  it('explains a negated assertion that reached the threshold', () => {
    expect(
      gradeMessage({
        hint: 'expect(received).not.toScoreAtLeast(grader, score)',
        label: gradient.displayLabel,
        grade: gradient.result(4.257, 'most facts present'),
        threshold: 4,
        isNot: true,
      }),
    ).toMatchInlineSnapshot(`
      "expect(received).not.toScoreAtLeast(grader, score)

      Expected the grade to stay below the threshold, but it reached it.

      Grader:    Accuracy (0-5)
      Score:     4.26 (composite 4.26 of 5)
      Threshold: composite < 4
      Reason:    most facts present"
    `);
  });

  it('says a skip checked nothing, also under .not', () => {
    expect(
      gradeMessage({
        hint: 'expect(received).not.toPassGrader(grader)',
        label: gradient.displayLabel,
        grade: gradient.result(null, 'no expected facts on the question'),
        threshold: 3.5,
        isNot: true,
      }),
    ).toMatchInlineSnapshot(`
      "expect(received).not.toPassGrader(grader)

      The grader did not apply, so nothing was checked. A skip never passes, not even under .not.

      Grader:    Accuracy (0-5)
      Score:     skipped (no score)
      Threshold: composite >= 3.5
      Reason:    no expected facts on the question"
    `);
  });

  it('says an error checked nothing and keeps the grader reason', () => {
    expect(
      gradeMessage({
        hint,
        label: binary.displayLabel,
        grade: binary.result(null, 'judge answer was not JSON', true),
        threshold: 3.5,
        isNot: false,
      }),
    ).toMatchInlineSnapshot(`
      "expect(received).toPassGrader(grader)

      The grader could not grade the response, so nothing was checked. An error never passes, not even under .not.

      Grader:    Polite reply (binary, 0-1)
      Score:     error (no score)
      Threshold: composite >= 3.5
      Reason:    judge answer was not JSON"
    `);
  });
});

describe('matcherTargetRecord', () => {
  it('is null when the matcher names no target', () => {
    expect(matcherTargetRecord(undefined, binary, 'text', 3.5)).toBeNull();
  });

  it('turns a bare name into a one-grader target, agent mode for a run and chat for a string', () => {
    expect(matcherTargetRecord('bot', gradient, { output: 'x' }, 4)).toEqual({
      name: 'bot',
      mode: 'agent',
      graders: ['accuracy_like'],
      actionObserving: ['accuracy_like'],
      passThreshold: 4,
    });
    expect(matcherTargetRecord('bot', binary, 'x', 3.5)).toMatchObject({ mode: 'chat', actionObserving: [] });
  });

  it('keeps a full target with its graders, gate and scoring', () => {
    const target = {
      name: 'faq',
      mode: 'chat' as const,
      graders: [binary, 'read_only_run'],
      scoreBy: 'pass_rate' as const,
      gate: { level: 'hard' as const, minPassRate: 0.8 },
    };
    expect(matcherTargetRecord(target, binary, 'x', 3.5)).toEqual({
      name: 'faq',
      mode: 'chat',
      graders: ['polite_reply', 'read_only_run'],
      actionObserving: ['read_only_run'],
      passThreshold: 3.5,
      scoreBy: 'pass_rate',
      gate: { level: 'hard', minPassRate: 0.8 },
    });
  });
});

describe('checkReceived', () => {
  it('says a promise is a promise, and how to await it', () => {
    // A run not awaited printed as "an object with keys (none)".
    const run = Promise.resolve({ output: 'done', toolCalls: [] });
    expect(() => checkReceived('toPassGrader', run)).toThrow(
      'toPassGrader: expected a response string or an agent run { output: string, toolCalls?, messages? }, received a promise: await the run first (`const run = await agent(...)`), or write `await expect(promise).resolves.toPassGrader(...)`.',
    );
  });

  it('accepts a string or a run, and names anything else', () => {
    expect(() => checkReceived('toPassGrader', 'text')).not.toThrow();
    expect(() => checkReceived('toPassGrader', { output: 'text' })).not.toThrow();
    expect(() => checkReceived('toScoreAtLeast', { text: 'x' })).toThrow(
      'toScoreAtLeast: expected a response string or an agent run { output: string, toolCalls?, messages? }, received an object with keys text.',
    );
  });
});
