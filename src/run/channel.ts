import { AsyncLocalStorage } from 'node:async_hooks';
import type { AiEvalRecord } from './record-types.js';

/**
 * Which test computed a grade, and whether that test is still running. Records are only sent while
 * it is: a grade that arrives after its test timed out or finished is dropped, never pinned on
 * whichever test happens to run next.
 */
export interface TestIdentity {
  /** Absolute path of the test file. */
  file: string;
  /** The full test name as the runner reports it. */
  name: string;
  /** The test's own title (the last part of `name`). */
  title: string;
  /** True while the test that started the grading is still running. */
  isRunning(): boolean;
  /** The runner's own test object, for the channel that sends the records. */
  handle?: unknown;
}

/**
 * What a runner entry point gives the runner-free matcher and suite code: who is running, and how
 * records reach the reporter.
 */
export interface RunnerChannel {
  /** The identity of the test a matcher runs in, from the matcher's `this`; undefined outside a test. */
  identify(matcherState: unknown): TestIdentity | undefined;
  /** Sends records of a running test to the reporter. */
  send(identity: TestIdentity, records: readonly AiEvalRecord[]): Promise<void>;
}

/** What {@link runWithIdentity} carries into the code a generated test calls. */
export interface ScopedIdentity extends TestIdentity {
  /** The dataset question being run. */
  question?: string;
  /** The 1-based trial being run. */
  trial?: number;
}

const KEY = Symbol.for('ai-eval.test-identity');

function storage(): AsyncLocalStorage<ScopedIdentity> {
  // One store per process, shared by ESM and CJS copies of the package.
  const holder = globalThis as { [KEY]?: AsyncLocalStorage<ScopedIdentity> };
  holder[KEY] ??= new AsyncLocalStorage<ScopedIdentity>();
  return holder[KEY];
}

/** Runs `fn` with `identity` as the current test identity of everything it awaits. */
export function runWithIdentity<T>(identity: ScopedIdentity, fn: () => T): T {
  return storage().run(identity, fn);
}

/** The identity set by the enclosing {@link runWithIdentity}, if any. */
export function scopedIdentity(): ScopedIdentity | undefined {
  return storage().getStore();
}

/** Sends `records` if the test that computed them still runs; returns how many were sent. */
export async function sendIfRunning(
  channel: RunnerChannel,
  identity: TestIdentity,
  records: readonly AiEvalRecord[],
): Promise<number> {
  if (records.length === 0 || !identity.isRunning()) return 0;
  await channel.send(identity, records);
  return records.length;
}

/**
 * The key under which the ai-eval Vitest reporter `provide`s `true` to the workers, so a worker
 * that records grades can tell when no ai-eval reporter will collect them.
 *
 * @example
 * ```ts
 * vitest.provide(VITEST_REPORTER_KEY, true);
 * ```
 */
export const VITEST_REPORTER_KEY = 'aiEvalReporter';
