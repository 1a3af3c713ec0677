import { loadDatasetSync } from '../src/datasets/load.js';
import type { RunnerChannel } from '../src/run/channel.js';
import { jestIdentity, type JestExpectState } from './jest-channel.js';
import type { SuiteRuntime } from '../src/run/suite.js';

type TestFn = (name: string, fn: () => Promise<void>, timeout?: number) => void;

interface JestGlobals {
  describe: (name: string, fn: () => void) => void;
  afterAll: (fn: () => void) => void;
  test: TestFn & { concurrent: TestFn; skip: (name: string, fn: () => void) => void };
  expect: { getState(): JestExpectState };
}

function jestGlobals(): JestGlobals {
  const g = globalThis as Partial<JestGlobals>;
  if (
    typeof g.describe !== 'function' ||
    typeof g.afterAll !== 'function' ||
    typeof g.test !== 'function' ||
    typeof g.expect?.getState !== 'function'
  ) {
    throw new TypeError(
      "evalSuite: Jest's describe, afterAll, test and expect globals were not found. Call evalSuite in a Jest test file, and keep Jest's injectGlobals on.",
    );
  }
  return g as JestGlobals;
}

/**
 * The Jest suite runtime. Its questions' records go through `held`, which keeps them until the
 * suite's `afterAll` calls `flush` (one append per suite instead of one per question); the records
 * written while Jest collects the file go through `channel`, at once.
 */
export function jestSuiteRuntime(
  channel: RunnerChannel,
  held: RunnerChannel,
  flush: () => void,
): SuiteRuntime {
  return {
    describe: (name, fn) => {
      const { describe, afterAll } = jestGlobals();
      describe(name, () => {
        afterAll(flush);
        fn();
      });
    },
    test: (name, fn, { concurrent, timeout }) => {
      const { test } = jestGlobals();
      (concurrent ? test.concurrent : test)(name, () => fn(undefined), timeout);
    },
    skip: (name) => jestGlobals().test.skip(name, () => undefined),
    // Jest cannot skip a running test, so the records are written now, while Jest collects the
    // file (its path is already in expect's state), and the test is defined as skipped.
    skipWithNote: (suite, title, _note, records) => {
      const { test, expect } = jestGlobals();
      const file = expect.getState().testPath;
      const name = `${suite} > ${title}`;
      if (file) void channel.send({ file, name, title, isRunning: () => true }, records({ file, name }));
      test.skip(title, () => undefined);
    },
    identify: (_context, title) => {
      const getState = (): JestExpectState => jestGlobals().expect.getState();
      const state = getState();
      return (
        jestIdentity(state, getState) ?? {
          file: state.testPath ?? '',
          name: title,
          title,
          isRunning: () => true,
        }
      );
    },
    signal: () => undefined,
    channel: held,
    load: loadDatasetSync,
  };
}
