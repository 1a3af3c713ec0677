import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { makeProject } from '../helpers/project.js';
import { failureOf, row, runVitestFixture, type VitestRun } from '../helpers/vitest-run.js';

/** The first 12 hex characters of the sha256 of a fixture dataset file. */
function fileHash(name: string): string {
  const bytes = readFileSync(join(ROOT, 'fixtures', 'projects', 'suite-vitest', 'datasets', name));
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}

async function runFixture(args: string[], env: Record<string, string> = {}): Promise<VitestRun> {
  return runVitestFixture(makeProject('suite-vitest', {}, 'suite-vitest'), args, env);
}

let all: VitestRun;
beforeAll(async () => {
  all = await runFixture([]);
});

describe('evalSuite in a real Vitest run', () => {
  it('makes one test per question, titled by id and tags, and skips disabled ones', () => {
    const support = all.rows
      .filter((r) => r.fullName.startsWith('support > '))
      .map((r) => [r.fullName, r.state]);
    expect(support).toEqual([
      ['support > q-pass [smoke, billing]', 'passed'],
      ['support > q-low', 'failed'],
      ['support > q-write', 'failed'],
      ['support > q-degraded', 'failed'],
      ['support > q-off', 'skipped'],
      ['support > q-slow', 'failed'],
    ]);
  });

  it('puts the records on task.meta only: no test annotation unless configured', () => {
    const graded = all.rows.filter((r) => r.records.length > 0);
    expect(graded.length).toBeGreaterThan(0);
    for (const r of graded) expect(r.annotations, r.fullName).toEqual([]);
  });

  it('grades every question with every target grader and records each grade on its test', () => {
    const [fromMetadata, readOnly] = row(all, 'support > q-pass [smoke, billing]').records;
    expect(fromMetadata).toMatchObject({
      v: 2,
      test: { file: join(all.dir, 'support.test.js'), name: 'support > q-pass [smoke, billing]' },
      question: 'q-pass',
      trial: 1,
      grader: 'from_metadata',
      composite: 5,
      passThreshold: 3.5,
      target: {
        name: 'support-bot',
        mode: 'agent',
        graders: ['from_metadata', 'read_only_run'],
        actionObserving: ['read_only_run'],
        passThreshold: 3.5,
      },
    });
    expect(readOnly).toMatchObject({ grader: 'read_only_run', observesActions: true, toolCallRecord: true });
    expect(row(all, 'support > q-write').records.map((r) => [r.grader, r.composite])).toEqual([
      ['from_metadata', 5],
      ['read_only_run', 0],
    ]);
    // A disabled question grades nothing: its one record says it is disabled (JUnit's <skipped/>).
    expect(row(all, 'support > q-off').records).toEqual([
      expect.objectContaining({
        kind: 'disabled',
        question: 'q-off',
        dataset: { ref: 'file:datasets/support.yaml' },
      }),
    ]);
  });

  it('fails below the threshold and when degraded, listing every grader', () => {
    // The read_only_run reason belongs to that grader; only the shape of its line is pinned here.
    const [head, first, second, ...rest] = failureOf(all, 'support.test.js > support > q-write').split('\n');
    expect([head, first]).toMatchInlineSnapshot(`
      [
        "Error: q-write: composite 2.5 is below the pass threshold 3.5",
        "  - from_metadata: 5 (composite 5): scored 5 for "answer to q-write (trial 1)"",
      ]
    `);
    expect(second).toMatch(/^ {2}- read_only_run: 0 \(composite 0\): .*delete_node/);
    expect(rest).toEqual([]);
    const degraded = failureOf(all, 'support.test.js > support > q-degraded').split('\n');
    expect(degraded.slice(0, 2)).toMatchInlineSnapshot(`
      [
        "Error: q-degraded: degraded: a grader could not grade (composite 5)",
        "  - from_metadata: error: could not reach the judge: judge down",
      ]
    `);
    expect(degraded[2]).toMatch(/^ {2}- read_only_run: 1 \(composite 5\): /);
    expect(row(all, 'support > q-degraded').records.map((r) => r.error)).toEqual([true, false]);
  });

  it('aborts the signal of a question that outruns its timeout', () => {
    expect(failureOf(all, 'support.test.js > support > q-slow')).toMatchInlineSnapshot(
      `"Error: q-slow: timed out after 200 ms (question.timeout); the run was aborted through its signal. If the agent needs longer, raise \`timeout\` on the question in the dataset."`,
    );
    const marker = join(all.dir, 'aborted-q-slow.txt');
    expect(existsSync(marker)).toBe(true);
    expect(readFileSync(marker, 'utf8')).toContain('timed out after 200 ms');
    // The question still reaches the reporter: every grader errored, citing the timeout.
    expect(row(all, 'support > q-slow').records.map((r) => [r.grader, r.error, r.score, r.reason])).toEqual(
      ['from_metadata', 'read_only_run'].map((grader) => [
        grader,
        true,
        null,
        'no response to grade: timed out after 200 ms (question.timeout); the run was aborted through its signal. If the agent needs longer, raise `timeout` on the question in the dataset.',
      ]),
    );
  });

  it('runs every trial, records each, and fails when one trial fails', () => {
    expect(row(all, 'trials > steady').state).toBe('passed');
    expect(row(all, 'trials > flaky').state).toBe('failed');
    const flaky = row(all, 'trials > flaky').records;
    expect(flaky.map((r) => [r.trial, r.grader, r.composite])).toEqual([
      [1, 'from_metadata', 5],
      [1, 'read_only_run', 5],
      [2, 'from_metadata', 1],
      [2, 'read_only_run', 5],
      [3, 'from_metadata', 5],
      [3, 'read_only_run', 5],
    ]);
    expect(failureOf(all, 'trials.test.js > trials > flaky')).toContain(
      'flaky: trial 2: composite 3 is below',
    );
  });

  it('filters by the split option', () => {
    expect(all.rows.filter((r) => r.fullName.startsWith('smoke split')).map((r) => r.fullName)).toEqual([
      'smoke split > q-pass [smoke, billing]',
      'smoke split > q-low',
    ]);
  });

  it('attributes concurrent questions to their own tests', () => {
    for (const id of ['k1', 'k2', 'k3', 'k4']) {
      const r = row(all, `concurrent > ${id}`);
      expect(r.state).toBe('passed');
      expect(r.records.map((rec) => [rec.question, rec.test.name])).toEqual([
        [id, `concurrent > ${id}`],
        [id, `concurrent > ${id}`],
      ]);
    }
  });

  it('merges the rubric criteria into the context, and fails only the question whose rubric is missing', () => {
    expect(row(all, 'rubric > r-ok').state).toBe('passed');
    expect(row(all, 'rubric > r-ok').records[0]!.reason).toBe(
      'scored 5 for "answer to r-ok (trial 1)" against criteria: Says hello. | Answers in a friendly tone.',
    );
    expect(row(all, 'rubric > r-missing').state).toBe('failed');
    expect(failureOf(all, 'rubric.test.js > rubric > r-missing')).toContain(
      "No rubric named 'no-such-rubric'",
    );
  });

  it('turns a missing or invalid dataset into one failing test that shows the warnings', () => {
    expect(all.rows.filter((r) => r.file.endsWith('bad.test.js')).map((r) => [r.fullName, r.state])).toEqual([
      ['missing > dataset file:datasets/missing.yaml', 'failed'],
      ['invalid > dataset file:datasets/invalid.yaml', 'failed'],
    ]);
    expect(failureOf(all, 'bad.test.js > invalid > dataset file:datasets/invalid.yaml'))
      .toMatchInlineSnapshot(`
      "Error: evalSuite("invalid"): dataset file:datasets/invalid.yaml gave no questions to run, so nothing was evaluated.
      Filters: none.
      Warnings:
        - file:datasets/invalid.yaml: datasets/invalid.yaml is invalid and was refused whole (2 problems).
        - datasets/invalid.yaml:5:9: /questions/1/id: must be a string, got number 42. Fix the value of 'id'.
        - datasets/invalid.yaml:6:12: /questions/1/input: must be a string, got a list. Fix the value of 'input'.
      Fix the dataset (run \`npx ai-eval validate <file>\`), its path or ref, or the filters. An async source (http) must be pulled into a file first."
    `);
    expect(failureOf(all, 'bad.test.js > missing > dataset file:datasets/missing.yaml')).toContain(
      'does not exist',
    );
  });
});

describe('evalSuite datasets by source, edge cases and run identity', () => {
  it('runs a { source: file, ref } dataset, finding its rubrics', () => {
    expect(
      all.rows.filter((r) => r.fullName.startsWith('file source > ')).map((r) => [r.fullName, r.state]),
    ).toEqual([
      ['file source > r-ok', 'passed'],
      ['file source > r-missing', 'failed'],
    ]);
    expect(row(all, 'file source > r-ok').records[0]!.reason).toBe(
      'scored 5 for "answer to r-ok (trial 1)" against criteria: Says hello. | Answers in a friendly tone.',
    );
  });

  it('runs a { source: inline, ref } dataset registered in the setup file', () => {
    expect(
      all.rows.filter((r) => r.fullName.startsWith('inline source > ')).map((r) => [r.fullName, r.state]),
    ).toEqual([
      ['inline source > i-one', 'passed'],
      ['inline source > i-two [inline]', 'passed'],
    ]);
    expect(row(all, 'inline source > i-two [inline]').records.map((r) => [r.question, r.composite])).toEqual([
      ['i-two', 4],
      ['i-two', 5],
    ]);
  });

  it('loads a { path } dataset like a path string', () => {
    expect(
      all.rows.filter((r) => r.fullName.startsWith('path object > ')).map((r) => [r.fullName, r.state]),
    ).toEqual([['path object > q-pass [smoke, billing]', 'passed']]);
  });

  it('turns an async source into one failing test that says to pull it into a file, naming a working form', () => {
    expect(
      all.rows.filter((r) => r.fullName.startsWith('http source > ')).map((r) => [r.fullName, r.state]),
    ).toEqual([['http source > dataset http:x', 'failed']]);
    const message = failureOf(all, 'sources.test.js > http source > dataset http:x');
    expect(message).toContain(
      "http:x: the 'http' source is asynchronous and cannot be loaded synchronously (Jest cannot await inside describe), so evalSuite cannot load it. Fix: pull it into a file first",
    );
    expect(message).toContain("Then give evalSuite the file: `dataset: 'datasets/x.pulled.json'`.");
  });

  it('skips every disabled question and still fails one test, since nothing was evaluated', () => {
    expect(
      all.rows.filter((r) => r.fullName.startsWith('all disabled > ')).map((r) => [r.fullName, r.state]),
    ).toEqual([
      ['all disabled > d-one', 'skipped'],
      ['all disabled > d-two', 'skipped'],
      ['all disabled > dataset file:datasets/disabled.yaml', 'failed'],
    ]);
    expect(failureOf(all, 'edge.test.js > all disabled > dataset file:datasets/disabled.yaml'))
      .toMatchInlineSnapshot(`
      "Error: evalSuite("all disabled"): every question of dataset file:datasets/disabled.yaml that the filters select is disabled, so nothing was evaluated.
      Filters: none.
      Disabled: d-one, d-two.
      Fix: enable a question (remove \`disabled: true\`), or change the filters to select enabled questions."
    `);
  });

  it('aborts a question that outruns the suite timeout option', () => {
    expect(row(all, 'suite timeout > s-slow').state).toBe('failed');
    expect(failureOf(all, 'edge.test.js > suite timeout > s-slow')).toBe(
      'Error: s-slow: timed out after 200 ms (the suite timeout option); the run was aborted through its signal. If the agent needs longer, raise `timeout` in the evalSuite options (or `timeout` on the question, or `configure({ questionTimeout })` for every suite).',
    );
    expect(readFileSync(join(all.dir, 'aborted-s-slow.txt'), 'utf8')).toContain('(the suite timeout option)');
  });

  it("stamps every record with the dataset's ref and content hash", () => {
    const support = all.rows
      .filter((r) => r.fullName.startsWith('support > '))
      .flatMap((r) => r.records)
      .filter((r) => r.kind === 'grade');
    expect(support.length).toBeGreaterThan(0);
    for (const record of support) {
      expect(record.dataset).toEqual({ ref: 'file:datasets/support.yaml', hash: fileHash('support.yaml') });
    }
    // A timed-out question's records carry it too.
    expect(row(all, 'support > q-slow').records[0]!.dataset?.hash).toBe(fileHash('support.yaml'));
    expect(row(all, 'file source > r-ok').records[0]!.dataset).toEqual({
      ref: 'file:rubric.yaml',
      hash: fileHash('rubric.yaml'),
    });
    // No file behind an inline dataset: the hash is of its questions' canonical JSON.
    const inline = row(all, 'inline source > i-one').records[0]!.dataset;
    expect(inline).toEqual({ ref: 'inline:smoke', hash: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect(row(all, 'inline source > i-two [inline]').records[0]!.dataset).toEqual(inline);
  });
});

describe('evalSuite filters from the environment', () => {
  it('AI_EVAL_TAGS and AI_EVAL_SPLIT narrow the generated tests', async () => {
    const run = await runFixture(['support.test.js', 'split.test.js'], { AI_EVAL_TAGS: 'billing' });
    expect(run.rows.map((r) => [r.fullName, r.state])).toEqual(
      expect.arrayContaining([
        ['support > q-pass [smoke, billing]', 'passed'],
        ['smoke split > q-pass [smoke, billing]', 'passed'],
      ]),
    );
    expect(run.rows).toHaveLength(2);
    const split = await runFixture(['support.test.js'], { AI_EVAL_SPLIT: 'smoke' });
    expect(split.rows.map((r) => r.fullName)).toEqual([
      'support > q-pass [smoke, billing]',
      'support > q-low',
    ]);
  });

  // That the ai-eval reporter then fails the run (no suite had the id) is in test/reporter/honest-verdicts.test.ts.
  it('AI_EVAL_IDS that match nothing in a suite skip it with a note and a filter-skip record', async () => {
    const run = await runFixture(['support.test.js'], { AI_EVAL_IDS: 'q-nope' });
    const title =
      'support > dataset file:datasets/support.yaml: no question selected by the filters (ids q-nope)';
    expect(run.rows.map((r) => [r.fullName, r.state])).toEqual([[title, 'skipped']]);
    expect(row(run, title).records).toMatchObject([
      {
        kind: 'filter-skip',
        suite: 'support',
        dataset: { ref: 'file:datasets/support.yaml' },
        filters: { ids: ['q-nope'] },
      },
    ]);
  });
});
