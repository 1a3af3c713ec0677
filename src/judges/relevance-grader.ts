import { defineJudge } from '../judge/define-judge.js';

/**
 * `relevance_grader` (LLM judge, 0-5): does the response address the question that was asked?
 *
 * Use it for chat and agent targets where drifting off topic or answering a different question is
 * the failure you fear. Do not use it to check facts (use `accuracy_grader` or `fact_match_grader`)
 * or what the agent did (it deliberately does not see the tool-call record: material a judge does
 * not need moves scores). Criteria are optional; when the question has some, they are shown.
 *
 * @example
 * ```ts
 * await expect(run).toScoreAtLeast('relevance_grader', 4);
 * ```
 */
export const relevanceGrader = defineJudge({
  id: 'relevance_grader',
  label: 'Relevance',
  description:
    'LLM judge: does the response address the question asked (0-5)? Use for topic drift; not for facts or actions.',
  dimension: 'relevance',
  dimensionDescription: 'relevance: how directly the response addresses the question that was asked',
  scoringGuidance: [
    'Scoring guidance (0-5):',
    '5: Addresses exactly the question asked, nothing off topic.',
    '4: Addresses the question with minor digressions.',
    '3: Partly addresses the question, or buries the answer in unrelated material.',
    '2: Mostly about something else; the question is touched only in passing.',
    '1: Barely related to the question.',
    '0: Unrelated to the question, or no answer at all.',
  ].join('\n'),
});
