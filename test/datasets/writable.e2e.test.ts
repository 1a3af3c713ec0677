import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateDatasetFile } from '../../src/datasets/index.js';
import { makeProject, runNode } from '../helpers/project.js';
import { scratch } from '../helpers/temp.js';
import { yamlDataset } from './helpers.js';

describe('the writable file source', () => {
  it('loses nothing and reuses no id when several processes append at once', async () => {
    const root = scratch({ 'datasets/shared.yaml': yamlDataset(['dup']) });
    const dir = makeProject('append', {
      'append.mjs': [
        "import { createFileSource } from 'ai-eval';",
        'const [root, worker, rounds] = process.argv.slice(2);',
        'const source = createFileSource({ root });',
        'const out = [];',
        'for (let i = 0; i < Number(rounds); i++) {',
        "  const ids = await source.appendQuestions('shared.yaml', [",
        "    { id: 'dup', input: `w${worker} r${i} named` },",
        '    { input: `w${worker} r${i} anon` },',
        '  ]);',
        '  out.push(...ids);',
        '}',
        'console.log(JSON.stringify(out));',
      ].join('\n'),
    });
    const workers = [1, 2, 3, 4];
    const runs = await Promise.all(workers.map((w) => runNode('append.mjs', [root, String(w), '8'], dir)));
    for (const run of runs) expect(run.stderr).toBe('');
    const returned = runs.map((run) => JSON.parse(run.stdout.trim()) as string[]);
    const { document, problems } = validateDatasetFile(join(root, 'datasets/shared.yaml'));
    expect(problems).toEqual([]);
    const questions = document!.questions;
    expect(questions).toHaveLength(1 + workers.length * 8 * 2);
    const ids = questions.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    const byInput = new Map(questions.map((q) => [q.input, q.id]));
    workers.forEach((w, index) => {
      const expected = Array.from({ length: 8 }, (_, i) => [
        byInput.get(`w${w} r${i} named`),
        byInput.get(`w${w} r${i} anon`),
      ]).flat();
      expect(returned[index]).toEqual(expected);
    });
    expect(readdirSync(join(root, 'datasets'))).toEqual(['shared.yaml']);
  });
});
