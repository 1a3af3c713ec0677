import { appendFileSync, existsSync } from 'node:fs';
import { writeFileAtomic } from '../internal/atomic-write.js';
import { basename, extname, relative, resolve } from 'node:path';
import pc from 'picocolors';
import { isAiEvalError } from '../errors.js';
import { readBaseline } from './baseline.js';
import { DEFAULT_JUDGES_FILE, readTrustFile } from './judge-trust.js';
import { collect, settleVerdict } from './collect.js';
import { failsRun } from './gates.js';
import { verdictSentence } from './headline.js';
import { runIdentity } from './identity.js';
import type { EvalReport } from './model.js';
import type { PrebuiltQuestions } from './aggregate.js';
import { gateSettings, reportRoot, type ReporterOptions } from './options.js';
import type { AiEvalRecord } from '../run/record-types.js';
import { renderJunit } from './render-junit.js';
import { reportJsonChunks } from './report-json.js';
import { githubAnnotations, renderMarkdown } from './render-markdown.js';
import { renderTerminal } from './render-terminal.js';
import { renderHtml } from './renderers/html.js';

/**
 * Whether to colour output: forced by the option, else on for a TTY unless `NO_COLOR` is set.
 *
 * @example
 * ```ts
 * pc.createColors(useColour(options.colors, process.env, process.stdout.isTTY));
 * ```
 */
export function useColour(
  forced: boolean | undefined,
  env: NodeJS.ProcessEnv,
  isTTY: boolean | undefined,
): boolean {
  if (forced !== undefined) return forced;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== '') return true;
  return isTTY === true;
}

/** Where a reporter's finished run goes. */
export interface FinishIO {
  /** The project root: output files and test files are relative to it. */
  root: string;
  /** Writes terminal text (the runner's own stream). */
  print(text: string): void;
  isTTY?: boolean;
  env?: NodeJS.ProcessEnv;
  now?: Date;
  /** The runner's shard, which `[shard]` in a file option names (`2-of-3`; `1-of-1` unsharded). */
  shard?: { index: number; count: number } | null;
  /** Problems met while reading records (bad records skipped), printed as warnings. */
  warnings?: readonly string[];
  /** Tests the runner reported failed (any test); stated in the headline. Unknown when absent. */
  failedTests?: number | null;
  /**
   * How long a test ran, in milliseconds, as the runner measured it, or `undefined` when unknown:
   * each question's `durationMs`, and its JUnit `time`. `file` is absolute, as `path.resolve`
   * gives it (worked out once per test file, not once per question).
   */
  durationOf?: (test: { file: string; name: string }) => number | undefined;
  /**
   * Questions the reporter built as tests finished ({@link PrebuiltQuestions}, made with
   * {@link reportRoot}): the report reuses those whose records did not change since.
   */
  prebuilt?: PrebuiltQuestions | undefined;
}

/** What {@link finishRun} produced. */
export interface FinishResult {
  report: EvalReport;
  /**
   * True when the reporter fails the run: a hard gate failed (not deferred, as in a shard) or an
   * output could not be written. Failed tests fail the run through the runner itself.
   */
  failed: boolean;
  /** Why the run failed, for the runner's error. */
  failure: string | null;
}

/**
 * The shared end of both reporters: collect the records into the report, write the JSON, JUnit
 * and Markdown files, append to `$GITHUB_STEP_SUMMARY`, print GitHub annotations, and print the
 * terminal summary with the verdict.
 *
 * @example
 * ```ts
 * const { failed } = finishRun(records, options, { root: process.cwd(), print: (t) => process.stdout.write(t) });
 * if (failed) process.exitCode = 1;
 * ```
 */
export function finishRun(
  records: readonly AiEvalRecord[],
  options: ReporterOptions,
  io: FinishIO,
): FinishResult {
  const env = io.env ?? process.env;
  const root = reportRoot(io.root, options);
  const shard = io.shard ? `${io.shard.index}-of-${io.shard.count}` : '1-of-1';
  const at = (file: string): string => resolve(root, file.replaceAll('[shard]', shard));
  // One shard of several never overwrites another's files: a file option without `[shard]` gets
  // the shard before its extension (`reports/ai-eval.xml` -> `reports/ai-eval-2-of-3.xml`).
  const sharded = io.shard !== null && io.shard !== undefined && io.shard.count > 1;
  const output = (file: string): string =>
    at(sharded && !file.includes('[shard]') ? withShard(file, shard) : file);
  const problems: string[] = [];
  const notes: string[] = [];
  let baseline: { file: string; report: EvalReport } | null = null;
  let baselineError: string | null = null;
  const startsBaseline =
    options.baseline !== undefined &&
    options.maxDrop !== undefined &&
    options.outputFile !== undefined &&
    !sharded &&
    at(options.baseline) === output(options.outputFile) &&
    !existsSync(at(options.baseline));
  if (startsBaseline) {
    // The first run of a ratchet (baseline = outputFile): nothing to compare with yet, so this
    // run's report becomes the baseline, and says so.
    notes.push(
      `no baseline at ${options.baseline} yet: this run's report is written there and becomes the baseline; maxDrop is checked from the next run on.`,
    );
  } else if (options.baseline) {
    try {
      baseline = { file: options.baseline, report: readBaseline(at(options.baseline)) };
    } catch (error) {
      baselineError = message(error);
    }
  }
  const judgesFile = options.judgesFile ?? DEFAULT_JUDGES_FILE;
  const trustRead = readTrustFile(at(judgesFile));
  const report = collect(records, {
    trust: { file: judgesFile, content: trustRead.trust },
    identity: runIdentity(records, io.now ?? new Date()),
    settings: gateSettings(options),
    root,
    baseline,
    shard: io.shard ?? null,
    failedTests: io.failedTests ?? null,
    prebuilt: io.prebuilt,
  });
  if (io.durationOf) {
    // A run has few test files and many questions: each file's path is resolved once.
    const paths = new Map<string, string>();
    const pathOf = (file: string): string => {
      let path = paths.get(file);
      if (path === undefined) paths.set(file, (path = resolve(root, file)));
      return path;
    };
    for (const target of report.targets)
      for (const question of target.questions) {
        const ms = io.durationOf({ file: pathOf(question.test.file), name: question.test.name });
        if (ms !== undefined && Number.isFinite(ms) && ms >= 0) question.durationMs = Math.round(ms);
      }
  }
  if (baselineError !== null && options.maxDrop !== undefined) {
    // maxDrop cannot be checked without the baseline: that fails the gate, in the report too.
    report.gates.push({
      scope: 'baseline',
      level: 'hard',
      passed: false,
      message: `maxDrop cannot be checked: ${baselineError}`,
      ...(report.partial ? { deferred: true } : {}),
    });
    settleVerdict(report);
  }
  // A ratchet (baseline = outputFile) moves only forward: a run that failed its maxDrop gate
  // against it leaves the baseline as it is, and its report goes beside it, so a rerun of the same
  // regressed agent is compared with the same baseline and fails again.
  const held =
    baseline !== null &&
    options.outputFile !== undefined &&
    at(baseline.file) === output(options.outputFile) &&
    report.gates.some((g) => g.scope === 'baseline' && !g.passed);
  const reportFile = held ? withSuffix(options.outputFile!, 'rejected') : options.outputFile;
  if (held)
    notes.push(
      `maxDrop failed: the baseline ${options.outputFile} is kept as it was, and this run's report is written to ${reportFile}.`,
    );
  const outputs: Array<[string | undefined, () => string | Iterable<string>]> = [
    [reportFile, () => reportJsonChunks(report)],
    [options.junitFile, () => renderJunit(report)],
    [options.markdownFile, () => renderMarkdown(report, weakestOption(options))],
    [options.htmlFile, () => renderHtml(report, baseline ? { baseline: baseline.report } : {})],
  ];
  for (const [file, render] of outputs) {
    if (!file) continue;
    try {
      const path = output(file);
      writeFileAtomic(path, render());
      if (sharded && !file.includes('[shard]')) notes.push(`shard ${shard}: wrote ${relative(root, path)}`);
    } catch (error) {
      problems.push(`cannot write ${file}: ${message(error)}`);
    }
  }
  if (env.GITHUB_STEP_SUMMARY) {
    try {
      appendFileSync(env.GITHUB_STEP_SUMMARY, renderMarkdown(report, weakestOption(options)));
    } catch (error) {
      problems.push(`cannot append to GITHUB_STEP_SUMMARY: ${message(error)}`);
    }
  }
  const palette = pc.createColors(useColour(options.colors, env, io.isTTY));
  let text = '';
  if (baselineError !== null && options.maxDrop === undefined)
    text += `${palette.yellow(`[ai-eval] warning: no baseline comparison: ${baselineError}`)}\n`;
  for (const w of [...(io.warnings ?? []), ...(trustRead.problem ? [trustRead.problem] : [])])
    text += `${palette.yellow(`[ai-eval] warning: ${w}`)}\n`;
  for (const n of notes) text += `[ai-eval] ${n}\n`;
  if (env.GITHUB_ACTIONS === 'true')
    text += githubAnnotations(report)
      .map((l) => `${l}\n`)
      .join('');
  if (options.summary !== false)
    text += `\n${renderTerminal(report, { palette, ...weakestOption(options) }).join('\n')}\n`;
  for (const p of problems) text += `${palette.red(`[ai-eval] error: ${p}`)}\n`;
  const hard = report.gates.filter(failsRun).map((g) => g.message);
  if (options.summary === false && (report.verdict === 'failed' || report.verdict === 'incomplete'))
    text += `${(report.verdict === 'failed' ? palette.red : palette.yellow)(`ai-eval: ${verdictSentence(report)}`)}\n`;
  io.print(text);
  const reasons = [...hard, ...problems];
  return {
    report,
    failed: reasons.length > 0,
    failure: reasons.length ? `ai-eval: ${reasons.join('; ')}` : null,
  };
}

/** `reports/ai-eval.xml` with the shard `2-of-3`: `reports/ai-eval-2-of-3.xml`. */
function withShard(file: string, shard: string): string {
  const ext = extname(basename(file));
  return ext ? `${file.slice(0, -ext.length)}-${shard}${ext}` : `${file}-${shard}`;
}

/** `reports/ai-eval.json` with `rejected` -> `reports/ai-eval.rejected.json`. */
function withSuffix(file: string, suffix: string): string {
  const ext = extname(basename(file));
  return ext ? `${file.slice(0, -ext.length)}.${suffix}${ext}` : `${file}.${suffix}`;
}

function weakestOption(options: ReporterOptions): { weakest?: number } {
  return options.weakest !== undefined ? { weakest: options.weakest } : {};
}

function message(error: unknown): string {
  if (isAiEvalError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}
