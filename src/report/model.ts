import type { RecordedEvidence, RecordedGrade } from '../run/record-types.js';
import type { Gate } from '../run/target.js';
import type { JudgeReport, TargetJudgeReport } from './judge-report-types.js';

/**
 * The version of the JSON report ({@link EvalReport}). Bump it when the shape changes.
 *
 * @example
 * ```ts
 * if (report.schemaVersion !== REPORT_SCHEMA_VERSION) throw new Error('report from another version');
 * ```
 */
export const REPORT_SCHEMA_VERSION = 2;

/**
 * One grade as the report keeps it: the declared scale beside the score, so it explains itself.
 * The same shape the records carry ({@link RecordedGrade}).
 *
 * @example
 * ```ts
 * const failing: GradeReport[] = report.targets.flatMap((t) => t.questions.flatMap((q) => q.grades.filter((g) => g.composite === 0)));
 * ```
 */
export type GradeReport = RecordedGrade;

/**
 * The trials of a question that ran more than once.
 *
 * @example
 * ```ts
 * const flaky = report.targets.flatMap((t) => t.questions).filter((q) => q.trials && q.trials.passAtK && !q.trials.passHatK);
 * ```
 */
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

/**
 * One question of a target: its verdict and every grade. A question is keyed by target, id and test
 * file: the same id from two test files is two questions (and a `DUPLICATE_QUESTION` advisory).
 *
 * @example
 * ```ts
 * const weakest: QuestionReport[] = target.questions.filter((q) => !q.passed);
 * for (const q of weakest) console.log(q.id, q.composite, q.grades.map((g) => g.reason));
 * ```
 */
export interface QuestionReport {
  id: string;
  /** The test that graded it: file (relative to the root) and full name. */
  test: { file: string; name: string };
  /** The dataset ref the question came from (`evalSuite`); absent for a matcher's question. */
  dataset?: string;
  /** Mean of the non-null composites (over trials: the mean of the trial composites). */
  composite: number | null;
  passThreshold: number;
  passed: boolean;
  degraded: boolean;
  /** Nothing scored the question; it does not pass. */
  unscored: boolean;
  /** Unscored because something errored (the run, a grader), not because every grader skipped. */
  errored: boolean;
  /** Present when the question ran more than once. */
  trials?: TrialsReport;
  /** How long its test ran, in milliseconds, as the runner measured it (absent when unknown). */
  durationMs?: number;
  grades: GradeReport[];
  /** What the graders were shown, per trial: the response and the tool-call record. */
  evidence?: TrialEvidence[];
}

/**
 * One trial's evidence in a report: the graded response (capped at 2,000 characters, redacted)
 * and its tool-call record (`null` when none came with the response).
 *
 * @example
 * ```ts
 * for (const e of question.evidence ?? []) console.log(e.trial, e.response, e.toolCalls?.map((c) => c.name));
 * ```
 */
export interface TrialEvidence extends RecordedEvidence {
  trial: number;
}

/**
 * A question of a suite's dataset marked `disabled: true`: not run and not planned, listed so that
 * JUnit and the summaries show it as skipped rather than absent.
 *
 * @example
 * ```ts
 * for (const d of report.disabled ?? []) console.log(`${d.target} › ${d.question} (disabled)`);
 * ```
 */
export interface DisabledQuestionReport {
  target: string;
  suite: string;
  dataset: string;
  question: string;
  test: { file: string; name: string };
}

/**
 * A negated assertion (`expect(run).not.toPassGrader(...)`): its own verdict, outside the target's
 * average and pass rate.
 *
 * @example
 * ```ts
 * for (const n of target.negated) console.log(`${n.test.name}: .not ${n.grader} ${n.passed ? 'held' : 'did not hold'}`);
 * ```
 */
export interface NegatedReport {
  /** The question id the assertion was filed under (the test title for a bare matcher). */
  question: string;
  test: { file: string; name: string };
  grader: string;
  /** The grader's composite; `null` when it skipped or errored. */
  composite: number | null;
  passThreshold: number;
  /** The negated assertion passed: the grader scored, did not error and did not pass. */
  passed: boolean;
  grades: GradeReport[];
}

/**
 * An `evalSuite` whose dataset gave nothing to evaluate: planned, not loaded.
 *
 * @example
 * ```ts
 * for (const f of target.loadFailures) console.error(`${f.dataset}: ${f.problems.join('; ')}`);
 * ```
 */
export interface LoadFailureReport {
  suite: string;
  /** The dataset as the suite named it, for example `file:evals/support.yaml`. */
  dataset: string;
  test: { file: string; name: string };
  problems: string[];
}

/**
 * An `evalSuite` the environment filters left without a question (skipped, not planned).
 *
 * @example
 * ```ts
 * report.skippedByFilter.map((s) => s.suite); // suites the id, tag or split filters left empty
 * ```
 */
export interface SkippedSuiteReport {
  suite: string;
  target: string;
  dataset: string;
  test: { file: string; name: string };
  filters: { split?: string; tags?: string[]; ids?: string[] };
}

/**
 * What was planned and what got a verdict. `planned = scored + unscored + errored + notLoaded`;
 * `degraded` overlaps the others (a grader errored, whether or not the question got a composite).
 *
 * @example
 * ```ts
 * const { scored, planned } = report.coverage;
 * console.log(`${scored} of ${planned} planned questions got a verdict`);
 * ```
 */
export interface Coverage {
  /** Every question a suite or matcher graded or tried to, plus one per dataset that did not load. */
  planned: number;
  /** Got a composite. */
  scored: number;
  /** Ran, but every grader skipped: nothing checked it. */
  unscored: number;
  /** No composite because something errored (the agent threw or timed out, a grader errored). */
  errored: number;
  /** A grader errored (also counted in scored or errored). */
  degraded: number;
  /** Datasets that gave nothing to evaluate. */
  notLoaded: number;
  /** `scored / planned`; `null` when nothing was planned. */
  share: number | null;
}

/**
 * Token counts of the LLM judges.
 *
 * @example
 * ```ts
 * const { total } = report.judgeTokens; // tokens the LLM judges used in this run
 * ```
 */
export interface JudgeTokens {
  prompt: number;
  completion: number;
  total: number;
}

/**
 * Something a reader should know, in one plain sentence.
 *
 * @example
 * ```ts
 * for (const a of report.advisories) console.warn(`${a.code} ${a.target}: ${a.message}`);
 * ```
 */
export interface Advisory {
  code: AdvisoryCode;
  /** The target it concerns. */
  target: string;
  message: string;
}

/**
 * The kinds of advisory.
 *
 * @example
 * ```ts
 * const blind = report.advisories.some((a) => (a.code satisfies AdvisoryCode) === 'NO_ACTION_OBSERVER');
 * ```
 */
export type AdvisoryCode =
  | 'NO_ACTION_OBSERVER'
  | 'NO_TOOL_CALL_RECORD'
  | 'GRADER_ALWAYS_SKIPPED'
  | 'UNVERIFIED_OBSERVER'
  | 'DUPLICATE_QUESTION'
  | 'UNTRUSTED_JUDGES';

/**
 * The figures summarised for a target and for the run.
 *
 * @example
 * ```ts
 * const { averageScore, passRate, errorCount }: Totals = report.targets[0]!;
 * ```
 */
export interface Totals {
  /** Questions graded (negated assertions and load failures are not questions). */
  questionCount: number;
  /** Mean question composite of the scored questions (an error is never a zero); `null` when none was scored. */
  averageScore: number | null;
  /** Share of questions that passed (0 to 1); `null` when there are no questions. */
  passRate: number | null;
  passedCount: number;
  /** Errored grades. */
  errorCount: number;
  /** Questions with at least one errored grade. */
  degradedCount: number;
  /** Questions without a composite (every grader skipped or errored). */
  unscoredCount: number;
  /** What was planned and what got a verdict. */
  coverage: Coverage;
  judgeTokens: JudgeTokens;
  /** Over the questions that ran more than one trial: the share with any passing trial. */
  passAtK?: number;
  /** Over the questions that ran more than one trial: the share with every trial passing. */
  passHatK?: number;
}

/**
 * A target of the run, as the report shows it.
 *
 * @example
 * ```ts
 * for (const t of report.targets) console.log(t.name, t.averageScore, t.passRate, t.coverage.share);
 * ```
 */
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
  /** Negated assertions, each with its own verdict; outside the average and pass rate. */
  negated: NegatedReport[];
  /** Suites of this target whose dataset gave nothing to evaluate. */
  loadFailures: LoadFailureReport[];
  /** Its LLM judges: trust state beside their scores, pass rate (corrected when trusted), health. */
  judges: TargetJudgeReport[];
}

/**
 * One gate's outcome.
 *
 * @example
 * ```ts
 * const failedHard = report.gates.filter((g: GateVerdict) => g.level === 'hard' && !g.passed);
 * ```
 */
export interface GateVerdict {
  /** What was gated: a target name, `run`, `baseline`, `filters` or `advisories` / `errors`. */
  scope: string;
  level: 'hard' | 'soft';
  passed: boolean;
  /** A plain sentence: what was measured against what. */
  message: string;
  /**
   * A hard gate of a partial run (one shard of several): judged on partial data, so it fails
   * nothing here; `ai-eval merge` judges it on the whole run.
   */
  deferred?: boolean;
}

/**
 * What the run's headline says:
 * - `passed`: gates were configured and passed, every planned question was scored, no test failed;
 * - `failed`: a hard gate failed or a test failed;
 * - `incomplete`: nothing failed, but some planned question got no composite;
 * - `ungated`: every planned question was scored, but no gate was configured, so nothing decided;
 * - `partial`: one shard of several; the gates are left to `ai-eval merge`.
 *
 * @example
 * ```ts
 * if ((report.verdict satisfies RunVerdict) === 'incomplete') console.log('some questions got no verdict');
 * ```
 */
export type RunVerdict = 'passed' | 'failed' | 'incomplete' | 'ungated' | 'partial';

/**
 * Why a report covers only part of a run.
 *
 * @example
 * ```ts
 * if (report.partial) console.log(`shard ${report.partial.index} of ${report.partial.count}: gates deferred to ai-eval merge`);
 * ```
 */
export interface PartialRun {
  reason: 'shard';
  shard: { index: number; count: number };
}

/**
 * What changed for one target or question against a baseline report.
 *
 * @example
 * ```ts
 * const regressions = report.baseline?.changes.filter((c: BaselineChange) => c.kind === 'regressed') ?? [];
 * ```
 */
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

/**
 * The comparison of this run with a baseline report.
 *
 * @example
 * ```ts
 * if (report.baseline) console.log(`compared with ${report.baseline.file} from ${report.baseline.timestamp}`);
 * ```
 */
export interface BaselineReport {
  /** The baseline file, as configured. */
  file: string;
  /** The baseline's timestamp. */
  timestamp: string;
  changes: BaselineChange[];
}

/**
 * Where the run came from: enough to tell two reports apart months later.
 *
 * @example
 * ```ts
 * const { timestamp, packageVersion, judgeModel, judgeHash }: RunIdentity = report;
 * ```
 */
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

/**
 * The gate settings a report was judged with; `ai-eval merge` reuses them.
 *
 * @example
 * ```ts
 * report.settings.gate; // the run gate this report was judged with, for ai-eval merge
 * ```
 */
export interface GateSettings {
  gate: Gate | null;
  /** Gates by target name, from the reporter options. */
  targetGates: Record<string, Gate>;
  failOnAdvisory: boolean;
  failOnError: boolean;
  maxDrop: number | null;
}

/**
 * The JSON report (`outputFile`): versioned, described by `ai-eval/schema/report.json`.
 *
 * @example
 * ```ts
 * const report: EvalReport = parseReport(readFileSync('reports/ai-eval.json', 'utf8'), 'reports/ai-eval.json');
 * if (report.verdict !== 'passed') process.exitCode = 1;
 * ```
 */
export interface EvalReport extends RunIdentity, Omit<Totals, 'judgeTokens'> {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  judgeTokens: JudgeTokens;
  targetCount: number;
  /** Every target's advisories together. */
  advisories: Advisory[];
  gates: GateVerdict[];
  /** The headline: see {@link RunVerdict}. */
  verdict: RunVerdict;
  /** True only when the verdict is `passed`. */
  passed: boolean;
  /** Tests the runner reported failed (any test, not only ai-eval's); `null` when unknown. */
  failedTests: number | null;
  /** Set when the report covers one shard of several: its hard gates are deferred to `ai-eval merge`. */
  partial: PartialRun | null;
  /** Suites skipped because the environment filters selected none of their questions. */
  skippedByFilter: SkippedSuiteReport[];
  /** Questions of the suites marked `disabled: true`: not run, outside every figure. */
  disabled?: DisabledQuestionReport[];
  settings: GateSettings;
  baseline: BaselineReport | null;
  /** The run's LLM judges: trust state, what they were validated on, pass rate and health. */
  judges: JudgeReport[];
  /** The trust file the judges' states were read from, as configured; `null` when none was read. */
  judgesFile: string | null;
  targets: TargetReport[];
}
