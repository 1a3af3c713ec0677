import type { AiEvalRecord } from '../src/run/record-types.js';
import type { RunnerChannel, TestIdentity } from '../src/run/channel.js';
import { safeRecords } from '../src/run/record.js';
import type { ChannelWriter } from '../src/report/side-channel.js';

/** The circus test entry Jest 30 exposes through `expect.getState().currentTestIdentity()`. */
interface CircusTest {
  name: string;
  status?: string | null;
  errors?: unknown[];
  /** How many times the test has started: 2 and more on a retry (`jest.retryTimes`). */
  invocations?: number;
}

/** The parts of Jest's expect state the channel reads. */
export interface JestExpectState {
  testPath?: string;
  currentTestName?: string;
  /** Jest 30: the name of the test whose code is running, right also under `test.concurrent`. */
  currentConcurrentTestName?: () => string | undefined;
  /** Jest 30: the circus entry of the test whose code is running. */
  currentTestIdentity?: () => CircusTest | undefined;
}

/**
 * The identity of the Jest test running now. On Jest 30 it comes from the test whose code is
 * running (correct under `test.concurrent`), and the test counts as running until it is done or
 * records a failure (a timeout); on older Jest it is `currentTestName` and the test counts as
 * running while Jest has not moved on to another test.
 */
export function jestIdentity(
  state: JestExpectState,
  getState: () => JestExpectState,
): TestIdentity | undefined {
  const file = state.testPath;
  const test = state.currentTestIdentity?.();
  const name = state.currentConcurrentTestName?.() ?? state.currentTestName;
  if (!file || !name) return undefined;
  const errorsAtStart = test?.errors?.length ?? 0;
  // A retry starts again (its errors cleared) without leaving status 'done': it runs until it
  // fails or starts once more, like the first attempt until it is done.
  const attempt = test?.invocations;
  const retried = test?.status === 'done';
  return {
    file,
    name,
    title: test?.name ?? name,
    isRunning: test
      ? () =>
          (retried || test.status !== 'done') &&
          test.invocations === attempt &&
          (test.errors?.length ?? 0) === errorsAtStart
      : () => getState().currentTestName === name,
    handle: test,
    ...(attempt !== undefined && attempt > 1 ? { attempt } : {}),
  };
}

/**
 * The Jest channel: Jest has no per-test metadata, so each record becomes one JSON line appended
 * to `records-<pid>.jsonl` in the directory the ai-eval Jest reporter names in
 * `AI_EVAL_CHANNEL_DIR` (the protocol is src/report/side-channel.ts). Without that variable (no
 * ai-eval reporter) nothing is written. Records go through `writer`: written at once, or held
 * until the writer is flushed when `hold` is set (a generated suite's, flushed by its `afterAll`).
 */
export function createJestChannel(
  getState: () => JestExpectState,
  writer: ChannelWriter,
  options: { hold?: boolean } = {},
): RunnerChannel {
  return {
    identify: (state) => jestIdentity(state as JestExpectState, getState),
    send(identity, records: readonly AiEvalRecord[]) {
      // The side-channel file leaves the worker: reasons redacted and capped.
      const safe = safeRecords(records);
      // A retry's records say which attempt made them: the reporter keeps the last attempt's.
      const attempt = identity.attempt;
      writer.add(attempt === undefined ? safe : safe.map((r) => ({ ...r, attempt })));
      if (options.hold !== true) writer.flush();
      return Promise.resolve();
    },
  };
}
