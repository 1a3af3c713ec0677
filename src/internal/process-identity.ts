import { readFileSync } from 'node:fs';

/**
 * Whether a process of this host with `pid` is alive (`EPERM`: alive, another user's). A pid says
 * nothing about which process it was: see {@link sameProcessAlive} for a pid that may have been
 * reused.
 *
 * @example
 * ```ts
 * processAlive(process.pid); // true
 * ```
 */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The start of process `pid` as Linux counts it (clock ticks since boot, field 22 of
 * `/proc/<pid>/stat`), which tells two processes that had the same pid apart; undefined where
 * there is no `/proc`, or no such process.
 *
 * @example
 * ```ts
 * processStart(process.pid); // '1234567' on Linux, undefined on macOS and Windows
 * ```
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start !== undefined && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

let ownStart: { value: string | undefined } | undefined;

/**
 * This process's {@link processStart}, read once.
 *
 * @example
 * ```ts
 * writeFileSync(owner, JSON.stringify({ pid: process.pid, start: ownProcessStart() }));
 * ```
 */
export function ownProcessStart(): string | undefined {
  ownStart ??= { value: processStart(process.pid) };
  return ownStart.value;
}

/**
 * This process as a holder writes itself down beside what it holds (a lock's owner file, a judge
 * slot): its pid, and its start where known.
 *
 * @example
 * ```ts
 * writeFileSync(owner, JSON.stringify({ ...ownProcess(), token }));
 * ```
 */
export function ownProcess(): { pid: number; start?: string } {
  const start = ownProcessStart();
  return start === undefined ? { pid: process.pid } : { pid: process.pid, start };
}

/**
 * Whether the process that wrote down `pid` (and, where known, its `start`) is still running: its
 * pid is alive and, when both starts are known, the process now under that pid started when that
 * one did. A pid the system has given to a newer process since reads as gone.
 *
 * @example
 * ```ts
 * sameProcessAlive(owner.pid, owner.start); // false once the owner has exited, even if its pid is reused
 * ```
 */
export function sameProcessAlive(pid: number, start: string | undefined): boolean {
  if (start === undefined) return processAlive(pid);
  const now = pid === process.pid ? ownProcessStart() : processStart(pid);
  // No start to compare (no /proc, or the pid is gone or not readable): the pid alone tells.
  if (now === undefined) return processAlive(pid);
  return now === start;
}
