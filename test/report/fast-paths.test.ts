import { describe, expect, it } from 'vitest';
import { compareNames } from '../../src/report/aggregate.js';
import { collect } from '../../src/report/collect.js';
import { weakestQuestions } from '../../src/report/headline.js';
import { gateSettings } from '../../src/report/options.js';
import { xmlEscape } from '../../src/report/render-junit.js';
import { recordProblem } from '../../src/report/side-channel.js';
import { recordedGrade, type EvalRecord } from '../../src/run/record-types.js';
import { FAQ, SUPPORT, fail, identity, rec, skip } from '../helpers/report-fixtures.js';

// The report's hot paths take shortcuts; each must give what the plain version gives.

/** xmlEscape as it was written first: every pass over every string. */
function plainXmlEscape(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the XML 1.0 character range names control characters
      .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

describe('xmlEscape', () => {
  it('escapes and drops exactly what the plain version does', () => {
    const samples = [
      '',
      'plain text, nothing to do',
      'a < b && c > "d" \'e\'',
      '&amp; already escaped stays escaped twice: &amp;',
      'tab\tnewline\ncarriage\rbell\u0007nul\u0000vt\u000bff\u000c',
      'pair \uD83D\uDE00 kept, lone \uD83D dropped, lone \uDE00 dropped',
      'noncharacters \uFFFE\uFFFF dropped, \uFFFD kept',
      '{"q":"topic 1"} met: search with {"page":0}',
      "&at the start, and at the end'",
      '"',
      'x<<>>y',
    ];
    for (const text of samples) expect(xmlEscape(text), JSON.stringify(text)).toBe(plainXmlEscape(text));
  });
});

describe('compareNames', () => {
  it('orders as localeCompare with en and numeric does', () => {
    const names = ['q10', 'q2', 'Q1', 'q1', 'a', 'B', 'b-2', 'b-10', 'é', 'e', 'z', '10', '9', ''];
    const plain = [...names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    expect([...names].sort(compareNames)).toEqual(plain);
  });
});

describe('weakestQuestions', () => {
  /** The weakest questions as a full sort gives them. */
  function plainWeakest(report: ReturnType<typeof collect>, count: number) {
    return report.targets
      .flatMap((target) =>
        target.questions
          .filter((q) => !q.passed || q.degraded || q.unscored)
          .map((question) => ({ target, question })),
      )
      .sort(
        (a, b) =>
          (a.question.composite ?? -1) - (b.question.composite ?? -1) ||
          a.target.name.localeCompare(b.target.name) ||
          a.question.id.localeCompare(b.question.id, 'en', { numeric: true }) ||
          a.question.test.file.localeCompare(b.question.test.file),
      )
      .slice(0, count);
  }

  it('picks the same questions in the same order as a full sort, ties included', () => {
    const records: EvalRecord[] = [];
    for (let i = 0; i < 60; i++) {
      const target = i % 2 === 0 ? SUPPORT : FAQ;
      const question = `q${i % 25}`;
      const file = `/p/test/f${i % 3}.test.ts`;
      const test = { file, name: `${target.name} > ${question}` };
      if (i % 11 === 0) records.push(skip(question, 'accuracy_judge', { target, test }));
      else if (i % 13 === 0) records.push(fail(question, 'accuracy_judge', { target, test }));
      else records.push(rec({ question, grader: 'accuracy_judge', score: i % 4, target, test }));
    }
    const report = collect(records, { identity, settings: gateSettings({}) });
    const ids = (list: ReturnType<typeof weakestQuestions>) =>
      list.map(({ target, question }) => `${target.name}/${question.id}/${question.test.file}`);
    expect(weakestQuestions(report, 200).length).toBeGreaterThan(10);
    for (const count of [0, 1, 3, 5, 10, 200])
      expect(ids(weakestQuestions(report, count)), `count ${count}`).toEqual(
        ids(plainWeakest(report, count)),
      );
  });
});

describe('recordProblem', () => {
  /** The grade fields as they were checked first: a loop over their names. */
  function plainFieldProblem(r: Record<string, unknown>): string | null {
    for (const key of ['question', 'grader', 'label', 'reason'])
      if (typeof r[key] !== 'string') return `$.${key}: expected a string`;
    for (const key of ['trial', 'min', 'max', 'passThreshold', 'at'])
      if (typeof r[key] !== 'number' || !Number.isFinite(r[key])) return `$.${key}: expected a number`;
    for (const key of ['score', 'composite'])
      if (r[key] !== null && (typeof r[key] !== 'number' || !Number.isFinite(r[key])))
        return `$.${key}: expected a number or null`;
    for (const key of ['error', 'skipped', 'llm', 'observesActions', 'toolCallRecord'])
      if (typeof r[key] !== 'boolean') return `$.${key}: expected true or false`;
    return null;
  }

  it('names the same first wrong field as the plain check, for every field and kind of wrong value', () => {
    const good = rec({
      question: 'q1',
      grader: 'read_only_run',
      score: 1,
      target: SUPPORT,
    }) as unknown as Record<string, unknown>;
    expect(recordProblem(good)).toBeNull();
    const fields = [
      'question',
      'grader',
      'label',
      'reason',
      'trial',
      'min',
      'max',
      'passThreshold',
      'at',
      'score',
      'composite',
      'error',
      'skipped',
      'llm',
      'observesActions',
      'toolCallRecord',
    ];
    let checked = 0;
    for (const field of fields) {
      for (const bad of [undefined, null, 'x', 1, Number.NaN, Infinity, true, {}]) {
        const broken = { ...good, [field]: bad };
        expect(recordProblem(broken), `${field} = ${JSON.stringify(bad) ?? 'undefined'}`).toBe(
          plainFieldProblem(broken),
        );
        if (plainFieldProblem(broken) !== null) checked++;
      }
      // Two wrong fields: the first one in the plain order is named.
      const two = { ...good, [field]: Symbol('bad'), toolCallRecord: 'no' };
      expect(recordProblem(two)).toBe(plainFieldProblem(two));
    }
    expect(checked).toBeGreaterThan(fields.length * 4);
  });
});

describe('recordedGrade', () => {
  /** The grade part as it was taken first: a loop over the key names, then the rare keys. */
  function plainRecordedGrade(from: EvalRecord): Record<string, unknown> {
    const keys = ['grader', 'label', 'trial', 'score', 'min', 'max', 'composite', 'reason', 'error'].concat([
      'skipped',
      'llm',
      'observesActions',
      'toolCallRecord',
    ]) as Array<keyof EvalRecord>;
    const grade: Record<string, unknown> = {};
    for (const key of keys) grade[key] = from[key];
    if (from.usage) grade.usage = { ...from.usage };
    if (from.judgeCall) grade.judgeCall = { ...from.judgeCall };
    if (from.negated) grade.negated = true;
    if (from.unverified) grade.unverified = true;
    if (from.queriedState) grade.queriedState = true;
    if (from.rubric) grade.rubric = { ...from.rubric };
    return grade;
  }

  it('takes the same keys, in the same order, with copies of the nested objects', () => {
    const plain = rec({ question: 'q1', grader: 'read_only_run' });
    const full: EvalRecord = {
      ...rec({ question: 'q2', grader: 'relevance_grader', llm: true, score: null }),
      usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 },
      judgeCall: { source: 'cache', outcome: 'scored' },
      negated: true,
      unverified: true,
      queriedState: true,
      rubric: { id: 'house', version: '1.0.0' },
    };
    for (const record of [plain, full]) {
      const grade = recordedGrade(record);
      expect(JSON.stringify(grade)).toBe(JSON.stringify(plainRecordedGrade(record)));
      if (record.rubric) expect(grade.rubric).not.toBe(record.rubric);
    }
  });
});
