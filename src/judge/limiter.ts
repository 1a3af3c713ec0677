import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { writeFileAtomic } from '../internal/atomic-write.js';
import { logger } from '../logger.js';

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
  at: number;
}

interface LimiterState {
  inflight: Holder[];
  starts: number[];
}

/**
 * The default limiter directory: `AI_EVAL_JUDGE_LIMIT_DIR`, else
 * `<os tmpdir>/ai-eval-<user>/judge-limits/<AI_EVAL_RUN_ID or "shared">`. Every Vitest or Jest
 * worker of a run computes the same directory, so the limits hold across workers.
 *
 * @example
 * ```ts
 * defaultLimitDir(); // '/tmp/ai-eval-alice/judge-limits/shared'
 * ```
 */
export function defaultLimitDir(): string {
  if (process.env.AI_EVAL_JUDGE_LIMIT_DIR) return process.env.AI_EVAL_JUDGE_LIMIT_DIR;
  let user = 'user';
  try {
    user = userInfo().username.replace(/[^\w.-]/g, '_') || user;
  } catch {
    // No user entry (some containers): one shared name is fine.
  }
  const run = (process.env.AI_EVAL_RUN_ID ?? 'shared').replace(/[^\w.-]/g, '_');
  return join(tmpdir(), `ai-eval-${user}`, 'judge-limits', run);
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function paths(settings: LimitSettings): { state: string; lock: string } {
  const id = createHash('sha256').update(settings.key).digest('hex').slice(0, 12);
  return { state: join(settings.dir, `limits-${id}.json`), lock: join(settings.dir, `limits-${id}.lock`) };
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
    const parsed = JSON.parse(text) as Partial<LimiterState>;
    const state = {
      inflight: Array.isArray(parsed.inflight) ? parsed.inflight : [],
      starts: Array.isArray(parsed.starts) ? parsed.starts.filter((n) => typeof n === 'number') : [],
    };
    return { state, text };
  } catch {
    logger.warn(`judge limiter state ${file} is corrupt; starting it afresh`, 'judge');
    return { state: { inflight: [], starts: [] }, text };
  }
}

async function withLock<T>(settings: LimitSettings, fn: (state: LimiterState) => T): Promise<T> {
  const { state: stateFile, lock } = paths(settings);
  mkdirSync(settings.dir, { recursive: true });
  writeFileSync(lock, '', { flag: 'a' });
  const release = await lockfile.lock(lock, {
    stale: 10_000,
    realpath: false,
    retries: { retries: 10_000, minTimeout: 2, maxTimeout: 40, randomize: true },
  });
  try {
    const { state, text } = readState(stateFile);
    const now = Date.now();
    state.inflight = state.inflight.filter((h) => alive(h.pid) && now - h.at < settings.holdLimitMs);
    state.starts = state.starts.filter((t) => now - t < settings.windowMs);
    const value = fn(state);
    const after = JSON.stringify(state);
    // A waiter polls often; only a change is written (atomically, so no reader sees half a file).
    if (after !== text) writeFileAtomic(stateFile, after);
    return value;
  } finally {
    await release();
  }
}

/**
 * Waits for a judge slot under limits shared by every process that uses the same directory: at
 * most `concurrency` calls in flight and at most `requestsPerWindow` starts per window. The state
 * is a JSON file guarded by a `proper-lockfile` lock; a slot held by a dead process is reclaimed.
 * Resolves to the function that frees the slot.
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
    const wait = await withLock(settings, (state) => {
      const now = Date.now();
      const limit = settings.requestsPerWindow;
      if (limit !== undefined && state.starts.length >= limit) {
        const oldest = Math.min(...state.starts);
        return Math.max(1, oldest + settings.windowMs - now);
      }
      if (state.inflight.length >= settings.concurrency) return 0;
      state.inflight.push({ token, pid: process.pid, at: now });
      state.starts.push(now);
      return -1;
    });
    if (wait < 0) break;
    await sleep(wait > 0 ? wait + Math.random() * 10 : 10 + Math.random() * 30, undefined, { signal });
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await withLock(settings, (state) => {
      state.inflight = state.inflight.filter((h) => h.token !== token);
    });
  };
}
