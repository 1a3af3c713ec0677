import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AiEvalError } from '../errors.js';
import { writeFileAtomic } from '../internal/atomic-write.js';
import { withFileLock } from '../internal/file-lock.js';
import { ownProcess, sameProcessAlive } from '../internal/process-identity.js';
import { logger } from '../logger.js';
import { sha256Hex } from '../internal/sha256.js';

/** The limits one judge call waits for. */
export interface LimitSettings {
  /** Directory shared by every process of the run. */
  dir: string;
  /** A key separating providers (hashed into the state file name), e.g. the base URL. */
  key: string;
  /** Calls in flight at once across all processes. */
  concurrency: number;
  /** Calls started per window across all processes; undefined for no limit. */
  requestsPerWindow?: number | undefined;
  /** The window of `requestsPerWindow` in milliseconds. */
  windowMs: number;
  /** A slot held longer than this is presumed leaked (its holder hung) and reclaimed. */
  holdLimitMs: number;
}

interface Holder {
  token: string;
  pid: number;
  /** When the holder started (Linux): a later process given the same pid is not it. */
  start?: string;
  at: number;
}

/**
 * One call counted in the rate window. While the call is in flight it carries its slot's `token`
 * and counts whatever its age; once it is done, `at` is when it finished, and it counts for a
 * window from then.
 */
interface Start {
  at: number;
  token?: string;
}

interface LimiterState {
  inflight: Holder[];
  starts: Start[];
}

const RUN_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The value of `AI_EVAL_RUN_ID`, checked: a name of letters, digits, `-`, `_` and `.`, at most 128
 * characters, neither `.` alone nor holding `..`, so it always names one folder inside the limiter
 * base directory. Unset or empty is `shared`.
 */
function runId(base: string): string {
  const run = process.env.AI_EVAL_RUN_ID;
  if (run === undefined || run === '') return 'shared';
  if (!RUN_ID.test(run) || run === '.' || run.includes('..')) {
    throw new AiEvalError(
      'INVALID_CONFIG',
      `AI_EVAL_RUN_ID must be a name of letters, digits, '-', '_' and '.' (not '.' alone, no '..', no '/'), at most 128 characters; got ${JSON.stringify(run)}. It names the judge limiter's folder in ${base}. Fix: set it to something like 'ci-1234', or unset it (or set judge.limitDir).`,
    );
  }
  return run;
}

/** The user's name as a folder name, looked up once (a judge call reads the settings each time). */
let user: string | undefined;
function userName(): string {
  if (user === undefined) {
    try {
      user = userInfo().username.replace(/[^\w.-]/g, '_') || 'user';
    } catch {
      // No user entry (some containers): one shared name is fine.
      user = 'user';
    }
  }
  return user;
}

/**
 * The default limiter directory: `AI_EVAL_JUDGE_LIMIT_DIR`, else
 * `<os tmpdir>/ai-eval-<user>/judge-limits/<AI_EVAL_RUN_ID or "shared">`. Every Vitest or Jest
 * worker of a run computes the same directory, so the limits hold across workers. A malformed
 * `AI_EVAL_RUN_ID` (a path, `..`) is an {@link AiEvalError} (`INVALID_CONFIG`).
 *
 * @example
 * ```ts
 * defaultLimitDir(); // '/tmp/ai-eval-alice/judge-limits/shared'
 * ```
 */
export function defaultLimitDir(): string {
  if (process.env.AI_EVAL_JUDGE_LIMIT_DIR) return process.env.AI_EVAL_JUDGE_LIMIT_DIR;
  const base = join(tmpdir(), `ai-eval-${userName()}`, 'judge-limits');
  return join(base, runId(base));
}

function stateFile(settings: LimitSettings): string {
  const id = sha256Hex(settings.key).slice(0, 12);
  return join(settings.dir, `limits-${id}.json`);
}

function starts(value: unknown): Start[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((s): Start[] => {
    // Earlier versions kept bare start times.
    if (typeof s === 'number') return [{ at: s }];
    const { at, token } = (s ?? {}) as Partial<Start>;
    if (typeof at !== 'number') return [];
    return [typeof token === 'string' ? { at, token } : { at }];
  });
}

/** The state in the file, and the file's text (`undefined` when there is none yet). */
function readState(file: string): { state: LimiterState; text: string | undefined } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { state: { inflight: [], starts: [] }, text: undefined };
  }
  try {
    const parsed = JSON.parse(text) as { inflight?: unknown; starts?: unknown };
    const state = {
      inflight: Array.isArray(parsed.inflight) ? (parsed.inflight as Holder[]) : [],
      starts: starts(parsed.starts),
    };
    return { state, text };
  } catch {
    logger.warn(`judge limiter state ${file} is corrupt; starting it afresh`, 'judge');
    return { state: { inflight: [], starts: [] }, text };
  }
}

/** Drops dead or leaked holders; their calls count as finished now; finished calls leave the window. */
function tidy(state: LimiterState, settings: LimitSettings, now: number): void {
  state.inflight = state.inflight.filter(
    (h) =>
      sameProcessAlive(h.pid, typeof h.start === 'string' ? h.start : undefined) &&
      now - h.at < settings.holdLimitMs,
  );
  const live = new Set(state.inflight.map((h) => h.token));
  state.starts = state.starts
    .map((s) => (s.token !== undefined && !live.has(s.token) ? { at: Math.max(s.at, now) } : s))
    .filter((s) => s.token !== undefined || now - s.at < settings.windowMs);
}

async function withLock<T>(
  settings: LimitSettings,
  fn: (state: LimiterState, now: number) => T,
  signal?: AbortSignal,
): Promise<T> {
  const file = stateFile(settings);
  mkdirSync(settings.dir, { recursive: true });
  return withFileLock(
    file,
    {
      label: 'judge limiter',
      code: 'JUDGE_FAILED',
      consequence: 'No judge call was made.',
      pollMs: 20,
      stuckMs: 60_000,
      signal,
      onTakeover: (holder, lock) =>
        logger.debug(
          `took over the limiter lock ${lock} of process ${holder?.pid ?? '?'}, which is gone`,
          'judge',
        ),
    },
    () => {
      const { state, text } = readState(file);
      const now = Date.now();
      tidy(state, settings, now);
      const value = fn(state, now);
      const after = JSON.stringify(state);
      // A waiter polls often; only a change is written (atomically, so no reader sees half a file).
      if (after !== text) writeFileAtomic(file, after, { durable: false });
      return value;
    },
  );
}

/** The waiters of this process, woken when one of its slots is freed. */
const waiters: Array<() => void> = [];

/** Sleeps `ms`, or less when a slot of this process is freed meanwhile. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  const early = new AbortController();
  const wake = () => early.abort();
  waiters.push(wake);
  const both = signal ? AbortSignal.any([signal, early.signal]) : early.signal;
  try {
    await sleep(ms, undefined, { signal: both });
  } catch (error) {
    if (signal?.aborted) throw error;
  } finally {
    const at = waiters.indexOf(wake);
    if (at !== -1) waiters.splice(at, 1);
  }
}

/**
 * Waits for a judge slot under limits shared by every process that uses the same directory: at
 * most `concurrency` calls in flight, and at most `requestsPerWindow` calls counted in any window of
 * `windowMs`. A call counts from when it takes its slot until a window after it finished, so no
 * window ever sees more than `requestsPerWindow` requests reach the provider, however long they
 * take and however late each process gets to send. The state is a JSON file changed only under a
 * cross-process lock (src/internal/file-lock.ts); a slot held by a dead process is reclaimed, and
 * so is the lock itself. Resolves to the function that frees the slot.
 *
 * @example
 * ```ts
 * const release = await acquireSlot({ dir, key: baseURL, concurrency: 4, windowMs: 60_000, holdLimitMs: 120_000 });
 * try { await callModel(); } finally { await release(); }
 * ```
 */
export async function acquireSlot(
  settings: LimitSettings,
  signal?: AbortSignal,
): Promise<() => Promise<void>> {
  const token = randomUUID();
  for (;;) {
    signal?.throwIfAborted();
    const wait = await withLock(
      settings,
      (state, now) => {
        const limit = settings.requestsPerWindow;
        if (limit !== undefined && state.starts.length >= limit) {
          const done = state.starts.filter((s) => s.token === undefined).map((s) => s.at);
          // Only calls in flight: poll until one finishes; else until the oldest leaves the window.
          return done.length === 0 ? 0 : Math.max(1, Math.min(...done) + settings.windowMs - now);
        }
        if (state.inflight.length >= settings.concurrency) return 0;
        state.inflight.push({ token, ...ownProcess(), at: now });
        state.starts.push({ at: now, token });
        return -1;
      },
      signal,
    );
    if (wait < 0) break;
    await pause(wait > 0 ? wait + Math.random() * 10 : 10 + Math.random() * 30, signal);
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await withLock(settings, (state, now) => {
      state.inflight = state.inflight.filter((h) => h.token !== token);
      state.starts = state.starts.map((s) => (s.token === token ? { at: now } : s));
    });
    // The longest waiter of this process tries again at once rather than at its next poll.
    waiters.shift()?.();
  };
}
