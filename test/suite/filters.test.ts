import { describe, expect, it } from 'vitest';
import { describeFilters, suiteFilters, type EvalSuiteOptions } from '../../src/run/suite-options.js';
import { defineEvalSuite, questionTitle, type SuiteRuntime } from '../../src/run/suite.js';

const base: EvalSuiteOptions = {
  dataset: 'd.yaml',
  target: { name: 't', mode: 'chat', graders: ['read_only_run'] },
  run: () => 'x',
};

describe('suiteFilters', () => {
  it('takes the options when the environment says nothing', () => {
    expect(suiteFilters({ ...base, split: 'smoke', tags: ['a'], ids: ['q1'] }, {})).toEqual({
      split: 'smoke',
      tags: ['a'],
      ids: ['q1'],
    });
  });

  it('lets each environment variable override its option', () => {
    const env = { AI_EVAL_SPLIT: 'holdout', AI_EVAL_TAGS: ' b, c ,', AI_EVAL_IDS: 'q2,q3' };
    expect(suiteFilters({ ...base, split: 'smoke', tags: ['a'], ids: ['q1'] }, env)).toEqual({
      split: 'holdout',
      tags: ['b', 'c'],
      ids: ['q2', 'q3'],
    });
    expect(suiteFilters({ ...base, tags: ['a'] }, { AI_EVAL_SPLIT: 'holdout' })).toEqual({
      split: 'holdout',
      tags: ['a'],
    });
  });

  it('ignores empty variables', () => {
    expect(suiteFilters({ ...base, tags: ['a'] }, { AI_EVAL_TAGS: ' ', AI_EVAL_SPLIT: '' })).toEqual({
      tags: ['a'],
    });
  });

  it('describes the filters for messages', () => {
    expect(describeFilters({})).toBe('none');
    expect(describeFilters({ split: 's', tags: ['a', 'b'], ids: ['q1'] })).toBe(
      "split 's'; tags a, b; ids q1",
    );
  });
});

describe('defineEvalSuite', () => {
  it('titles a test by the question id, then its tags', () => {
    expect(questionTitle({ id: 'q1' })).toBe('q1');
    expect(questionTitle({ id: 'q1', tags: ['smoke', 'billing'] })).toBe('q1 [smoke, billing]');
  });

  it('refuses malformed options before defining anything, naming the suite', () => {
    const defined: string[] = [];
    const runtime = {
      describe: (name: string) => defined.push(name),
      load: () => ({ questions: [], warnings: [], label: 'x' }),
    } as unknown as SuiteRuntime;
    expect(() => defineEvalSuite(runtime, '', base)).toThrow(
      'evalSuite: the first argument must be the suite name',
    );
    expect(() => defineEvalSuite(runtime, 's', { ...base, dataset: '' })).toThrow(
      'evalSuite("s") option dataset: expected a file path, { path } or { source, ref }, got "".',
    );
    expect(() =>
      defineEvalSuite(runtime, 's', { ...base, dataset: { path: 'a.yaml', source: 'file' } }),
    ).toThrow('evalSuite("s") option dataset: expected a file path, { path } or { source, ref }, got {');
    expect(() => defineEvalSuite(runtime, 's', { ...base, run: undefined as never })).toThrow(
      'evalSuite("s") option run: is required: a function (question, { signal, trial }) => response',
    );
    expect(() => defineEvalSuite(runtime, 's', { ...base, trials: 0 })).toThrow(
      'evalSuite("s") option trials: expected a whole number from 1 to 1000, got 0.',
    );
    expect(() => defineEvalSuite(runtime, 's', { ...base, target: { ...base.target, graders: [] } })).toThrow(
      'target "t" graders: expected a list of at least one grader id or grader, got [].',
    );
    expect(defined).toEqual([]);
  });

  it('loads a { path } dataset by path, the same as a bare string', () => {
    const selectors: unknown[] = [];
    const runtime = {
      describe: () => undefined,
      load: (selector: unknown) => {
        selectors.push(selector);
        return { questions: [], warnings: [], label: 'x' };
      },
    } as unknown as SuiteRuntime;
    defineEvalSuite(runtime, 's', { ...base, dataset: { path: 'datasets/support.pulled.json' } });
    defineEvalSuite(runtime, 's', { ...base, dataset: 'datasets/support.pulled.json' });
    defineEvalSuite(runtime, 's', { ...base, dataset: { source: 'inline', ref: 'smoke' } });
    expect(selectors).toEqual([
      { path: 'datasets/support.pulled.json' },
      { path: 'datasets/support.pulled.json' },
      { source: 'inline', ref: 'smoke' },
    ]);
  });
});
