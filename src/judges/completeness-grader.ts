import { defineJudge } from '../judge/define-judge.js';

/**
 * `completeness_grader` (LLM judge, 0-5): does the response cover every part of the question (and
 * of the criteria, when the question has some)?
 *
 * Use it for multi-part questions and tasks with several requirements. Do not use it to check that
 * what is said is true (use `accuracy_grader`), nor for known expected facts (`fact_match_grader`
 * checks those more cheaply and more precisely).
 *
 * @example
 * ```ts
 * await expect(run).toScoreAtLeast('completeness_grader', 4);
 * ```
 */
export const completenessGrader = defineJudge({
  id: 'completeness_grader',
  label: 'Completeness',
  description:
    'LLM judge: does the response cover every part of the question and criteria (0-5)? Not a fact check.',
  dimension: 'completeness',
  dimensionDescription: 'completeness: whether the response covers every part of the question and criteria',
  scoringGuidance: [
    'Scoring guidance (0-5):',
    '5: Every part of the question and every criterion is covered.',
    '4: One minor part is thin or missing.',
    '3: A significant part is missing.',
    '2: Only one of several parts is covered.',
    '1: A fragment of an answer.',
    '0: Nothing of what was asked is covered.',
  ].join('\n'),
});
