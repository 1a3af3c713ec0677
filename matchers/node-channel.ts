import { basename, resolve } from 'node:path';
import * as nodeTest from 'node:test';
import type { RunnerChannel, TestIdentity } from '../src/run/channel.js';
import { safeRecords } from '../src/run/record.js';
import { appendRecords } from '../src/report/side-channel.js';
import { logger } from '../src/logger.js';

/** The parts of a node:test `TestContext` ai-eval reads. */
export interface NodeTestContextLike {
  name: string;
  /** Node 20.16 / 22.3 and later: the names of the test and its ancestors, joined by ` > `. */
  fullName?: string;
  /** Node 22.6 and later: the absolute path of the test file. */
  filePath?: string;
  signal?: AbortSignal;
}

/** The test file of a node:test context: its own path, else the script node runs. */
function fileOf(context: NodeTestContextLike): string {
  return context.filePath ?? resolve(process.argv[1] ?? 'unknown');
}

/**
 * The identity of a node:test test from its context. It counts as running until `done()` says
 * otherwise or its signal aborts (node:test aborts it when the test times out or ends).
 */
export function nodeTestIdentity(
  context: NodeTestContextLike,
  done: () => boolean = () => false,
): TestIdentity {
  return {
    file: fileOf(context),
    name: context.fullName ?? context.name,
    title: context.name,
    isRunning: () => !done() && context.signal?.aborted !== true,
    handle: context,
  };
}

/** True in a process that `node --test` runs test files in (a child, or the main one without isolation). */
export function underNodeTest(): boolean {
  return process.env.NODE_TEST_CONTEXT !== undefined || process.execArgv.some((a) => a === '--test');
}

interface Tracker {
  running: Set<NodeTestContextLike>;
  warned: boolean;
}

const KEY = Symbol.for('ai-eval.node-test-tracker');

/**
 * Follows which node:test test runs, through root-level `beforeEach` and `afterEach` hooks (which
 * node:test runs around every test of the file, nested ones too), so that a matcher called in a
 * test body knows its test without being handed the context. Registered once per process, and
 * only under `node --test`: a plain script or mocha never starts node:test's harness.
 */
export function trackNodeTests(): Tracker | undefined {
  const holder = globalThis as { [KEY]?: Tracker };
  if (holder[KEY]) return holder[KEY];
  if (!underNodeTest()) return undefined;
  const tracker: Tracker = { running: new Set(), warned: false };
  holder[KEY] = tracker;
  nodeTest.beforeEach((context) => {
    tracker.running.add(context);
  });
  nodeTest.afterEach((context) => {
    tracker.running.delete(context);
  });
  return tracker;
}

/** The node:test test running now, when exactly one runs. */
function currentNodeTest(): TestIdentity | undefined {
  const tracker = (globalThis as { [KEY]?: Tracker })[KEY];
  if (!tracker || tracker.running.size === 0) return undefined;
  if (tracker.running.size > 1) {
    if (!tracker.warned) {
      tracker.warned = true;
      logger.warn(
        'several node:test tests run at once in this file, so a matcher cannot tell which one called it: their records are not reported. Fix: run the file without concurrency, or grade through evalSuite from ai-eval/node.',
        'expect',
      );
    }
    return undefined;
  }
  const [context] = tracker.running;
  const entry = context as NodeTestContextLike;
  return nodeTestIdentity(entry, () => !tracker.running.has(entry));
}

/** The parts of the standalone expect's state the channel reads (a harness may set them). */
interface ExpectStateLike {
  testPath?: string;
  currentTestName?: string;
}

/**
 * The test a standalone-`expect` matcher runs in: the node:test test running now; else the
 * `testPath` and `currentTestName` a harness put on the expect state (mocha:
 * `expect.setState({ testPath: this.currentTest.file, currentTestName: this.currentTest.fullTitle() })`);
 * else the script itself, named by its file.
 */
export function standaloneIdentity(state: unknown): TestIdentity {
  const fromNode = currentNodeTest();
  if (fromNode) return fromNode;
  const { testPath, currentTestName } = (state ?? {}) as ExpectStateLike;
  const file = resolve(testPath ?? process.argv[1] ?? 'script');
  const name = currentTestName ?? basename(file);
  return { file, name, title: name, isRunning: () => true };
}

/**
 * The channel of runners without per-test metadata besides Jest (node:test, mocha, scripts on the
 * standalone `expect`): each record becomes one JSON line in `records-<pid>.jsonl` in the directory
 * named by `AI_EVAL_CHANNEL_DIR` (src/report/side-channel.ts), which the node:test reporter sets up
 * and `ai-eval report` reads. Without that variable nothing is written.
 */
export const standaloneChannel: RunnerChannel = {
  identify: (state) => standaloneIdentity(state),
  send(_identity, records) {
    // The side-channel file leaves the process: reasons redacted and capped.
    appendRecords(safeRecords(records));
    return Promise.resolve();
  },
};
