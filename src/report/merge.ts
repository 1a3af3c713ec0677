import { AiEvalError } from '../errors.js';
import { canonicalJson } from '../internal/canonical-json.js';
import {
  compareDisabled,
  compareLoadFailures,
  compareNames,
  compareNegated,
  compareQuestions,
  mergeDeclared,
  questionFromGrades,
  questionKey,
  type TargetGroup,
} from './aggregate.js';
import { assembleReport, settleVerdict, targetReport } from './collect.js';
import { lookupFromReports } from './judges.js';
import type { EvalReport, QuestionReport, RunIdentity, TargetReport } from './model.js';
import type { RecordTarget } from '../run/record-types.js';

/**
 * Merges the JSON reports of several shards into the report one run would have given: questions
 * are pooled per target, question id and test file (a question in several shards pools its
 * grades), negated assertions, load failures and filter skips are kept, and every aggregate,
 * advisory, gate and the verdict are recomputed on the whole run (the shards' deferred gates are
 * judged here). Refuses (`MERGE_MISMATCH`) reports gated with different settings, and shard reports
 * that are not one complete set (a shard missing or given twice, shards of different counts, a
 * shard beside a whole run). A `maxDrop` (from the shards or the option) without `baseline` fails a
 * hard `baseline` gate: it cannot be checked. Pure.
 *
 * @example
 * ```ts
 * const merged = mergeReports([shard1, shard2], { now: new Date(), names: ['s1.json', 's2.json'] });
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
    /** The reports' file names, for error messages. */
    names?: readonly string[];
  } = {},
): EvalReport {
  const first = reports[0];
  if (!first) throw new TypeError('mergeReports needs at least one report');
  const names = reports.map((_, i) => options.names?.[i] ?? `report ${i + 1}`);
  checkSameSettings(reports, names);
  checkShards(reports, names);
  const targets = new Map<string, Pooled>();
  for (const report of reports) for (const t of report.targets) pool(targets, t);
  // The shards read the same trust file: their judges carry the states (older reports have none).
  const judgeTrust = lookupFromReports(reports.map((r) => r.judges ?? []));
  const merged: TargetReport[] = [...targets.entries()]
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, entry]) => targetReport(groupOf(name, entry), judgeTrust));
  const settings =
    options.maxDrop !== undefined ? { ...first.settings, maxDrop: options.maxDrop } : first.settings;
  const failed = reports.map((r) => r.failedTests);
  const report = assembleReport(merged, mergedIdentity(reports, options.now ?? new Date()), settings, {
    baseline: options.baseline ?? null,
    judgeTrust,
    judgesFile: first.judgesFile ?? null,
    skippedByFilter: reports.flatMap((r) => r.skippedByFilter).sort(compareLoadFailures),
    disabled: reports.flatMap((r) => r.disabled ?? []).sort(compareDisabled),
    failedTests: failed.every((n): n is number => typeof n === 'number')
      ? failed.reduce((a, b) => a + b, 0)
      : null,
  });
  if (settings.maxDrop !== null && !options.baseline) {
    // The shards' drop gate cannot be judged on the merged run without the baseline: that fails
    // the gate, as a reporter with an unreadable baseline does, rather than passing it unchecked.
    report.gates.push({
      scope: 'baseline',
      level: 'hard',
      passed: false,
      message: `maxDrop ${settings.maxDrop} cannot be checked: no baseline to compare the merged run with; pass --baseline <previous.json> to ai-eval merge`,
    });
    settleVerdict(report);
  }
  return report;
}

interface Pooled {
  declared: RecordTarget | null;
  questions: Map<string, QuestionReport[]>;
  negated: TargetReport['negated'];
  loadFailures: TargetReport['loadFailures'];
}

function pool(targets: Map<string, Pooled>, t: TargetReport): void {
  let entry = targets.get(t.name);
  if (!entry) {
    entry = { declared: null, questions: new Map(), negated: [], loadFailures: [] };
    targets.set(t.name, entry);
  }
  // Each shard knows the graders of its own tests: the target runs all of them.
  if (t.mode !== null) entry.declared = mergeDeclared(entry.declared, declaredOf(t));
  for (const q of t.questions) {
    const key = questionKey(q.id, q.test.file);
    entry.questions.set(key, [...(entry.questions.get(key) ?? []), q]);
  }
  entry.negated.push(...t.negated);
  entry.loadFailures.push(...t.loadFailures);
}

function groupOf(name: string, entry: Pooled): TargetGroup {
  return {
    name,
    declared: entry.declared,
    questions: [...entry.questions.values()]
      .map((parts) => {
        const head = parts[0] as QuestionReport;
        const grades = parts.flatMap((p) => p.grades).sort((a, b) => a.trial - b.trial);
        const question = questionFromGrades(head.id, head.test, head.passThreshold, grades, head.dataset);
        // The time its test(s) ran, summed over the shards that ran a part of it.
        const times = parts.map((p) => p.durationMs).filter((d): d is number => typeof d === 'number');
        if (times.length > 0) question.durationMs = times.reduce((a, b) => a + b, 0);
        // Each trial's evidence, from the shard that ran it.
        const evidence = parts.flatMap((p) => p.evidence ?? []).sort((a, b) => a.trial - b.trial);
        if (evidence.length > 0) question.evidence = evidence;
        return question;
      })
      .sort(compareQuestions),
    negated: [...entry.negated].sort(compareNegated),
    loadFailures: [...entry.loadFailures].sort(compareLoadFailures),
  };
}

/** Every report must carry the gate settings of the first: one run is gated one way. */
function checkSameSettings(reports: readonly EvalReport[], names: readonly string[]): void {
  const expected = canonicalJson((reports[0] as EvalReport).settings);
  reports.forEach((r, i) => {
    if (canonicalJson(r.settings) === expected) return;
    throw new AiEvalError(
      'MERGE_MISMATCH',
      `${names[i]} was gated with other settings than ${names[0]} (${settingsDiff(reports[0] as EvalReport, r)}). The shards of one run must share one reporter configuration: give every shard the same gate, gates, failOnAdvisory, failOnError and maxDrop, then run them again.`,
    );
  });
}

function settingsDiff(a: EvalReport, b: EvalReport): string {
  const keys = Object.keys(a.settings) as Array<keyof EvalReport['settings']>;
  const differ = keys.filter((k) => canonicalJson(a.settings[k]) !== canonicalJson(b.settings[k]));
  return differ
    .map((k) => `${k}: ${canonicalJson(a.settings[k])} vs ${canonicalJson(b.settings[k])}`)
    .join('; ');
}

/** Shard reports must be one complete set: each shard of one count exactly once. */
function checkShards(reports: readonly EvalReport[], names: readonly string[]): void {
  const shards = reports.map((r) => r.partial?.shard ?? null);
  if (shards.every((s) => s === null)) return;
  const fail = (what: string): never => {
    throw new AiEvalError(
      'MERGE_MISMATCH',
      `ai-eval merge: ${what}. Merge the reports of every shard of one run (--shard=1/n to n/n), each once.`,
    );
  };
  const whole = shards.findIndex((s) => s === null);
  if (whole >= 0) fail(`${names[whole]} is a whole run, the others are shards`);
  const count = (shards[0] as { count: number }).count;
  const other = shards.findIndex((s) => s?.count !== count);
  if (other >= 0)
    fail(
      `${names[other]} is shard ${shards[other]?.index} of ${shards[other]?.count}, ${names[0]} one of ${count}`,
    );
  const seen = new Map<number, string>();
  shards.forEach((s, i) => {
    const index = (s as { index: number }).index;
    const earlier = seen.get(index);
    if (earlier !== undefined) fail(`${earlier} and ${names[i]} are both shard ${index} of ${count}`);
    seen.set(index, names[i] as string);
  });
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) fail(`shard ${missing.join(', ')} of ${count} is missing`);
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
