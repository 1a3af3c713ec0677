import { describe, expect, it } from 'vitest';
import { collect } from '../../src/report/collect.js';
import { gateSettings } from '../../src/report/options.js';
import { reportJson, reportJsonChunks } from '../../src/report/report-json.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { identity, rec } from '../helpers/report-fixtures.js';

function report(count: number) {
  const records: EvalRecord[] = [];
  for (let i = 1; i <= count; i++) {
    records.push(
      rec({ question: `q${i}`, grader: 'tool_usage_grader', score: i % 6, reason: `reason ${i}` }),
    );
    records.push(rec({ question: `q${i}`, grader: 'read_only_run', score: 1, min: 0, max: 1 }));
  }
  return collect(records, { identity, settings: gateSettings({ gate: { level: 'hard', minAverage: 4 } }) });
}

describe('reportJson: the JSON report file', () => {
  it('holds the same JSON as the report', () => {
    const r = report(30);
    expect(JSON.parse(reportJson(r))).toEqual(JSON.parse(JSON.stringify(r)));
    expect(reportJson(r).endsWith('}\n')).toBe(true);
  });

  it("writes each of a target's questions on one line, and indents the rest as before", () => {
    const r = report(30);
    const lines = reportJson(r).split('\n');
    const questions = lines.filter((l) => l.trimStart().startsWith('{"id":'));
    expect(questions).toHaveLength(30);
    for (const [i, line] of questions.entries()) {
      expect(line.startsWith('        {"id":')).toBe(true);
      expect(JSON.parse(line.trim().replace(/,$/, ''))).toEqual(r.targets[0]!.questions[i]);
    }
    // Down to the target, the layout is JSON.stringify's with two spaces.
    const indented = JSON.stringify(r, null, 2).split('\n');
    const upToQuestions = indented.indexOf('      "questions": [');
    expect(upToQuestions).toBeGreaterThan(0);
    expect(lines.slice(0, upToQuestions + 1)).toEqual(indented.slice(0, upToQuestions + 1));
  });

  it('is JSON.stringify(value, null, 2) where no list lies below a target', () => {
    const value = {
      a: 1,
      b: [1, { c: 'x', d: [] }, [2, 3]],
      e: {},
      f: { g: null, h: { i: [true, 'x'] } },
    };
    expect(reportJson(value as never)).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it('leaves out and writes null for what JSON.stringify does, and follows toJSON', () => {
    const value = {
      gone: undefined,
      fn: () => 1,
      list: [undefined, () => 1, 'kept'],
      deep: { deeper: { list: [undefined, { when: new Date(0), gone: undefined }] } },
      when: new Date(0),
    };
    const text = reportJson(value as never);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
    expect(text).toContain('{"when":"1970-01-01T00:00:00.000Z"}');
  });

  it('comes in pieces of about 64 KB that make the same text', () => {
    const r = report(2000);
    const chunks = [...reportJsonChunks(r)];
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.join('')).toBe(reportJson(r));
    expect(JSON.parse(chunks.join(''))).toEqual(JSON.parse(JSON.stringify(r)));
    // A piece ends after a whole entry, once the text passes 64 KB.
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(65536);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeLessThan(65536 + 2000);
  });

  it('is about half the size of the fully indented report', () => {
    const r = report(200);
    expect(reportJson(r).length).toBeLessThan(0.6 * JSON.stringify(r, null, 2).length);
  });
});
