import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { mergeReports } from '../../src/report/merge.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { checkRecords } from '../../src/report/side-channel.js';
import { finishRun } from '../../src/report/write.js';
import type { AiEvalRecord } from '../../src/run/record-types.js';
import { disabledRecord } from '../../src/run/record.js';
import { rec, SUPPORT } from '../helpers/report-fixtures.js';
import { validateReport } from '../helpers/report-schema.js';
import { tempDir } from '../helpers/temp.js';

/** Records of one suite in a project at `root`: two graded questions and a disabled one. */
function recordsAt(root: string): AiEvalRecord[] {
  const test = (name: string) => ({ file: join(root, 'test/support.test.ts'), name });
  return [
    { ...rec({ question: 'q1', grader: 'tool_usage_grader', score: 5 }), test: test('support > q1') },
    { ...rec({ question: 'q2', grader: 'tool_usage_grader', score: 1 }), test: test('support > q2') },
    disabledRecord(
      {
        test: test('support > old-question'),
        target: SUPPORT,
        suite: 'support',
        ref: 'file:evals/support.yaml',
      },
      'old-question',
    ),
  ];
}

function run(shard?: { index: number; count: number }) {
  const dir = tempDir('ai-eval-junit-');
  const durations = new Map([
    [`${join(dir, 'test/support.test.ts')}\u0000support > q1`, 1234.4],
    [`${join(dir, 'test/support.test.ts')}\u0000support > q2`, 56],
  ]);
  const result = finishRun(
    recordsAt(dir),
    { outputFile: 'r.json', junitFile: 'r.xml' },
    {
      root: dir,
      print: () => undefined,
      env: {},
      durationOf: (t) => durations.get(`${t.file}\u0000${t.name}`),
      ...(shard ? { shard } : {}),
    },
  );
  expect(result.failure).toBeNull();
  return { dir, result };
}

describe('JUnit from real durations, with disabled questions as skipped testcases', () => {
  it('gives each testcase the time its test ran, and its testsuite their sum', () => {
    const { result } = run();
    const q = result.report.targets[0]?.questions ?? [];
    expect(q.map((x) => [x.id, x.durationMs])).toEqual([
      ['q1', 1234],
      ['q2', 56],
    ]);
    const xml = renderJunit(result.report);
    expect(xml).toContain(
      '<testcase classname="support-bot" name="q1" file="test/support.test.ts" time="1.234">',
    );
    expect(xml).toContain(
      '<testcase classname="support-bot" name="q2" file="test/support.test.ts" time="0.056">',
    );
    expect(xml).toMatch(/<testsuite name="support-bot" [^>]*time="1\.290"/);
    expect(xml).not.toMatch(/name="q\d" file="[^"]*" time="0"/);
  });

  it('lists a disabled question as a <skipped/> testcase, counted as skipped, outside every figure', () => {
    const { result } = run();
    expect(result.report.disabled).toEqual([
      {
        target: 'support-bot',
        suite: 'support',
        dataset: 'file:evals/support.yaml',
        question: 'old-question',
        test: { file: 'test/support.test.ts', name: 'support > old-question' },
      },
    ]);
    expect(result.report.questionCount).toBe(2);
    expect(result.report.coverage.planned).toBe(2);
    const xml = renderJunit(result.report);
    expect(xml).toContain(
      '<testcase classname="support-bot" name="old-question" file="test/support.test.ts" time="0">\n      <skipped message="disabled in dataset file:evals/support.yaml"/>',
    );
    expect(xml).toMatch(/<testsuite name="support-bot" tests="3" failures="1" errors="0" skipped="1"/);
    expect(xml).toMatch(/<testsuites name="ai-eval" tests="\d+" failures="\d+" errors="0" skipped="1"/);
  });

  it('writes both into the JSON report, valid against its schema, and keeps them through ai-eval merge', () => {
    const one = run({ index: 1, count: 2 });
    const written = JSON.parse(readFileSync(join(one.dir, 'r-1-of-2.json'), 'utf8')) as EvalReport;
    expect(validateReport(written), JSON.stringify(validateReport.errors)).toBe(true);
    const second = {
      ...written,
      partial: { reason: 'shard' as const, shard: { index: 2, count: 2 } },
      targets: [],
      disabled: [],
    };
    const merged = mergeReports([written, second], { now: new Date(), names: ['a.json', 'b.json'] });
    expect(merged.disabled?.map((d) => d.question)).toEqual(['old-question']);
    expect(merged.targets[0]?.questions.map((q) => q.durationMs)).toEqual([1234, 56]);
  });

  it('reads disabled records off the channel, and names what is wrong with a bad one', () => {
    const disabled = recordsAt('/project')[2] as AiEvalRecord;
    const read = checkRecords([disabled, { ...disabled, question: 3 }], 'a.test.ts');
    expect(read.records).toHaveLength(1);
    expect(read.problems).toEqual(['a.test.ts: record 1 skipped, $[1].question: expected a string']);
  });
});
