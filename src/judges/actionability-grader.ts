import { defineJudge } from '../judge/define-judge.js';

/**
 * `actionability_grader` (LLM judge, 0-5): could the reader act on the response straight away:
 * concrete steps, names, values, commands, in an order that works?
 *
 * Use it for how-to questions, support answers and agent reports that a person follows. Do not use
 * it for factual questions with a short answer (it rewards steps they do not need), and not as
 * evidence that the agent did the work itself (it does not see the tool-call record).
 *
 * @example
 * ```ts
 * await expect(answer).toScoreAtLeast('actionability_grader', 3);
 * ```
 */
export const actionabilityGrader = defineJudge({
  id: 'actionability_grader',
  label: 'Actionability',
  description:
    'LLM judge: could the reader act on the response right away (0-5)? For how-to answers; not for short factual ones.',
  dimension: 'actionability',
  dimensionDescription:
    'actionability: whether a reader could act on the response straight away, with concrete steps, names and values',
  scoringGuidance: [
    'Scoring guidance (0-5):',
    '5: Concrete, ordered steps with the exact names, values or commands needed; nothing left to guess.',
    '4: Concrete and usable; one detail must be looked up.',
    '3: The right direction, but several details must be worked out.',
    '2: General advice only.',
    '1: Vague; nothing to act on.',
    '0: No guidance at all, or guidance that cannot work.',
  ].join('\n'),
});
