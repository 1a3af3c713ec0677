import { resolve } from 'node:path';
import { optionsChecker } from '../internal/options-check.js';
import { reporterSchema } from '../run/option-schemas.js';
import { reporter as validateReporter } from '../run/option-validators.generated.js';
import type { Gate } from '../run/target.js';
import type { GateSettings } from './model.js';

/**
 * Options of both reporters (`['ai-eval/reporter/vitest', options]`, `['ai-eval/reporter/jest',
 * options]`). Every file option is resolved against the project root.
 *
 * @example
 * ```ts
 * const options: ReporterOptions = { outputFile: 'reports/ai-eval.json', gate: { level: 'hard', minAverage: 3.5 } };
 * // vitest.config.ts: reporters: ['default', ['ai-eval/reporter/vitest', options]]
 * ```
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
  /**
   * Write the HTML report here: one self-contained file (no network request) with the verdict,
   * charts and a filterable question table. `ai-eval report <report.json> --html <file>` writes the
   * same file from a JSON report.
   */
  htmlFile?: string;
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
  /**
   * The judges' trust file (`ai-eval judges validate` writes it), relative to the root. Default
   * `ai-eval.judges.json`; a missing file leaves every judge `unvalidated`.
   */
  judgesFile?: string;
}

const check = optionsChecker<ReporterOptions>(reporterSchema, validateReporter);

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
  return check(input, {
    code: 'INVALID_CONFIG',
    subject: 'ai-eval reporter option',
    docs: 'node_modules/ai-eval/docs/reporter.md',
  });
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

/**
 * The directory a report's test files are made relative to: `options.root` against the runner's
 * root.
 *
 * @example
 * ```ts
 * const prebuilt = new PrebuiltQuestions(reportRoot(vitest.config.root, options));
 * ```
 */
export function reportRoot(root: string, options: Pick<ReporterOptions, 'root'>): string {
  return resolve(root, options.root ?? '.');
}
