import { afterEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { defineDatasetSource } from '../../src/datasets/define-source.js';
import { loadDatasetSync } from '../../src/datasets/load.js';
import { registerDatasetSource } from '../../src/datasets/registry.js';
import { logger } from '../../src/logger.js';
import { allBlocks, blocksOf } from '../docs/blocks.js';

afterEach(() => resetConfig());

describe('the hint an async dataset gives in a suite', () => {
  it('is the one recipe the docs give: npx ai-eval pull http <url> -o <file>', () => {
    logger.setEchoLevel('silent');
    configure({ datasets: { httpBaseUrl: 'https://user:secret@evals.example.com/datasets' } });
    const { warnings } = loadDatasetSync({ source: 'http', ref: 'support.yaml' });
    expect(warnings[0]).toContain(
      'Fix: pull it into a file first, before the tests run (a CI step, or a "pretest" script): `npx ai-eval pull http https://',
    );
    expect(warnings[0]).toContain(
      "evals.example.com/datasets/support.yaml -o datasets/support.pulled.json`; or commit the dataset as a file. Then give evalSuite the file: `dataset: 'datasets/support.pulled.json'`.",
    );
    expect(warnings[0]).not.toContain('secret');
    expect(warnings[0]).not.toContain('writeFileSync');
  });

  it('names the URL as a placeholder without a base URL, and the ref for another async source', () => {
    logger.setEchoLevel('silent');
    const http = loadDatasetSync({ source: 'http', ref: 'support.yaml' });
    expect(http.warnings.join('\n')).toContain(
      '`npx ai-eval pull http <the URL of support.yaml> -o datasets/support.pulled.json`',
    );
    registerDatasetSource(
      defineDatasetSource({
        id: 'remote-hint',
        label: 'Remote',
        load: () => Promise.resolve([{ id: 'a', input: 'x' }]),
        listDatasets: () => [],
      }),
    );
    const custom = loadDatasetSync({ source: 'remote-hint', ref: 'billing' });
    expect(custom.warnings[0]).toContain(
      '`npx ai-eval pull remote-hint billing -o datasets/billing.pulled.json --setup <module that registers it>`',
    );
  });
});

describe('the pull recipe in the docs', () => {
  it('is the same everywhere, and the hint docs/suites.md quotes is the real one', () => {
    const recipes = allBlocks()
      .filter((b) => b.lang === 'sh' && !b.fragment)
      .flatMap((b) => b.code.split('\n').filter((l) => l.includes('ai-eval pull')));
    expect(recipes.length).toBeGreaterThanOrEqual(2);
    // http by its URL; a source of your own by its ref, with the module that registers it.
    for (const line of recipes)
      expect(line).toMatch(
        /^npx ai-eval pull (http https:\/\/\S+ -o \S+\.json|[a-z][\w-]* [\w.-]+ -o \S+\.(json|ya?ml) --setup \S+)$/,
      );
    logger.setEchoLevel('silent');
    configure({ datasets: { httpBaseUrl: 'https://evals.example.com/datasets/' } });
    const { warnings } = loadDatasetSync({ source: 'http', ref: 'support.yaml' });
    const quoted = blocksOf('docs/suites.md').find(
      (b) => b.lang === '' && b.code.startsWith('http:support.yaml:'),
    );
    expect(quoted?.code).toBe(warnings[0]);
    expect(warnings[0]).toContain(recipes[0]);
  });
});
