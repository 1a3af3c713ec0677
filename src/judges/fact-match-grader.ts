import { defineJudge } from '../judge/define-judge.js';
import { expectedFacts, groundTruthBlock } from '../judge/ground-truth.js';

/**
 * `fact_match_grader` (LLM judge, 0-5): how many of the question's `expected_facts` does the
 * response state, in any wording? A ground-truth block listing the facts is prepended to the
 * criteria. Skips (not an error) a question without `expected_facts`.
 *
 * Use it when you know the facts a correct answer must contain but not their wording. Do not use it
 * when exact strings matter (a deterministic contains check is cheaper and exact), nor to catch
 * false claims beyond the listed facts (use `accuracy_grader`).
 *
 * @example
 * ```ts
 * await expect(answer).toScoreAtLeast('fact_match_grader', 4, {
 *   question: { input: 'Where is the Louvre?', expected_facts: ['Paris', 'right bank of the Seine'] },
 * });
 * ```
 */
export const factMatchGrader = defineJudge({
  id: 'fact_match_grader',
  label: 'Fact match',
  description:
    'LLM judge: how many expected_facts does the response state, in any wording (0-5)? Skips without expected_facts.',
  dimension: 'fact_match',
  dimensionDescription: 'fact match: how many of the ground-truth facts the response states, in any wording',
  scoringGuidance: [
    'Scoring guidance (0-5): score 5 times the share of ground-truth facts the response states.',
    '5: Every fact is stated.',
    '0: None of the facts is stated, or a fact is contradicted.',
    'Paraphrase counts; a fact merely hinted at does not.',
  ].join('\n'),
  skip: (context) => (expectedFacts(context) ? undefined : 'no expected_facts in context, skipping'),
  criteriaPrefix: (context) => {
    const facts = expectedFacts(context);
    return facts ? groundTruthBlock(facts) : undefined;
  },
});
