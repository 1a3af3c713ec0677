import { describe, expect, it } from 'vitest';
import { makeProject, runVitest } from '../helpers/project.js';

const WARNING = 'no ai-eval reporter is in its reporters';

function project(): string {
  const test = (n: number): string =>
    [
      `import { expect, test } from 'vitest';`,
      `import 'ai-eval/vitest';`,
      `test('reads only ${n}', async () => {`,
      `  await expect({ output: 'Two drafts.', toolCalls: [] }).toPassGrader('read_only_run');`,
      `});`,
    ].join('\n');
  return makeProject('reporter-flag', {
    'vitest.config.ts': [
      `import { defineConfig } from 'vitest/config';`,
      `export default defineConfig({`,
      `  test: { reporters: ['default', ['ai-eval/reporter/vitest', { outputFile: 'ai-eval.json' }]] },`,
      `});`,
    ].join('\n'),
    'a.test.ts': test(1),
    'b.test.ts': test(2),
    'c.test.ts': test(3),
  });
}

describe('a --reporter flag that replaces the configured reporters', () => {
  it('is warned about once, clearly, when it drops ai-eval', async () => {
    const dir = project();
    const result = await runVitest(dir, ['--reporter=verbose']);
    expect(result.code, result.output).toBe(0);
    expect(result.output.split(WARNING)).toHaveLength(2); // exactly once over three test files
    expect(result.output).toContain('--reporter=default --reporter=ai-eval/reporter/vitest');
    expect(result.output).not.toContain('ai-eval: 3 targets, 3 questions');
  });

  it('is not warned about when ai-eval is configured or named on the command line', async () => {
    const dir = project();
    const configured = await runVitest(dir);
    expect(configured.code, configured.output).toBe(0);
    expect(configured.output).toContain('ai-eval: 3 targets, 3 questions');
    expect(configured.output).not.toContain(WARNING);
    const named = await runVitest(dir, ['--reporter=default', '--reporter=ai-eval/reporter/vitest']);
    expect(named.code, named.output).toBe(0);
    expect(named.output).not.toContain(WARNING);
  });
});
