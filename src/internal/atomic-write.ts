import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file atomically: to a temporary file beside it (written whole, fsynced), then renamed
 * over it, so a reader never sees a partial file and a failed write leaves the old file as it was;
 * creates the directory when missing. The one atomic writer of the package: reports, cache
 * entries, limiter state and dataset appends all go through it.
 *
 * (write-file-atomic was tried and dropped: its sync writer renames a short write into place when
 * a write stops part way, for instance at a file-size limit.)
 *
 * `{ durable: false }` skips the fsync: for state that only coordinates the processes of one run
 * (the judge limiter and rate controller, in the temporary directory), which must never be seen
 * half written but need not survive a power cut; the fsync was most of the cost of a judge call's
 * bookkeeping.
 *
 * @example
 * ```ts
 * writeFileAtomic('reports/ai-eval.json', JSON.stringify(report, null, 2));
 * ```
 */
export function writeFileAtomic(file: string, content: string, options?: { durable?: boolean }): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    // writeFileSync loops until every byte is written and throws when one cannot be.
    writeFileSync(temp, content);
    if (options?.durable !== false) {
      const fd = openSync(temp, 'r+');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
