import { randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AiEvalError, type AiEvalErrorCode } from '../errors.js';
import { ageMs } from './file-age.js';
import { ownProcess, sameProcessAlive } from './process-identity.js';
import { sha256Hex } from './sha256.js';

/**
 * A cross-process lock on a file, beside it: the directory `<file>.lock` holding `owner.json`
 * ({ pid, host, token, and on Linux the holder's start }). The directory never exists without its
 * owner file: a taker writes the owner file into a directory of its own and renames that directory
 * to `<file>.lock` (a rename onto a directory that has files fails, so only one taker wins), and a
 * holder renames the lock away before it removes it. A process killed at any point of taking or
 * releasing the lock so leaves either a lock with an owner (taken over at once, below) or no lock.
 * What it adds to a plain lock directory:
 *
 * - A lock whose holder is gone is taken over at once: on the same host the holder's pid is
 *   checked, with its start where known (a process killed with `kill -9` never released it, and
 *   its pid may since belong to another process). A holder on another host keeps the directory's
 *   mtime fresh; it is presumed dead after {@link FOREIGN_STALE_MS} without it. A directory
 *   without an owner file (made by another tool, or by an older ai-eval that made the
 *   directory first and wrote its owner after) is stale after {@link OWNERLESS_STALE_MS}.
 *   Staleness never rests on a timer in the holder, which a long synchronous step (validating a
 *   big dataset) would hold up.
 * - `fair: true` makes waiters take turns in arrival order: each leaves a ticket in
 *   `<file>.lock-queue/` and only the first live ticket tries the lock; a dead waiter's ticket is
 *   removed.
 * - A waiter gives up only when nothing moves: the lock has had the same holder, and no waiter
 *   ahead left, for `stuckMs`. It then throws an {@link AiEvalError} naming the file, the holder
 *   and what to do.
 */

/** A lock held by another host, untouched this long, is presumed dead. */
export const FOREIGN_STALE_MS = 60_000;
/** A lock directory without an owner file, untouched this long, is presumed dead. */
export const OWNERLESS_STALE_MS = 10_000;
/** How often a holder touches its lock directory (for waiters on other hosts). */
const TOUCH_MS = 5_000;

/** What a waiter knows about the holder of a lock. */
export interface LockHolder {
  pid: number;
  host: string;
  token: string;
  /** When the holder started (Linux), which tells it from a later process given the same pid. */
  start?: string;
}

/** Options of {@link acquireFileLock}. */
export interface FileLockOptions {
  /** Names the waiter in an error, for example `file:support.yaml`. */
  label: string;
  /** The code of the error thrown when the wait gives up. */
  code: AiEvalErrorCode;
  /** What was not done when the wait gives up, for example `Nothing was written.` */
  consequence: string;
  /** Give up after this long without progress. Default 120 s. */
  stuckMs?: number;
  /** Take turns in arrival order. Default false. */
  fair?: boolean;
  /** Longest pause between two tries, in milliseconds. Default 50. */
  pollMs?: number;
  signal?: AbortSignal | undefined;
  /** Called when a lock left by a dead holder is taken over. */
  onTakeover?: (holder: LockHolder | undefined, lock: string) => void;
}

const HOST = hostname();
const HOST_ID = sha256Hex(HOST).slice(0, 8);
let sequence = 0;

/**
 * What a taker, a holder or a breaker of this host killed meanwhile leaves beside the lock:
 * `<lock><kind><host>-<pid>-<token>`.
 */
const LEFTOVER_TAKE = '.take-';
const LEFTOVER_RELEASED = '.released-';
const LEFTOVER_STALE = '.stale-';
const LEFTOVERS = [LEFTOVER_TAKE, LEFTOVER_RELEASED, LEFTOVER_STALE];
/** A breaker's guard (`<lock>.break`) older than this was left by a breaker that died. */
const BREAK_GUARD_STALE_MS = 2_000;

/**
 * This process as the names it leaves beside a lock (queue tickets, leftovers) give it: its pid,
 * and its start where known (`<pid>.<start>`), so a later process given the same pid is not it.
 */
function processTag(): string {
  const { pid, start } = ownProcess();
  return start === undefined ? String(pid) : `${pid}.${start}`;
}

/** Whether the process a name's {@link processTag} (or a bare pid, an older ai-eval's) names runs. */
function tagAlive(tag: string | undefined): boolean {
  const [pid = '', start] = (tag ?? '').split('.');
  return /^\d+$/.test(pid) && sameProcessAlive(Number(pid), start);
}

function readOwner(dir: string): LockHolder | undefined {
  try {
    const value = JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.token === 'string') {
      const holder: LockHolder = { pid: value.pid, host: value.host, token: value.token };
      if (typeof value.start === 'string') holder.start = value.start;
      return holder;
    }
  } catch {
    // No owner file yet, or not ours.
  }
  return undefined;
}

/** Whether the lock directory `lock`, held by `owner` (as read), is left by a holder that is gone. */
function isStale(lock: string, owner: LockHolder | undefined): boolean {
  if (owner && owner.host === HOST) return !sameProcessAlive(owner.pid, owner.start);
  const age = ageMs(lock);
  if (age === undefined) return false;
  return age > (owner ? FOREIGN_STALE_MS : OWNERLESS_STALE_MS);
}

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/**
 * Removes a stale lock, at most one breaker at a time (`<lock>.break`), after checking under that
 * guard that the lock still has the holder that was found dead. True when it removed it.
 */
function breakLock(lock: string, seen: LockHolder | undefined): boolean {
  const guard = `${lock}.break`;
  try {
    mkdirSync(guard);
  } catch (error) {
    if (errno(error) !== 'EEXIST') throw error;
    // A breaker died mid-break (breaking takes milliseconds): clear its guard and try again later.
    if ((ageMs(guard) ?? 0) > BREAK_GUARD_STALE_MS) rmSync(guard, { recursive: true, force: true });
    return false;
  }
  try {
    const now = readOwner(lock);
    if (now?.token !== seen?.token || !isStale(lock, now)) return false;
    const trash = `${lock}${LEFTOVER_STALE}${HOST_ID}-${processTag()}-${randomUUID()}`;
    try {
      renameSync(lock, trash);
    } catch (error) {
      if (errno(error) === 'ENOENT') return false;
      throw error;
    }
    rmSync(trash, { recursive: true, force: true });
    return true;
  } finally {
    rmSync(guard, { recursive: true, force: true });
  }
}

/** A waiter's place in the queue of a fair lock. */
interface Ticket {
  dir: string;
  name: string;
}

function takeTicket(queue: string): Ticket {
  sequence += 1;
  const name = `${String(Date.now()).padStart(15, '0')}-${String(sequence).padStart(9, '0')}-${HOST_ID}-${processTag()}-${randomUUID()}`;
  for (let tries = 0; ; tries += 1) {
    try {
      mkdirSync(queue, { recursive: true });
      writeFileSync(join(queue, name), '', { flag: 'wx' });
      return { dir: queue, name };
    } catch (error) {
      // The last waiter out removed the empty queue directory just now: make it again.
      if (errno(error) !== 'ENOENT' || tries > 20) throw error;
    }
  }
}

function leaveQueue(ticket: Ticket): void {
  rmSync(join(ticket.dir, ticket.name), { force: true });
  try {
    rmdirSync(ticket.dir);
  } catch {
    // Others are still waiting (ENOTEMPTY), or someone removed it already.
  }
}

/** How many live tickets are ahead of `ticket`; removes the tickets of dead waiters on this host. */
function ahead(ticket: Ticket): number {
  let names: string[];
  try {
    names = readdirSync(ticket.dir);
  } catch {
    return 0;
  }
  let count = 0;
  for (const name of names) {
    if (name >= ticket.name) continue;
    const [, , host, tag] = name.split('-');
    if (host === HOST_ID && !tagAlive(tag)) {
      rmSync(join(ticket.dir, name), { force: true });
      continue;
    }
    count += 1;
  }
  return count;
}

function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'an unknown holder (the lock directory has no owner file)';
  if (holder.host !== HOST) return `process ${holder.pid} on host ${holder.host}`;
  return `process ${holder.pid} on this machine, which is still running,`;
}

/**
 * Takes the lock on `file` (see the module comment), waiting as long as the lock keeps changing
 * hands or the queue ahead keeps moving. Resolves to the function that releases it. Gives up with
 * an {@link AiEvalError} (`options.code`) naming the file, the holder and what to do when nothing
 * moved for `stuckMs`; rejects with the signal's reason when `signal` aborts.
 *
 * @example
 * ```ts
 * const release = await acquireFileLock('datasets/support.yaml', {
 *   label: 'file:support.yaml', code: 'DATASET_SOURCE', consequence: 'Nothing was written.', fair: true,
 * });
 * try { rewrite(); } finally { await release(); }
 * ```
 */
export async function acquireFileLock(file: string, options: FileLockOptions): Promise<() => Promise<void>> {
  const lock = `${file}.lock`;
  const stuckMs = options.stuckMs ?? 120_000;
  const pollMs = options.pollMs ?? 50;
  const ticket = options.fair ? takeTicket(`${file}.lock-queue`) : undefined;
  const token = randomUUID();
  let progress = '';
  let since = Date.now();
  let holder: LockHolder | undefined;
  let candidate: Candidate | undefined;
  try {
    for (let tries = 0; ; tries += 1) {
      options.signal?.throwIfAborted();
      const waiting = ticket ? ahead(ticket) : 0;
      if (waiting === 0) {
        candidate ??= makeCandidate(lock, token);
        if (tryLock(lock, candidate)) return holdLock(lock, token);
      }
      holder = readOwner(lock);
      if (waiting === 0 && isStale(lock, holder) && breakLock(lock, holder)) {
        options.onTakeover?.(holder, lock);
        continue;
      }
      const now = `${holder?.token ?? ''}|${waiting}`;
      if (now !== progress) {
        progress = now;
        since = Date.now();
      } else if (Date.now() - since > stuckMs) {
        throw new AiEvalError(
          options.code,
          `${options.label}: gave up waiting for the lock on ${file} after ${Math.round(stuckMs / 1000)} s in which it did not change hands: ${describeHolder(holder)} held it all that time. ${options.consequence} Fix: let that process finish, or stop it if it hangs; if no such process is running, delete ${lock}.`,
        );
      }
      const pause = Math.min(pollMs, 2 + tries * 2) * (0.5 + Math.random());
      await sleep(pause, undefined, options.signal ? { signal: options.signal } : undefined);
    }
  } finally {
    if (candidate && !candidate.used) rmSync(candidate.dir, { recursive: true, force: true });
    if (ticket) leaveQueue(ticket);
  }
}

/**
 * A taker's lock directory with its owner file, made once per {@link acquireFileLock} beside the
 * lock and renamed into place by {@link tryLock}; removed when the wait ends without it.
 */
interface Candidate {
  dir: string;
  used: boolean;
}

function makeCandidate(lock: string, token: string): Candidate {
  const dir = `${lock}${LEFTOVER_TAKE}${HOST_ID}-${processTag()}-${token}`;
  mkdirSync(dir);
  try {
    const owner: LockHolder = { ...ownProcess(), host: HOST, token };
    writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, used: false };
}

/** Errors of a rename onto a lock directory that is there (Linux, macOS, Windows). */
const TAKEN = new Set(['ENOTEMPTY', 'EEXIST', 'EPERM', 'EACCES', 'EISDIR']);

/**
 * Renames the candidate (the owner file already in it) to the lock directory; false when the
 * lock is taken. An empty directory in its place (an older ai-eval's, mid-release) is replaced.
 */
function tryLock(lock: string, candidate: Candidate): boolean {
  for (let attempt = 0; ; attempt += 1) {
    try {
      renameSync(candidate.dir, lock);
      candidate.used = true;
      return true;
    } catch (error) {
      const code = errno(error);
      if (code === undefined || !TAKEN.has(code)) throw error;
      if (existsSync(lock)) return false;
      // Released between the rename and the look: try again at once. A rename refused with no
      // lock there (no permission to write the folder) is refused every time: say so.
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * Removes what takers, holders and breakers of this host that are gone left beside `lock`: a
 * candidate directory (killed while waiting), a lock renamed away and not yet removed (killed
 * while releasing, or while breaking a stale lock), and a breaker's guard left behind. Run by
 * each new holder, so a dataset folder keeps no litter of a killed writer.
 */
function sweepLeftovers(lock: string): void {
  const dir = dirname(lock);
  const base = basename(lock);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(base)) continue;
    const rest = name.slice(base.length);
    if (rest === '.break') {
      const guard = join(dir, name);
      if ((ageMs(guard) ?? 0) > BREAK_GUARD_STALE_MS) rmSync(guard, { recursive: true, force: true });
      continue;
    }
    const kind = LEFTOVERS.find((k) => rest.startsWith(k));
    if (kind === undefined) continue;
    const [host, tag] = rest.slice(kind.length).split('-');
    if (host === HOST_ID && !tagAlive(tag)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

function holdLock(lock: string, token: string): () => Promise<void> {
  sweepLeftovers(lock);
  const touch = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(lock, now, now);
    } catch {
      // Gone: release will notice.
    }
  }, TOUCH_MS);
  touch.unref();
  let released = false;
  return () => {
    if (released) return Promise.resolve();
    released = true;
    clearInterval(touch);
    // Remove the lock only while it is still ours (it is, unless someone broke it by hand), and
    // rename it away first: it is gone at once, never left without its owner file.
    if (readOwner(lock)?.token === token) {
      const trash = `${lock}${LEFTOVER_RELEASED}${HOST_ID}-${processTag()}-${token}`;
      try {
        renameSync(lock, trash);
      } catch {
        return Promise.resolve(); // gone meanwhile
      }
      rmSync(trash, { recursive: true, force: true });
    }
    return Promise.resolve();
  };
}

/**
 * Runs `fn` holding the lock on `file` ({@link acquireFileLock}), and releases it however `fn` ends.
 *
 * @example
 * ```ts
 * await withFileLock(path, options, () => writeFileAtomic(path, next));
 * ```
 */
export async function withFileLock<T>(
  file: string,
  options: FileLockOptions,
  fn: () => T | Promise<T>,
): Promise<T> {
  const release = await acquireFileLock(file, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}
