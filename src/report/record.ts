import type { TokenUsage } from '../grading/types.js';

/**
 * The version of {@link EvalRecord}. Bump it when the shape changes.
 *
 * @example
 * ```ts
 * const record: EvalRecord = { v: RECORD_VERSION, ...rest };
 * if (input.v !== RECORD_VERSION) skip(input); // a record from another ai-eval version
 * ```
 */
export const RECORD_VERSION = 1;

/**
 * The target a record belongs to, as the suite or matcher knew it.
 *
 * @example
 * ```ts
 * const target: RecordTarget = {
 *   name: 'support-bot',
 *   mode: 'agent',
 *   graders: ['tool_usage_grader', 'relevance_grader'],
 *   actionObserving: ['tool_usage_grader'],
 *   passThreshold: 3.5,
 * };
 * ```
 */
export interface RecordTarget {
  name: string;
  mode: 'agent' | 'chat';
  /** Ids of every grader the target runs. */
  graders: string[];
  /** Ids of those that declare observesActions. */
  actionObserving: string[];
  passThreshold: number;
  scoreBy?: 'avg_score' | 'pass_rate';
  gate?: { level: 'hard' | 'soft'; minAverage?: number; minPassRate?: number };
}

/**
 * One grade on its way from a matcher or generated suite to the reporter: JSON only, versioned.
 * Vitest carries it on `task.meta`; Jest through a per-worker side-channel file.
 *
 * @example
 * ```ts
 * // A custom Vitest reporter reading the records of a test case:
 * onTestCaseResult(testCase) {
 *   const records: EvalRecord[] = testCase.meta().aiEval ?? [];
 *   for (const r of records) console.log(r.question, r.grader, r.composite, r.reason);
 * }
 * ```
 */
export interface EvalRecord {
  v: typeof RECORD_VERSION;
  /** The test that computed it: file path and full name (describe blocks and title, ` > `-joined). */
  test: { file: string; name: string };
  /** The target, or null when the matcher named none (the reporter uses the test file's name). */
  target: RecordTarget | null;
  /** The question id: the dataset row's id, or the test name for a bare matcher. */
  question: string;
  /** 1-based trial number. */
  trial: number;
  grader: string;
  /** The grader's label with its scale, for display. */
  label: string;
  min: number;
  max: number;
  score: number | null;
  composite: number | null;
  reason: string;
  error: boolean;
  skipped: boolean;
  llm: boolean;
  observesActions: boolean;
  /** Whether a tool-call record was present for the graded response. */
  toolCallRecord: boolean;
  /** The threshold the question was judged against. */
  passThreshold: number;
  usage?: TokenUsage;
  /** Optional: the judge model an LLM grader asked (copied into the report's run identity). */
  judgeModel?: string;
  /** Optional: a hash of the judge prompt an LLM grader used (reported by grader id). */
  promptHash?: string;
  /**
   * Optional: the grade came from a negated assertion (`expect(run).not.toPassGrader(...)`). A low
   * score is what that test expected, so the reporter lists the grade but leaves it out of the
   * question's composite.
   */
  negated?: boolean;
  /** Optional: the dataset the question came from and a hash of its content. */
  dataset?: { ref: string; hash: string };
  /** Milliseconds since the epoch. */
  at: number;
}
