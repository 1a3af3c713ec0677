import { compareNames, mergeDeclared, questionFromGrades, type TargetGroup } from './aggregate.js';
import { assembleReport, targetReport } from './collect.js';
import type { EvalReport, QuestionReport, RunIdentity, TargetReport } from './model.js';
import type { RecordTarget } from '../run/record-types.js';

/**
 * Merges the JSON reports of several shards into the report one run would have given: questions
 * are pooled per target (a question in several shards pools its grades), every aggregate, advisory
 * and gate is recomputed, and the gate settings of the first report apply. A `maxDrop` (from the
 * shards or the option) without `baseline` fails a hard `baseline` gate: it cannot be checked. Pure.
 *
 * @example
 * ```ts
 * const merged = mergeReports([shard1, shard2], { now: new Date() });
 * merged.passed; // false when a hard gate fails on the whole run
 * ```
 */
export function mergeReports(
  reports: readonly EvalReport[],
  options: {
    now?: Date;
    baseline?: { file: string; report: EvalReport } | null;
    /** Overrides the shards' `maxDrop` (a drop gate needs `baseline`). */
    maxDrop?: number | null;
  } = {},
): EvalReport {
  const first = reports[0];
  if (!first) throw new TypeError('mergeReports needs at least one report');
  const targets = new Map<
    string,
    { declared: RecordTarget | null; questions: Map<string, QuestionReport[]> }
  >();
  for (const report of reports) {
    for (const t of report.targets) {
      let entry = targets.get(t.name);
      if (!entry) {
        entry = { declared: null, questions: new Map() };
        targets.set(t.name, entry);
      }
      // Each shard knows the graders of its own tests: the target runs all of them.
      if (t.mode !== null) entry.declared = mergeDeclared(entry.declared, declaredOf(t));
      for (const q of t.questions) entry.questions.set(q.id, [...(entry.questions.get(q.id) ?? []), q]);
    }
  }
  const merged: TargetReport[] = [...targets.entries()]
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, { declared, questions }]) => {
      const group: TargetGroup = {
        name,
        declared,
        questions: [...questions.entries()]
          .sort(([a], [b]) => compareNames(a, b))
          .map(([id, parts]) => {
            const head = parts[0] as QuestionReport;
            return questionFromGrades(
              id,
              head.test,
              head.passThreshold,
              parts.flatMap((p) => p.grades),
            );
          }),
      };
      return targetReport(group);
    });
  const settings =
    options.maxDrop !== undefined ? { ...first.settings, maxDrop: options.maxDrop } : first.settings;
  const report = assembleReport(
    merged,
    mergedIdentity(reports, options.now ?? new Date()),
    settings,
    options.baseline,
  );
  if (settings.maxDrop !== null && !options.baseline) {
    // The shards' drop gate cannot be judged on the merged run without the baseline: that fails
    // the gate, as a reporter with an unreadable baseline does, rather than passing it unchecked.
    report.gates.push({
      scope: 'baseline',
      level: 'hard',
      passed: false,
      message: `maxDrop ${settings.maxDrop} cannot be checked: no baseline to compare the merged run with; pass --baseline <previous.json> to ai-eval merge`,
    });
    report.passed = false;
  }
  return report;
}

function mergedIdentity(reports: readonly EvalReport[], now: Date): RunIdentity {
  const first = reports[0] as EvalReport;
  return {
    timestamp: now.toISOString(),
    packageVersion: first.packageVersion,
    nodeVersion: first.nodeVersion,
    judgeModel: reports.find((r) => r.judgeModel !== null)?.judgeModel ?? null,
    judgeHash: reports.find((r) => r.judgeHash !== null)?.judgeHash ?? null,
    promptHashes: Object.assign({}, ...reports.map((r) => r.promptHashes)) as Record<string, string>,
    datasetHashes: Object.assign({}, ...reports.map((r) => r.datasetHashes)) as Record<string, string>,
  };
}

function declaredOf(t: TargetReport): RecordTarget {
  return {
    name: t.name,
    mode: t.mode ?? 'chat',
    graders: t.graders,
    actionObserving: t.actionObserving,
    passThreshold: t.questions[0]?.passThreshold ?? 3.5,
    scoreBy: t.scoreBy,
    ...(t.gate ? { gate: t.gate } : {}),
  };
}
