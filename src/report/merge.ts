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
 * judged here). Refuses (`MERGE_MISMATCH`) the same report given twice, reports gated with
 * different settings, shard reports that are not one complete set (a shard missing or given twice,
 * shards of different counts, a shard beside a whole run), and whole runs (not shards) that hold
 * the same question: two runs are compared with `diffReports`, never pooled. Whole runs of
 * different questions merge. A `maxDrop` (from the shards or the option) without `baseline` fails
 * a hard `baseline` gate: it cannot be checked. Pure.
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
  checkDistinct(reports, names);
  checkSameSettings(reports, names);
  checkShards(reports, names);
  checkWholeRuns(reports, names);
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

const mismatch = (message: string): never => {
  throw new AiEvalError('MERGE_MISMATCH', message);
};

const ONE_RUN = 'ai-eval merge combines the shards of one run (--shard=1/n to n/n)';

/** The same run identity, the same shard and the same content: one report given twice. */
function sameReport(a: EvalReport, b: EvalReport): boolean {
  return (
    a.timestamp === b.timestamp &&
    a.packageVersion === b.packageVersion &&
    a.nodeVersion === b.nodeVersion &&
    a.judgeHash === b.judgeHash &&
    canonicalJson(a.partial) === canonicalJson(b.partial) &&
    a.questionCount === b.questionCount &&
    a.targets.length === b.targets.length &&
    canonicalJson(a.targets) === canonicalJson(b.targets)
  );
}

/** No report may be given twice (a file named twice, or a copy of it). */
function checkDistinct(reports: readonly EvalReport[], names: readonly string[]): void {
  for (let i = 0; i < reports.length; i++) {
    for (let j = i + 1; j < reports.length; j++) {
      const a = reports[i] as EvalReport;
      if (!sameReport(a, reports[j] as EvalReport)) continue;
      const shard = a.partial?.shard;
      const which = shard
        ? `shard ${shard.index} of ${shard.count} of the run of ${a.timestamp}`
        : `the run of ${a.timestamp}`;
      mismatch(
        `${names[i]} and ${names[j]} are the same report (${which}) given twice. Give each report once: ${ONE_RUN}.`,
      );
    }
  }
}

/**
 * Whole runs (no shard) merge only when they share no question (nor load failure, nor negated
 * assertion): two runs of the same question are two measurements of it, and pooling their grades
 * would hide one run in the other (a run whose every grader skipped would take the other's score).
 */
function checkWholeRuns(reports: readonly EvalReport[], names: readonly string[]): void {
  if (reports.length < 2 || reports.some((r) => r.partial)) return;
  const owner = new Map<string, number>();
  let clash: { first: number; second: number; what: string } | undefined;
  let more = 0;
  reports.forEach((report, i) => {
    for (const t of report.targets) {
      const keys: Array<[key: string, what: string]> = [
        ...t.questions.map((q): [string, string] => [
          `q\u0000${questionKey(q.id, q.test.file)}`,
          `${t.name} › ${q.id} (${q.test.file})`,
        ]),
        ...(t.loadFailures ?? []).map((f): [string, string] => [
          `l\u0000${f.suite}\u0000${f.dataset}\u0000${f.test.file}`,
          `${t.name} › dataset ${f.dataset} (${f.test.file})`,
        ]),
        ...(t.negated ?? []).map((n): [string, string] => [
          `n\u0000${n.question}\u0000${n.grader}\u0000${n.test.file}\u0000${n.test.name}`,
          `${t.name} › .not ${n.grader} on ${n.question} (${n.test.file})`,
        ]),
      ];
      for (const [key, what] of keys) {
        const scoped = `${t.name}\u0000${key}`;
        const j = owner.get(scoped);
        if (j === undefined) owner.set(scoped, i);
        else if (j !== i) {
          if (!clash) clash = { first: j, second: i, what };
          else if (clash.first === j && clash.second === i) more++;
        }
      }
    }
  });
  if (!clash) return;
  const [a, b] = [names[clash.first], names[clash.second]];
  const others = more > 0 ? ` and ${more} more question${more === 1 ? '' : 's'}` : '';
  mismatch(
    `${a} and ${b} are two whole runs (neither is a shard) that both hold ${clash.what}${others}: merged, the grades of both runs would be pooled into one question. ${ONE_RUN}, each once; to compare two runs, use ai-eval diff ${a} ${b}.`,
  );
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
  const fail = (what: string): never =>
    mismatch(`${what}. Merge the reports of every shard of one run (--shard=1/n to n/n), each once.`);
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
