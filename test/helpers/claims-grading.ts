import type { GradeResult, ToolCall } from '../../src/grading/types.js';
import { gradeQuestion } from '../../src/run/grade-question.js';

/** A call that came back ok, as a tool-call record holds it. */
export const call = (function_name: string, args: Record<string, unknown> = {}): ToolCall => ({
  function_name,
  arguments: args,
  status: 'ok',
});

/** claims_grader's grade of `output` over the record `toolCalls`. */
export async function grade(output: string, toolCalls: ToolCall[]): Promise<GradeResult> {
  const result = await gradeQuestion({
    question: { id: 'q', input: 'do it' },
    response: { output, toolCalls },
    graders: ['claims_grader'],
  });
  return result.grades[0]!;
}

/** claims_grader's score of each answer over the same record, by answer. */
export async function scores(
  outputs: readonly string[],
  toolCalls: ToolCall[],
): Promise<Record<string, number | null>> {
  const out: Record<string, number | null> = {};
  for (const output of outputs) out[output] = (await grade(output, toolCalls)).score;
  return out;
}

/** The same score for every answer: what {@link scores} should give. */
export const all = (outputs: readonly string[], score: number | null): Record<string, number | null> =>
  Object.fromEntries(outputs.map((o) => [o, score]));
