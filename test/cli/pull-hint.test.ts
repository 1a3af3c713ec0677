import { afterEach, describe, expect, it } from 'vitest';
import { defineDatasetSource } from '../../src/datasets/define-source.js';
import { loadDatasetSync, pullCommand } from '../../src/datasets/load.js';
import { registerDatasetSource, unregisterDatasetSource } from '../../src/datasets/registry.js';

afterEach(() => unregisterDatasetSource('registry'));

describe('the hint of a suite over an async dataset', () => {
  it('prints the one recipe: the ai-eval pull command, then the file to give evalSuite', () => {
    const http = loadDatasetSync({ source: 'http', ref: 'support.yaml' });
    expect(http.warnings[0]).toContain(
      'Fix: pull it into a file first: `npx ai-eval pull http support.yaml -o datasets/support.pulled.json --base-url <url>` (disabled questions and splits kept; docs/cli.md)',
    );
    expect(http.warnings[0]).toContain(
      "Then give evalSuite the file: `dataset: 'datasets/support.pulled.json'`.",
    );
  });

  it('names --setup for a custom source, which the CLI only knows once a module registers it', () => {
    registerDatasetSource(
      defineDatasetSource({
        id: 'registry',
        label: 'R',
        load: () => Promise.resolve([]),
        listDatasets: () => [],
      }),
    );
    expect(loadDatasetSync({ source: 'registry', ref: 'support' }).warnings[0]).toContain(
      '`npx ai-eval pull registry support -o datasets/support.pulled.json --setup <module that registers it>`',
    );
    expect(pullCommand('file', 'a.yaml', 'x.json')).toBe('npx ai-eval pull file a.yaml -o x.json');
  });
});
