import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkReporterOptions, type ReporterOptions } from '../src/report/options.js';
import { CHANNEL_DIR_ENV, readChannelDir } from '../src/report/side-channel.js';
import { plural } from '../src/internal/text.js';
import type { AiEvalRecord } from '../src/run/record-types.js';
import { finishRun, type FinishResult } from '../src/report/write.js';

export type { ReporterOptions } from '../src/report/options.js';
export type { EvalReport } from '../src/report/model.js';

/** The parts of Jest's global config the reporter reads. */
export interface JestGlobalConfigLike {
  rootDir: string;
  /** Set under `--shard`. */
  shard?: { shardIndex: number; shardCount: number } | undefined;
}

/** The parts of Jest's aggregated results the reporter reads. */
export interface JestAggregatedResultLike {
  /** Failed tests. */
  numFailedTests?: number;
  /** Test files that failed to run (a syntax error, a throw at the top level). */
  numRuntimeErrorTestSuites?: number;
  testResults: ReadonlyArray<{
    testFilePath: string;
    testResults: ReadonlyArray<{
      fullName: string;
      title: string;
      ancestorTitles: string[];
      /** Milliseconds the test ran; null or absent when Jest did not time it. */
      duration?: number | null;
    }>;
  }>;
}

/**
 * The ai-eval reporter for Jest. Its constructor makes a fresh channel directory and sets
 * `AI_EVAL_CHANNEL_DIR` before Jest starts its workers; the matchers append one JSON line per
 * record to `records-<pid>.jsonl` there. At the end it joins the records to Jest's results (by
 * absolute test path and full test name; records of tests Jest did not report are dropped; a
 * suite's own records are matched by file), prints the summary, writes the configured files and
 * fails the run through `getLastError()` when a hard gate fails. Under `--shard` the report is
 * partial: its hard gates are deferred to `ai-eval merge`. The directory is removed afterwards.
 *
 * @example
 * ```js
 * // jest.config.js
 * export default {
 *   reporters: ['default', ['ai-eval/reporter/jest', { outputFile: 'ai-eval.json', failOnError: true }]],
 * };
 * ```
 */
export default class AiEvalJestReporter {
  /** The checked options. */
  readonly options: ReporterOptions;
  /** The channel directory of this run. */
  readonly channelDir: string;
  /** The last finished run, for programmatic use. */
  lastResult: FinishResult | null = null;
  private readonly root: string;
  private readonly shard: { index: number; count: number } | null;
  private error: Error | undefined;

  constructor(globalConfig: JestGlobalConfigLike, options?: ReporterOptions) {
    this.options = checkReporterOptions(options);
    this.root = globalConfig?.rootDir ?? process.cwd();
    const shard = globalConfig?.shard;
    this.shard = shard ? { index: shard.shardIndex, count: shard.shardCount } : null;
    this.channelDir = mkdtempSync(join(tmpdir(), 'ai-eval-channel-'));
    process.env[CHANNEL_DIR_ENV] = this.channelDir;
  }

  onRunStart(): void {
    // A fresh run (watch mode re-runs too) starts from an empty channel.
    rmSync(this.channelDir, { recursive: true, force: true });
    mkdirSync(this.channelDir, { recursive: true });
    this.error = undefined;
  }

  onRunComplete(_contexts: unknown, results: JestAggregatedResultLike): void {
    let text = '';
    try {
      const { records, warnings } = this.readChannel(results);
      const result = finishRun(records, this.options, {
        root: this.root,
        print: (t) => (text += t),
        isTTY: process.stderr.isTTY,
        warnings,
        shard: this.shard,
        failedTests: (results.numFailedTests ?? 0) + (results.numRuntimeErrorTestSuites ?? 0),
        durationOf: durationsOf(results),
      });
      this.lastResult = result;
      this.error = result.failed ? new Error(result.failure ?? 'ai-eval: the run failed') : undefined;
    } finally {
      rmSync(this.channelDir, { recursive: true, force: true });
      printAfterJest(text);
    }
  }

  getLastError(): Error | undefined {
    return this.error;
  }

  private readChannel(results: JestAggregatedResultLike): { records: AiEvalRecord[]; warnings: string[] } {
    const known = new Map<string, Set<string>>();
    for (const file of results.testResults) {
      const names = new Set<string>();
      for (const t of file.testResults) {
        names.add(t.fullName);
        names.add([...t.ancestorTitles, t.title].join(' > '));
      }
      known.set(resolve(file.testFilePath), names);
    }
    const read = readChannelDir(this.channelDir);
    // A retried test (`jest.retryTimes`) counts by its last attempt, as Jest's verdict does.
    const lastAttempt = new Map<string, number>();
    for (const record of read.records) {
      if (record.kind !== 'grade' || record.attempt === undefined) continue;
      const key = `${record.test.file}\0${record.test.name}`;
      lastAttempt.set(key, Math.max(lastAttempt.get(key) ?? 1, record.attempt));
    }
    const records: AiEvalRecord[] = [];
    const warnings = [...read.problems];
    let dropped = 0;
    for (const record of read.records) {
      if (
        record.kind === 'grade' &&
        (record.attempt ?? 1) < (lastAttempt.get(`${record.test.file}\0${record.test.name}`) ?? 1)
      )
        continue;
      const names = known.get(resolve(this.root, record.test.file));
      // A suite's own records (a filter skip is written while Jest collects the file) name the
      // file; its tests' names are not known yet then.
      if (names?.has(record.test.name) || (names && record.kind !== 'grade')) records.push(record);
      else dropped += 1;
    }
    if (dropped > 0) warnings.push(`${plural(dropped, 'record')} of tests Jest did not report were dropped`);
    return { records, warnings };
  }
}

/**
 * Jest prints its own summary after every reporter's onRunComplete; printing on the next turn puts
 * ours after it. If the process exits first, the text is written on exit instead.
 */
function printAfterJest(text: string): void {
  let done = false;
  const flush = (): void => {
    if (done) return;
    done = true;
    process.stderr.write(text);
  };
  process.once('exit', flush);
  setImmediate(() => {
    flush();
    process.removeListener('exit', flush);
  });
}

/** How long each test ran, by its file and either spelling of its full name (Jest's, or `a > b`). */
function durationsOf(
  results: JestAggregatedResultLike,
): (test: { file: string; name: string }) => number | undefined {
  const times = new Map<string, number>();
  for (const file of results.testResults)
    for (const t of file.testResults) {
      if (typeof t.duration !== 'number') continue;
      const path = resolve(file.testFilePath);
      times.set(`${path}\u0000${t.fullName}`, t.duration);
      times.set(`${path}\u0000${[...t.ancestorTitles, t.title].join(' > ')}`, t.duration);
    }
  // finishRun gives the test's file resolved, as the keys of `times` are.
  return (test) => times.get(`${test.file}\u0000${test.name}`);
}
