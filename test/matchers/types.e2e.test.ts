import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { makeProject, runNode } from '../helpers/project.js';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

// Compiles consumer code against the PACKED package's declarations (build without AI_EVAL_NO_DTS).
describe.skipIf(process.env.AI_EVAL_NO_DTS === '1')('the matcher types in a consumer project', () => {
  it('type the matchers and evalSuite for Vitest, @jest/globals and @types/jest globals', async () => {
    const dir = makeProject('matchers-types', {}, 'matchers-types');
    const result = await runNode(TSC, ['-p', 'tsconfig.json'], dir);
    expect(result.output.trim()).toBe('');
    expect(result.code).toBe(0);
  });

  it('do not exist without importing an ai-eval entry (the control fails to compile)', async () => {
    const dir = makeProject('matchers-types-control', {}, 'matchers-types');
    const result = await runNode(TSC, ['-p', 'tsconfig.control.json'], dir);
    expect(result.output).toContain("Property 'toPassGrader' does not exist");
    expect(result.code).not.toBe(0);
  });
});
