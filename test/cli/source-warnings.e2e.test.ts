import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packedDir } from '../helpers/paths.js';
import { runNode, type RunResult } from '../helpers/project.js';
import { serveFiles } from '../helpers/file-server.js';
import { scratch } from '../helpers/temp.js';

// `pull` and `list datasets` print each warning of a dataset source once: on stderr, or, with
// --json, in the document's `warnings` (and then not on stderr too).
const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');
const cli = (args: string[], cwd: string, env: Record<string, string> = {}): Promise<RunResult> =>
  runNode(bin(), args, cwd, { NO_COLOR: '1', ...env });
const entry = () => pathToFileURL(join(packedDir(), 'dist', 'index.js')).href;

/** How many times `part` occurs in `text`. */
const count = (text: string, part: string): number => text.split(part).length - 1;

/** A custom source that warns while it loads, lists and gives its splits. */
const setup = () => `import { defineDatasetSource, logger, registerDatasetSource } from '${entry()}';
registerDatasetSource(defineDatasetSource({
  id: 'registry', label: 'Registry', synchronous: false,
  load: async (ref) => {
    logger.warn('registry:' + ref + ': served from a stale mirror', 'dataset:registry');
    return [{ id: 'r1', input: 'from the registry' }];
  },
  loadSplits: async (ref) => {
    logger.warn('registry:' + ref + ': served from a stale mirror', 'dataset:registry');
    return {};
  },
  listDatasets: async () => {
    logger.warn('registry index is a day old', 'dataset:registry');
    return ['support'];
  },
}));
`;

describe('ai-eval pull prints each warning of the source once', () => {
  const server = serveFiles({
    '/bad.yaml': 'questions:\n  - id: a\n    input: 1\n',
  });

  it('an http dataset that is not there: the 404 once, the error does not repeat it', async () => {
    const result = await cli(['pull', 'http', `${server.base()}missing.yaml`, '-o', 'x.json'], scratch());
    expect(result.code, result.output).toBe(2);
    expect(count(result.stderr, 'answered 404 Not Found')).toBe(1);
    expect(result.stderr).toContain('[ai-eval:dataset:http] warn: http:missing.yaml: GET http://127.0.0.1:');
    expect(result.stderr).toContain(
      'ai-eval pull: http:missing.yaml: nothing pulled, the source gave no questions (its warning is above). x.json was not written.',
    );
  });

  it('an invalid http dataset: each problem once', async () => {
    const result = await cli(['pull', 'http', `${server.base()}bad.yaml`, '-o', 'x.json'], scratch());
    expect(count(result.stderr, 'http:bad.yaml:3:12: /questions/0/input: must be a string')).toBe(1);
    expect(count(result.stderr, 'failed dataset validation and was refused whole')).toBe(1);
  });

  it('with AI_EVAL_LOG_LEVEL=silent the error itself carries the warnings (once)', async () => {
    const result = await cli(['pull', 'http', `${server.base()}missing.yaml`, '-o', 'x.json'], scratch(), {
      AI_EVAL_LOG_LEVEL: 'silent',
    });
    expect(result.code).toBe(2);
    expect(count(result.stderr, 'answered 404 Not Found')).toBe(1);
    expect(result.stderr).toMatch(
      /^ai-eval pull: http:missing\.yaml: nothing pulled, the source gave no questions \(http:missing\.yaml: GET .* answered 404 Not Found; nothing loaded\.\)\. x\.json was not written\.\n$/,
    );
    const invalid = await cli(['pull', 'http', `${server.base()}bad.yaml`, '-o', 'x.json'], scratch(), {
      AI_EVAL_LOG_LEVEL: 'silent',
    });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toBe(
      [
        'ai-eval pull: http:bad.yaml: the dataset is invalid (1 problem), so x.json was not written. Fix the dataset at its source, then pull again:',
        "  http:bad.yaml:3:12: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
        '',
      ].join('\n'),
    );
  });

  it('a custom source that warns on load and on splits: once on stderr, or once in --json only', async () => {
    const dir = scratch({ 'setup.mjs': setup() });
    const text = await cli(['pull', 'registry', 'support', '-o', 'out.json', '--setup', 'setup.mjs'], dir);
    expect(text.code, text.output).toBe(0);
    expect(count(text.stderr, 'registry:support: served from a stale mirror')).toBe(1);
    const json = await cli(
      ['pull', 'registry', 'support', '-o', 'out.json', '--setup', 'setup.mjs', '--json'],
      dir,
    );
    expect(json.code, json.output).toBe(0);
    expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings).toEqual([
      'registry:support: served from a stale mirror',
    ]);
    expect(json.stderr).toBe('');
  });
});

describe('ai-eval list datasets prints each warning once', () => {
  it('the file source: once on stderr, or once in --json only', async () => {
    const dir = scratch({
      'datasets/bad.yaml': 'questions:\n  - id: a\n    input: 1\n',
      'datasets/ok.yaml': 'questions:\n  - { id: a, input: x }\n',
    });
    const text = await cli(['list', 'datasets', '--no-packages'], dir);
    expect(text.code, text.output).toBe(0);
    expect(count(text.stderr, 'datasets/bad.yaml is invalid and was refused whole')).toBe(1);
    expect(count(text.stderr, 'datasets/bad.yaml:3:12: /questions/0/input')).toBe(1);
    const json = await cli(['list', 'datasets', '--no-packages', '--json'], dir);
    expect(json.code, json.output).toBe(0);
    expect(json.stderr).toBe('');
    expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings).toEqual([
      'file:bad.yaml: datasets/bad.yaml is invalid and was refused whole (1 problem).',
      "datasets/bad.yaml:3:12: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
    ]);
  });

  it('another source: once on stderr, or once in --json only (it was missing from the JSON)', async () => {
    const dir = scratch({ 'setup.mjs': setup() });
    const text = await cli(['list', 'datasets', '--source', 'registry', '--setup', 'setup.mjs'], dir);
    expect(text.code, text.output).toBe(0);
    expect(text.stdout).toBe('support  (source registry)\n');
    expect(count(text.stderr, 'registry index is a day old')).toBe(1);
    const json = await cli(
      ['list', 'datasets', '--source', 'registry', '--setup', 'setup.mjs', '--json'],
      dir,
    );
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual({
      datasets: [{ name: 'support', label: 'support', source: 'registry' }],
      warnings: ['registry index is a day old'],
    });
  });
});
