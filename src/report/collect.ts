import { advisoriesFor } from './advisories.js';
import { groupRecords, totalsOf, type TargetGroup } from './aggregate.js';
import { judgeGates } from './gates.js';
import { compareWithBaseline } from './baseline.js';
import type { EvalRecord } from '../run/record-types.js';
import {
  REPORT_SCHEMA_VERSION,
  type EvalReport,
  type GateSettings,
  type RunIdentity,
  type TargetReport,
} from './model.js';

/**
 * Builds a target's report from its questions: totals, graders (declared, else the graders seen),
 * the action-observing ones and the advisories.
 *
 * @example
 * ```ts
 * const target = targetReport(groupRecords(records)[0]);
 * ```
 */
export function targetReport(group: TargetGroup): TargetReport {
  const d = group.declared;
  const seen = new Map<string, boolean>();
  for (const q of group.questions) for (const g of q.grades) seen.set(g.grader, g.observesActions);
  const graders = d ? [...d.graders] : [...seen.keys()].sort();
  const actionObserving = d ? [...d.actionObserving] : graders.filter((g) => seen.get(g));
  const mode = d?.mode ?? null;
  return {
    name: group.name,
    mode,
    graders,
    actionObserving,
    scoreBy: d?.scoreBy ?? 'avg_score',
    gate: d?.gate ?? null,
    ...totalsOf(group.questions),
    advisories: advisoriesFor({ name: group.name, mode, actionObserving, questions: group.questions }),
    questions: group.questions,
  };
}

/**
 * Assembles the report from target reports: run totals over every question, every advisory,
 * the baseline comparison and the gate verdicts. `shard` says the run is one shard of several (see
 * {@link judgeGates}). Pure; `ai-eval merge` calls it too.
 *
 * @example
 * ```ts
 * const report = assembleReport(targets, identity, gateSettings(options), previous);
 * report.passed; // false when a hard gate failed
 * ```
 */
export function assembleReport(
  targets: TargetReport[],
  identity: RunIdentity,
  settings: GateSettings,
  baseline?: { file: string; report: EvalReport } | null,
  shard = false,
): EvalReport {
  const totals = totalsOf(targets.flatMap((t) => t.questions));
  const changes = baseline ? compareWithBaseline(targets, baseline.report.targets) : null;
  const gates = judgeGates(
    { targets, run: totals, ...(changes ? { baselineChanges: changes } : {}), ...(shard ? { shard } : {}) },
    settings,
  );
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    ...identity,
    ...totals,
    targetCount: targets.length,
    advisories: targets.flatMap((t) => t.advisories),
    gates,
    passed: gates.every((g) => g.passed || g.level === 'soft'),
    settings,
    baseline:
      baseline && changes ? { file: baseline.file, timestamp: baseline.report.timestamp, changes } : null,
    targets,
  };
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
  records: readonly EvalRecord[],
  options: {
    identity: RunIdentity;
    settings: GateSettings;
    root?: string;
    baseline?: { file: string; report: EvalReport } | null;
    /** The runner's shard; one of several makes a gate on a target not in it only warn. */
    shard?: { index: number; count: number } | null;
  },
): EvalReport {
  const groups = groupRecords(records, options.root !== undefined ? { root: options.root } : {});
  return assembleReport(
    groups.map(targetReport),
    options.identity,
    options.settings,
    options.baseline,
    (options.shard?.count ?? 1) > 1,
  );
}
