import type { GradeResult, ToolArguments, ToolCallKind, ToolCallStatus } from '../grading/types.js';

/**
 * The version of {@link EvalRecord}. Bump it when the shape changes.
 *
 * @example
 * ```ts
 * const record: EvalRecord = { v: RECORD_VERSION, ...rest };
 * if (input.v !== RECORD_VERSION) skip(input); // a record from another ai-eval version
 * ```
 */
export const RECORD_VERSION = 2;

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
  gate?: {
    level: 'hard' | 'soft';
    minAverage?: number;
    minPassRate?: number;
    minCoverage?: number;
    requireTrustedJudges?: boolean;
    maxJudgeErrorRate?: number;
  };
}

/**
 * One grade as records and reports keep it: the {@link GradeResult} with what a report needs to
 * explain it later (label, trial, the grader's flags, whether a record was seen).
 *
 * @example
 * ```ts
 * const grade: RecordedGrade = { ...readOnlyRun.result(1, 'no mutating tool'), label: 'Read-only run (binary, 0-1)',
 *   trial: 1, llm: false, observesActions: true, toolCallRecord: true };
 * ```
 */
export interface RecordedGrade extends GradeResult {
  /** The grader's label with its scale, for display. */
  label: string;
  /** 1-based trial the grade belongs to. */
  trial: number;
  llm: boolean;
  observesActions: boolean;
  /** Whether the graded response came with a tool-call record. */
  toolCallRecord: boolean;
  /**
   * The grade came from a negated assertion (`expect(run).not.toPassGrader(...)`): reported apart,
   * with its own verdict, and left out of the question's composite and the target's pass rate.
   */
  negated?: boolean;
  /**
   * The grader declares `observesActions` but scored a response that had no tool-call record, and
   * its reason does not name the fallback (`no tool-call record available`): it claimed evidence it
   * did not have, so the grade does not count as observing what the agent did.
   */
  unverified?: boolean;
  /**
   * The grade's verdict came from querying the system's state (a state check), so it needed no
   * tool-call record to observe what the agent did.
   */
  queriedState?: boolean;
  /** The rubric that scored the grade (`rubric_checks`): its id and version. */
  rubric?: { id: string; version?: string };
}

/**
 * One call of the tool-call record as a report shows it: the name, the arguments as displayed
 * (long strings shortened, secrets redacted) and, when known, the outcome and where it ran.
 *
 * @example
 * ```ts
 * const call: RecordedToolCall = { name: 'update_node', arguments: { id: 7 }, status: 'error' };
 * ```
 */
export interface RecordedToolCall {
  name: string;
  arguments: ToolArguments;
  status?: ToolCallStatus;
  kind?: ToolCallKind;
}

/**
 * What a trial's graders were shown, kept so a report can tell a question's whole story: the
 * response text (capped at 2,000 characters, redacted) and the tool-call record (`null` when none
 * came with the response, `[]` when the agent called nothing; at most 100 calls).
 *
 * @example
 * ```ts
 * const evidence: RecordedEvidence = { response: 'Done.', toolCalls: [{ name: 'get_node', arguments: { id: 1 } }] };
 * ```
 */
export interface RecordedEvidence {
  response: string | null;
  toolCalls: RecordedToolCall[] | null;
  /** Calls left out past the first 100. */
  omittedCalls?: number;
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
export interface EvalRecord extends RecordedGrade {
  v: typeof RECORD_VERSION;
  /** A grade (the other kinds are {@link SuiteRecord}s). */
  kind: 'grade';
  /** The test that computed it: file path and full name (describe blocks and title, ` > `-joined). */
  test: { file: string; name: string };
  /** The target, or null when the matcher named none (the reporter uses the test file's name). */
  target: RecordTarget | null;
  /** The question id: the dataset row's id, or the test name for a bare matcher. */
  question: string;
  /** The threshold the question was judged against. */
  passThreshold: number;
  /** Optional: the judge model an LLM grader asked (copied into the report's run identity). */
  judgeModel?: string;
  /** Optional: a hash of the judge prompt an LLM grader used (reported by grader id). */
  promptHash?: string;
  /** Optional: the dataset the question came from and a hash of its content. */
  dataset?: { ref: string; hash: string };
  /** What the graders were shown: on the first record of each trial (or assertion) only. */
  evidence?: RecordedEvidence;
  /** Milliseconds since the epoch. */
  at: number;
  /**
   * Optional: the attempt of a test the runner retried (2 and more; Jest's `retryTimes`). The
   * reporter keeps each test's last attempt, as the runner's verdict does.
   */
  attempt?: number;
}

/** What every record a suite sends about itself (not about a grade) carries. */
interface SuiteRecordBase {
  v: typeof RECORD_VERSION;
  /** The test that sent it: file path and full name. */
  test: { file: string; name: string };
  /** The suite's target. */
  target: RecordTarget;
  /** The `evalSuite` name. */
  suite: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/**
 * An `evalSuite` whose dataset gave nothing to evaluate (a missing file, a schema error, an async
 * source, every selected question disabled): the report counts it as planned and not loaded.
 *
 * @example
 * ```ts
 * const failure: LoadFailureRecord = { v: RECORD_VERSION, kind: 'load-failure', suite: 'support',
 *   test: { file: '/repo/support.test.ts', name: 'support > dataset file:evals/support.yaml' },
 *   target, dataset: { ref: 'file:evals/support.yaml' }, problems: ['... does not exist'], at: Date.now() };
 * ```
 */
export interface LoadFailureRecord extends SuiteRecordBase {
  kind: 'load-failure';
  /** The dataset as the suite named it (the load label, for example `file:evals/support.yaml`). */
  dataset: { ref: string };
  /** Why nothing was loaded: the load's warnings, one per line. */
  problems: string[];
}

/**
 * An `evalSuite` that `AI_EVAL_IDS`, `AI_EVAL_TAGS` or `AI_EVAL_SPLIT` left without a question: it is
 * skipped, and the reporter fails the run only when the filters selected nothing in any suite.
 *
 * @example
 * ```ts
 * const skipped: FilterSkipRecord = { v: RECORD_VERSION, kind: 'filter-skip', suite: 'billing',
 *   test, target, dataset: { ref: 'file:evals/billing.yaml' }, filters: { ids: ['list-drafts'] }, at: Date.now() };
 * ```
 */
export interface FilterSkipRecord extends SuiteRecordBase {
  kind: 'filter-skip';
  dataset: { ref: string };
  /** The filters in force (environment over options). */
  filters: { split?: string; tags?: string[]; ids?: string[] };
}

/**
 * What a suite says about itself rather than about a grade.
 *
 * @example
 * ```ts
 * if (record.kind === 'load-failure') console.log(record.dataset.ref, record.problems);
 * ```
 */
export type SuiteRecord = LoadFailureRecord | FilterSkipRecord | DisabledQuestionRecord;

/**
 * A question of an `evalSuite` dataset marked `disabled: true`: not run, shown as a skipped test,
 * and listed in the report (a JUnit `<skipped/>` testcase), outside every figure.
 *
 * @example
 * ```ts
 * const off: DisabledQuestionRecord = { v: RECORD_VERSION, kind: 'disabled', suite: 'support',
 *   test, target, dataset: { ref: 'file:evals/support.yaml' }, question: 'old-question', at: Date.now() };
 * ```
 */
export interface DisabledQuestionRecord extends SuiteRecordBase {
  kind: 'disabled';
  dataset: { ref: string };
  /** The disabled question's id. */
  question: string;
}

/**
 * Any record on the channel from tests to the reporter: a grade, or a suite record. Vitest carries
 * them on `task.meta.aiEval`, Jest in the side-channel files.
 *
 * @example
 * ```ts
 * const grades = records.filter((r): r is EvalRecord => r.kind === 'grade');
 * ```
 */
export type AiEvalRecord = EvalRecord | SuiteRecord;

/**
 * The grade part of a record (or of any larger object), keys in one fixed order.
 *
 * @example
 * ```ts
 * const grade = recordedGrade(record); // drops test, target, question, at ...
 * ```
 */
export function recordedGrade(from: RecordedGrade): RecordedGrade {
  // Written out key by key (a loop over key names made every report grade the slow way).
  const grade: RecordedGrade = {
    grader: from.grader,
    label: from.label,
    trial: from.trial,
    score: from.score,
    min: from.min,
    max: from.max,
    composite: from.composite,
    reason: from.reason,
    error: from.error,
    skipped: from.skipped,
    llm: from.llm,
    observesActions: from.observesActions,
    toolCallRecord: from.toolCallRecord,
  };
  if (from.usage) grade.usage = { ...from.usage };
  if (from.judgeCall) grade.judgeCall = { ...from.judgeCall };
  if (from.negated) grade.negated = true;
  if (from.unverified) grade.unverified = true;
  if (from.queriedState) grade.queriedState = true;
  if (from.rubric) grade.rubric = { ...from.rubric };
  return grade;
}
