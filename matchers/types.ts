import type { GradeMatcherOptions, GraderRef } from '../src/run/assertion.js';

export type { GradeMatcherOptions, GraderRef } from '../src/run/assertion.js';

/**
 * The matchers ai-eval adds to `expect`, shared by the Vitest and Jest type augmentations. Both
 * are asynchronous: always `await` them.
 *
 * @example
 * ```ts
 * await expect({ output: 'Done', toolCalls: [] }).toPassGrader('read_only_run');
 * await expect('The capital is Paris.').toScoreAtLeast('accuracy_grader', 4, {
 *   question: { expected_facts: ['Paris'] },
 * });
 * ```
 */
export interface AiEvalMatchers {
  /**
   * Grades the received response or agent run with one grader and passes when the composite
   * reaches the threshold (the option, then the target's, then the configured one, 3.5). A skip or
   * an error fails, also under `.not`. Always `await` it.
   *
   * @example
   * ```ts
   * const run = await agent.run('Which pages are still drafts?'); // { output, toolCalls }
   * await expect(run).toPassGrader('read_only_run');
   * await expect(run).toPassGrader('tool_usage_grader', {
   *   question: { expected_tools: [{ name: 'list_nodes', args: { status: 'draft' } }] },
   *   target: 'site-assistant',
   * });
   * ```
   */
  toPassGrader(grader: GraderRef, options?: GradeMatcherOptions): Promise<void>;
  /**
   * Like `toPassGrader` with an explicit composite (0 to 5) to reach. Always `await` it.
   *
   * @example
   * ```ts
   * await expect(reply).toScoreAtLeast('format_grader', 4, { question: { expected: { format: 'json' } } });
   * ```
   */
  toScoreAtLeast(
    grader: GraderRef,
    score: number,
    options?: Omit<GradeMatcherOptions, 'threshold'>,
  ): Promise<void>;
}
