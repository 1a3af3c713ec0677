import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { spec } from 'node:test/reporters';
import { plural } from '../src/internal/text.js';
import { checkReporterOptions, type ReporterOptions } from '../src/report/options.js';
import { CHANNEL_DIR_ENV, readChannelDir } from '../src/report/side-channel.js';
import { finishRun, type FinishResult } from '../src/report/write.js';
import type { AiEvalRecord } from '../src/run/record-types.js';

export type { ReporterOptions } from '../src/report/options.js';
export type { EvalReport } from '../src/report/model.js';

/** The environment variable the default reporter reads its options from, as JSON. */
export const REPORTER_OPTIONS_ENV = 'AI_EVAL_REPORTER_OPTIONS';

/** The parts of a node:test reporter event the reporter reads. */
export interface NodeTestEventLike {
  type: string;
  data?: {
    name?: string;
    nesting?: number;
    file?: string;
    details?: { type?: string };
    /** Set on a `todo` test, whose failure does not fail the run. */
    todo?: string | boolean;
  };
}

/** Options of {@link createNodeReporter}: the reporter options, and whether node's spec output comes first. */
export interface NodeReporterOptions extends ReporterOptions {
  /** Print node:test's `spec` output before the ai-eval summary. Default true. */
  spec?: boolean;
}

/** A node:test reporter: an async generator over the run's events, with the last finished run. */
export type NodeTestReporter = ((
  source: AsyncIterable<NodeTestEventLike>,
) => AsyncGenerator<string, void>) & {
  /** The last finished run, for programmatic use. */
  readonly lastResult: FinishResult | null;
};

const CHANNEL_KEY = Symbol.for('ai-eval.node-reporter-channel');

/**
 * The channel directory of this run, made once per process and put in `AI_EVAL_CHANNEL_DIR` while
 * the reporter module loads: node:test loads reporters before it starts the test files, and each
 * file's process inherits the variable.
 */
function channelDir(): string {
  const holder = globalThis as { [CHANNEL_KEY]?: string };
  if (holder[CHANNEL_KEY] === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-channel-'));
    holder[CHANNEL_KEY] = dir;
    // Also when the module was loaded but never ran (an import outside node --test).
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  process.env[CHANNEL_DIR_ENV] = holder[CHANNEL_KEY];
  return holder[CHANNEL_KEY];
}

/** `--test-shard=<index>/<count>` of this node process, if any. */
function shardOf(argv: readonly string[]): { index: number; count: number } | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = arg.startsWith('--test-shard=')
      ? arg.slice('--test-shard='.length)
      : arg === '--test-shard'
        ? argv[i + 1]
        : undefined;
    const match = value === undefined ? null : /^(\d+)\/(\d+)$/.exec(value);
    if (match) return { index: Number(match[1]), count: Number(match[2]) };
  }
  return null;
}

/**
 * Collects the full names of the tests node:test reported. `test:start` events come in definition
 * order with their nesting, and node:test reports one file's events before the next file's, so one
 * stack gives each test its ancestors. (An event's `file` is where `test()` was called, which for a
 * generated suite is ai-eval's own module, so names are matched without it.)
 */
class ReportedTests {
  private readonly stack: string[] = [];
  private readonly done = new Set<string>();
  /** Tests (not suites) that failed, a file that failed to load included. */
  failed = 0;

  add(event: NodeTestEventLike): void {
    const { data } = event;
    if (!data || typeof data.name !== 'string' || typeof data.nesting !== 'number') return;
    if (event.type === 'test:start') {
      this.stack.length = data.nesting;
      this.stack.push(data.name);
    } else if ((event.type === 'test:pass' || event.type === 'test:fail') && data.details?.type !== 'suite') {
      this.done.add([...this.stack.slice(0, data.nesting), data.name].join(' > '));
      if (event.type === 'test:fail' && data.todo === undefined) this.failed += 1;
    }
  }

  has(name: string): boolean {
    return this.done.has(name);
  }
}

/**
 * Makes the ai-eval reporter for node:test with these options. It prints node's `spec` output, then
 * joins the records the test files wrote to the side channel to the tests node:test reported (by
 * full name; records of other tests are dropped with a warning), prints the
 * ai-eval summary, writes the configured JSON, JUnit and Markdown files, and sets exit code 1 when
 * a hard gate fails. Export it as the default of your own reporter module to set options in code.
 *
 * @example
 * ```js
 * // ai-eval-reporter.mjs, run with: node --test --test-reporter=./ai-eval-reporter.mjs
 * import { createNodeReporter } from 'ai-eval/reporter/node';
 *
 * export default createNodeReporter({ outputFile: 'reports/ai-eval.json', gate: { level: 'hard', minAverage: 3.5 } });
 * ```
 */
export function createNodeReporter(options: NodeReporterOptions = {}): NodeTestReporter {
  const { spec: withSpec = true, ...rest } = options ?? {};
  if (typeof withSpec !== 'boolean')
    throw new TypeError(
      `ai-eval/reporter/node: options.spec must be true or false, got ${JSON.stringify(withSpec)}. Fix: leave it out for node's spec output before the summary, or set false.`,
    );
  const checked = checkReporterOptions(rest);
  const dir = channelDir();
  const state: { last: FinishResult | null } = { last: null };
  const reporter = async function* aiEvalNodeReporter(
    source: AsyncIterable<NodeTestEventLike>,
  ): AsyncGenerator<string, void> {
    const cwd = process.cwd();
    const reported = new ReportedTests();
    async function* tap(): AsyncGenerator<NodeTestEventLike> {
      for await (const event of source) {
        reported.add(event);
        yield event;
      }
    }
    if (withSpec) {
      for await (const chunk of Readable.from(tap()).pipe(new spec()) as AsyncIterable<string | Buffer>)
        yield chunk.toString();
    } else for await (const event of tap()) void event;

    const { records, warnings } = joinReported(readChannelDir(dir), reported);
    let text = '';
    try {
      const result = finishRun(records, checked, {
        root: checked.root ?? cwd,
        print: (t) => (text += t),
        isTTY: process.stdout.isTTY,
        warnings,
        shard: shardOf(process.execArgv),
        failedTests: reported.failed,
      });
      state.last = result;
      if (result.failed) process.exitCode = 1;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    yield text;
  };
  return Object.defineProperty(reporter, 'lastResult', { get: () => state.last }) as NodeTestReporter;
}

function joinReported(
  read: { records: AiEvalRecord[]; problems: string[] },
  reported: ReportedTests,
): { records: AiEvalRecord[]; warnings: string[] } {
  const records: AiEvalRecord[] = [];
  const warnings = [...read.problems];
  let dropped = 0;
  for (const record of read.records) {
    // What a suite says about itself (a load failure, a filter skip) stands whatever its test did.
    if (record.kind !== 'grade' || reported.has(record.test.name)) records.push(record);
    else dropped += 1;
  }
  if (dropped > 0)
    warnings.push(`${plural(dropped, 'record')} of tests node:test did not report were dropped`);
  return { records, warnings };
}

function envOptions(): NodeReporterOptions {
  const raw = process.env[REPORTER_OPTIONS_ENV];
  if (raw === undefined || raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as NodeReporterOptions;
  } catch (error) {
    throw new TypeError(
      `ai-eval/reporter/node: ${REPORTER_OPTIONS_ENV} is not JSON (${(error as Error).message}). Fix: set it to an options object, for example '{"outputFile":"ai-eval.json"}', or export createNodeReporter(options) from your own reporter module.`,
      { cause: error },
    );
  }
}

/**
 * The ai-eval reporter for node:test, with options from `AI_EVAL_REPORTER_OPTIONS` (JSON):
 * `node --test --test-reporter=ai-eval/reporter/node`. It prints node's `spec` output and then the
 * ai-eval summary; see {@link createNodeReporter}.
 *
 * @example
 * ```sh
 * AI_EVAL_REPORTER_OPTIONS='{"outputFile":"ai-eval.json"}' node --test --test-reporter=ai-eval/reporter/node
 * ```
 */
const aiEvalNodeReporter: NodeTestReporter = createNodeReporter(envOptions());
export default aiEvalNodeReporter;
