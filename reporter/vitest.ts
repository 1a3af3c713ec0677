import { resolve } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { checkReporterOptions, type ReporterOptions } from '../src/report/options.js';
import { PrebuiltQuestions } from '../src/report/aggregate.js';
import { checkRecords, type ReadRecords } from '../src/report/side-channel.js';
import type { AiEvalRecord } from '../src/run/record-types.js';
import { reportRoot } from '../src/report/options.js';
import type * as WriteModule from '../src/report/write.js';
import { DatasetWatch } from './vitest-watch.js';
import { VITEST_REPORTER_KEY } from '../src/run/channel.js';
import { warmCollators } from '../src/internal/collate.js';

export type { ReporterOptions } from '../src/report/options.js';
export type { EvalReport } from '../src/report/model.js';

/**
 * The module that builds and writes the report, with all it imports (the report's renderers, the
 * judges' identity and so the grader registry): about 300 KB that Vitest would load before it starts
 * a worker. It is loaded when the run starts instead, while the workers start and run, and awaited
 * at the end.
 */
let writeModule: Promise<typeof WriteModule> | undefined;
const loadWriteModule = (): Promise<typeof WriteModule> => (writeModule ??= import('../src/report/write.js'));

/**
 * The ai-eval reporter for Vitest. It reads the records every test left on `task.meta.aiEval`,
 * aggregates them per target, prints the summary after Vitest's own output, writes the configured
 * JSON, JUnit and Markdown files and fails the run (exit code 1) when a hard gate fails. Under
 * `--shard` the report is partial: its hard gates are deferred to `ai-eval merge`. It uses only
 * Vitest's public reporter API, so it also works on `--merge-reports` of sharded blob runs. In
 * watch mode it also watches the dataset and rubric files of every generated suite, and a change to
 * one reruns the test files that use it.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({
 *   test: {
 *     reporters: ['default', ['ai-eval/reporter/vitest', { outputFile: 'ai-eval.json', gate: { level: 'hard', minAverage: 3.5 } }]],
 *   },
 * });
 * ```
 */
export default class AiEvalVitestReporter implements Reporter {
  /** The checked options. */
  readonly options: ReporterOptions;
  /** The last finished run, for programmatic use. */
  lastResult: WriteModule.FinishResult | null = null;
  private root = process.cwd();
  private shard: { index: number; count: number } | null = null;
  private vitest: Vitest | undefined;
  private watch: DatasetWatch | undefined;
  /**
   * What was done with each test's records as it finished, while the workers ran on: the records
   * checked (by test id, with the list they came from) and their questions built. The end of the
   * run reuses both where a test's records are still that same list.
   */
  private early:
    | {
        checked: Map<string, { list: unknown[]; length: number; read: ReadRecords }>;
        questions: PrebuiltQuestions;
      }
    | undefined;

  constructor(options: ReporterOptions = {}) {
    this.options = checkReporterOptions(options);
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    this.root = vitest.config.root;
    this.shard = vitest.config.shard ? { ...vitest.config.shard } : null;
    // Tells the workers an ai-eval reporter collects their records (matchers/vitest-channel.ts
    // warns when none does, as after `vitest run --reporter=verbose`).
    (vitest as unknown as { provide?: (key: string, value: unknown) => void }).provide?.(
      VITEST_REPORTER_KEY,
      true,
    );
    // In watch mode, a changed dataset or rubric reruns the suites that read it.
    if (vitest.config.watch) this.watch = new DatasetWatch(vitest);
  }

  onTestRunStart(): void {
    this.early = undefined; // a new run (watch mode): nothing of the last one is reused
    // Loaded while the workers start; a failure to load is the end's to report.
    loadWriteModule().catch(() => undefined);
  }

  onTestCaseResult(test: TestCase): void {
    const list = (test.meta() as { aiEval?: unknown }).aiEval;
    if (!Array.isArray(list) || list.length === 0) return;
    if (this.early === undefined) {
      this.early = {
        checked: new Map(),
        questions: new PrebuiltQuestions(reportRoot(this.root, this.options)),
      };
      // The report sorts its questions at the end: its collators are made now, while the workers run.
      warmCollators();
    }
    const read = checkRecords(list, `${test.module.moduleId} > ${test.fullName}`);
    this.early.checked.set(test.id, { list, length: list.length, read });
    this.early.questions.add(read.records);
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const { finishRun } = await loadWriteModule();
    this.watch?.learn(testModules);
    const records: AiEvalRecord[] = [];
    const warnings: string[] = [];
    let failedTests = 0;
    const durations = new Map<string, number>();
    for (const module of testModules) {
      // A file that failed to load fails the run as a test would.
      if (module.errors().length > 0) failedTests += 1;
      const file = resolve(module.moduleId);
      for (const test of module.children.allTests()) {
        if (test.result().state === 'failed') failedTests += 1;
        const duration = test.diagnostic()?.duration;
        if (typeof duration === 'number') durations.set(`${file}\u0000${test.fullName}`, duration);
        const list = (test.meta() as { aiEval?: unknown }).aiEval;
        const early = this.early?.checked.get(test.id);
        const read =
          early !== undefined && early.list === list && early.length === early.list.length
            ? early.read
            : checkRecords(list, `${module.moduleId} > ${test.fullName}`);
        records.push(...read.records);
        warnings.push(...read.problems);
      }
    }
    const result = finishRun(records, this.options, {
      root: this.root,
      // Vitest's own logger, so the summary goes where Vitest prints (and is captured with it).
      print: (text) => this.print(text),
      isTTY: this.isTTY(),
      warnings,
      shard: this.shard,
      failedTests,
      // finishRun gives the test's file resolved, as the keys of `durations` are.
      durationOf: (t) => durations.get(`${t.file}\u0000${t.name}`),
      prebuilt: this.early?.questions,
    });
    this.early = undefined;
    this.lastResult = result;
    if (result.failed) process.exitCode = 1;
  }

  private print(text: string): void {
    const logger = this.vitest?.logger;
    if (logger) logger.log(text.replace(/\n$/, ''));
    else process.stdout.write(text);
  }

  private isTTY(): boolean {
    const stream = this.vitest?.logger.outputStream as { isTTY?: boolean } | undefined;
    return stream?.isTTY ?? process.stdout.isTTY;
  }
}
