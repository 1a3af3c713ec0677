import type { Grader } from '../src/grading/define-grader.js';
import type { GraderId } from '../src/grading/registry.js';
import type { Question } from '../src/grading/types.js';
import type { Target } from '../src/run/target.js';

/**
 * A grader as the matchers take it: a registered id or a grader object.
 *
 * @example
 * ```ts
 * const byId: GraderRef = 'read_only_run';
 * const byObject: GraderRef = defineGrader({ id: 'polite_reply', label: 'Polite reply', grade });
 * ```
 */
export type GraderRef = GraderId | Grader;

/**
 * Options of `toPassGrader` and `toScoreAtLeast`.
 *
 * @example
 * ```ts
 * const options: GradeMatcherOptions = {
 *   question: { id: 'list-articles', expected_tools: ['list_nodes'] },
 *   threshold: 4,
 *   target: 'support-bot',
 * };
 * await expect(run).toPassGrader('tool_usage_grader', options);
 * ```
 */
export interface GradeMatcherOptions {
  /** The dataset row, or the parts of it the grader reads (`expected_tools`, `criteria`, ...). */
  question?: Partial<Question>;
  /** A tool-call record for a plain-string response (any shape the record adapters accept). */
  toolCalls?: unknown;
  /**
   * The input text the response answers, used only when `question` has neither `input` nor
   * `messages` (the question's own input wins). Graders see it as their `input` argument and as one
   * user message in `context.messages`.
   */
  input?: string;
  /** The composite (0 to 5) the grade needs. Default: the target's, then the configured, 3.5. */
  threshold?: number;
  /**
   * The target the report files this grade under: a {@link Target}, or just its name. A name alone
   * gives mode `agent` for an agent run and `chat` for a plain string, graded by this grader only.
   */
  target?: Target | string;
}

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
   * reaches the threshold. A skip or an error fails, also under `.not`.
   */
  toPassGrader(grader: GraderRef, options?: GradeMatcherOptions): Promise<void>;
  /** Like `toPassGrader` with an explicit composite (0 to 5) to reach. */
  toScoreAtLeast(
    grader: GraderRef,
    score: number,
    options?: Omit<GradeMatcherOptions, 'threshold'>,
  ): Promise<void>;
}
