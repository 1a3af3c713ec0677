import { closeSync, openSync, readdirSync, unlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ageMs } from './file-age.js';
import { processStart } from './process-identity.js';

/** A marker this old was left by a run that is over: it silences nothing and is swept. */
const STALE_MS = 12 * 60 * 60 * 1000;

/** Where {@link takeRunMarker} looks, and how it learns a process's start (for tests). */
export interface RunMarkerOptions {
  /** The folder of the markers (the OS temporary folder). */
  dir?: string;
  /** The epoch ms now. */
  now?: number;
  /** What tells one process of `pid` from an earlier one that had the same pid, when known. */
  startOf?: (pid: number) => string | undefined;
}

/**
 * Takes the marker `name` for the lifetime of process `owner` (a run's main process): true for the
 * first caller of that process, false for every later one, in any process. A marker an earlier
 * process left under the same pid does not count: on Linux the marker is named by the owner's
 * start as well, elsewhere one older than 12 hours is taken over. Markers older than that are
 * swept when one is taken. A marker that cannot be made at all (an unwritable folder) answers
 * true: whatever it guards is said twice rather than never.
 *
 * @example
 * ```ts
 * if (takeRunMarker('ai-eval-no-reporter', process.ppid)) console.warn('said once per run');
 * ```
 */
export function takeRunMarker(name: string, owner: number, options: RunMarkerOptions = {}): boolean {
  const dir = options.dir ?? tmpdir();
  const now = options.now ?? Date.now();
  const start = (options.startOf ?? processStart)(owner);
  const file = join(dir, `${name}-${owner}${start === undefined ? '' : `-${start}`}`);
  if (create(file, now)) {
    sweep(dir, name, file, now);
    return true;
  }
  if (start !== undefined) return false;
  // No start to tell runs apart: a marker from long ago is an earlier process's. (Two callers that
  // both find it stale may both take it over: said twice at worst.)
  const age = ageMs(file, now);
  if (age === undefined) return create(file, now);
  if (age < STALE_MS) return false;
  try {
    unlinkSync(file);
  } catch {
    // Another caller took it over meanwhile: create() below tells.
  }
  return create(file, now);
}

/** Makes `file` if it is not there: true when this call made it, or when it cannot be made at all. */
function create(file: string, now: number): boolean {
  try {
    closeSync(openSync(file, 'wx'));
    // The marker's age is the run's, whatever the clock the caller gave.
    utimesSync(file, now / 1000, now / 1000);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EEXIST';
  }
}

/** Removes the markers of `name` older than {@link STALE_MS} (best effort: a run sweeps once). */
function sweep(dir: string, name: string, keep: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of names) {
    if (!entry.startsWith(`${name}-`)) continue;
    const file = join(dir, entry);
    if (file === keep) continue;
    if ((ageMs(file, now) ?? 0) < STALE_MS) continue;
    try {
      unlinkSync(file);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}
