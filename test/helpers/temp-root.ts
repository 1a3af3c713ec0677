import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NAMES = ['TMPDIR', 'TMP', 'TEMP'] as const;

/**
 * The global setup of every `vitest run`, whichever projects it selects: makes one temporary root
 * and points TMPDIR (TMP and TEMP on Windows) at it before any worker starts, so `os.tmpdir()` in
 * the tests and in every process they start lands inside it. The teardown removes it, with
 * whatever a test or a runner left there (the temp-dir helpers already remove their own after each
 * test: test/helpers/temp.ts). AI_EVAL_KEEP_TMP=1 keeps it and prints where it is.
 */
export default function setup(): () => void {
  const saved = NAMES.map((name) => process.env[name]);
  const root = mkdtempSync(join(tmpdir(), 'ai-eval-tmp-'));
  for (const name of NAMES) process.env[name] = root;
  return () => {
    NAMES.forEach((name, index) => {
      const value = saved[index];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    });
    if (process.env.AI_EVAL_KEEP_TMP === '1') console.log(`AI_EVAL_KEEP_TMP=1: kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  };
}
