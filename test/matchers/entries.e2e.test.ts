import { describe, expect, it } from 'vitest';
import { makeProject, runJest, runNode, runVitest } from '../helpers/project.js';

const probe = (importLine: string): string =>
  [
    importLine,
    `test('the entry registers the matchers and exports evalSuite', async () => {`,
    `  expect(typeof evalSuite).toBe('function');`,
    `  await expect('read only').toPassGrader('read_only_run', { toolCalls: [] });`,
    `  await expect({ output: 'x', toolCalls: [] }).toScoreAtLeast('read_only_run', 5);`,
    `});`,
  ].join('\n');

describe('the runner entry points, loaded by real runners', () => {
  it('ai-eval/vitest registers on Vitest when a test file imports it', async () => {
    const dir = makeProject('entry-vitest', {
      'entry.test.js': probe(
        `import { expect, test } from 'vitest';\nimport { evalSuite } from 'ai-eval/vitest';`,
      ),
      'vitest.config.js': `export default { test: { include: ['*.test.js'] } };`,
    });
    const result = await runVitest(dir);
    expect(result.output).toContain('1 passed');
    expect(result.code).toBe(0);
    // Vitest 4.1 deprecates vitest/suite and says so at the top of every run that imports it.
    expect(result.output).not.toContain('vitest/suite');
  });

  it('ai-eval/jest registers on Jest when a CommonJS test file requires it', async () => {
    const dir = makeProject('entry-jest-cjs', {
      'entry.test.cjs': probe(`const { evalSuite } = require('ai-eval/jest');`),
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', testMatch: ['**/*.test.cjs'] };`,
    });
    const result = await runJest(dir, ['--config', 'jest.config.cjs']);
    expect(result.output).toContain('Tests:       1 passed, 1 total');
    expect(result.code).toBe(0);
  });

  it('ai-eval/jest registers on Jest when a native ESM test file imports it', async () => {
    const dir = makeProject('entry-jest-esm', {
      'entry.test.mjs': probe(
        `import { expect, test } from '@jest/globals';\nimport { evalSuite } from 'ai-eval/jest';`,
      ),
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', testMatch: ['**/*.test.mjs'], transform: {} };`,
    });
    const result = await runJest(dir, ['--config', 'jest.config.cjs'], {}, { esm: true });
    expect(result.output).toContain('Tests:       1 passed, 1 total');
    expect(result.code).toBe(0);
  });

  it('ai-eval/vitest and ai-eval/jest work as bare setup-file entries', async () => {
    const check = [
      `test('registered from the setup file', async () => {`,
      `  await expect('read only').toPassGrader('read_only_run', { toolCalls: [] });`,
      `});`,
    ].join('\n');
    const vitestDir = makeProject('entry-vitest-setup', {
      'setup.test.js': `import { expect, test } from 'vitest';\n${check}`,
      'vitest.config.js': `export default { test: { include: ['*.test.js'], setupFiles: ['ai-eval/vitest'] } };`,
    });
    const vitest = await runVitest(vitestDir);
    expect(vitest.output).toContain('1 passed');
    expect(vitest.code).toBe(0);
    const jestDir = makeProject('entry-jest-setup', {
      'setup.test.cjs': check,
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', testMatch: ['**/*.test.cjs'], setupFilesAfterEnv: ['ai-eval/jest'] };`,
    });
    const jest = await runJest(jestDir, ['--config', 'jest.config.cjs']);
    expect(jest.output).toContain('Tests:       1 passed, 1 total');
    expect(jest.code).toBe(0);
  });

  it('ai-eval/jest loads outside Jest, and evalSuite says where it must run', async () => {
    const dir = makeProject('entry-plain', {
      'plain.cjs': [
        `const { evalSuite } = require('ai-eval/jest');`,
        `try { evalSuite('s', { dataset: 'd.yaml', target: { name: 't', mode: 'chat', graders: ['read_only_run'] }, run: () => 'x' }); }`,
        `catch (error) { console.log(error.name + ': ' + error.message); }`,
      ].join('\n'),
    });
    const result = await runNode('plain.cjs', [], dir);
    expect(result.output).toContain(
      "TypeError: evalSuite: Jest's describe, afterAll, test and expect globals were not found.",
    );
  });
});
