import { describe, expect, it } from 'vitest';
import { makeProject, runNode } from '../helpers/project.js';

describe('datasets in the packed package', () => {
  it('load synchronously under CJS, and ESM and CJS copies share sources and inline datasets', async () => {
    const dir = makeProject('datasets-dual', {
      'datasets/support.yaml':
        'questions:\n  - { id: a, input: x }\n  - { id: b, input: y, disabled: true }\n',
      'cjs.cjs': [
        "const { loadDatasetSync, validateDataset } = require('ai-eval');",
        "const load = loadDatasetSync({ ref: 'support.yaml' }, { includeDisabled: true });",
        "console.log('cjs', load.questions.map((q) => q.id).join(','), load.label);",
        "console.log('cjs invalid', validateDataset('questions: 3', { file: 'x.yaml' }).problems[0].line);",
      ].join('\n'),
      'both.mjs': [
        "import { createRequire } from 'node:module';",
        "import { defineDatasetSource, registerDatasetSource, registerInlineDataset } from 'ai-eval';",
        "const cjs = createRequire(import.meta.url)('ai-eval');",
        "registerInlineDataset('shared', [{ id: 'from-esm', input: 'x' }]);",
        "registerDatasetSource(defineDatasetSource({ id: 'mine', label: 'Mine', load: () => [{ id: 'm', input: 'y' }], listDatasets: () => [] }));",
        "console.log('inline seen by cjs:', cjs.loadDatasetSync({ source: 'inline', ref: 'shared' }).questions[0].id);",
        "console.log('source seen by cjs:', cjs.loadDatasetSync({ source: 'mine', ref: 'r' }).questions[0].id);",
      ].join('\n'),
    });
    const cjs = await runNode('cjs.cjs', [], dir);
    expect(cjs.stdout).toBe('cjs a,b file:support.yaml\ncjs invalid 1\n');
    const both = await runNode('both.mjs', [], dir);
    expect(both.stdout).toBe('inline seen by cjs: from-esm\nsource seen by cjs: m\n');
  });
});

describe('what importing the packed package loads', () => {
  it('loads neither ajv nor yaml until a YAML dataset or a runtime schema needs them', async () => {
    const loaded =
      "const seen = () => ['ajv', 'yaml'].filter((m) => Object.keys(require.cache).some((k) => k.includes(`/node_modules/${m}/`)));";
    const dir = makeProject('lazy-modules', {
      'datasets/support.json': JSON.stringify({ questions: [{ id: 'a', input: 'x' }] }),
      'datasets/support.yaml': 'questions:\n  - { id: a, input: x }\n',
      'cjs.cjs': [
        loaded,
        "const ai = require('ai-eval');",
        "require('ai-eval/reporter/vitest');",
        "console.log('import:', seen().join(',') || 'none');",
        "ai.loadDatasetSync({ ref: 'support.json' });",
        "console.log('json dataset:', seen().join(',') || 'none');",
        "ai.loadDatasetSync({ ref: 'support.yaml' });",
        "console.log('yaml dataset:', seen().join(',') || 'none');",
      ].join('\n'),
    });
    const run = await runNode('cjs.cjs', [], dir);
    expect(run.stdout).toBe('import: none\njson dataset: none\nyaml dataset: yaml\n');
  });
});
