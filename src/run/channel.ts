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
  /** Which attempt of the test this is, 2 or more when the runner retried it (Jest 30); else absent. */
  attempt?: number;
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

/** Where the scope of the running question lives, per process (shared by ESM and CJS copies). */
interface ScopeState {
  /** The async context of concurrent questions (and of every question once a matcher asked). */
  storage: AsyncLocalStorage<ScopedIdentity>;
  /** The one sequential question trial running now, when no async context carries it. */
  current: ScopedIdentity | undefined;
  /** A matcher has read the scope in this process: from then on every trial carries it in the async context. */
  contextual: boolean;
}

const KEY = Symbol.for('ai-eval.test-scope');

function scopeState(): ScopeState {
  const holder = globalThis as { [KEY]?: ScopeState };
  holder[KEY] ??= { storage: new AsyncLocalStorage<ScopedIdentity>(), current: undefined, contextual: false };
  return holder[KEY];
}

/**
 * Runs `fn` with `identity` as the current test identity of everything it awaits. A `sequential`
 * trial (no other question runs in this process meanwhile) is kept in a plain slot instead of the
 * async context, which on Node 20 and 22 taxes every promise the process makes once it is in use;
 * the first matcher that reads the scope switches the process to the async context for every
 * later trial.
 */
export async function runWithIdentity<T>(
  identity: ScopedIdentity,
  fn: () => Promise<T>,
  sequential = false,
): Promise<T> {
  const state = scopeState();
  if (!sequential || state.contextual) return state.storage.run(identity, fn);
  state.current = identity;
  try {
    return await fn();
  } finally {
    if (state.current === identity) state.current = undefined;
  }
}

/**
 * The identity set by the enclosing {@link runWithIdentity}, if any. A sequential trial's identity
 * is given only while its test runs, and only to a matcher whose runner names that same test
 * (`runner`, when the runner names one): a matcher of another test that runs meanwhile (a
 * `test.concurrent` beside the suite) keeps its own.
 */
export function scopedIdentity(runner?: TestIdentity): ScopedIdentity | undefined {
  const state = scopeState();
  const stored = state.storage.getStore();
  if (stored) return stored;
  const current = state.current;
  if (current === undefined) return undefined;
  state.contextual = true;
  if (!current.isRunning()) return undefined;
  if (runner && (runner.file !== current.file || runner.name !== current.name)) return undefined;
  return current;
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
