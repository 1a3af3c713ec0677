import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  configure,
  defineDatasetSource,
  defineGrader,
  defineJudge,
  getDatasetSource,
  getGrader,
  gradeQuestion,
  hasGrader,
  isAiEvalError,
  loadDatasetWithWarnings,
  registerDatasetSource,
  registerGrader,
  resetConfig,
  unregisterDatasetSource,
  unregisterGrader,
} from '../../src/index.js';
import { main } from '../../src/cli/main.js';
import { createSplitter } from '../../src/datasets/splits.js';
import { DEFAULT_TEMPLATE, resolveTemplate } from '../../src/judge/template.js';
import { judgeGates } from '../../src/report/gates.js';
import { runIdentity } from '../../src/report/identity.js';
import { checkGrader } from '../../src/run/assertion.js';
import { rec } from '../helpers/report-fixtures.js';
import { scratch } from '../helpers/temp.js';

/** Names that are members of every plain object through Object.prototype. */
const NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'] as const;

/** An object holding `name` as its own key, as JSON.parse (or a YAML parser) builds it. */
const keyed = <T>(name: string, value: T): Record<string, T> =>
  JSON.parse(`{${JSON.stringify(name)}: ${JSON.stringify(value)}}`) as Record<string, T>;

/** One planned question, scored: coverage is not what these gates are about. */
const COVERED = { planned: 1, scored: 1, unscored: 0, errored: 0, degraded: 0, notLoaded: 0, share: 1 };

afterEach(() => resetConfig());

describe.each(NAMES)('a name that Object.prototype has: %s', (name) => {
  it('gates: the target keeps its own hard gate and fails it', () => {
    const verdicts = judgeGates(
      {
        targets: [
          {
            name,
            gate: { level: 'hard', minAverage: 4 },
            averageScore: 0,
            passRate: 0,
            coverage: COVERED,
            advisories: [],
          },
        ],
        run: { averageScore: 0, passRate: 0, coverage: COVERED, errorCount: 0 },
      },
      { gate: null, targetGates: {}, failOnAdvisory: false, failOnError: false, maxDrop: null },
    );
    expect(verdicts).toContainEqual({
      scope: name,
      level: 'hard',
      passed: false,
      message: `${name}: average 0.00 over 1 of 1 scored is below the minimum 4.00`,
    });
    expect(verdicts.every((v) => v.scope === name)).toBe(true);
  });

  it('gates: a reporter gate under that name applies to the target', () => {
    const verdicts = judgeGates(
      {
        targets: [{ name, gate: null, averageScore: 4.5, passRate: 1, coverage: COVERED, advisories: [] }],
        run: { averageScore: 4.5, passRate: 1, coverage: COVERED, errorCount: 0 },
      },
      {
        gate: null,
        targetGates: keyed(name, { level: 'hard' as const, minAverage: 5 }),
        failOnAdvisory: false,
        failOnError: false,
        maxDrop: null,
      },
    );
    // The average verdict fails (4.5 < 5); the coverage verdict beside it passes.
    expect(verdicts.map((v) => [v.scope, v.passed])).toEqual([
      [name, false],
      [name, true],
    ]);
  });

  it('the run identity keeps a dataset ref and a grader id of that name with their hashes', () => {
    const identity = runIdentity(
      [rec({ question: 'q', grader: name, promptHash: 'p1', dataset: { ref: name, hash: 'd1' } })],
      new Date(0),
    );
    expect(Object.entries(identity.datasetHashes)).toEqual([[name, 'd1']]);
    expect(Object.entries(identity.promptHashes)).toEqual([[name, 'p1']]);
  });

  it('graders: no grader is registered under it', async () => {
    expect(hasGrader(name)).toBe(false);
    let error: unknown;
    try {
      getGrader(name);
    } catch (e) {
      error = e;
    }
    expect(isAiEvalError(error, 'UNKNOWN_GRADER')).toBe(true);
    await expect(gradeQuestion({ question: { input: 'q' }, response: 'r', graders: [name] })).rejects.toThrow(
      `Unknown grader '${name}'`,
    );
    expect(() => checkGrader('toPassGrader', name)).toThrow(
      new RegExp(`^toPassGrader: unknown grader '${name}'`),
    );
  });

  it('dataset sources: none has that id, and loading from it says so', async () => {
    expect(getDatasetSource(name)).toBeUndefined();
    const load = await loadDatasetWithWarnings({ source: name, ref: 'x.yaml' });
    expect(load.questions).toEqual([]);
    expect(load.warnings.join('\n')).toContain(`unknown dataset source '${name}'`);
  });

  it('splits: a split of that name selects its questions, and no split of that name selects none', async () => {
    const questions = [
      { id: 'q1', input: 'a' },
      { id: 'q2', input: 'b' },
    ];
    const splitter = createSplitter(keyed(name, ['q2']));
    expect(splitter.problems).toEqual([]);
    expect(splitter.select(questions, name).map((q) => q.id)).toEqual(['q2']);
    expect(splitter.names(questions)).toEqual([name]);
    expect(Object.getPrototypeOf(splitter.splits)).toBe(Object.prototype);
    expect(createSplitter({ other: ['q1'] }).select(questions, name)).toEqual([]);

    // The same through a YAML dataset file and the split filter.
    const root = scratch({
      'datasets/s.yaml': `splits:\n  ${JSON.stringify(name)}: [q2]\nquestions:\n  - id: q1\n    input: a\n  - id: q2\n    input: b\n`,
    });
    configure({ datasets: { root } });
    const load = await loadDatasetWithWarnings({ source: 'file', ref: 's.yaml', split: name });
    expect(load.questions.map((q) => q.id)).toEqual(['q2']);
  });

  it('judge prompt overrides: none applies unless configured under that id', () => {
    configure({ judge: { prompts: { relevance_grader: 'R %s %s %s %s' } } });
    expect(resolveTemplate(name, DEFAULT_TEMPLATE)).toEqual({
      template: DEFAULT_TEMPLATE,
      source: 'default',
    });
    configure({ judge: { prompts: keyed(name, 'OWN %s %s %s %s') } });
    expect(resolveTemplate(name, DEFAULT_TEMPLATE)).toEqual({
      template: 'OWN %s %s %s %s',
      source: 'config',
    });
  });

  it('the CLI: an unknown command', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await main([name])).toBe(2);
      expect(String(stderr.mock.calls[0]?.[0])).toContain(`ai-eval: unknown command '${name}'.`);
    } finally {
      stderr.mockRestore();
    }
  });
});

describe('ids that are Object.prototype members can be used for real', () => {
  it('a grader and a judge registered as constructor', async () => {
    const grader = defineGrader({
      id: 'constructor',
      label: 'Constructor',
      grade: (_i, _r, _c, { result }) => result(5, 'built'),
    });
    registerGrader(grader);
    try {
      expect(hasGrader('constructor')).toBe(true);
      expect(getGrader('constructor')).toBe(grader);
      const result = await gradeQuestion({
        question: { input: 'q' },
        response: 'r',
        graders: ['constructor'],
      });
      expect(result.grades[0]).toMatchObject({ grader: 'constructor', score: 5, reason: 'built' });
    } finally {
      unregisterGrader('constructor');
    }
    const judge = defineJudge({
      id: 'constructor',
      label: 'C',
      dimension: 'c',
      dimensionDescription: 'c',
      scoringGuidance: '5: c',
    });
    // No override configured: the judge's own template, not Object.prototype.constructor.
    expect(judge.judge.buildPrompt('q', 'r', { messages: [], response_char_limit: 4000 })).toContain(
      'Score one response on a single dimension: c.',
    );
  });

  it('a dataset source registered as valueOf', async () => {
    const source = defineDatasetSource({
      id: 'valueOf',
      label: 'V',
      load: () => [{ id: 'v1', input: 'x' }],
      listDatasets: () => ['v'],
    });
    registerDatasetSource(source);
    try {
      expect(getDatasetSource('valueOf')).toBe(source);
      expect(
        (await loadDatasetWithWarnings({ source: 'valueOf', ref: 'v' })).questions.map((q) => q.id),
      ).toEqual(['v1']);
    } finally {
      unregisterDatasetSource('valueOf');
    }
  });
});
