import { isMainThread } from 'node:worker_threads';
import * as vitestApi from 'vitest';
import { inject, type RunnerTestCase } from 'vitest';
import { getConfig } from '../src/config.js';
import { formatNumber } from '../src/internal/numbers.js';
import { takeRunMarker } from '../src/internal/run-marker.js';
import type { AiEvalRecord, EvalRecord } from '../src/run/record-types.js';
import { safeRecords } from '../src/run/record.js';
import { VITEST_REPORTER_KEY, type RunnerChannel, type TestIdentity } from '../src/run/channel.js';

/**
 * Vitest 3 puts no `task` on the matcher state; its `vitest/suite` entry knows the running test.
 * Vitest 4.1 and later say the same with `TestRunner.getCurrentTest()` from `vitest` (and print a
 * deprecation warning at the top of every run that imports `vitest/suite`); Vitest 5 has no
 * `vitest/suite`. So `vitest/suite` is imported only where `TestRunner.getCurrentTest` is missing,
 * when this module loads: by the time a matcher runs inside a test, the import has settled.
 */
let currentTest: (() => RunnerTestCase | undefined) | undefined;
const runner = (vitestApi as { TestRunner?: { getCurrentTest?: unknown } }).TestRunner;
if (typeof runner?.getCurrentTest === 'function') {
  const get = runner.getCurrentTest as () => RunnerTestCase | undefined;
  currentTest = () => get();
} else {
  void import('vitest/suite').then(
    (suite: { getCurrentTest?: () => RunnerTestCase | undefined }) => {
      currentTest = suite.getCurrentTest;
    },
    () => undefined,
  );
}

/** The annotation type of grades in Vitest (and its JUnit `<property>`) when annotations are on. */
export const ANNOTATION_TYPE = 'ai-eval';

/** The full name of a test as Vitest's reporters show it (`suite > test`); Vitest 3 has no `fullTestName`. */
function fullNameOf(task: RunnerTestCase): string {
  if (typeof (task as { fullTestName?: unknown }).fullTestName === 'string') return task.fullTestName;
  const names = [task.name];
  for (let suite = task.suite; suite && suite !== task.file; suite = suite.suite) names.unshift(suite.name);
  return names.join(' > ');
}

/** The identity of a running Vitest test. */
export function vitestIdentity(task: RunnerTestCase): TestIdentity {
  return {
    file: task.file.filepath,
    name: fullNameOf(task),
    title: task.name,
    // `result.state` is 'run' while the test runs; a timed-out or finished test has moved on.
    isRunning: () => task.result?.state === 'run',
    handle: task,
  };
}

/** The one-line annotation of a record, for example `read_only_run: score 1 of 0-1, composite 5: ...`. */
export function annotationOf(record: AiEvalRecord): string {
  if (record.kind === 'load-failure')
    return `dataset ${record.dataset.ref} did not load: ${record.problems.join(' | ')}`;
  if (record.kind === 'filter-skip')
    return `dataset ${record.dataset.ref}: no question selected by the filters`;
  if (record.kind === 'disabled') return `${record.question}: disabled in dataset ${record.dataset.ref}`;
  return gradeAnnotation(record);
}

function gradeAnnotation(record: EvalRecord): string {
  const score =
    record.score === null || record.composite === null
      ? record.error
        ? 'error'
        : 'skipped'
      : `score ${formatNumber(record.score)} of ${formatNumber(record.min)}-${formatNumber(record.max)}, composite ${formatNumber(record.composite)}`;
  const trial = record.trial > 1 ? ` (trial ${record.trial})` : '';
  return `${record.question}${trial} ${record.grader}: ${score}: ${record.reason}`;
}

/**
 * The Vitest channel: records go on the test's `task.meta.aiEval`, which Vitest serialises from any
 * pool to the reporter with the test's result, at no cost per grade. With `configure({ annotations:
 * true })` each send (a question trial, a matcher assertion) also becomes one test annotation, one
 * line per record, so Vitest's own JUnit and verbose reporters show the grades; it is off by
 * default because every annotation captures a stack trace and waits for Vitest's main process.
 * The matcher finds its test through `this.task`, which is the right test under `test.concurrent`
 * only when the test uses its context `expect` (`test('...', async ({ expect }) => ...)`).
 */
export const vitestChannel: RunnerChannel = {
  identify(state) {
    // Vitest 4 and later put the test on the matcher state; Vitest 3 only knows the current test.
    const task = (state as { task?: RunnerTestCase } | undefined)?.task ?? currentTest?.();
    return task && task.type === 'test' ? vitestIdentity(task) : undefined;
  },
  async send(identity, sent) {
    const task = identity.handle as RunnerTestCase | undefined;
    if (!task) return;
    // What goes on task.meta and into annotations leaves the worker: reasons redacted and capped.
    const records = safeRecords(sent);
    warnWithoutReporter();
    const meta = task.meta as { aiEval?: AiEvalRecord[]; aiEvalRetry?: number };
    // A retry (`retry` option) runs the same task again, meta and all: its records replace the
    // attempt before, as its verdict does.
    const retry = task.result?.retryCount ?? 0;
    if (retry !== (meta.aiEvalRetry ?? 0)) {
      meta.aiEval = [];
      meta.aiEvalRetry = retry;
    }
    meta.aiEval ??= [];
    meta.aiEval.push(...records);
    await letOutputFlow();
    if (!getConfig().annotations || records.length === 0) return;
    const annotate = (
      task.context as { annotate?: (message: string, type?: string) => Promise<unknown> } | undefined
    )?.annotate;
    if (typeof annotate !== 'function') return;
    await annotate(records.map(annotationOf).join('\n'), ANNOTATION_TYPE);
  },
};

/** How often, at most, a send lets the worker's event loop turn (ms). */
const TURN_EVERY_MS = 10;
let lastTurn = 0;

/**
 * Lets the worker's event loop turn (one `setImmediate`) when a send has not let it for 10 ms.
 * Vitest sends each finished test, its `task.meta` with it, to its main process (at most every
 * 100 ms); from a forks worker that is a pipe, and what does not fit in it at once waits for the
 * event loop, which a file of questions that never wait (a scripted agent, deterministic graders)
 * does not give back until its last test. The reporter then got every test's records in one burst
 * after the worker had finished, and read them all while nothing else ran; with a turn every 10 ms
 * (about 100 a second, each a few microseconds) it reads them while the worker runs.
 */
async function letOutputFlow(): Promise<void> {
  const now = performance.now();
  if (now - lastTurn < TURN_EVERY_MS) return;
  lastTurn = now;
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The warning a worker prints when it records grades that no ai-eval reporter will collect. */
export const NO_REPORTER_WARNING = [
  '[ai-eval] warning: this Vitest run graded agent runs, but no ai-eval reporter is in its reporters, so no score reaches a report, a gate or the summary.',
  "A --reporter flag on the command line replaces the reporters of vitest.config: keep ai-eval with 'vitest run --reporter=default --reporter=ai-eval/reporter/vitest', or drop the flag.",
  '(A --reporter=blob shard run is fine: vitest --merge-reports reports its records.) See node_modules/ai-eval/docs/troubleshooting.md.',
].join('\n');

let warned = false;

/**
 * Warns once per run when no ai-eval reporter `provide`d its key: the first worker of the run (a
 * marker file named after the Vitest process and, on Linux, its start) prints it, the others stay
 * quiet; a marker an earlier run left under the same pid silences nothing.
 */
function warnWithoutReporter(): void {
  if (warned) return;
  warned = true;
  let present: unknown;
  try {
    present = (inject as unknown as (key: string) => unknown)(VITEST_REPORTER_KEY);
  } catch {
    return; // not inside a Vitest worker that can inject
  }
  if (present === true) return;
  // Forks are children of the Vitest process; threads share its pid. The first worker of the run
  // to get here takes the run's marker and warns; the others find it taken.
  const owner = isMainThread ? process.ppid : process.pid;
  if (takeRunMarker('ai-eval-no-reporter', owner)) console.warn(NO_REPORTER_WARNING);
}
