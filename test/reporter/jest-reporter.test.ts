import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AiEvalJestReporter, {
  type JestAggregatedResultLike,
  type JestTestFileResultLike,
} from '../../reporter/jest.js';
import { PrebuiltQuestions } from '../../src/report/aggregate.js';
import { CHANNEL_DIR_ENV } from '../../src/report/side-channel.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { rec } from '../helpers/report-fixtures.js';

// The reporter class in-process (tests that start Jest itself: jest.e2e.test.ts and others).

const before = process.env[CHANNEL_DIR_ENV];
afterEach(() => {
  vi.restoreAllMocks();
  if (before === undefined) delete process.env[CHANNEL_DIR_ENV];
  else process.env[CHANNEL_DIR_ENV] = before;
});

const FILES = { a: '/repo/test/a.test.ts', b: '/repo/test/b.test.ts' };

/** A record of `question` in test file `file`, graded `score` by read_only_run. */
function record(file: string, question: string, score = 5): EvalRecord {
  return rec({ question, grader: 'read_only_run', score, test: { file, name: `suite > ${question}` } });
}
const line = (r: EvalRecord) => `${JSON.stringify(r)}\n`;

/** Jest's result of a test file whose tests are `questions`. */
function fileResult(file: string, questions: string[]): JestTestFileResultLike {
  return {
    testFilePath: file,
    testResults: questions.map((q) => ({
      fullName: `suite ${q}`,
      title: q,
      ancestorTitles: ['suite'],
      duration: 3,
    })),
  };
}

/** The report of a reporter, without what differs from one run to the next. */
function content(reporter: AiEvalJestReporter): unknown {
  const report = reporter.lastResult?.report;
  return { ...report, timestamp: undefined };
}

describe('the Jest reporter, as test files finish', () => {
  it('builds each finished file’s questions while others run, and reports what one read at the end reports', () => {
    const a = [record(FILES.a, 'a1'), record(FILES.a, 'a2', 1), record(FILES.a, 'a1', 3)];
    const b = [record(FILES.b, 'b1'), record(FILES.b, 'b2', 0)];
    const stray = record(FILES.a, 'not reported by Jest');
    const results: JestAggregatedResultLike = {
      numFailedTests: 0,
      testResults: [fileResult(FILES.a, ['a1', 'a2']), fileResult(FILES.b, ['b1', 'b2'])],
    };
    const take = vi.spyOn(PrebuiltQuestions.prototype, 'take');

    // Two workers, each with its own channel file; b's worker is part way through a line.
    const live = new AiEvalJestReporter({ rootDir: '/repo' }, { failOnError: false });
    live.onRunStart();
    const workerA = join(live.channelDir, 'records-101.jsonl');
    const workerB = join(live.channelDir, 'records-102.jsonl');
    writeFileSync(workerA, a.map(line).join('') + line(stray));
    const b1 = line(b[0]!);
    writeFileSync(workerB, b1.slice(0, 30));
    live.onTestResult(undefined, results.testResults[0]!);
    appendFileSync(workerB, b1.slice(30) + line(b[1]!));
    live.onTestResult(undefined, results.testResults[1]!);
    live.onRunComplete(undefined, results);
    // Every question came from what was built as its file finished.
    const taken = take.mock.results.filter((r) => r.value !== undefined);
    expect(taken).toHaveLength(4);

    // The same channel read once at the end gives the same report.
    const once = new AiEvalJestReporter({ rootDir: '/repo' }, { failOnError: false });
    once.onRunStart();
    writeFileSync(join(once.channelDir, 'records-101.jsonl'), a.map(line).join('') + line(stray));
    writeFileSync(join(once.channelDir, 'records-102.jsonl'), b1 + line(b[1]!));
    once.onRunComplete(undefined, results);
    expect(content(live)).toEqual(content(once));
    const report = live.lastResult!.report;
    expect(report.targets[0]!.questions.map((q) => q.id)).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(report.questionCount).toBe(4);
  });

  it('starts a watch-mode run afresh: nothing read or built in the last one is reused', () => {
    const results: JestAggregatedResultLike = { testResults: [fileResult(FILES.a, ['a1'])] };
    const reporter = new AiEvalJestReporter({ rootDir: '/repo' }, { failOnError: false });
    reporter.onRunStart();
    writeFileSync(join(reporter.channelDir, 'records-1.jsonl'), line(record(FILES.a, 'a1', 0)));
    reporter.onTestResult(undefined, results.testResults[0]!);
    reporter.onRunComplete(undefined, results);
    expect(reporter.lastResult!.report.targets[0]!.questions[0]!.composite).toBe(0);
    // The next run writes a new channel file of the same name.
    reporter.onRunStart();
    writeFileSync(join(reporter.channelDir, 'records-1.jsonl'), line(record(FILES.a, 'a1', 5)));
    reporter.onTestResult(undefined, results.testResults[0]!);
    reporter.onRunComplete(undefined, results);
    expect(reporter.lastResult!.report.targets[0]!.questions[0]!.composite).toBe(5);
    expect(reporter.lastResult!.report.questionCount).toBe(1);
  });
});
