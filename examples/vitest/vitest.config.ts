import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import AiEvalReporter from '../../reporter/vitest.js';

const src = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

// The Vitest demo runs against the sources, so it needs no build. In your project the reporter is
//   reporters: ['default', ['ai-eval/reporter/vitest', { outputFile: 'reports/ai-eval.json', gate: ... }]]
export default defineConfig({
  resolve: {
    alias: [
      { find: /^ai-eval\/vitest$/, replacement: src('matchers/vitest.ts') },
      { find: /^ai-eval$/, replacement: src('src/index.ts') },
    ],
  },
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['examples/vitest/**/*.test.ts'],
    setupFiles: ['examples/vitest/setup.ts'],
    reporters: [
      'default',
      new AiEvalReporter({
        outputFile: 'reports/demo/vitest/ai-eval.json',
        junitFile: 'reports/demo/vitest/ai-eval.junit.xml',
        markdownFile: 'reports/demo/vitest/ai-eval.md',
        gate: { level: 'hard', minPassRate: 0.9 },
      }),
    ],
  },
});
