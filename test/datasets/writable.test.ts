import { closeSync, linkSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { logger } from '../../src/logger.js';
import { AiEvalError } from '../../src/errors.js';
import {
  allocateIds,
  createFileSource,
  fileSource,
  isWritableSource,
  validateDatasetFile,
} from '../../src/datasets/index.js';
import { scratch } from '../helpers/temp.js';
import { yamlDataset } from './helpers.js';

beforeEach(() => logger.setEchoLevel('silent'));
afterEach(() => resetConfig());

describe('allocateIds', () => {
  it('keeps free ids, replaces colliding ones and numbers missing ones, in input order', () => {
    expect(allocateIds(['a', 'q-1', 'a-2'], ['b', 'a', undefined, 'a', undefined, 'b'])).toEqual([
      'b',
      'a-3',
      'q-2',
      'a-4',
      'q-3',
      'b-2',
    ]);
  });
});

describe('the writable file source', () => {
  it('is writable', () => {
    expect(isWritableSource(fileSource)).toBe(true);
  });

  it('appends to a YAML file, keeping its comments, and returns the allocated ids', async () => {
    const root = scratch({ 'datasets/w.yaml': `# keep me\n${yamlDataset(['a', 'b'])}` });
    configure({ datasets: { root } });
    const ids = await fileSource.appendQuestions('w.yaml', [
      { id: 'a', input: 'collides' },
      { input: 'no id', tags: ['new'] },
      { id: 'c', messages: [{ role: 'user', content: 'hi' }] },
    ]);
    expect(ids).toEqual(['a-2', 'q-1', 'c']);
    const text = readFileSync(join(root, 'datasets/w.yaml'), 'utf8');
    expect(text.startsWith('# keep me\n')).toBe(true);
    expect(text).toContain('  - id: q-1\n    input: no id\n    tags:\n      - new\n');
    expect(fileSource.load('w.yaml').map((q) => [q.id, q.input ?? null])).toEqual([
      ['a', 'Question a'],
      ['b', 'Question b'],
      ['a-2', 'collides'],
      ['q-1', 'no id'],
      ['c', null],
    ]);
    expect(readdirSync(join(root, 'datasets'))).toEqual(['w.yaml']);
  });

  it('appends to a JSON file', async () => {
    const root = scratch({
      'datasets/j.json': JSON.stringify({ name: 'j', questions: [{ id: 'a', input: 'x' }] }),
    });
    configure({ datasets: { root } });
    expect(await fileSource.appendQuestions('j', [{ id: 'a', input: 'y' }])).toEqual(['a-2']);
    const value = JSON.parse(readFileSync(join(root, 'datasets/j.json'), 'utf8'));
    expect(value).toEqual({
      name: 'j',
      questions: [
        { id: 'a', input: 'x' },
        { id: 'a-2', input: 'y' },
      ],
    });
  });

  it('writes nothing when one question of the batch is invalid: the file stays byte-identical', async () => {
    const original = `# comment\n${yamlDataset(['a'])}`;
    const root = scratch({ 'datasets/w.yaml': original });
    configure({ datasets: { root } });
    const attempt = fileSource.appendQuestions('w.yaml', [
      { id: 'ok', input: 'fine' },
      { id: 'bad', input: 7 as unknown as string },
      { id: 'worse' },
    ]);
    await expect(attempt).rejects.toThrow(AiEvalError);
    await expect(attempt).rejects.toThrow(
      [
        'Nothing was written: 2 problem(s) in the new questions.',
        "file:w.yaml: new question 1 at /input: must be a string, got number 7. Fix the value of 'input'.",
        "file:w.yaml: new question 2: needs either 'input' (the question text) or 'messages' (a list of { role, content }). Fix: add one of them.",
      ].join('\n'),
    );
    expect(readFileSync(join(root, 'datasets/w.yaml'), 'utf8')).toBe(original);
    expect(readdirSync(join(root, 'datasets'))).toEqual(['w.yaml']);
  });

  it('replaces the file by a rename, so a reader of the old file sees it whole and byte-identical', async () => {
    const original = `# comment\n${yamlDataset(['a', 'b'])}`;
    const root = scratch({ 'datasets/w.yaml': original });
    configure({ datasets: { root } });
    const path = join(root, 'datasets/w.yaml');
    // A reader that opened the dataset before the append, and a second name for the same file.
    const fd = openSync(path, 'r');
    const held = join(root, 'held.yaml');
    linkSync(path, held);
    try {
      await fileSource.appendQuestions('w.yaml', [{ input: 'new one' }]);
      // Writing in place (truncate, then write) would change what they see; a rename leaves it alone.
      expect(readFileSync(fd, 'utf8')).toBe(original);
      expect(readFileSync(held, 'utf8')).toBe(original);
    } finally {
      closeSync(fd);
    }
    expect(statSync(path).ino).not.toBe(statSync(held).ino);
    expect(readFileSync(path, 'utf8')).toContain('input: new one');
    expect(readdirSync(join(root, 'datasets'))).toEqual(['w.yaml']);
  });

  it('refuses to append to an invalid dataset, to a missing one, or through a path', async () => {
    const broken = 'questions:\n  - id: a\n';
    const root = scratch({ 'datasets/broken.yaml': broken });
    configure({ datasets: { root } });
    await expect(fileSource.appendQuestions('broken.yaml', [{ input: 'x' }])).rejects.toThrow(
      /file:broken\.yaml: the dataset is invalid, so nothing was appended\. Fix it first:\n.*broken\.yaml:2:5: \/questions\/0: needs either 'input'/,
    );
    expect(readFileSync(join(root, 'datasets/broken.yaml'), 'utf8')).toBe(broken);
    await expect(fileSource.appendQuestions('none.yaml', [{ input: 'x' }])).rejects.toThrow(
      "file:none.yaml: no such dataset. Create it first with createDataset('none.yaml').",
    );
    await expect(fileSource.appendQuestions('../broken.yaml', [{ input: 'x' }])).rejects.toThrow(
      /must be a bare file name/,
    );
    await expect(fileSource.appendQuestions('broken.yaml', [])).rejects.toThrow(/needs a non-empty list/);
  });

  it('creates a dataset in the first directory and refuses to overwrite one', async () => {
    const root = scratch({ 'datasets/taken.yaml': yamlDataset(['a']) });
    const source = createFileSource({ root, paths: ['evals'] });
    expect(await source.createDataset('fresh', { label: 'Fresh one' })).toBe('fresh.yaml');
    const created = validateDatasetFile(join(root, 'evals/fresh.yaml'));
    expect(created.valid).toBe(true);
    expect(created.document).toEqual({ name: 'fresh', label: 'Fresh one', questions: [] });
    expect(await source.appendQuestions('fresh', [{ input: 'first' }])).toEqual(['q-1']);
    expect(source.load('fresh').map((q) => q.input)).toEqual(['first']);
    await expect(source.createDataset('taken', {})).rejects.toThrow(
      /a dataset already exists at .*taken\.yaml/,
    );
    await expect(source.createDataset('fresh.yaml')).rejects.toThrow(/already exists/);
  });

  // Several processes appending at once: writable.e2e.test.ts.
});
