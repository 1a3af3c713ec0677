import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';
import { TMP } from './paths.js';

/** What was made outside a test (in `beforeAll`, at module level): removed when the file ends. */
const atFileEnd = new Set<string>();

/**
 * Makes a temporary directory `<parent>/<prefix>XXXXXX` and removes it when the current test
 * finishes, or, made outside a test, when the test file finishes (test/helpers/cleanup.ts).
 * AI_EVAL_KEEP_TMP=1 keeps it, for debugging.
 */
export function tempDir(prefix: string, parent: string = tmpdir()): string {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, prefix));
  removeAfterTest(dir);
  return dir;
}

/** A scratch directory under `.tmp` holding `files` (relative path: content), removed as tempDir's. */
export function scratch(files: Record<string, string> = {}): string {
  const dir = tempDir('scratch-', TMP);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

/** Removes `path` when the current test finishes, or when the file does (see tempDir). */
export function removeAfterTest(path: string): void {
  if (process.env.AI_EVAL_KEEP_TMP === '1') return;
  try {
    onTestFinished(() => rmSync(path, { recursive: true, force: true }));
  } catch (error) {
    if (!String(error).includes('can only be called inside a test')) throw error;
    atFileEnd.add(path);
  }
}

/** Removes what was made outside a test. The setup file calls it after each test file. */
export function removeFileLevelDirs(): void {
  for (const path of atFileEnd) rmSync(path, { recursive: true, force: true });
  atFileEnd.clear();
}
