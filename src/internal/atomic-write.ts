import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes every byte of `bytes` to `fd`, however many calls the system takes; throws when it cannot.
 *
 * @example
 * ```ts
 * writeAll(fd, Buffer.from(lines));
 * ```
 */
export function writeAll(fd: number, bytes: Buffer): void {
  for (let written = 0; written < bytes.length;)
    written += writeSync(fd, bytes, written, bytes.length - written);
}

/**
 * Writes a file atomically: to a temporary file beside it (written whole, fsynced), then renamed
 * over it, so a reader never sees a partial file and a failed write leaves the old file as it was;
 * creates the directory when missing. `content` is a string, or pieces of one written as they come
 * (a large report is never one string in memory). The one atomic writer of the package: reports,
 * cache entries, limiter state and dataset appends all go through it.
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
export function writeFileAtomic(
  file: string,
  content: string | Iterable<string>,
  options?: { durable?: boolean },
): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    const fd = openSync(temp, 'w');
    try {
      if (typeof content === 'string') writeAll(fd, Buffer.from(content));
      else for (const chunk of content) writeAll(fd, Buffer.from(chunk));
      if (options?.durable !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
