import { advisoriesFor } from './advisories.js';
import {
  disabledQuestions,
  groupRecords,
  skippedSuites,
  totalsOf,
  type PrebuiltQuestions,
  type TargetGroup,
} from './aggregate.js';
import { failsRun, judgeGates } from './gates.js';
import { compareWithBaseline } from './baseline.js';
import type { AiEvalRecord } from '../run/record-types.js';
import type { TrustFile } from './judge-trust.js';
import {
  runJudges,
  targetJudges,
  trustLookup,
  untrustedJudgesAdvisory,
  type JudgeTrustLookup,
} from './judges.js';
import {
  REPORT_SCHEMA_VERSION,
  type EvalReport,
  type GateSettings,
  type PartialRun,
  type RunIdentity,
  type RunVerdict,
  type DisabledQuestionReport,
  type SkippedSuiteReport,
  type TargetReport,
} from './model.js';

/**
 * Builds a target's report from its questions: totals (with coverage, counting its datasets that
 * did not load), graders (declared, else the graders seen), the action-observing ones, negated
 * assertions, load failures and the advisories.
 *
 * @example
 * ```ts
 * const target = targetReport(groupRecords(records)[0]);
 * ```
 */
export function targetReport(group: TargetGroup, lookup: JudgeTrustLookup = new Map()): TargetReport {
  const d = group.declared;
  // Whether each grader observed actions in any of its grades: the flag is per grade, since
  // rubric_checks observes only through its tool_usage and state checks.
  const seen = new Map<string, boolean>();
  const note = (g: { grader: string; observesActions: boolean }) =>
    seen.set(g.grader, (seen.get(g.grader) ?? false) || g.observesActions);
  for (const q of group.questions) for (const g of q.grades) note(g);
  for (const n of group.negated) for (const g of n.grades) note(g);
  const graders = d ? [...d.graders] : [...seen.keys()].sort();
  const observedPerGrade = [...seen]
    .filter(([id, observed]) => observed && graders.includes(id))
    .map(([id]) => id);
  const actionObserving = d
    ? [...d.actionObserving, ...observedPerGrade.filter((id) => !d.actionObserving.includes(id))]
    : graders.filter((g) => seen.get(g));
  const mode = d?.mode ?? null;
  const judges = targetJudges(group.questions, lookup);
  const untrusted = untrustedJudgesAdvisory(group.name, judges);
  return {
    name: group.name,
    mode,
    graders,
    actionObserving,
    scoreBy: d?.scoreBy ?? 'avg_score',
    gate: d?.gate ?? null,
    ...totalsOf(group.questions, { notLoaded: group.loadFailures.length, negated: group.negated }),
    advisories: [
      ...advisoriesFor({ name: group.name, mode, actionObserving, questions: group.questions }),
      ...(untrusted ? [untrusted] : []),
    ],
    questions: group.questions,
    negated: group.negated,
    loadFailures: group.loadFailures,
    judges,
  };
}

/** What {@link assembleReport} takes beside the targets, identity and settings. */
export interface AssembleOptions {
  /** A previous report to compare with. */
  baseline?: { file: string; report: EvalReport } | null;
  /** Set when the report covers one shard of several: its hard gates are deferred. */
  partial?: PartialRun | null;
  /** Suites the environment filters left without a question. */
  skippedByFilter?: readonly SkippedSuiteReport[];
  /** The disabled questions of the run's suites. */
  disabled?: readonly DisabledQuestionReport[];
  /** Tests the runner reported failed; `null` or absent when unknown. */
  failedTests?: number | null;
  /** The judges' trust, by id (from the trust file, or the shards' reports). */
  judgeTrust?: JudgeTrustLookup;
  /** The trust file read, as configured. */
  judgesFile?: string | null;
}

/**
 * Assembles the report from target reports: run totals over every question (coverage included),
 * every advisory, the baseline comparison, the gate verdicts (deferred in a partial run) and the
 * headline verdict. Pure; `ai-eval merge` calls it too.
 *
 * @example
 * ```ts
 * const report = assembleReport(targets, identity, gateSettings(options), { failedTests: 0 });
 * report.verdict; // 'failed' when a hard gate failed
 * ```
 */
export function assembleReport(
  targets: TargetReport[],
  identity: RunIdentity,
  settings: GateSettings,
  options: AssembleOptions = {},
): EvalReport {
  const questions = targets.flatMap((t) => t.questions);
  const notLoaded = targets.reduce((n, t) => n + t.loadFailures.length, 0);
  const totals = totalsOf(questions, { notLoaded, negated: targets.flatMap((t) => t.negated) });
  const baseline = options.baseline ?? null;
  const changes = baseline ? compareWithBaseline(targets, baseline.report.targets) : null;
  const partial = options.partial ?? null;
  const skippedByFilter = [...(options.skippedByFilter ?? [])];
  const suiteQuestions = questions.filter((q) => q.dataset !== undefined).length + notLoaded;
  const judges = runJudges(questions, options.judgeTrust ?? new Map());
  const gates = judgeGates(
    {
      targets,
      run: { ...totals, judges },
      ...(changes ? { baselineChanges: changes } : {}),
      filters: { skipped: skippedByFilter, suiteQuestions },
      ...(partial ? { shard: true } : {}),
    },
    settings,
  );
  const report: EvalReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    ...identity,
    ...totals,
    targetCount: targets.length,
    advisories: targets.flatMap((t) => t.advisories),
    gates,
    verdict: 'incomplete',
    passed: false,
    failedTests: options.failedTests ?? null,
    partial,
    skippedByFilter,
    ...(options.disabled && options.disabled.length > 0 ? { disabled: [...options.disabled] } : {}),
    settings,
    baseline:
      baseline && changes ? { file: baseline.file, timestamp: baseline.report.timestamp, changes } : null,
    judges,
    judgesFile: options.judgesFile ?? null,
    targets,
  };
  return settleVerdict(report);
}

/**
 * What the headline says (see {@link RunVerdict}): a failed test or a failed hard gate fails the
 * run; a shard is partial; a planned question without a composite leaves it incomplete; with no
 * gate at all nothing decided it; otherwise it passed.
 *
 * @example
 * ```ts
 * runVerdict(report); // 'incomplete'
 * ```
 */
export function runVerdict(
  report: Pick<EvalReport, 'gates' | 'failedTests' | 'partial' | 'coverage'>,
): RunVerdict {
  if ((report.failedTests ?? 0) > 0) return 'failed';
  if (report.partial) return 'partial';
  if (report.gates.some(failsRun)) return 'failed';
  if (report.coverage.share !== 1) return 'incomplete';
  if (report.gates.length === 0) return 'ungated';
  return 'passed';
}

/**
 * Sets `verdict` and `passed` from the report's gates, tests and coverage; call it again after
 * adding a gate verdict.
 *
 * @example
 * ```ts
 * report.gates.push(verdict);
 * settleVerdict(report).passed;
 * ```
 */
export function settleVerdict(report: EvalReport): EvalReport {
  report.verdict = runVerdict(report);
  report.passed = report.verdict === 'passed';
  return report;
}

/**
 * Collects records into the report: group, aggregate, advise, compare, gate. Pure.
 *
 * @example
 * ```ts
 * const report = collect(records, { identity: runIdentity(records, new Date()), settings: gateSettings({}) });
 * ```
 */
export function collect(
  records: readonly AiEvalRecord[],
  options: {
    identity: RunIdentity;
    settings: GateSettings;
    root?: string;
    baseline?: { file: string; report: EvalReport } | null;
    /** The runner's shard; one of several makes the report partial and defers its hard gates. */
    shard?: { index: number; count: number } | null;
    /** Tests the runner reported failed; `null` or absent when unknown. */
    failedTests?: number | null;
    /** The trust file's content, and the file as configured. */
    trust?: { file: string; content: TrustFile } | null;
    /** Questions built while the run went on (see {@link PrebuiltQuestions}). */
    prebuilt?: PrebuiltQuestions | undefined;
  },
): EvalReport {
  const where = options.root !== undefined ? { root: options.root } : {};
  const groups = groupRecords(records, { ...where, prebuilt: options.prebuilt });
  const shard = options.shard;
  const lookup = trustLookup(options.identity, options.trust?.content ?? { version: 1, judges: {} });
  return assembleReport(
    groups.map((g) => targetReport(g, lookup)),
    options.identity,
    options.settings,
    {
      judgeTrust: lookup,
      judgesFile: options.trust?.file ?? null,
      baseline: options.baseline ?? null,
      partial: shard && shard.count > 1 ? { reason: 'shard', shard: { ...shard } } : null,
      skippedByFilter: skippedSuites(records, where),
      disabled: disabledQuestions(records, where),
      failedTests: options.failedTests ?? null,
    },
  );
}
