import { defineJudge } from '../judge/define-judge.js';
import { judgeTemplate } from '../judge/template.js';

const TEMPLATE = judgeTemplate(
  'Answer with JSON only, no other text: {"score": <1 if grounded, 0 if not; no other value>, "reason": "<one or two sentences naming any unsupported claim>"}',
);

/**
 * `groundedness_grader` (LLM judge, binary 0-1, sees tool calls): is every claim in the response
 * supported by the question, the criteria and what the agent actually did? One unsupported claim
 * (a number from nowhere, a lookup the record does not show) fails it. A judge answer other than
 * 0 or 1 (0.7 included) is an error, never a clamp or a partial score: a judge that graded on
 * another scale did not answer.
 *
 * Use it to catch fabrication and claimed-but-undone work in agent answers. Do not use it for
 * quality or completeness (a terse grounded answer passes), and it forms its verdict from prose: it
 * sees the record but does not observe actions.
 *
 * @example
 * ```ts
 * await expect({ output, toolCalls: [] }).toPassGrader('groundedness_grader');
 * ```
 */
export const groundednessGrader = defineJudge({
  id: 'groundedness_grader',
  label: 'Groundedness',
  description:
    'LLM judge: is every claim supported by the question, criteria and tool-call record (binary 0-1)? Catches fabrication.',
  dimension: 'groundedness',
  dimensionDescription:
    'groundedness: whether every claim in the response is supported by the question, the criteria and the tool calls the agent made',
  scoringGuidance: [
    'Scoring guidance (binary):',
    '1: Every claim is supported; nothing is invented.',
    '0: At least one claim is unsupported, or the response claims work the tool-call record does not show.',
  ].join('\n'),
  minScore: 0,
  maxScore: 1,
  seesToolCalls: true,
  template: TEMPLATE,
  // Binary: 0 or 1 and nothing else. A 0.7 is a judge grading on a scale it was not asked about,
  // and taken as it is it would map to a composite of 3.5, a pass.
  interpretScore: (raw) => (raw === 0 || raw === 1 ? raw : null),
});
