import { defineJudge } from '../judge/define-judge.js';
import { expectedFacts, groundTruthBlock } from '../judge/ground-truth.js';
import { judgeTemplate } from '../judge/template.js';

/**
 * The highest score of a response that contains a `must_not_contain` string.
 *
 * @example
 * ```ts
 * grade.score <= FORBIDDEN_CONTENT_CAP; // when the response contains a forbidden string
 * ```
 */
export const FORBIDDEN_CONTENT_CAP = 1;
/**
 * The highest score of an answer the judge flags as evasive (`"evasive": true` in its JSON).
 *
 * @example
 * ```ts
 * grade.score <= EVASIVE_CAP; // when the judge found the answer evasive
 * ```
 */
export const EVASIVE_CAP = 2;

const TEMPLATE = judgeTemplate(
  'Answer with JSON only, no other text: {"score": <number on the scale above>, "reason": "<one or two sentences>", "evasive": <true when the response avoids answering (deflects, hedges without committing, or only restates the question), else false>}',
);

function forbiddenFound(response: string, forbidden: unknown): string | undefined {
  if (!Array.isArray(forbidden)) return undefined;
  const text = response.toLowerCase();
  return forbidden.find(
    (s): s is string => typeof s === 'string' && s !== '' && text.includes(s.toLowerCase()),
  );
}

/**
 * `accuracy_grader` (LLM judge, 0-5, sees tool calls): is what the response says true and
 * supported? The question's `expected_facts` are woven into the criteria as ground truth, and the
 * tool-call record is shown, so an answer claiming work the agent never did is caught.
 *
 * Two caps apply after the judge's score: a response that contains any `must_not_contain` string
 * (case-insensitive, checked on the full response, not by the judge) is capped at 1; an answer the
 * judge flags `"evasive": true` in its JSON is capped at 2, so dodging a question never scores well.
 *
 * Use it for factual and agent questions where being wrong is the failure. Do not use it for tone
 * or coverage (`completeness_grader`), and note it forms its verdict from prose: it sees the record
 * but does not observe actions, so pair it with `tool_usage_grader` for agents.
 *
 * @example
 * ```ts
 * await expect({ output, toolCalls }).toScoreAtLeast('accuracy_grader', 4, {
 *   question: { input: 'Who wrote it?', expected_facts: ['Ada Lovelace'], must_not_contain: ['Babbage wrote it'] },
 * });
 * ```
 */
export const accuracyGrader = defineJudge({
  id: 'accuracy_grader',
  label: 'Accuracy',
  description:
    'LLM judge: is the response true and supported, given expected facts and the tool-call record (0-5)? Caps: forbidden content 1, evasive 2.',
  dimension: 'accuracy',
  dimensionDescription:
    'accuracy: whether every claim in the response is true, consistent with the ground truth, and supported by what the agent actually did',
  scoringGuidance: [
    'Scoring guidance (0-5):',
    '5: Every claim is correct and supported; nothing contradicts the ground truth or the tool-call record.',
    '4: Correct, with one minor imprecision.',
    '3: Mostly correct, with one material error or unsupported claim.',
    '2: Several errors, or claims of work the tool-call record does not show.',
    '1: Mostly wrong.',
    '0: Wrong or fabricated throughout.',
    'Set "evasive" to true when the response avoids answering rather than answering wrongly.',
  ].join('\n'),
  seesToolCalls: true,
  template: TEMPLATE,
  answerFields: {
    evasive: {
      type: 'boolean',
      description: 'true when the response avoids answering the question',
    },
  },
  criteriaPrefix: (context) => {
    const facts = expectedFacts(context);
    return facts ? groundTruthBlock(facts) : undefined;
  },
  adjust: ({ score, reason }, { answer, response, context }) => {
    const forbidden = forbiddenFound(response, context.must_not_contain);
    if (forbidden !== undefined && score > FORBIDDEN_CONTENT_CAP) {
      return {
        score: FORBIDDEN_CONTENT_CAP,
        reason: `${reason} (capped at ${FORBIDDEN_CONTENT_CAP}: the response contains the forbidden "${forbidden}")`,
      };
    }
    if (answer.fields.evasive === true && score > EVASIVE_CAP) {
      return {
        score: EVASIVE_CAP,
        reason: `${reason} (capped at ${EVASIVE_CAP}: the judge found the answer evasive)`,
      };
    }
    return { score, reason };
  },
});
