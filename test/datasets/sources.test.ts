import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { captureLogs, captureLogsAsync, logger } from '../../src/logger.js';
import { type Question } from '../../src/grading/types.js';
import {
  clearInlineDatasets,
  datasetLabel,
  filterFromEnv,
  defineDatasetSource,
  fileSource,
  getDatasetSource,
  inlineSource,
  listDatasetSources,
  loadDataset,
  loadDatasetSync,
  loadDatasetWithWarnings,
  normalizeQuestions,
  registerDatasetSource,
  registerInlineDataset,
  unregisterDatasetSource,
} from '../../src/datasets/index.js';
import { scratch } from '../helpers/temp.js';
import { yamlDataset } from './helpers.js';

const messagesOf = (logs: Array<{ message: string }>) => logs.map((l) => l.message);

beforeEach(() => logger.setEchoLevel('silent'));
afterEach(() => {
  resetConfig();
  clearInlineDatasets();
  unregisterDatasetSource('custom');
});

describe('normalizeQuestions', () => {
  it('drops non-object rows (logging each) and disabled rows, filters to one id and re-indexes', () => {
    const warnings: string[] = [];
    const log = { warn: (m: string) => warnings.push(m) };
    const rows = [
      { id: 'a', input: 'x' },
      'junk',
      null,
      { id: 'b', input: 'y', disabled: true },
      { id: 'c', input: 'z' },
    ];
    expect(normalizeQuestions(rows, 'test:ds', undefined, log).map((q) => q.id)).toEqual(['a', 'c']);
    expect(warnings).toEqual([
      'test:ds: question row 1 (/questions/1) is not an object; dropped.',
      'test:ds: question row 2 (/questions/2) is not an object; dropped.',
    ]);
    expect(normalizeQuestions(rows, 'test:ds', 'c', log)).toEqual([{ id: 'c', input: 'z' }]);
    expect(
      normalizeQuestions(rows, 'test:ds', null, log, { includeDisabled: true }).map((q) => q.id),
    ).toEqual(['a', 'b', 'c']);
    expect(normalizeQuestions('nope', 'test:ds', undefined, log)).toEqual([]);
    expect(warnings.at(-1)).toBe('test:ds: expected a list of questions, got string; nothing loaded.');
  });
});

describe('defineDatasetSource', () => {
  it('always includes read and adds write for a writer', () => {
    const source = defineDatasetSource({ id: 'custom', label: 'C', load: () => [], listDatasets: () => [] });
    expect(source.capabilities).toEqual(['read']);
    expect(source.description).toBe('');
    const promote = defineDatasetSource({
      id: 'custom',
      label: 'C',
      capabilities: ['promote'],
      load: () => [],
      listDatasets: () => [],
    });
    expect(promote.capabilities).toEqual(['read', 'promote']);
    expect(fileSource.capabilities).toEqual(['read', 'write']);
  });

  it('makes load never throw: a throw or a rejection is a warning and []', async () => {
    const throwing = defineDatasetSource({
      id: 'custom',
      label: 'C',
      load: () => {
        throw new Error('store is down');
      },
      listDatasets: () => [],
    });
    const sync = captureLogs(() => throwing.load('x'));
    expect(sync.value).toEqual([]);
    expect(messagesOf(sync.logs)).toEqual(['custom:x: the source failed to load: store is down']);
    const rejecting = defineDatasetSource({
      id: 'custom',
      label: 'C',
      load: () => Promise.reject(new Error('timeout')),
      listDatasets: () => [],
    });
    const async = await captureLogsAsync(async () => rejecting.load('y'));
    expect(async.value).toEqual([]);
    expect(messagesOf(async.logs)).toEqual(['custom:y: the source failed to load: timeout']);
  });

  it('labels each ref by itself unless the source says otherwise', () => {
    const source = defineDatasetSource({
      id: 'custom',
      label: 'C',
      load: () => [],
      listDatasets: () => ['a', 'b'],
    });
    expect(source.listDatasetsWithLabels()).toEqual({ a: 'a', b: 'b' });
  });

  it('refuses a malformed definition', () => {
    expect(() =>
      defineDatasetSource({ id: 'no spaces', label: 'C', load: () => [], listDatasets: () => [] }),
    ).toThrow(/A dataset source id must be a word/);
  });
});

describe('the source registry and loadDataset', () => {
  it("gives each of two concurrent loads its own warnings, never the other one's", async () => {
    // A source that answers later than it is asked, so the two loads interleave.
    const slow = defineDatasetSource({
      id: 'custom',
      label: 'C',
      load: async (ref) => {
        await new Promise((r) => setTimeout(r, ref === 'a' ? 30 : 5));
        throw new Error(`${ref} is broken`);
      },
      listDatasets: () => ['a', 'b'],
    });
    registerDatasetSource(slow);
    const [a, b] = await Promise.all([
      loadDatasetWithWarnings({ source: 'custom', ref: 'a' }),
      loadDatasetWithWarnings({ source: 'custom', ref: 'b' }),
    ]);
    expect(a.warnings).toEqual(['custom:a: the source failed to load: a is broken']);
    expect(b.warnings).toEqual(['custom:b: the source failed to load: b is broken']);
  });

  it('logs and returns [] for an unknown source id', async () => {
    const { value, logs } = await captureLogsAsync(() => loadDataset({ source: 'nope', ref: 'x' }));
    expect(value).toEqual([]);
    expect(messagesOf(logs)[0]).toBe(
      "nope:x: unknown dataset source 'nope' (available: file, inline, http). Fix: register it with registerDatasetSource() in a setup file, or use one of those.",
    );
  });

  it('finds a registered source and refuses a different one under the same id', async () => {
    const rows: Question[] = [{ id: 'r1', input: 'x' }];
    const source = defineDatasetSource({
      id: 'custom',
      label: 'C',
      load: () => rows,
      listDatasets: () => ['one'],
    });
    registerDatasetSource(source);
    expect(getDatasetSource('custom')).toBe(source);
    expect(listDatasetSources()).toContain('custom');
    expect(await loadDataset({ source: 'custom', ref: 'one' })).toEqual(rows);
    const other = defineDatasetSource({ id: 'custom', label: 'D', load: () => [], listDatasets: () => [] });
    expect(() => registerDatasetSource(other)).toThrow(/already registered as 'custom'/);
  });

  it('explains that an async-only source cannot be loaded synchronously, without calling it', () => {
    let calls = 0;
    const source = defineDatasetSource({
      id: 'custom',
      label: 'C',
      load: () => {
        calls++;
        return Promise.resolve([{ id: 'a', input: 'x' }]);
      },
      listDatasets: () => [],
    });
    registerDatasetSource(source);
    const result = loadDatasetSync({ source: 'custom', ref: 'remote' });
    expect(result.questions).toEqual([]);
    expect(result.label).toBe('custom:remote');
    expect(result.warnings[0]).toMatch(
      /the 'custom' source is asynchronous and cannot be loaded synchronously .*Fix: pull it into a file first/,
    );
    const http = loadDatasetSync({ source: 'http', ref: 'support.yaml' });
    expect(http.warnings[0]).toMatch(/the 'http' source is asynchronous/);
    // The advice names a form evalSuite accepts: a file path, never a { path } it would refuse.
    expect(http.warnings[0]).toContain(
      "Then give evalSuite the file: `dataset: 'datasets/support.pulled.json'`.",
    );
    expect(calls).toBe(1);
  });
});

describe('the file source', () => {
  it('resolves bare refs through the configured paths, then datasets/ under the root; the first duplicate wins', () => {
    const root = scratch({
      'evals/support.yaml': yamlDataset(['from-evals']),
      'datasets/support.yaml': yamlDataset(['from-datasets']),
      'datasets/other.yml': yamlDataset(['other']),
      'datasets/json-one.json': JSON.stringify({ questions: [{ id: 'j', input: 'x' }] }),
    });
    configure({ datasets: { root, paths: ['evals'] } });
    const { value, logs } = captureLogs(() => fileSource.load('support.yaml'));
    expect(value.map((q) => q.id)).toEqual(['from-evals']);
    expect(messagesOf(logs)).toEqual([
      `file:support.yaml: ignoring duplicate dataset ${join(root, 'datasets/support.yaml')}; using ${join(root, 'evals/support.yaml')}.`.replaceAll(
        `${process.cwd()}/`,
        '',
      ),
    ]);
    const load = loadDatasetSync({ ref: 'support.yaml' }, { split: 'none' });
    expect(load.file).toBe(join(root, 'evals/support.yaml'));
    expect(load.warnings.filter((w) => w.includes('ignoring duplicate'))).toHaveLength(1);
    expect(fileSource.load('other').map((q) => q.id)).toEqual(['other']);
    expect(fileSource.load('json-one').map((q) => q.id)).toEqual(['j']);
    expect(captureLogs(() => fileSource.listDatasets()).value).toEqual([
      'support.yaml',
      'json-one.json',
      'other.yml',
    ]);
  });

  it('loads nothing for a ref with a path separator or ..', () => {
    const root = scratch({ 'datasets/a.yaml': yamlDataset(['a']), 'secret.yaml': yamlDataset(['s']) });
    configure({ datasets: { root } });
    for (const ref of ['../secret.yaml', 'sub/a.yaml', '..', '/etc/passwd', 'a\\b.yaml']) {
      const { value, logs } = captureLogs(() => fileSource.load(ref));
      expect(value).toEqual([]);
      expect(messagesOf(logs)[0]).toContain('a ref must be a bare file name');
    }
  });

  it('says where it looked for a missing dataset', () => {
    const root = scratch({});
    configure({ datasets: { root } });
    const result = loadDatasetSync({ source: 'file', ref: 'missing.yaml' });
    expect(result.questions).toEqual([]);
    expect(result.warnings[0]).toMatch(
      /^file:missing\.yaml: no dataset named "missing\.yaml" in .*datasets\. Fix: create it there/,
    );
  });

  it('refuses an invalid document whole, listing each problem with file, line and path', () => {
    const root = scratch({
      'datasets/bad.yaml': 'questions:\n  - id: good\n    input: fine\n  - id: bad\n    input: 5\n',
    });
    configure({ datasets: { root } });
    const result = loadDatasetSync({ source: 'file', ref: 'bad.yaml' });
    expect(result.questions).toEqual([]);
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toMatch(
      /^file:bad\.yaml: .*bad\.yaml is invalid and was refused whole \(1 problem\)\.$/,
    );
    expect(result.warnings[1]).toMatch(
      /bad\.yaml:5:12: \/questions\/1\/input: must be a string, got number 5\./,
    );
  });

  it('reports a YAML syntax error as a warning with the file and line', async () => {
    const root = scratch({ 'datasets/broken.yaml': 'questions:\n  - id: a\n    input: "x\n' });
    configure({ datasets: { root } });
    const expected =
      /^(?!file:).*datasets\/broken\.yaml:4:1: \(document\): is not valid YAML: Missing closing "quote\. Fix the syntax here\.$/;
    const sync = loadDatasetSync({ source: 'file', ref: 'broken.yaml' });
    expect(sync.questions).toEqual([]);
    expect(sync.warnings[0]).toMatch(/^file:broken\.yaml: .*broken\.yaml is invalid and was refused whole/);
    expect(sync.warnings).toContainEqual(expect.stringMatching(expected));
    const { value, logs } = await captureLogsAsync(() => loadDataset({ source: 'file', ref: 'broken.yaml' }));
    expect(value).toEqual([]);
    expect(messagesOf(logs)).toContainEqual(expect.stringMatching(expected));
  });

  it('returns disabled questions only with includeDisabled', () => {
    const root = scratch({
      'datasets/d.yaml': 'questions:\n  - { id: a, input: x }\n  - { id: b, input: y, disabled: true }\n',
    });
    configure({ datasets: { root } });
    expect(loadDatasetSync({ ref: 'd.yaml' }).questions.map((q) => q.id)).toEqual(['a']);
    const all = loadDatasetSync({ ref: 'd.yaml' }, { includeDisabled: true }).questions;
    expect(all.map((q) => [q.id, q.disabled ?? false])).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });
});

describe('the inline source', () => {
  it('loads datasets from the configuration and from registerInlineDataset, validated', () => {
    configure({ datasets: { inline: { cfg: { questions: [{ id: 'c1', input: 'x' }] } } } });
    registerInlineDataset('list', [{ id: 'l1', input: 'y' }]);
    registerInlineDataset('text', 'questions:\n  - id: t1\n    input: z\n');
    expect(inlineSource.load('cfg')).toEqual([{ id: 'c1', input: 'x' }]);
    expect(loadDatasetSync({ source: 'inline', ref: 'list' }).questions).toEqual([{ id: 'l1', input: 'y' }]);
    expect(loadDatasetSync({ source: 'inline', ref: 'text' }).questions).toEqual([{ id: 't1', input: 'z' }]);
    expect([...inlineSource.listDatasets()].sort()).toEqual(['cfg', 'list', 'text']);
  });

  it('refuses an invalid inline dataset and names an unknown ref', () => {
    registerInlineDataset('bad', [{ id: 'x' }]);
    const bad = loadDatasetSync({ source: 'inline', ref: 'bad' });
    expect(bad.questions).toEqual([]);
    expect(bad.warnings).toEqual([
      'inline:bad is invalid and was refused whole (1 problem(s)).',
      "inline:bad: /questions/0: needs either 'input' (the question text) or 'messages' (a list of { role, content }). Fix: add one of them.",
    ]);
    const missing = loadDatasetSync({ source: 'inline', ref: 'nope' });
    expect(missing.warnings[0]).toMatch(
      /^inline:nope: no inline dataset named "nope" \(known: bad\)\. Fix: registerInlineDataset/,
    );
  });
});

describe('loadDatasetSync filters', () => {
  const doc = [
    'splits:',
    '  smoke: [a, c, ghost]',
    'questions:',
    '  - { id: a, input: x, tags: [billing] }',
    '  - { id: b, input: x, tags: [smalltalk], split: smoke }',
    '  - { id: c, input: x, tags: [billing, urgent] }',
    '  - { id: d, input: x }',
  ].join('\n');

  it('keeps the questions of a split (block and labels), of any given tag, and of the given ids', () => {
    const root = scratch({ 'datasets/f.yaml': doc });
    configure({ datasets: { root } });
    const smoke = loadDatasetSync({ ref: 'f.yaml' }, { split: 'smoke' });
    expect(smoke.questions.map((q) => q.id)).toEqual(['a', 'b', 'c']);
    expect(smoke.warnings).toEqual([
      "file:f.yaml: /splits/smoke names question id 'ghost', which no enabled question has.",
    ]);
    expect(
      loadDatasetSync({ ref: 'f.yaml' }, { tags: ['urgent', 'smalltalk'] }).questions.map((q) => q.id),
    ).toEqual(['b', 'c']);
    expect(loadDatasetSync({ ref: 'f.yaml' }, { ids: ['d', 'a'] }).questions.map((q) => q.id)).toEqual([
      'a',
      'd',
    ]);
    expect(
      loadDatasetSync({ ref: 'f.yaml' }, { split: 'smoke', tags: ['billing'] }).questions.map((q) => q.id),
    ).toEqual(['a', 'c']);
    expect(loadDatasetSync({ ref: 'f.yaml' }, { questionId: 'b' }).questions.map((q) => q.id)).toEqual(['b']);
  });

  it('never returns an empty result silently', () => {
    const root = scratch({ 'datasets/f.yaml': doc, 'datasets/empty.yaml': 'questions: []\n' });
    configure({ datasets: { root } });
    const none = loadDatasetSync({ ref: 'f.yaml' }, { tags: ['nothing'] });
    expect(none.questions).toEqual([]);
    expect(none.warnings).toEqual(['file:f.yaml: no question matches the filter (tags nothing).']);
    const unknownSplit = loadDatasetSync({ ref: 'f.yaml' }, { split: 'nightly' });
    expect(unknownSplit.warnings).toContain(
      "file:f.yaml: no split named 'nightly' (known: smoke). Fix: add it to the splits block or label questions with `split: nightly`.",
    );
    const unknownId = loadDatasetSync({ ref: 'f.yaml' }, { ids: ['a', 'zz'] });
    expect(unknownId.questions.map((q) => q.id)).toEqual(['a']);
    expect(unknownId.warnings).toEqual(["file:f.yaml: no question with id 'zz'."]);
    expect(loadDatasetSync({ ref: 'empty.yaml' }).warnings).toEqual([
      'file:empty.yaml: the dataset has no questions.',
    ]);
  });

  it('loads by path, relative to the working directory', () => {
    const root = scratch({ 'anywhere/p.json': JSON.stringify({ questions: [{ id: 'p', input: 'x' }] }) });
    const result = loadDatasetSync({ path: join(root, 'anywhere/p.json') });
    expect(result.questions.map((q) => q.id)).toEqual(['p']);
    expect(result.label).toBe(`file:${join(root, 'anywhere/p.json')}`);
    expect(result.file).toBe(join(root, 'anywhere/p.json'));
    const missing = loadDatasetSync({ path: 'no/such/file.yaml' });
    expect(missing.questions).toEqual([]);
    expect(missing.warnings[1]).toMatch(/^no\/such\/file\.yaml: \(document\): does not exist/);
  });
});

describe('listing and labels', () => {
  it('labels file datasets by their label, then name, then file name', () => {
    const root = scratch({
      'datasets/a.yaml': `label: Alpha set\n${yamlDataset(['x'])}`,
      'datasets/b.yaml': `name: beta\n${yamlDataset(['y'])}`,
      'datasets/c.json': JSON.stringify({ questions: [{ id: 'z', input: 'z' }] }),
      'datasets/notes.txt': 'not a dataset',
    });
    configure({ datasets: { root } });
    expect(fileSource.listDatasetsWithLabels()).toEqual({
      'a.yaml': 'Alpha set',
      'b.yaml': 'beta',
      'c.json': 'c.json',
    });
  });

  it('reads the suite filters from the environment and labels selections', () => {
    expect(
      filterFromEnv({ AI_EVAL_SPLIT: ' holdout ', AI_EVAL_TAGS: 'billing, urgent,', AI_EVAL_IDS: 'a' }),
    ).toEqual({
      split: 'holdout',
      tags: ['billing', 'urgent'],
      ids: ['a'],
    });
    expect(filterFromEnv({ AI_EVAL_TAGS: ' , ' })).toEqual({});
    expect(datasetLabel({ ref: 'support.yaml' })).toBe('file:support.yaml');
    expect(datasetLabel({ source: 'http', ref: 'x' })).toBe('http:x');
    expect(datasetLabel({ path: 'evals/a.yaml' })).toBe('file:evals/a.yaml');
  });
});
