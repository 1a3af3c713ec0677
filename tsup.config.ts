import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'matchers/vitest': 'matchers/vitest.ts',
    'matchers/jest': 'matchers/jest.ts',
    'matchers/expect': 'matchers/expect.ts',
    'matchers/node': 'matchers/node.ts',
    'reporter/vitest': 'reporter/vitest.ts',
    'reporter/jest': 'reporter/jest.ts',
    'reporter/node': 'reporter/node.ts',
    'cli/bin': 'src/cli/bin.ts',
  },
  format: ['esm', 'cjs'],
  // AI_EVAL_NO_DTS=1 skips declarations for quick local test runs while code is in flux.
  dts: process.env.AI_EVAL_NO_DTS !== '1',
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  // Keep `node:` on imports: node:test has no unprefixed name.
  removeNodeProtocol: false,
  splitting: true,
  shims: true,
  external: ['vitest', 'jest', '@jest/globals', '@jest/expect', 'expect', 'openai'],
});
