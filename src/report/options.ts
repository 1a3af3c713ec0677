import { AiEvalError } from '../errors.js';
import type { Gate } from '../run/target.js';
import type { GateSettings } from './model.js';

/**
 * Options of both reporters (`['ai-eval/reporter/vitest', options]`, `['ai-eval/reporter/jest',
 * options]`). Every file option is resolved against the project root.
 */
export interface ReporterOptions {
  /**
   * Write the JSON report here (atomically). In every file option, `[shard]` stands for the
   * runner's shard (`2-of-3`, or `1-of-1` when the run is not sharded).
   */
  outputFile?: string;
  /** Write a JUnit XML file here: one testcase per question, each grade a property. */
  junitFile?: string;
  /** Write a Markdown summary here. It is also appended to `$GITHUB_STEP_SUMMARY` when that is set. */
  markdownFile?: string;
  /** A gate on the whole run. */
  gate?: Gate;
  /** Gates by target name; each wins over the gate the target declares. */
  gates?: Record<string, Gate>;
  /** Fail the run (hard) when there is any advisory. Default false. */
  failOnAdvisory?: boolean;
  /** Fail the run (hard) when any grader errored. Default false. */
  failOnError?: boolean;
  /** A previous JSON report to compare with: what improved and what regressed. */
  baseline?: string;
  /** With `baseline`: fail the run when a target's average drops by more than this (0 to 5). */
  maxDrop?: number;
  /** How many of the weakest questions the summary lists. Default 5. */
  weakest?: number;
  /** Force colour on or off. Default: on for a TTY unless `NO_COLOR` is set. */
  colors?: boolean;
  /** Print the terminal summary. Default true. */
  summary?: boolean;
  /** The project root that test files and output files are relative to. Default the runner's root. */
  root?: string;
}

const KEYS = new Set([
  'outputFile',
  'junitFile',
  'markdownFile',
  'gate',
  'gates',
  'failOnAdvisory',
  'failOnError',
  'baseline',
  'maxDrop',
  'weakest',
  'colors',
  'summary',
  'root',
]);

function bad(path: string, what: string): never {
  throw new AiEvalError('INVALID_CONFIG', `ai-eval reporter option ${path}: ${what}. See docs/reporter.md.`);
}

function checkGate(path: string, gate: unknown): Gate {
  if (typeof gate !== 'object' || gate === null) bad(path, 'expected { level, minAverage?, minPassRate? }');
  const g = gate as Record<string, unknown>;
  if (g.level !== 'hard' && g.level !== 'soft')
    bad(`${path}.level`, `expected 'hard' or 'soft', got ${JSON.stringify(g.level)}`);
  for (const key of Object.keys(g))
    if (!['level', 'minAverage', 'minPassRate'].includes(key)) bad(`${path}.${key}`, 'unknown key');
  if (g.minAverage !== undefined) checkNumber(`${path}.minAverage`, g.minAverage, 0, 5);
  if (g.minPassRate !== undefined) checkNumber(`${path}.minPassRate`, g.minPassRate, 0, 1);
  if (g.minAverage === undefined && g.minPassRate === undefined)
    bad(path, 'a gate needs minAverage or minPassRate');
  return g as unknown as Gate;
}

function checkNumber(path: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    bad(path, `expected a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
}

/**
 * Checks reporter options and fills in defaults; a clear error names the bad option.
 *
 * @example
 * ```ts
 * const options = checkReporterOptions({ outputFile: 'ai-eval.json', gate: { level: 'hard', minAverage: 3.5 } });
 * ```
 */
export function checkReporterOptions(input: unknown): ReporterOptions {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) bad('', 'options must be an object');
  const o = input as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!KEYS.has(key)) bad(key, 'unknown option');
  for (const key of ['outputFile', 'junitFile', 'markdownFile', 'baseline', 'root'])
    if (o[key] !== undefined && (typeof o[key] !== 'string' || o[key] === ''))
      bad(key, `expected a file path, got ${JSON.stringify(o[key])}`);
  for (const key of ['failOnAdvisory', 'failOnError', 'colors', 'summary'])
    if (o[key] !== undefined && typeof o[key] !== 'boolean')
      bad(key, `expected true or false, got ${JSON.stringify(o[key])}`);
  if (o.gate !== undefined) checkGate('gate', o.gate);
  if (o.gates !== undefined) {
    if (typeof o.gates !== 'object' || o.gates === null) bad('gates', 'expected { [target]: gate }');
    for (const [name, gate] of Object.entries(o.gates)) checkGate(`gates.${name}`, gate);
  }
  if (o.maxDrop !== undefined) {
    checkNumber('maxDrop', o.maxDrop, 0, 5);
    if (o.baseline === undefined) bad('maxDrop', 'needs `baseline`, the report to compare with');
  }
  if (o.weakest !== undefined && !(Number.isInteger(o.weakest) && Number(o.weakest) >= 0))
    bad('weakest', `expected a whole number, got ${JSON.stringify(o.weakest)}`);
  return o;
}

/**
 * The gate settings that options describe, as the report stores them.
 *
 * @example
 * ```ts
 * gateSettings({ failOnError: true }).failOnError; // true
 * ```
 */
export function gateSettings(options: ReporterOptions): GateSettings {
  return {
    gate: options.gate ?? null,
    targetGates: options.gates ?? {},
    failOnAdvisory: options.failOnAdvisory ?? false,
    failOnError: options.failOnError ?? false,
    maxDrop: options.maxDrop ?? null,
  };
}
