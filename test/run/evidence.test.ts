import { describe, expect, it } from 'vitest';
import { readOnlyRun } from '../../src/graders/read-only-run.js';
import { toolUsageGrader } from '../../src/graders/tool-usage.js';
import { collect } from '../../src/report/collect.js';
import { gateSettings } from '../../src/report/options.js';
import { mergeReports } from '../../src/report/merge.js';
import { defineGrader } from '../../src/grading/define-grader.js';
import { gradeQuestion } from '../../src/run/grade-question.js';
import { safeRecords, toRecords } from '../../src/run/record.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { hasFastProperties } from '../helpers/fast-properties.js';
import { identity as runIdentity } from '../helpers/report-fixtures.js';

const identity = { file: '/repo/a.test.ts', name: 'suite > q1', title: 'q1', isRunning: () => true };
const graders = [readOnlyRun, toolUsageGrader];

async function recordsOf(
  response: Parameters<typeof gradeQuestion>[0]['response'],
  trial = 1,
): Promise<EvalRecord[]> {
  const result = await gradeQuestion({
    question: { id: 'q1', expected_tools: ['get_node'] },
    response,
    graders,
  });
  return toRecords(result, graders, { identity, target: null, question: 'q1', trial, response });
}

describe('evidence: what the graders were shown, kept for the report', () => {
  it('goes on the first record of a trial only: the response text and the tool-call record', async () => {
    const records = await recordsOf({
      output: 'Node 7 is titled Pricing.',
      toolCalls: [{ function_name: 'get_node', arguments: { id: 7 }, status: 'ok' }],
    });
    expect(records).toHaveLength(2);
    expect(records[0]!.evidence).toEqual({
      response: 'Node 7 is titled Pricing.',
      toolCalls: [{ name: 'get_node', arguments: { id: 7 }, status: 'ok' }],
    });
    expect(records[1]!.evidence).toBeUndefined();
  });

  it('keeps no record apart from an empty one: null when none came, [] when the agent called nothing', async () => {
    expect((await recordsOf('plain text'))[0]!.evidence).toEqual({ response: 'plain text', toolCalls: null });
    expect((await recordsOf({ output: 'nothing to do', toolCalls: [] }))[0]!.evidence).toEqual({
      response: 'nothing to do',
      toolCalls: [],
    });
  });

  it('caps a long response and the number of calls, and redacts secrets on the way out', async () => {
    const calls = Array.from({ length: 130 }, (_, i) => ({
      function_name: 'get_node',
      arguments: { id: i, api_key: 'sk-live-0123456789abcdef0123' },
    }));
    const [first] = await recordsOf({
      output: `${'word '.repeat(1000)}Bearer abcdefghijklmnop0123`,
      toolCalls: calls,
    });
    expect(first!.evidence!.toolCalls).toHaveLength(100);
    expect(first!.evidence!.omittedCalls).toBe(30);
    expect(first!.evidence!.response!.length).toBeLessThanOrEqual(2000);
    // Redacted as the record is built: the channels send toRecords' records as they are.
    expect(JSON.stringify(first!.evidence)).not.toContain('sk-live-0123456789abcdef0123');
    expect(first!.evidence!.toolCalls![0]!.arguments).toEqual({ id: 0, api_key: '[redacted]' });
    expect(safeRecords([first!])[0]).toBe(first);
  });

  it('copies and redacts any other grade record on the way out (safeRecords)', async () => {
    const [built] = await recordsOf({ output: 'ok', toolCalls: [] });
    // A record that did not come from toRecords (read back, made by hand): nothing vouches for it.
    const foreign: EvalRecord = {
      ...built!,
      reason: 'sent api_key=abc123def to the tool',
      evidence: {
        response: 'token: Bearer abcdefghijklmnop0123',
        toolCalls: [{ name: 'call', arguments: { password: 'hunter22' } }],
      },
    };
    const [safe] = safeRecords([foreign]) as EvalRecord[];
    expect(safe).not.toBe(foreign);
    expect(safe!.reason).toBe('sent api_key=[redacted] to the tool');
    expect(JSON.stringify(safe!.evidence)).not.toMatch(/abcdefghijklmnop0123|hunter22/);
    expect(foreign.reason).toBe('sent api_key=abc123def to the tool');
    expect(hasFastProperties(safe!)).toBe(true);
  });

  it('leaves the worker as records of their own shape, not hash tables (toRecords, safeRecords)', async () => {
    // A generated suite's record has 22 properties; copied with Object.assign({}, record) V8 turns
    // the copy into a hash table, which the Vitest worker keeps on task.meta for the whole run (7 MB
    // more heap at 2,000 questions) and serialises more slowly to the reporter.
    const response = { output: 'ok', toolCalls: [{ function_name: 'get_node', arguments: {} }] };
    const result = await gradeQuestion({
      question: { id: 'q1', expected_tools: ['get_node'] },
      response,
      graders,
    });
    const dataset = { ref: 'file:datasets/q.yaml', hash: 'ab0ab1fdfe37' };
    const records = toRecords(result, graders, {
      identity,
      target: null,
      question: 'q1',
      trial: 1,
      response,
      dataset,
    });
    expect(Object.keys(records[0]!)).toHaveLength(22);
    expect(records.every((r) => hasFastProperties(r))).toBe(true);
    // Copies of such records (safeRecords copies records it did not see built) keep their shape too.
    const safe = safeRecords(records.map((r) => ({ ...r }))) as EvalRecord[];
    expect(safe[0]).not.toBe(records[0]);
    expect(safe.map((r) => hasFastProperties(r))).toEqual(records.map(() => true));
    expect(hasFastProperties(safe[0]!.evidence!)).toBe(true);
  });

  it('reaches the report per trial, and survives a merge of shards', async () => {
    const records = [
      ...(await recordsOf({ output: 'first try', toolCalls: [] }, 1)),
      ...(await recordsOf(
        { output: 'second try', toolCalls: [{ function_name: 'get_node', arguments: {} }] },
        2,
      )),
    ];
    const report = collect(records, { identity: runIdentity, settings: gateSettings({}) });
    const question = report.targets[0]!.questions[0]!;
    expect(question.evidence).toEqual([
      { trial: 1, response: 'first try', toolCalls: [] },
      { trial: 2, response: 'second try', toolCalls: [{ name: 'get_node', arguments: {} }] },
    ]);
    const merged = mergeReports([report]);
    expect(merged.targets[0]!.questions[0]!.evidence).toEqual(question.evidence);
  });
});

describe('a reason is made safe once, and again whenever it was replaced', () => {
  const SECRET = 'password: hunter2-very-secret';
  // A grader that edits the grade its result() built: the reason it puts in was never redacted.
  const editing = (edit: (grade: { reason: string }) => void) =>
    defineGrader({
      id: 'editing_grader',
      label: 'Editing',
      grade(_i, _r, _c, { result }) {
        const grade = result(5, 'fine');
        edit(grade);
        return grade;
      },
    });

  it('redacts a reason put on a grade after result() built it, in the grade and in its record', async () => {
    const grader = editing((grade) => {
      grade.reason = `now it says ${SECRET}`;
    });
    const result = await gradeQuestion({ question: { id: 'q1' }, response: 'x', graders: [grader] });
    expect(result.grades[0]!.reason).toBe('now it says password: [redacted]');
    // The record of a grade whose reason is replaced after grading is redacted as it is built.
    result.grades[0]!.reason = `later ${SECRET}`;
    const [record] = toRecords(result, [grader], { identity, target: null, question: 'q1', trial: 1 });
    expect(record!.reason).toBe('later password: [redacted]');
  });

  it('keeps a reason result() made safe as it is, through restamp and record', async () => {
    const grader = editing(() => undefined);
    const secret = defineGrader({
      id: 'secret_grader',
      label: 'Secret',
      grade: (_i, _r, _c, { result }) => result(1, `saw ${SECRET}`),
    });
    const result = await gradeQuestion({ question: { id: 'q1' }, response: 'x', graders: [grader, secret] });
    expect(result.grades.map((g) => g.reason)).toEqual(['fine', 'saw password: [redacted]']);
    const records = toRecords(result, [grader, secret], { identity, target: null, question: 'q1', trial: 1 });
    expect(records.map((r) => r.reason)).toEqual(['fine', 'saw password: [redacted]']);
  });
});
