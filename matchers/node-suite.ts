import { describe, test, type TestContext } from 'node:test';
import { loadDatasetSync } from '../src/datasets/load.js';
import type { SuiteRuntime } from '../src/run/suite.js';
import { nodeTestIdentity, standaloneChannel, type NodeTestContextLike } from './node-channel.js';

/**
 * The node:test suite runtime: `describe` and `test` from node:test, records through the side
 * channel. `concurrent` runs the suite's tests at once (node:test sets concurrency on the suite).
 */
export function nodeSuiteRuntime(concurrent: boolean): SuiteRuntime {
  const finished = new WeakSet<object>();
  return {
    describe: (name, fn) => {
      void describe(name, concurrent ? { concurrency: true } : {}, fn);
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
    channel: standaloneChannel,
    load: loadDatasetSync,
  };
}
