import type { RecordedGrade } from '../run/record-types.js';
import type { Gate } from '../run/target.js';

/**
 * The version of the JSON report ({@link EvalReport}). Bump it when the shape changes.
 *
 * @example
 * ```ts
 * if (report.schemaVersion !== REPORT_SCHEMA_VERSION) throw new Error('report from another version');
 * ```
 */
export const REPORT_SCHEMA_VERSION = 1;

/**
 * One grade as the report keeps it: the declared scale beside the score, so it explains itself.
 * The same shape the records carry ({@link RecordedGrade}).
 */
export type GradeReport = RecordedGrade;

/** The trials of a question that ran more than once. */
export interface TrialsReport {
  /** How many trials ran (k). */
  count: number;
  /** The composite of each trial, in trial order (`null` when a trial was unscored). */
  composites: Array<number | null>;
  mean: number | null;
  /** Population standard deviation of the scored trials' composites. */
  stdev: number | null;
  min: number | null;
  max: number | null;
  /** pass@k: at least one of the k trials passed. */
  passAtK: boolean;
  /** pass^k: every one of the k trials passed. */
  passHatK: boolean;
}

/** One question of a target: its verdict and every grade. */
export interface QuestionReport {
  id: string;
  /** The test that graded it: file (relative to the root) and full name. */
  test: { file: string; name: string };
  /** Mean of the non-null composites (over trials: the mean of the trial composites). */
  composite: number | null;
  passThreshold: number;
  passed: boolean;
  degraded: boolean;
  /** Nothing scored the question; it does not pass. */
  unscored: boolean;
  /** Present when the question ran more than once. */
  trials?: TrialsReport;
  grades: GradeReport[];
}

/** Token counts of the LLM judges. */
export interface JudgeTokens {
  prompt: number;
  completion: number;
  total: number;
}

/** Something a reader should know, in one plain sentence. */
export interface Advisory {
  code: AdvisoryCode;
  /** The target it concerns. */
  target: string;
  message: string;
}

/** The kinds of advisory. */
export type AdvisoryCode = 'NO_ACTION_OBSERVER' | 'NO_TOOL_CALL_RECORD' | 'GRADER_ALWAYS_SKIPPED';

/** The figures summarised for a target and for the run. */
export interface Totals {
  questionCount: number;
  /** Mean question composite of the scored questions; `null` when none was scored. */
  averageScore: number | null;
  /** Share of questions that passed (0 to 1); `null` when there are no questions. */
  passRate: number | null;
  passedCount: number;
  /** Errored grades. */
  errorCount: number;
  /** Questions with at least one errored grade. */
  degradedCount: number;
  unscoredCount: number;
  judgeTokens: JudgeTokens;
  /** Over the questions that ran more than one trial: the share with any passing trial. */
  passAtK?: number;
  /** Over the questions that ran more than one trial: the share with every trial passing. */
  passHatK?: number;
}

/** A target of the run, as the report shows it. */
export interface TargetReport extends Totals {
  name: string;
  /** `null` when no target was declared (the target is named after the test file). */
  mode: 'agent' | 'chat' | null;
  graders: string[];
  /** The graders that declare observesActions. */
  actionObserving: string[];
  scoreBy: 'avg_score' | 'pass_rate';
  gate: Gate | null;
  advisories: Advisory[];
  questions: QuestionReport[];
}

/** One gate's outcome. */
export interface GateVerdict {
  /** What was gated: a target name, `run`, `baseline` or `advisories` / `errors`. */
  scope: string;
  level: 'hard' | 'soft';
  passed: boolean;
  /** A plain sentence: what was measured against what. */
  message: string;
}

/** What changed for one target or question against a baseline report. */
export interface BaselineChange {
  target: string;
  /** Absent for a target-level change. */
  question?: string;
  before: number | null;
  after: number | null;
  /** `after - before`; `null` when either side is unscored. */
  delta: number | null;
  kind: 'improved' | 'regressed' | 'new' | 'removed';
}

/** The comparison of this run with a baseline report. */
export interface BaselineReport {
  /** The baseline file, as configured. */
  file: string;
  /** The baseline's timestamp. */
  timestamp: string;
  changes: BaselineChange[];
}

/** Where the run came from: enough to tell two reports apart months later. */
export interface RunIdentity {
  /** ISO 8601. */
  timestamp: string;
  packageVersion: string;
  nodeVersion: string;
  judgeModel: string | null;
  /** The judges' identity hash (model and every judge prompt in force) when any LLM grader ran. */
  judgeHash: string | null;
  /** Hashes of the judge prompts, by judge id, when known. */
  promptHashes: Record<string, string>;
  /** Hashes of the datasets, by ref, when known. */
  datasetHashes: Record<string, string>;
}

/** The gate settings a report was judged with; `ai-eval merge` reuses them. */
export interface GateSettings {
  gate: Gate | null;
  targetGates: Record<string, Gate>;
  failOnAdvisory: boolean;
  failOnError: boolean;
  maxDrop: number | null;
}

/**
 * The JSON report (`outputFile`): versioned, described by `ai-eval/schema/report.json`.
 */
export interface EvalReport extends RunIdentity, Omit<Totals, 'judgeTokens'> {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  judgeTokens: JudgeTokens;
  targetCount: number;
  /** Every target's advisories together. */
  advisories: Advisory[];
  gates: GateVerdict[];
  /** True when no hard gate failed. */
  passed: boolean;
  settings: GateSettings;
  baseline: BaselineReport | null;
  targets: TargetReport[];
}
