import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
/** Scratch space for test runs (git-ignored). */
export const TMP = join(ROOT, '.tmp');
/** Where the packed package is unpacked; fixture projects under TMP resolve `ai-eval` here. */
export const PACKED_DIR = join(TMP, 'node_modules', 'ai-eval');
/** Fixture projects are copied here before they run. */
export const PROJECTS_DIR = join(TMP, 'projects');
