import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeProject, runVitest } from '../helpers/project.js';
import { failureOf, readRows, row, runVitestFixture, type VitestRun } from '../helpers/vitest-run.js';

/** Runs the matchers-vitest fixture with its record reporter, and reads back every test's row. */
function runFixture(args: string[]): Promise<VitestRun> {
  const dir = makeProject('matchers-vitest', {}, 'matchers-vitest');
  return runVitestFixture(dir, ['--reporter=default', '--reporter=./record-reporter.js', ...args]);
}

/** The failure message Vitest printed for one test: from the error line through `Reason:`. */
const failureThroughReason = (run: VitestRun, title: string): string => failureOf(run, title, 'reason');

let forks: VitestRun;

beforeAll(async () => {
  forks = await runFixture(['--reporter=junit', '--outputFile.junit=junit.xml']);
});

describe('toPassGrader and toScoreAtLeast in a real Vitest run', () => {
  it('passes and fails on the composite against the threshold', () => {
    expect(row(forks, 'verdicts > passes at the threshold').state).toBe('passed');
    expect(row(forks, 'verdicts > fails below the threshold').state).toBe('failed');
    expect(row(forks, 'verdicts > a custom threshold').state).toBe('passed');
    expect(row(forks, 'verdicts > toScoreAtLeast passes').state).toBe('passed');
    expect(row(forks, 'verdicts > toScoreAtLeast fails').state).toBe('failed');
  });

  it('lets .not invert a real verdict', () => {
    expect(row(forks, 'verdicts > not passes below the threshold').state).toBe('passed');
    expect(row(forks, 'verdicts > not fails at the threshold').state).toBe('failed');
  });

  it('fails a skip and an error, also under .not', () => {
    for (const name of [
      'a skip fails',
      'a skip fails under not',
      'an error fails',
      'a throwing grader fails under not',
    ]) {
      expect(row(forks, `no verdict > ${name}`).state, name).toBe('failed');
    }
  });

  it('prints one message shape for every failure', () => {
    expect(failureThroughReason(forks, 'verdicts.test.js > verdicts > fails below the threshold'))
      .toMatchInlineSnapshot(`
      "Error: expect(received).toPassGrader(grader)

      Expected the grade to reach the threshold, but it fell short.

      Grader:    From metadata (0-5)
      Score:     2 (composite 2 of 5)
      Threshold: composite >= 3.5
      Reason:    scored 2 for "hello""
    `);
    expect(failureThroughReason(forks, 'verdicts.test.js > verdicts > not fails at the threshold'))
      .toMatchInlineSnapshot(`
      "Error: expect(received).not.toPassGrader(grader)

      Expected the grade to stay below the threshold, but it reached it.

      Grader:    From metadata (0-5)
      Score:     5 (composite 5 of 5)
      Threshold: composite < 3.5
      Reason:    scored 5 for "hello""
    `);
    expect(failureThroughReason(forks, 'verdicts.test.js > verdicts > toScoreAtLeast fails'))
      .toMatchInlineSnapshot(`
      "Error: expect(received).toScoreAtLeast(grader, score)

      Expected the grade to reach the threshold, but it fell short.

      Grader:    From metadata (0-5)
      Score:     4 (composite 4 of 5)
      Threshold: composite >= 4.5
      Reason:    scored 4 for "hello""
    `);
    expect(failureThroughReason(forks, 'verdicts.test.js > no verdict > a skip fails under not'))
      .toMatchInlineSnapshot(`
      "Error: expect(received).not.toPassGrader(grader)

      The grader did not apply, so nothing was checked. A skip never passes, not even under .not.

      Grader:    From metadata (0-5)
      Score:     skipped (no score)
      Threshold: composite >= 3.5
      Reason:    no metadata.score on the question"
    `);
    expect(failureThroughReason(forks, 'verdicts.test.js > no verdict > a throwing grader fails under not'))
      .toMatchInlineSnapshot(`
      "Error: expect(received).not.toPassGrader(grader)

      The grader could not grade the response, so nothing was checked. An error never passes, not even under .not.

      Grader:    Throwing (0-5)
      Score:     error (no score)
      Threshold: composite >= 3.5
      Reason:    grader threw: boom"
    `);
  });

  it('throws a TypeError naming the matcher on misuse', () => {
    const output = forks.result.output;
    expect(output).toContain(
      "TypeError: toPassGrader: unknown grader 'no_such_grader'. Known graders: read_only_run,",
    );
    expect(output).toMatch(/Known graders: .*from_metadata, mentions_word, throwing\. Register yours/);
    expect(output).toContain(
      'TypeError: toPassGrader: expected a response string or an agent run { output: string, toolCalls?, messages? }, received number 42.',
    );
    expect(output).toContain(
      'TypeError: toPassGrader: options.threshold: expected a composite from 0 to 5, got 7.',
    );
    expect(row(forks, 'misuse > misuse is a TypeError').state).toBe('passed');
    expect(row(forks, 'misuse > unknown grader').records).toEqual([]);
  });

  it('puts one record per grade on the test that computed it', () => {
    const gradingTests = forks.rows.filter(
      (r) =>
        !r.fullName.startsWith('misuse') &&
        !r.fullName.startsWith('annotated suite') &&
        r.fullName !== 'times out while grading',
    );
    for (const r of gradingTests) {
      expect(r.records, r.fullName).toHaveLength(1);
      const [record] = r.records;
      expect(record!.test).toEqual({ file: r.file, name: r.fullName });
      expect(record!.v).toBe(2);
      expect(record!.trial).toBe(1);
    }
    const [passing] = row(forks, 'verdicts > passes at the threshold').records;
    expect(passing).toMatchObject({
      question: 'passes at the threshold',
      target: null,
      grader: 'from_metadata',
      label: 'From metadata (0-5)',
      min: 0,
      max: 5,
      score: 3.5,
      composite: 3.5,
      error: false,
      skipped: false,
      llm: false,
      observesActions: false,
      toolCallRecord: false,
      passThreshold: 3.5,
    });
    const [skipped] = row(forks, 'no verdict > a skip fails').records;
    expect(skipped).toMatchObject({ score: null, composite: null, skipped: true, error: false });
    const [errored] = row(forks, 'no verdict > an error fails').records;
    expect(errored).toMatchObject({ score: null, composite: null, skipped: false, error: true });
  });

  it('files a record under the target a matcher names', () => {
    const [agent] = row(forks, 'agent runs and targets > a read-only agent run').records;
    expect(agent).toMatchObject({
      question: 'list-articles',
      toolCallRecord: true,
      observesActions: true,
      target: {
        name: 'support-bot',
        mode: 'agent',
        graders: ['read_only_run'],
        actionObserving: ['read_only_run'],
      },
    });
    const [chat] = row(forks, 'agent runs and targets > a string with a full target').records;
    expect(chat).toMatchObject({
      passThreshold: 4,
      target: {
        name: 'faq',
        mode: 'chat',
        graders: ['from_metadata', 'mentions_word'],
        actionObserving: [],
        passThreshold: 4,
      },
    });
  });

  it('attributes concurrent tests that use their context expect', () => {
    for (const id of ['c1', 'c2', 'c3', 'c4']) {
      const r = row(forks, `concurrent > ${id}`);
      expect(r.records.map((rec) => [rec.question, rec.test.name])).toEqual([[id, `concurrent > ${id}`]]);
    }
  });

  it('drops a grade that lands after its test timed out', () => {
    expect(row(forks, 'times out while grading').state).toBe('failed');
    const all = forks.rows.flatMap((r) => r.records);
    expect(all.filter((rec) => rec.question === 'late')).toEqual([]);
    expect(row(forks, 'runs while the late grade lands').records.map((rec) => rec.question)).toEqual([
      'on-time',
    ]);
  });

  it('with annotations configured, shows each assertion and each question trial as one annotation, which the JUnit reporter carries', () => {
    expect(row(forks, 'verdicts > fails below the threshold').annotations).toEqual([
      {
        type: 'ai-eval',
        message: 'fails below the threshold from_metadata: score 2 of 0-5, composite 2: scored 2 for "hello"',
      },
    ]);
    expect(row(forks, 'annotated suite > a1').annotations).toEqual([
      {
        type: 'ai-eval',
        message: [
          'a1 from_metadata: score 4 of 0-5, composite 4: scored 4 for "hello there"',
          'a1 mentions_word: score 1 of 0-1, composite 5: mentions hello',
        ].join('\n'),
      },
    ]);
    const junit = readFileSync(join(forks.dir, 'junit.xml'), 'utf8');
    expect(junit).toContain(
      '<property name="ai-eval" value="list-articles read_only_run: score 1 of 0-1, composite 5: ',
    );
  });
});

describe('matcher options and received shapes in a real Vitest run', () => {
  it('uses the input option only for a bare question, and puts it in context.messages', () => {
    const echoed = (name: string): unknown => {
      const r = row(forks, `input > ${name}`);
      expect(r.state, name).toBe('passed');
      expect(r.records, name).toHaveLength(1);
      return JSON.parse(r.records[0]!.reason) as unknown;
    };
    expect(echoed('the option fills in for a bare question')).toEqual({
      input: 'List the pages',
      messages: [{ role: 'user', content: 'List the pages' }],
    });
    expect(echoed('the question input wins over the option')).toEqual({
      input: 'Own question',
      messages: [{ role: 'user', content: 'Own question' }],
    });
  });

  it('grades with a grader object that was never registered', () => {
    const pass = row(forks, 'grader objects > an unregistered grader object passes');
    expect(pass.state).toBe('passed');
    expect(pass.records).toMatchObject([
      {
        grader: 'object_score',
        label: 'Object score (binary, 0-1)',
        score: 1,
        composite: 5,
        question: 'object-pass',
      },
    ]);
    const fail = row(forks, 'grader objects > an unregistered grader object fails');
    expect(fail.state).toBe('failed');
    expect(fail.records).toMatchObject([{ grader: 'object_score', score: 0, composite: 0 }]);
    expect(
      failureThroughReason(forks, 'options.test.js > grader objects > an unregistered grader object fails'),
    ).toContain('Grader:    Object score (binary, 0-1)');
  });

  it('reads the record from Chat Completions tool_calls and from a messages-only transcript', () => {
    for (const [name, question] of [
      ['OpenAI Chat Completions tool_calls', 'chat-completions'],
      ['a messages-only transcript', 'transcript'],
    ] as const) {
      const r = row(forks, `tool-call shapes > ${name}`);
      expect(r.state, name).toBe('passed');
      expect(r.records, name).toMatchObject([
        {
          question,
          grader: 'read_only_run',
          score: 1,
          composite: 5,
          error: false,
          toolCallRecord: true,
          observesActions: true,
        },
      ]);
      expect(r.records[0]!.reason, name).toContain('among 1 recorded calls');
    }
    const mutating = row(forks, 'tool-call shapes > a messages-only transcript with a mutating call');
    expect(mutating.state).toBe('passed');
    expect(mutating.records).toMatchObject([{ score: 0, toolCallRecord: true, error: false }]);
    expect(mutating.records[0]!.reason).toContain('delete_node');
  });

  it('defaults the threshold to configure({ passThreshold })', () => {
    const below = row(forks, 'a configured threshold fails 3.5');
    expect(below.state).toBe('failed');
    expect(below.records).toMatchObject([{ score: 3.5, composite: 3.5, passThreshold: 4 }]);
    expect(failureThroughReason(forks, 'configured.test.js > a configured threshold fails 3.5')).toContain(
      'Threshold: composite >= 4',
    );
    const at = row(forks, 'a configured threshold passes 4');
    expect(at.state).toBe('passed');
    expect(at.records).toMatchObject([{ composite: 4, passThreshold: 4 }]);
  });
});

describe.each(['threads', 'vmThreads'])('the channel under pool %s', (pool) => {
  it('delivers concurrent records to the right tests and drops late ones', async () => {
    const run = await runFixture([`--pool=${pool}`, 'concurrent.test.js', 'timeout.test.js']);
    for (const id of ['c1', 'c2', 'c3', 'c4']) {
      expect(row(run, `concurrent > ${id}`).records.map((rec) => rec.question)).toEqual([id]);
    }
    expect(run.rows.flatMap((r) => r.records).filter((rec) => rec.question === 'late')).toEqual([]);
    expect(row(run, 'runs while the late grade lands').records).toHaveLength(1);
  });
});

describe('the channel through blob reports', () => {
  it('keeps the records when shard blobs are merged', async () => {
    const dir = makeProject('matchers-vitest-blob', {}, 'matchers-vitest');
    const blob = await runVitest(dir, [
      '--reporter=blob',
      '--outputFile=.vitest-reports/blob-1.json',
      'concurrent.test.js',
    ]);
    expect(blob.output).not.toContain('Error:');
    const merged = await runVitest(dir, ['--merge-reports', '--reporter=./record-reporter.js'], {
      RECORDS_OUT: join(dir, 'merged.json'),
    });
    expect(merged.code).toBe(0);
    const rows = readRows(join(dir, 'merged.json'));
    expect(rows.map((r) => [r.fullName, r.records.map((rec) => rec.question)])).toEqual(
      expect.arrayContaining([
        ['concurrent > c1', ['c1']],
        ['concurrent > c2', ['c2']],
        ['concurrent > c3', ['c3']],
        ['concurrent > c4', ['c4']],
      ]),
    );
  });
});
