import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
/** Scratch space for test runs (git-ignored). */
export const TMP = join(ROOT, '.tmp');

/** This test run's directory, made by the global setup. */
export function runDir(): string {
  const dir = process.env.AI_EVAL_TEST_RUN_DIR;
  if (!dir)
    throw new Error(
      'AI_EVAL_TEST_RUN_DIR is not set: run the tests through vitest (test/helpers/global-setup.ts).',
    );
  return dir;
}

/** Where the packed package is unpacked; fixture projects resolve `ai-eval` here. */
export function packedDir(): string {
  return join(runDir(), 'node_modules', 'ai-eval');
}

/** Fixture projects are copied here before they run. */
export function projectsDir(): string {
  return join(runDir(), 'projects');
}
