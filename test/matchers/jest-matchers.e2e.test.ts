import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jestRecords, jestTest, readJestResults, runJestFixture, type JestRun } from '../helpers/jest-run.js';
import { makeProject, runJest } from '../helpers/project.js';

/** Runs the matchers-jest fixture, with `files` written over it, and reads back results and records. */
function runFixture(files: Record<string, string>, args: string[], options: { esm?: boolean } = {}) {
  return runJestFixture(makeProject('matchers-jest', files, 'matchers-jest'), args, options);
}

const test = (run: JestRun, file: string, fullName: string) => jestTest(run, fullName, file);
const recordsOf = (run: JestRun, file: string, fullName: string) => jestRecords(run, fullName, file);

/** The failure message Jest printed for one test, through its `Reason:` line. */
function failureOf(run: JestRun, file: string, fullName: string): string {
  const [message = ''] = test(run, file, fullName).failureMessages;
  const lines = message.split('\n');
  return lines.slice(0, lines.findIndex((line) => line.startsWith('Reason:')) + 1).join('\n');
}

describe('toPassGrader and toScoreAtLeast in a real Jest run (CJS, ts-jest)', () => {
  let run: JestRun;
  beforeAll(async () => {
    run = await runFixture({}, ['--config', 'jest.config.cjs', '--runInBand']);
  });

  it('passes and fails on the composite, and .not inverts only a real verdict', () => {
    const file = 'cjs/verdicts.test.ts';
    const status = (name: string): string => test(run, file, name).status;
    expect(status('verdicts passes at the threshold')).toBe('passed');
    expect(status('verdicts fails below the threshold')).toBe('failed');
    expect(status('verdicts not passes below the threshold')).toBe('passed');
    expect(status('verdicts not fails at the threshold')).toBe('failed');
    expect(status('verdicts toScoreAtLeast passes')).toBe('passed');
    expect(status('verdicts toScoreAtLeast fails')).toBe('failed');
    expect(status('no verdict a skip fails')).toBe('failed');
    expect(status('no verdict a skip fails under not')).toBe('failed');
    expect(status('no verdict an error fails under not')).toBe('failed');
    expect(status('agent runs and misuse a read-only agent run')).toBe('passed');
    expect(status('agent runs and misuse misuse is a TypeError')).toBe('passed');
  });

  it('prints the same message shape as under Vitest', () => {
    expect(failureOf(run, 'cjs/verdicts.test.ts', 'verdicts fails below the threshold'))
      .toMatchInlineSnapshot(`
      "Error: expect(received).toPassGrader(grader)

      Expected the grade to reach the threshold, but it fell short.

      Grader:    From metadata (0-5)
      Score:     2 (composite 2 of 5)
      Threshold: composite >= 3.5
      Reason:    scored 2 for "hello""
    `);
    expect(failureOf(run, 'cjs/verdicts.test.ts', 'no verdict an error fails under not'))
      .toMatchInlineSnapshot(`
      "Error: expect(received).not.toPassGrader(grader)

      The grader could not grade the response, so nothing was checked. An error never passes, not even under .not.

      Grader:    From metadata (0-5)
      Score:     error (no score)
      Threshold: composite >= 3.5
      Reason:    could not reach the judge: timeout"
    `);
    expect(
      test(run, 'cjs/verdicts.test.ts', 'agent runs and misuse unknown grader').failureMessages[0],
    ).toContain("TypeError: toPassGrader: unknown grader 'no_such_grader'. Known graders: read_only_run,");
  });

  it('writes one JSON line per grade, joined to the test by path and full name', () => {
    const file = 'cjs/verdicts.test.ts';
    const graded = run.tests.filter(
      (t) => !['unknown grader', 'misuse is a TypeError'].includes(t.title) && t.file === join(run.dir, file),
    );
    expect(graded.length).toBe(10);
    for (const t of graded) expect(recordsOf(run, file, t.fullName), t.fullName).toHaveLength(1);
    expect(recordsOf(run, file, 'verdicts passes at the threshold')[0]).toMatchObject({
      v: 2,
      question: 'passes at the threshold',
      trial: 1,
      grader: 'from_metadata',
      score: 3.5,
      composite: 3.5,
      passThreshold: 3.5,
      target: null,
    });
    expect(recordsOf(run, file, 'agent runs and misuse a read-only agent run')[0]).toMatchObject({
      question: 'list-articles',
      toolCallRecord: true,
      target: { name: 'support-bot', mode: 'agent', graders: ['read_only_run'] },
    });
    expect(recordsOf(run, file, 'agent runs and misuse unknown grader')).toEqual([]);
  });

  it('attributes test.concurrent grades to their own tests', () => {
    for (const id of ['c1', 'c2', 'c3', 'c4']) {
      expect(recordsOf(run, 'cjs/concurrent.test.cjs', `concurrent ${id}`).map((r) => r.question)).toEqual([
        id,
      ]);
    }
  });

  it('drops a grade that lands after its test timed out', () => {
    expect(test(run, 'cjs/timeout.test.cjs', 'times out while grading').status).toBe('failed');
    expect(run.records.filter((r) => r.question === 'late')).toEqual([]);
    expect(
      recordsOf(run, 'cjs/timeout.test.cjs', 'runs while the late grade lands').map((r) => r.question),
    ).toEqual(['on-time']);
  });
});

/**
 * 22 test files (Jest runs in band with 20 or fewer) of two `test.concurrent` tests each: `slow`
 * grades question `<id>-slow` after a delay, `fast` grades `<id>-fast` at once.
 */
function workerFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let n = 1; n <= 22; n++) {
    const id = `w${String(n).padStart(2, '0')}`;
    files[`cjs/workers/${id}.test.cjs`] = [
      `describe('${id}', () => {`,
      `  test.concurrent('slow', async () => {`,
      `    await expect('a').toPassGrader('from_metadata', { question: { id: '${id}-slow', metadata: { score: ${n % 6}, delay: 30 } } });`,
      `  });`,
      `  test.concurrent('fast', async () => {`,
      `    await expect('b').toPassGrader('from_metadata', { question: { id: '${id}-fast', metadata: { score: 5 } } });`,
      `  });`,
      `});`,
    ].join('\n');
  }
  return files;
}

describe('the Jest side channel across several workers', () => {
  it('keeps every record of every worker attributed to its test', async () => {
    const run = await runFixture(workerFiles(), [
      '--config',
      'jest.config.cjs',
      '--maxWorkers=2',
      'cjs/workers',
    ]);
    expect(run.tests).toHaveLength(44);
    expect(new Set(run.tests.map((t) => `${t.file}|${t.fullName}`)).size).toBe(44);
    expect(new Set(run.records.map((r) => r.channelFile)).size).toBeGreaterThanOrEqual(2);
    expect(run.records).toHaveLength(44);
    for (const t of run.tests) {
      const id = t.file.split('/').pop()!.replace('.test.cjs', '');
      const mine = run.records.filter((r) => r.test.file === t.file && r.test.name === t.fullName);
      expect(
        mine.map((r) => r.question),
        `${t.file}|${t.fullName}`,
      ).toEqual([`${id}-${t.title}`]);
    }
  });
});

describe('the Jest side channel across several workers, through the ai-eval reporter', () => {
  it('files every question of every worker under its own test in the report', async () => {
    const expected = new Map<string, { file: string; name: string }>();
    for (const file of Object.keys(workerFiles())) {
      const id = file.split('/').pop()!.replace('.test.cjs', '');
      for (const title of ['slow', 'fast']) expected.set(`${id}-${title}`, { file, name: `${id} ${title}` });
    }
    const dir = makeProject('matchers-jest-workers', workerFiles(), 'matchers-jest');
    // No AI_EVAL_CHANNEL_DIR from the test: the reporter makes the channel and tells the workers.
    const result = await runJest(
      dir,
      [
        '--config',
        'jest.reporter.config.cjs',
        '--maxWorkers=2',
        '--json',
        '--outputFile=results.json',
        'cjs/workers',
      ],
      { AI_EVAL_CHANNEL_DIR: undefined },
    );
    const jest = readJestResults(dir);
    expect(jest.numTotalTests, result.output).toBe(44);
    expect(existsSync(join(dir, 'ai-eval.json')), result.output).toBe(true);
    const report = JSON.parse(readFileSync(join(dir, 'ai-eval.json'), 'utf8')) as {
      targets: {
        name: string;
        questions: { id: string; test: { file: string; name: string }; grades: { grader: string }[] }[];
      }[];
    };
    const questions = report.targets.flatMap((t) => t.questions);
    expect(questions).toHaveLength(44);
    const got = new Map(questions.map((q) => [q.id, q.test]));
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, test] of expected) {
      expect(got.get(id), id).toEqual(test);
    }
    for (const q of questions)
      expect(
        q.grades.map((g) => g.grader),
        q.id,
      ).toEqual(['from_metadata']);
  });
});

describe('toPassGrader in a real Jest run (native ESM)', () => {
  it('registers from an ESM setup file and attributes concurrent tests', async () => {
    const run = await runFixture({}, ['--config', 'jest.esm.config.cjs'], { esm: true });
    const file = 'esm/verdicts.test.mjs';
    expect(test(run, file, 'esm verdicts passes').status).toBe('passed');
    expect(test(run, file, 'esm verdicts fails').status).toBe('failed');
    expect(test(run, file, 'esm verdicts an error fails').status).toBe('failed');
    expect(test(run, file, 'esm verdicts not passes below the threshold').status).toBe('passed');
    expect(test(run, file, 'esm verdicts not fails at the threshold').status).toBe('failed');
    expect(test(run, file, 'esm verdicts a skip fails under not').status).toBe('failed');
    expect(failureOf(run, file, 'esm verdicts an error fails')).toContain(
      'Reason:    could not reach the judge: timeout',
    );
    expect(failureOf(run, file, 'esm verdicts not fails at the threshold')).toContain(
      'Threshold: composite < 3.5',
    );
    expect(failureOf(run, file, 'esm verdicts fails')).toContain('Score:     1 (composite 1 of 5)');
    expect(recordsOf(run, file, 'esm verdicts concurrent one').map((r) => r.question)).toEqual(['one']);
    expect(recordsOf(run, file, 'esm verdicts concurrent two').map((r) => r.question)).toEqual(['two']);
    expect(recordsOf(run, file, 'esm verdicts not passes below the threshold')).toMatchObject([
      { score: 1, negated: true },
    ]);
    expect(run.records).toHaveLength(8);
  });
});

describe('without the ai-eval reporter', () => {
  it('writes nothing when AI_EVAL_CHANNEL_DIR is unset', async () => {
    const dir = makeProject('matchers-jest-nochannel', {}, 'matchers-jest');
    const result = await runJest(dir, ['--config', 'jest.config.cjs', 'cjs/concurrent'], {
      AI_EVAL_CHANNEL_DIR: undefined,
    });
    expect(result.code).toBe(0);
    expect(readdirSync(dir).filter((name) => name.includes('channel') || name.endsWith('.jsonl'))).toEqual(
      [],
    );
  });
});
