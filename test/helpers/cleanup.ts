// Setup file of both projects: removes the temporary directories a test file made outside its
// tests (see test/helpers/temp.ts) once the file is done, and drops the process-wide state ai-eval
// keeps on globalThis (configuration, logger, registries, caches; each is made afresh when next
// used). The unit project runs its files in one module graph per worker (`isolate: false`), so a
// file must leave the next one what a fresh process would.
import { afterAll } from 'vitest';
import { removeFileLevelDirs } from './temp.js';

/** The `Symbol.for` keys of ai-eval's process-wide state (src/: `Symbol.for('ai-eval.…')`). */
export const STATE_KEYS = [
  'ai-eval.config',
  'ai-eval.logger',
  'ai-eval.grader-registry',
  'ai-eval.dataset-sources',
  'ai-eval.http-dataset-cache',
  'ai-eval.inline-datasets',
  'ai-eval.check-executors',
  'ai-eval.state-checks',
  'ai-eval.rate-controllers',
  'ai-eval.test-scope',
];

afterAll(() => {
  removeFileLevelDirs();
  const holder = globalThis as Record<symbol, unknown>;
  for (const key of STATE_KEYS) delete holder[Symbol.for(key)];
});
