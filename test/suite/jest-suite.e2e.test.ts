import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jestRecords, jestTest, runJestFixture, type JestRun } from '../helpers/jest-run.js';
import { ROOT } from '../helpers/paths.js';
import { makeProject } from '../helpers/project.js';

const datasets = join(ROOT, 'fixtures', 'projects', 'suite-vitest', 'datasets');
const datasetFiles = Object.fromEntries(
  readdirSync(datasets)
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => [`datasets/${name}`, readFileSync(join(datasets, name), 'utf8')]),
);

/** Runs the suite-jest fixture, with the suite-vitest datasets, and reads back results and records. */
function runFixture(args: string[], options: { esm?: boolean; env?: Record<string, string> } = {}) {
  return runJestFixture(makeProject('suite-jest', datasetFiles, 'suite-jest'), args, options);
}

describe('evalSuite in a real Jest run (CJS, ts-jest)', () => {
  let run: JestRun;
  beforeAll(async () => {
    run = await runFixture(['--config', 'jest.config.cjs']);
  });

  it('makes one test per question, skips disabled ones, and fails the bad ones', () => {
    expect(
      run.tests.filter((t) => t.fullName.startsWith('support ')).map((t) => [t.fullName, t.status]),
    ).toEqual([
      ['support q-pass [smoke, billing]', 'passed'],
      ['support q-low', 'failed'],
      ['support q-write', 'failed'],
      ['support q-degraded', 'failed'],
      ['support q-off', 'pending'],
      ['support q-slow', 'failed'],
    ]);
    expect(jestTest(run, 'support q-low').failureMessages[0]).toContain(
      'q-low: composite 3 is below the pass threshold 3.5\n  - from_metadata: 1 (composite 1): scored 1 for "answer to q-low (trial 1)"',
    );
    expect(jestTest(run, 'support q-degraded').failureMessages[0]).toContain(
      'q-degraded: degraded: a grader could not grade',
    );
  });

  it('aborts the signal of a question that outruns its timeout', () => {
    expect(jestTest(run, 'support q-slow').failureMessages[0]).toContain(
      'q-slow: timed out after 200 ms (question.timeout); the run was aborted through its signal. If the agent needs longer, raise `timeout` on the question in the dataset.',
    );
    expect(readFileSync(join(run.dir, 'aborted-q-slow.txt'), 'utf8')).toContain('timed out after 200 ms');
    // Nothing was graded, but the question reaches the reporter: every grader errored, citing the timeout.
    expect(jestRecords(run, 'support q-slow').map((r) => [r.grader, r.error, r.score, r.reason])).toEqual(
      ['from_metadata', 'read_only_run'].map((grader) => [
        grader,
        true,
        null,
        'no response to grade: timed out after 200 ms (question.timeout); the run was aborted through its signal. If the agent needs longer, raise `timeout` on the question in the dataset.',
      ]),
    );
  });

  it('writes every grade to the side channel under the test full name', () => {
    expect(jestRecords(run, 'support q-pass [smoke, billing]')).toEqual([
      expect.objectContaining({
        test: { file: join(run.dir, 'cjs', 'support.test.ts'), name: 'support q-pass [smoke, billing]' },
        question: 'q-pass',
        trial: 1,
        grader: 'from_metadata',
        composite: 5,
        dataset: { ref: 'file:datasets/support.yaml', hash: expect.stringMatching(/^[0-9a-f]{12}$/) },
        target: expect.objectContaining({
          name: 'support-bot',
          mode: 'agent',
          actionObserving: ['read_only_run'],
        }),
      }),
      expect.objectContaining({
        question: 'q-pass',
        grader: 'read_only_run',
        composite: 5,
        toolCallRecord: true,
      }),
    ]);
    expect(jestRecords(run, 'support q-off')).toEqual([]);
  });

  it('runs and records every trial', () => {
    expect(jestTest(run, 'trials steady').status).toBe('passed');
    expect(jestTest(run, 'trials flaky').status).toBe('failed');
    expect(jestRecords(run, 'trials flaky').map((r) => [r.trial, r.grader, r.composite])).toEqual([
      [1, 'from_metadata', 5],
      [1, 'read_only_run', 5],
      [2, 'from_metadata', 1],
      [2, 'read_only_run', 5],
      [3, 'from_metadata', 5],
      [3, 'read_only_run', 5],
    ]);
  });

  it('attributes concurrent questions to their own tests', () => {
    for (const id of ['k1', 'k2', 'k3', 'k4']) {
      expect(jestTest(run, `concurrent ${id}`).status).toBe('passed');
      expect(jestRecords(run, `concurrent ${id}`).map((r) => r.question)).toEqual([id, id]);
    }
  });

  it('files a matcher used inside run() under the question and trial being run', () => {
    for (const [suite, id] of ['inner', 'inner sequential'].flatMap((suite) =>
      ['k1', 'k2', 'k3', 'k4'].map((id) => [suite, id] as const),
    )) {
      const mine = jestRecords(run, `${suite} ${id}`);
      expect(mine.map((r) => [r.question, r.trial, r.grader, r.composite, r.target?.name ?? null])).toEqual([
        [id, 1, 'from_metadata', 4, null],
        [id, 1, 'from_metadata', 5, 'support-bot'],
        [id, 1, 'read_only_run', 5, 'support-bot'],
        [id, 2, 'from_metadata', 4, null],
        [id, 2, 'from_metadata', 5, 'support-bot'],
        [id, 2, 'read_only_run', 5, 'support-bot'],
      ]);
    }
  });

  it('turns a missing dataset into one failing test that shows the warnings', () => {
    const missing = run.tests.filter((t) => t.fullName.startsWith('missing'));
    expect(missing.map((t) => [t.fullName, t.status])).toEqual([
      ['missing dataset file:datasets/missing.yaml', 'failed'],
    ]);
    expect(missing[0]!.failureMessages[0]).toContain(
      'evalSuite("missing"): dataset file:datasets/missing.yaml gave no questions to run, so nothing was evaluated.',
    );
    expect(missing[0]!.failureMessages[0]).toContain('does not exist');
  });

  it('turns an invalid dataset into one failing test that shows the warnings', () => {
    const invalid = run.tests.filter((t) => t.fullName.startsWith('invalid'));
    expect(invalid.map((t) => [t.fullName, t.status])).toEqual([
      ['invalid dataset file:datasets/invalid.yaml', 'failed'],
    ]);
    expect(invalid[0]!.failureMessages[0]).toContain(
      'datasets/invalid.yaml:5:9: /questions/1/id: must be a string',
    );
  });
});

describe('evalSuite in a real Jest run (native ESM)', () => {
  it('generates the suites, filters by split and attributes concurrent tests', async () => {
    const run = await runFixture(['--config', 'jest.esm.config.cjs'], { esm: true });
    expect(run.tests.map((t) => [t.fullName, t.status])).toEqual([
      ['esm support q-pass [smoke, billing]', 'passed'],
      ['esm support q-low', 'failed'],
      ['esm concurrent k1', 'passed'],
      ['esm concurrent k2', 'passed'],
      ['esm concurrent k3', 'passed'],
      ['esm concurrent k4', 'passed'],
    ]);
    for (const id of ['k1', 'k2', 'k3', 'k4']) {
      expect(jestRecords(run, `esm concurrent ${id}`).map((r) => r.question)).toEqual([id, id]);
    }
  });

  it('AI_EVAL_TAGS narrows the generated tests', async () => {
    const run = await runFixture(['--config', 'jest.config.cjs', 'cjs/support'], {
      env: { AI_EVAL_TAGS: 'billing' },
    });
    expect(run.tests.map((t) => [t.fullName, t.status])).toEqual([
      ['support q-pass [smoke, billing]', 'passed'],
    ]);
  });

  // That the ai-eval reporter then fails the run (no suite had the id) is in test/reporter/honest-verdicts.test.ts.
  it('AI_EVAL_IDS that match nothing in a suite skip it with a note and a filter-skip record', async () => {
    const run = await runFixture(['--config', 'jest.config.cjs', 'cjs/support'], {
      env: { AI_EVAL_IDS: 'q-nope' },
    });
    const title =
      'support dataset file:datasets/support.yaml: no question selected by the filters (ids q-nope)';
    expect(run.tests.map((t) => [t.fullName, t.status])).toEqual([[title, 'pending']]);
    expect(run.records).toMatchObject([
      {
        kind: 'filter-skip',
        suite: 'support',
        test: {
          name: `support > dataset file:datasets/support.yaml: no question selected by the filters (ids q-nope)`,
        },
        filters: { ids: ['q-nope'] },
      },
    ]);
  });
});
