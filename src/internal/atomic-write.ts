import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomicLib from 'write-file-atomic';

/**
 * Writes a file atomically (a temporary file beside it, fsynced, then renamed over it), so a reader
 * never sees a partial file; creates the directory when missing. The one atomic writer of the
 * package: reports, cache entries, limiter state and dataset appends all go through it.
 *
 * @example
 * ```ts
 * writeFileAtomic('reports/ai-eval.json', JSON.stringify(report, null, 2));
 * ```
 */
export function writeFileAtomic(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomicLib.sync(file, content, { encoding: 'utf8' });
}
