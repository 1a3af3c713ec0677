import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import AiEvalReporter from '../reporter/vitest.js';

const src = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));

// The demo runs against the sources, so it needs no build. In your project, the same config reads:
//   reporters: ['default', ['ai-eval/reporter/vitest', { outputFile: 'reports/ai-eval.json' }]]
export default defineConfig({
  resolve: {
    alias: [
      { find: /^ai-eval\/vitest$/, replacement: src('matchers/vitest.ts') },
      { find: /^ai-eval$/, replacement: src('src/index.ts') },
    ],
  },
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['examples/**/*.test.ts'],
    setupFiles: ['examples/setup.ts'],
    reporters: [
      'default',
      new AiEvalReporter({
        outputFile: 'reports/demo/ai-eval.json',
        junitFile: 'reports/demo/ai-eval.junit.xml',
        markdownFile: 'reports/demo/ai-eval.md',
        gate: { level: 'hard', minAverage: 4 },
      }),
    ],
  },
});
