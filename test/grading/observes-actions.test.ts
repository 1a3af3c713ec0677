import { describe, expect, it } from 'vitest';
import { isAiEvalError } from '../../src/errors.js';
import { defineGrader, JUDGE_OBSERVES_ACTIONS_RULE } from '../../src/grading/define-grader.js';
import { defineJudge, type JudgeOptions } from '../../src/judge/define-judge.js';
import { gradeQuestion } from '../../src/run/grade-question.js';
import { toRecords, unverifiedObservation } from '../../src/run/record.js';
import { FALLBACK_MARKER } from '../../src/graders/tool-usage.js';

const identity = { file: '/repo/a.test.ts', name: 'q1', title: 'q1', isRunning: () => true };

/** Declares observesActions, but reads the prose when there is no record: the case the seed warns of. */
const proseObserver = defineGrader({
  id: 'prose_observer',
  label: 'Prose observer',
  minScore: 0,
  maxScore: 1,
  observesActions: true,
  grade: (_i, response, context, { result }) =>
    context.tool_calls === undefined
      ? result(/done/i.test(response) ? 1 : 0, 'the response says the work is done')
      : result(context.tool_calls.length > 0 ? 1 : 0, 'from the tool-call record'),
});

describe('the observesActions contract', () => {
  it('marks a score without a record and without the fallback marker unverified', async () => {
    const prose = await gradeQuestion({
      question: { id: 'q1' },
      response: 'Done!',
      graders: [proseObserver],
    });
    const [record] = toRecords(prose, [proseObserver], { identity, target: null, question: 'q1', trial: 1 });
    expect(record).toMatchObject({
      observesActions: true,
      toolCallRecord: false,
      score: 1,
      unverified: true,
    });
    const withRecord = await gradeQuestion({
      question: { id: 'q1' },
      response: { output: 'Done!', toolCalls: [{ function_name: 'save_node', arguments: {} }] },
      graders: [proseObserver],
    });
    const [observed] = toRecords(withRecord, [proseObserver], {
      identity,
      target: null,
      question: 'q1',
      trial: 1,
    });
    expect(observed!.unverified).toBeUndefined();
  });

  it('keeps the contract for an error, a skip and a score that names the fallback', () => {
    expect(unverifiedObservation(proseObserver.result(null, 'no record', true), true, false)).toBe(false);
    expect(unverifiedObservation(proseObserver.result(null, 'n/a'), true, false)).toBe(false);
    expect(
      unverifiedObservation(proseObserver.result(1, `${FALLBACK_MARKER}, from the text`), true, false),
    ).toBe(false);
    expect(unverifiedObservation(proseObserver.result(1, 'looks fine'), false, false)).toBe(false);
    expect(unverifiedObservation(proseObserver.result(1, 'looks fine'), true, false)).toBe(true);
  });

  it('refuses an LLM judge that declares observesActions, quoting the rule', () => {
    const judge = () =>
      defineGrader({
        id: 'claims_judge',
        label: 'Claims',
        llm: true,
        observesActions: true,
        grade: () => ({}) as never,
      });
    expect(judge).toThrow(JUDGE_OBSERVES_ACTIONS_RULE);
    expect(judge).toThrow('defineGrader("claims_judge"): an LLM judge cannot declare observesActions.');
    try {
      judge();
    } catch (error) {
      expect(isAiEvalError(error, 'INVALID_GRADER')).toBe(true);
    }
    const options = {
      id: 'claims_judge',
      label: 'Claims',
      dimension: 'claims',
      dimensionDescription: 'whether claimed work was done',
      scoringGuidance: '5: all done',
      observesActions: true,
    } as JudgeOptions;
    expect(() => defineJudge(options)).toThrow(
      `defineJudge("claims_judge"): an LLM judge cannot declare observesActions. "${JUDGE_OBSERVES_ACTIONS_RULE}"`,
    );
    expect(JUDGE_OBSERVES_ACTIONS_RULE).toContain('declares sees_tool_calls and not observes_actions');
  });
});
