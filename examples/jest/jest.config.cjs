// The Jest demo (ts-jest, CommonJS). It runs the built package: npm run demo:jest builds it first.
// In your project the reporter entry is ['ai-eval/reporter/jest', { ... }] and no moduleNameMapper
// for ai-eval is needed; here ai-eval is this repository itself, so it is mapped to dist/.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: '../..',
  roots: ['<rootDir>/examples/jest'],
  testMatch: ['**/*.eval.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/examples/jest/tsconfig.json' }] },
  moduleNameMapper: {
    '^ai-eval$': '<rootDir>/dist/index.cjs',
    '^ai-eval/jest$': '<rootDir>/dist/matchers/jest.cjs',
    // The sources import siblings as './x.js' (NodeNext); ts-jest compiles './x.ts'.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  setupFilesAfterEnv: ['<rootDir>/examples/jest/setup.ts'],
  reporters: [
    'default',
    [
      '<rootDir>/dist/reporter/jest.cjs',
      {
        outputFile: 'reports/demo/jest/ai-eval.json',
        junitFile: 'reports/demo/jest/ai-eval.junit.xml',
        markdownFile: 'reports/demo/jest/ai-eval.md',
        gate: { level: 'hard', minPassRate: 0.9 },
      },
    ],
  ],
};
