import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's directory, made by the e2e project's global setup (test/helpers/global-setup.ts). */
    aiEvalRunDir: string;
    /** The tarball `npm pack` made of the package. */
    aiEvalTarball: string;
  }
}

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
/** Scratch space for test runs (git-ignored). */
export const TMP = join(ROOT, '.tmp');

/** Throws unless this test file runs in the e2e project, the one whose global setup packs the package. */
export function e2eOnly(what: string): void {
  if (!inject('aiEvalRunDir'))
    throw new Error(
      `${what} is for end-to-end tests: name the test file *.e2e.test.ts so it runs in the e2e project, ` +
        'whose global setup builds and packs the package (test/README.md).',
    );
}

/** This test run's directory, made by the e2e project's global setup. */
export function runDir(): string {
  e2eOnly('the packed package');
  return inject('aiEvalRunDir');
}

/** The tarball of the packed package. */
export function tarball(): string {
  e2eOnly('the packed package');
  return inject('aiEvalTarball');
}

/** Where the packed package is unpacked; fixture projects resolve `ai-eval` here. */
export function packedDir(): string {
  return join(runDir(), 'node_modules', 'ai-eval');
}

/** Fixture projects are copied here before they run. */
export function projectsDir(): string {
  return join(runDir(), 'projects');
}
