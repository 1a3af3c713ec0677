import { statSync } from 'node:fs';

/**
 * How long ago a file or folder was last written, in milliseconds as of `now`, or undefined when
 * it is not there (or cannot be read).
 *
 * @example
 * ```ts
 * if ((ageMs(guard) ?? 0) > 2_000) rmSync(guard, { recursive: true, force: true });
 * ```
 */
export function ageMs(path: string, now: number = Date.now()): number | undefined {
  try {
    return now - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}
