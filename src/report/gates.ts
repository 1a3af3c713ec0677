import { own } from '../internal/own.js';
import type { Gate } from '../run/target.js';
import type { BaselineChange, GateSettings, GateVerdict, TargetReport, Totals } from './model.js';

/** What the gates look at. */
export interface GateInput {
  targets: readonly Pick<TargetReport, 'name' | 'gate' | 'averageScore' | 'passRate' | 'advisories'>[];
  run: Pick<Totals, 'averageScore' | 'passRate' | 'errorCount'>;
  /** Target-level changes against a baseline, when one was compared. */
  baselineChanges?: readonly BaselineChange[];
  /**
   * The run is one shard of several: a gated target may be in another shard, so a gate that names
   * no target here only warns (`ai-eval merge` judges it on the whole run).
   */
  shard?: boolean;
}

/**
 * Judges the gates: each target's own gate (an entry of `settings.targetGates` wins over the
 * target's declared gate), the run gate, `failOnAdvisory`, `failOnError` and `maxDrop` against a
 * baseline. A `settings.targetGates` entry that names no target in the run fails at its level
 * (in one shard of several it only warns).
 * The run fails when any hard verdict failed; soft verdicts only warn.
 *
 * @example
 * ```ts
 * const verdicts = judgeGates(input, { gate: { level: 'hard', minAverage: 3.5 }, targetGates: {},
 *   failOnAdvisory: false, failOnError: false, maxDrop: null });
 * const failed = verdicts.some((v) => v.level === 'hard' && !v.passed);
 * ```
 */
export function judgeGates(input: GateInput, settings: GateSettings): GateVerdict[] {
  const verdicts: GateVerdict[] = [];
  for (const target of input.targets) {
    const gate = own(settings.targetGates, target.name) ?? target.gate;
    if (gate) verdicts.push(...checkGate(target.name, gate, target));
  }
  // A gate for a target the run does not have (a typo, a renamed target) must not pass quietly.
  const names = input.targets.map((t) => t.name);
  for (const [name, gate] of Object.entries(settings.targetGates)) {
    if (names.includes(name)) continue;
    const known = names.length ? names.join(', ') : 'none';
    verdicts.push({
      scope: name,
      level: input.shard ? 'soft' : gate.level,
      passed: false,
      message: input.shard
        ? `${name}: no target named '${name}' in this shard (ai-eval merge checks the whole run); targets: ${known}`
        : `${name}: no target named '${name}' in this run; targets: ${known}`,
    });
  }
  if (settings.gate) verdicts.push(...checkGate('run', settings.gate, input.run));
  if (settings.failOnAdvisory) {
    const count = input.targets.reduce((n, t) => n + t.advisories.length, 0);
    verdicts.push({
      scope: 'advisories',
      level: 'hard',
      passed: count === 0,
      message:
        count === 0
          ? 'no advisories'
          : `${count} advisor${count === 1 ? 'y' : 'ies'} and failOnAdvisory is set`,
    });
  }
  if (settings.failOnError) {
    const n = input.run.errorCount;
    verdicts.push({
      scope: 'errors',
      level: 'hard',
      passed: n === 0,
      message: n === 0 ? 'no grader errors' : `${n} grader error${n === 1 ? '' : 's'} and failOnError is set`,
    });
  }
  if (settings.maxDrop !== null && input.baselineChanges) {
    for (const change of input.baselineChanges) {
      if (change.question !== undefined || change.kind === 'new' || change.kind === 'removed') continue;
      const drop = change.delta === null ? (change.after === null ? Infinity : 0) : -change.delta;
      verdicts.push({
        scope: 'baseline',
        level: 'hard',
        passed: drop <= settings.maxDrop + 1e-9,
        message: `${change.target}: average ${fmt(change.before)} -> ${fmt(change.after)} (${signed(change.delta)}), allowed drop ${fmt(settings.maxDrop)}`,
      });
    }
  }
  return verdicts;
}

function checkGate(
  scope: string,
  gate: Gate,
  figures: { averageScore: number | null; passRate: number | null },
): GateVerdict[] {
  const verdicts: GateVerdict[] = [];
  if (gate.minAverage !== undefined) {
    const avg = figures.averageScore;
    const passed = avg !== null && avg >= gate.minAverage - 1e-9;
    verdicts.push({
      scope,
      level: gate.level,
      passed,
      message:
        avg === null
          ? `${scope}: no scored question, so no average can meet the minimum ${fmt(gate.minAverage)}`
          : `${scope}: average ${fmt(avg)} ${passed ? 'meets' : 'is below'} the minimum ${fmt(gate.minAverage)}`,
    });
  }
  if (gate.minPassRate !== undefined) {
    const rate = figures.passRate;
    const passed = rate !== null && rate >= gate.minPassRate - 1e-9;
    verdicts.push({
      scope,
      level: gate.level,
      passed,
      message:
        rate === null
          ? `${scope}: no questions, so no pass rate can meet the minimum ${pct(gate.minPassRate)}`
          : `${scope}: pass rate ${pct(rate)} ${passed ? 'meets' : 'is below'} the minimum ${pct(gate.minPassRate)}`,
    });
  }
  return verdicts;
}

/**
 * A score for display with two decimals, `-` for none.
 *
 * @example
 * ```ts
 * fmt(3.456); // '3.46'
 * ```
 */
export function fmt(value: number | null): string {
  return value === null ? '-' : value.toFixed(2);
}

/**
 * A share as a whole percentage, `-` for none.
 *
 * @example
 * ```ts
 * pct(0.5); // '50%'
 * ```
 */
export function pct(value: number | null): string {
  return value === null ? '-' : `${Math.round(value * 100)}%`;
}

/**
 * A signed difference with two decimals.
 *
 * @example
 * ```ts
 * signed(0.5); // '+0.50'
 * ```
 */
export function signed(value: number | null): string {
  if (value === null) return '-';
  return `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
}
