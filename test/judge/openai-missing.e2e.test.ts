import { describe, expect, it } from 'vitest';
import { makeProject, runNode } from '../helpers/project.js';

/**
 * A project where the openai package cannot be resolved: a Node resolve hook (registered with
 * `--import`) answers every `openai` specifier the way Node does for a missing package. The packed
 * ai-eval is otherwise untouched.
 */
const FILES = {
  'hooks.mjs': `
export async function resolve(specifier, context, next) {
  if (specifier === 'openai' || specifier.startsWith('openai/')) {
    const error = new Error("Cannot find package 'openai' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`,
  'register.mjs': `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);`,
  'main.mjs': `
import { configure, gradeQuestion } from 'ai-eval';
try { await import('openai'); console.log('openai: loadable'); } catch { console.log('openai: missing'); }
configure({ judge: { baseURL: 'http://127.0.0.1:9/v1' } });
const run = { output: 'Listed them.', toolCalls: [{ function_name: 'list_nodes', arguments: {} }] };
const result = await gradeQuestion({ question: { id: 'q', input: 'List' }, response: run, graders: ['read_only_run', 'relevance_grader'] });
for (const g of result.grades) console.log('GRADE ' + JSON.stringify([g.grader, g.score, g.error, g.reason]));
`,
};

describe('without the openai package', () => {
  it('keeps deterministic graders working and makes a judge an error grade saying npm i openai', async () => {
    const dir = makeProject('no-openai', FILES);
    const run = await runNode('main.mjs', [], dir, {}, ['--import', './register.mjs']);
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toContain('openai: missing');
    const grades = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('GRADE '))
      .map((l) => JSON.parse(l.slice(6)) as [string, number | null, boolean, string]);
    expect(grades[0]).toEqual(['read_only_run', 1, false, expect.any(String)]);
    expect(grades[1]!.slice(0, 3)).toEqual(['relevance_grader', null, true]);
    expect(grades[1]![3]).toContain('the openai package could not be loaded');
    expect(grades[1]![3]).toContain('npm i openai');
  });
});
