import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, runJest } from '../helpers/project.js';

const test = (n: number): string =>
  [
    `import { expect, test } from '@jest/globals';`,
    `test('reads only ${n}', async () => {`,
    `  await expect({ output: 'Two drafts.', toolCalls: [] }).toPassGrader('read_only_run');`,
    `});`,
  ].join('\n');

describe('Jest shards', () => {
  it('write shard-suffixed JSON, JUnit and Markdown files, so no shard overwrites another', async () => {
    const dir = makeProject('shard-files', {
      'jest.config.mjs': [
        `export default {`,
        `  testEnvironment: 'node',`,
        `  transform: {},`,
        `  setupFilesAfterEnv: ['ai-eval/jest'],`,
        `  reporters: ['default', ['ai-eval/reporter/jest', { outputFile: 'reports/ai-eval.json', junitFile: 'reports/ai-eval.xml', markdownFile: 'reports/ai-eval.md' }]],`,
        `};`,
      ].join('\n'),
      'a.test.js': test(1),
      'b.test.js': test(2),
    });
    for (const shard of ['1/2', '2/2']) {
      const result = await runJest(dir, [`--shard=${shard}`], {}, { esm: true });
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain(
        `[ai-eval] shard ${shard.replace('/', '-of-')}: wrote reports/ai-eval-${shard.replace('/', '-of-')}.xml`,
      );
    }
    expect(readdirSync(join(dir, 'reports')).sort()).toEqual([
      'ai-eval-1-of-2.json',
      'ai-eval-1-of-2.md',
      'ai-eval-1-of-2.xml',
      'ai-eval-2-of-2.json',
      'ai-eval-2-of-2.md',
      'ai-eval-2-of-2.xml',
    ]);
  });
});
