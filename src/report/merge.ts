import { compareNames, questionFromGrades, type TargetGroup } from '../run/aggregate.js';
import { assembleReport, targetReport } from './collect.js';
import type { EvalReport, QuestionReport, RunIdentity, TargetReport } from './model.js';

/**
 * Merges the JSON reports of several shards into the report one run would have given: questions
 * are pooled per target (a question in several shards pools its grades), every aggregate, advisory
 * and gate is recomputed, and the gate settings of the first report apply. Pure.
 *
 * @example
 * ```ts
 * const merged = mergeReports([shard1, shard2], { now: new Date() });
 * merged.passed; // false when a hard gate fails on the whole run
 * ```
 */
export function mergeReports(
  reports: readonly EvalReport[],
  options: { now?: Date; baseline?: { file: string; report: EvalReport } | null } = {},
): EvalReport {
  const first = reports[0];
  if (!first) throw new TypeError('mergeReports needs at least one report');
  const targets = new Map<string, { sample: TargetReport; questions: Map<string, QuestionReport[]> }>();
  for (const report of reports) {
    for (const t of report.targets) {
      let entry = targets.get(t.name);
      if (!entry) {
        entry = { sample: t, questions: new Map() };
        targets.set(t.name, entry);
      }
      if (entry.sample.mode === null && t.mode !== null) entry.sample = t;
      for (const q of t.questions) entry.questions.set(q.id, [...(entry.questions.get(q.id) ?? []), q]);
    }
  }
  const merged: TargetReport[] = [...targets.entries()]
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, { sample, questions }]) => {
      const group: TargetGroup = {
        name,
        declared:
          sample.mode === null
            ? null
            : {
                name,
                mode: sample.mode,
                graders: sample.graders,
                actionObserving: sample.actionObserving,
                passThreshold: sample.questions[0]?.passThreshold ?? 3.5,
                scoreBy: sample.scoreBy,
                ...(sample.gate ? { gate: sample.gate } : {}),
              },
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
  return assembleReport(
    merged,
    mergedIdentity(reports, options.now ?? new Date()),
    first.settings,
    options.baseline,
  );
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
