import { advisoriesFor } from './advisories.js';
import { groupRecords, skippedSuites, totalsOf, type TargetGroup } from './aggregate.js';
import { failsRun, judgeGates } from './gates.js';
import { compareWithBaseline } from './baseline.js';
import type { AiEvalRecord } from '../run/record-types.js';
import {
  REPORT_SCHEMA_VERSION,
  type EvalReport,
  type GateSettings,
  type PartialRun,
  type RunIdentity,
  type RunVerdict,
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
export function targetReport(group: TargetGroup): TargetReport {
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
  return {
    name: group.name,
    mode,
    graders,
    actionObserving,
    scoreBy: d?.scoreBy ?? 'avg_score',
    gate: d?.gate ?? null,
    ...totalsOf(group.questions, { notLoaded: group.loadFailures.length, negated: group.negated }),
    advisories: advisoriesFor({ name: group.name, mode, actionObserving, questions: group.questions }),
    questions: group.questions,
    negated: group.negated,
    loadFailures: group.loadFailures,
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
  /** Tests the runner reported failed; `null` or absent when unknown. */
  failedTests?: number | null;
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
  const gates = judgeGates(
    {
      targets,
      run: totals,
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
    settings,
    baseline:
      baseline && changes ? { file: baseline.file, timestamp: baseline.report.timestamp, changes } : null,
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
  },
): EvalReport {
  const where = options.root !== undefined ? { root: options.root } : {};
  const groups = groupRecords(records, where);
  const shard = options.shard;
  return assembleReport(groups.map(targetReport), options.identity, options.settings, {
    baseline: options.baseline ?? null,
    partial: shard && shard.count > 1 ? { reason: 'shard', shard: { ...shard } } : null,
    skippedByFilter: skippedSuites(records, where),
    failedTests: options.failedTests ?? null,
  });
}
