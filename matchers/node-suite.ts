import { after, describe, test, type TestContext } from 'node:test';
import { loadDatasetSync } from '../src/datasets/load.js';
import { ChannelWriter } from '../src/report/side-channel.js';
import type { RunnerChannel } from '../src/run/channel.js';
import { safeRecords } from '../src/run/record.js';
import type { SuiteRuntime } from '../src/run/suite.js';
import { nodeTestIdentity, standaloneChannel, type NodeTestContextLike } from './node-channel.js';

/**
 * The records of this process's generated suites, held until a suite's `after` hook (or the
 * process's exit) writes them: one append per suite instead of a check and a write per question.
 */
const writer = new ChannelWriter();
let flushOnExit = false;

/** The suites' channel: records held in {@link writer}, reasons redacted and capped. */
const heldChannel: RunnerChannel = {
  identify: (state) => standaloneChannel.identify(state),
  send(_identity, records) {
    if (writer.add(safeRecords(records)) && !flushOnExit) {
      flushOnExit = true;
      process.once('exit', () => writer.flush());
    }
    return Promise.resolve();
  },
};

/**
 * The node:test suite runtime: `describe` and `test` from node:test, records through the side
 * channel (held, and written when the suite's `after` hook runs). `concurrent` runs the suite's
 * tests at once (node:test sets concurrency on the suite).
 */
export function nodeSuiteRuntime(concurrent: boolean): SuiteRuntime {
  const finished = new WeakSet<object>();
  return {
    describe: (name, fn) => {
      void describe(name, concurrent ? { concurrency: true } : {}, () => {
        after(() => writer.flush());
        fn();
      });
    },
    test: (name, fn, { timeout }) => {
      void test(name, timeout !== undefined ? { timeout } : {}, async (context: TestContext) => {
        try {
          await fn(context);
        } finally {
          finished.add(context);
        }
      });
    },
    skip: (name) => {
      void test.skip(name);
    },
    skipWithNote: (_suite, title, note, records) => {
      void test(title, async (context: TestContext) => {
        const identity = nodeTestIdentity(context);
        await standaloneChannel.send(identity, records({ file: identity.file, name: identity.name }));
        context.skip(note);
      });
    },
    identify: (context) =>
      nodeTestIdentity(context as NodeTestContextLike, () => finished.has(context as object)),
    signal: (context) => (context as TestContext).signal,
    channel: heldChannel,
    load: loadDatasetSync,
  };
}
