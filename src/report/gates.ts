import { own } from '../internal/own.js';
import type { Gate } from '../run/target.js';
import { describeFilters } from '../run/filters.js';
import { plural } from '../internal/text.js';
import type { TargetJudgeReport } from './judge-report-types.js';
import type {
  BaselineChange,
  Coverage,
  GateSettings,
  GateVerdict,
  SkippedSuiteReport,
  TargetReport,
  Totals,
} from './model.js';

/** The figures one gate reads: the judges too, for `requireTrustedJudges` and `maxJudgeErrorRate`. */
type GateFigures = Pick<Totals, 'averageScore' | 'passRate' | 'coverage'> & {
  judges?: readonly Pick<TargetJudgeReport, 'id' | 'trust' | 'health' | 'passRate'>[];
};

/** What the gates look at. */
export interface GateInput {
  targets: readonly (Pick<TargetReport, 'name' | 'gate' | 'advisories'> & GateFigures)[];
  run: GateFigures & Pick<Totals, 'errorCount'>;
  /** Target-level changes against a baseline, when one was compared. */
  baselineChanges?: readonly BaselineChange[];
  /**
   * The suites the environment filters skipped, and how many questions suites ran: when filters
   * skipped suites and no suite ran a question, the filters selected nothing anywhere.
   */
  filters?: { skipped: readonly SkippedSuiteReport[]; suiteQuestions: number };
  /**
   * The run is one shard of several: every hard verdict is judged on partial data, so it is
   * `deferred` (it fails nothing) and `ai-eval merge` judges it on the whole run.
   */
  shard?: boolean;
}

/**
 * The coverage a gate asks for when it names none: every planned question scored.
 *
 * @example
 * ```ts
 * const min = gate.minCoverage ?? DEFAULT_MIN_COVERAGE; // 1
 * ```
 */
export const DEFAULT_MIN_COVERAGE = 1;

/**
 * Judges the gates: each target's own gate (an entry of `settings.targetGates` wins over the
 * target's declared gate), the run gate, `failOnAdvisory`, `failOnError`, `maxDrop` against a
 * baseline, and the environment filters (hard: they selected no question in any suite). A gate
 * passes only when its conditions hold over the questions it could score and its coverage holds
 * (`minCoverage`, default 1). A `settings.targetGates` entry that names no target in the run fails
 * at its level. In one shard of several every hard verdict is deferred to `ai-eval merge`.
 * The run fails when any hard verdict failed and was not deferred; soft verdicts only warn.
 *
 * @example
 * ```ts
 * const verdicts = judgeGates(input, { gate: { level: 'hard', minAverage: 3.5 }, targetGates: {},
 *   failOnAdvisory: false, failOnError: false, maxDrop: null });
 * const failed = verdicts.some((v) => v.level === 'hard' && !v.passed && !v.deferred);
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
      level: gate.level,
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
  const filters = input.filters;
  if (filters && filters.skipped.length > 0 && filters.suiteQuestions === 0) {
    const first = filters.skipped[0] as SkippedSuiteReport;
    verdicts.push({
      scope: 'filters',
      level: 'hard',
      passed: false,
      message: `filters: ${describeFilters(first.filters)} selected no question in any suite (${plural(filters.skipped.length, 'suite')} skipped); check AI_EVAL_IDS, AI_EVAL_TAGS and AI_EVAL_SPLIT`,
    });
  }
  return input.shard ? verdicts.map((v) => (v.level === 'hard' ? { ...v, deferred: true } : v)) : verdicts;
}

/**
 * Whether a gate verdict fails the run: a hard verdict that failed and was not deferred.
 *
 * @example
 * ```ts
 * report.gates.filter(failsRun).map((g) => g.message);
 * ```
 */
export function failsRun(verdict: GateVerdict): boolean {
  return verdict.level === 'hard' && !verdict.passed && verdict.deferred !== true;
}

function checkGate(scope: string, gate: Gate, figures: GateFigures): GateVerdict[] {
  const verdicts: GateVerdict[] = [];
  const { coverage } = figures;
  if (gate.minAverage !== undefined) {
    const avg = figures.averageScore;
    const passed = avg !== null && avg >= gate.minAverage - 1e-9;
    verdicts.push({
      scope,
      level: gate.level,
      passed,
      message:
        avg === null
          ? `${scope}: no scored question (0 of ${coverage.planned} planned), so no average can meet the minimum ${fmt(gate.minAverage)}`
          : `${scope}: average ${fmt(avg)} over ${scoredOf(coverage)} ${passed ? 'meets' : 'is below'} the minimum ${fmt(gate.minAverage)}`,
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
  verdicts.push(...judgeVerdicts(scope, gate, figures.judges ?? []));
  const min = gate.minCoverage ?? DEFAULT_MIN_COVERAGE;
  const share = coverage.share;
  const passed = share !== null && share >= min - 1e-9;
  verdicts.push({
    scope,
    level: gate.level,
    passed,
    message:
      share === null
        ? `${scope}: nothing was planned, so no coverage can meet the minimum ${pct(min)}`
        : `${scope}: coverage ${pct(share)} (${coverageDetail(coverage)}) ${passed ? 'meets' : 'is below'} the minimum ${pct(min)}`,
  });
  return verdicts;
}

/** `requireTrustedJudges` and `maxJudgeErrorRate`: over the judges that were asked anything. */
function judgeVerdicts(
  scope: string,
  gate: Gate,
  judges: readonly Pick<TargetJudgeReport, 'id' | 'trust' | 'health' | 'passRate'>[],
): GateVerdict[] {
  const verdicts: GateVerdict[] = [];
  const asked = judges.filter((j) => j.health.calls > 0);
  if (gate.requireTrustedJudges === true) {
    const rest = asked.filter((j) => j.trust !== 'trusted');
    verdicts.push({
      scope,
      level: gate.level,
      passed: rest.length === 0,
      message:
        rest.length === 0
          ? `${scope}: ${asked.length ? `every LLM judge is trusted (${asked.map((j) => j.id).join(', ')})` : 'no LLM judge graded anything'}`
          : `${scope}: requireTrustedJudges, but ${rest.map((j) => `${j.id} is ${j.trust}`).join(', ')}`,
    });
  }
  const max = gate.maxJudgeErrorRate;
  if (max !== undefined) {
    const over = asked.filter((j) => (j.health.errorRate ?? 0) > max + 1e-9);
    const rate = (j: (typeof asked)[number]) =>
      `${j.id} ${pct(j.health.errorRate)} (${j.health.errors} of ${j.health.calls})`;
    verdicts.push({
      scope,
      level: gate.level,
      passed: over.length === 0,
      message:
        over.length === 0
          ? `${scope}: judge error rates ${asked.length ? asked.map(rate).join(', ') : '-'} within the maximum ${pct(max)}`
          : `${scope}: judge error rate ${over.map(rate).join(', ')} above the maximum ${pct(max)}`,
    });
  }
  return verdicts;
}

/**
 * How many planned questions were scored, for messages: `1 of 6 scored`.
 *
 * @example
 * ```ts
 * scoredOf(report.coverage); // '1 of 6 scored'
 * ```
 */
export function scoredOf(coverage: Coverage): string {
  return `${coverage.scored} of ${coverage.planned} scored`;
}

/**
 * The coverage in words: how many planned questions were scored and what happened to the rest.
 *
 * @example
 * ```ts
 * coverageDetail(report.coverage); // '1 of 6 planned questions scored, 5 errored'
 * ```
 */
export function coverageDetail(coverage: Coverage): string {
  const rest = [
    coverage.errored ? `${coverage.errored} errored` : '',
    coverage.unscored ? `${coverage.unscored} unscored` : '',
    coverage.notLoaded ? `${plural(coverage.notLoaded, 'dataset')} not loaded` : '',
  ].filter((p) => p !== '');
  const head = `${coverage.scored} of ${plural(coverage.planned, 'planned question')} scored`;
  return [head, ...rest].join(', ');
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
