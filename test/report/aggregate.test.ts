import { describe, expect, it } from 'vitest';
import { groupRecords, PrebuiltQuestions, totalsOf } from '../../src/report/aggregate.js';
import { FAQ, fail, rec, skip } from '../helpers/report-fixtures.js';

describe('groupRecords', () => {
  it('takes a question composite as the mean of the non-null composites and passes it at the threshold', () => {
    const [target] = groupRecords([
      rec({ question: 'q1', grader: 'tool_usage_grader', score: 1, min: 0, max: 1 }),
      rec({ question: 'q1', grader: 'accuracy_judge', score: 2 }),
      skip('q1', 'format_grader'),
      rec({ question: 'q2', grader: 'accuracy_judge', score: 3.5 }),
    ]);
    const [q1, q2] = target!.questions;
    expect(q1).toMatchObject({ id: 'q1', composite: 3.5, passed: true, degraded: false, unscored: false });
    expect(q1!.grades).toHaveLength(3);
    expect(q2).toMatchObject({ composite: 3.5, passed: true });
  });

  it('marks a question degraded when a grader errored and unscored (not passed) when nothing scored', () => {
    const [target] = groupRecords([
      rec({ question: 'q1', grader: 'accuracy_judge', score: 5 }),
      fail('q1', 'tool_usage_grader'),
      skip('q2', 'accuracy_judge'),
      fail('q2', 'tool_usage_grader'),
    ]);
    expect(target!.questions[0]).toMatchObject({ composite: 5, passed: false, degraded: true });
    expect(target!.questions[1]).toMatchObject({
      composite: null,
      passed: false,
      degraded: true,
      unscored: true,
    });
  });

  it('keeps negated assertions apart from the questions, each with its own verdict', () => {
    const [target] = groupRecords([
      rec({ question: 'q1', grader: 'read_only_run', score: 1, min: 0, max: 1 }),
      rec({ question: 'q1', grader: 'read_only_run', score: 0, min: 0, max: 1, negated: true }),
      rec({ question: 'q2', grader: 'read_only_run', score: 0, min: 0, max: 1, negated: true }),
      rec({ question: 'q3', grader: 'read_only_run', score: 1, min: 0, max: 1, negated: true }),
      fail('q4', 'read_only_run', { negated: true }),
    ]);
    // Only q1 is a question: a test of nothing but negated assertions adds none.
    expect(target!.questions.map((q) => [q.id, q.composite, q.passed])).toEqual([['q1', 5, true]]);
    expect(target!.questions[0]!.grades.map((g) => g.negated ?? false)).toEqual([false]);
    expect(target!.negated.map((n) => [n.question, n.composite, n.passed])).toEqual([
      ['q1', 0, true], // the grader failed: the .not assertion passed
      ['q2', 0, true],
      ['q3', 5, false], // the grader passed: the .not assertion failed
      ['q4', null, false], // no verdict passes nothing
    ]);
    expect(totalsOf(target!.questions)).toMatchObject({ questionCount: 1, passRate: 1 });
  });

  it('names a target after the test file (relative to the root) when the record has none', () => {
    const groups = groupRecords(
      [
        rec({
          question: 'bare',
          grader: 'accuracy_judge',
          target: null,
          test: { file: '/repo/test/a.test.ts', name: 'bare' },
        }),
        rec({ question: 'q1', grader: 'accuracy_judge', target: FAQ }),
      ],
      { root: '/repo' },
    );
    expect(groups.map((g) => g.name)).toEqual(['faq-bot', 'test/a.test.ts']);
    expect(groups[1]!.declared).toBeNull();
    expect(groups[1]!.questions[0]!.test).toEqual({ file: 'test/a.test.ts', name: 'bare' });
  });

  it('orders targets and questions naturally, independent of record order', () => {
    const records = ['q10', 'q2', 'q1'].map((question) => rec({ question, grader: 'accuracy_judge' }));
    const ids = groupRecords(records)[0]!.questions.map((q) => q.id);
    expect(ids).toEqual(['q1', 'q2', 'q10']);
    expect(groupRecords([...records].reverse())).toEqual(groupRecords(records));
  });

  it('reports trials with mean, spread, pass@k and pass^k', () => {
    const [target] = groupRecords([
      rec({ question: 'q1', grader: 'accuracy_judge', trial: 1, score: 5 }),
      rec({ question: 'q1', grader: 'accuracy_judge', trial: 2, score: 3 }),
      rec({ question: 'q1', grader: 'accuracy_judge', trial: 3, score: 4 }),
      rec({ question: 'q2', grader: 'accuracy_judge', trial: 1, score: 4 }),
      rec({ question: 'q2', grader: 'accuracy_judge', trial: 2, score: 5 }),
      rec({ question: 'q3', grader: 'accuracy_judge', score: 1 }),
    ]);
    const [q1, q2, q3] = target!.questions;
    expect(q1!.composite).toBe(4);
    expect(q1!.trials).toEqual({
      count: 3,
      composites: [5, 3, 4],
      mean: 4,
      stdev: Math.sqrt(2 / 3),
      min: 3,
      max: 5,
      passAtK: true,
      passHatK: false,
    });
    expect(q2!.trials).toMatchObject({ count: 2, passAtK: true, passHatK: true, stdev: 0.5 });
    expect(q3!.trials).toBeUndefined();
    const totals = totalsOf(target!.questions);
    expect(totals.passAtK).toBe(1);
    expect(totals.passHatK).toBe(0.5);
  });

  it("lists a question's grades in trial order, then time, whatever order its records came in", () => {
    const at = (trial: number, ms: number, grader: string) => ({
      ...rec({ question: 'q1', grader, trial, score: trial }),
      at: ms,
    });
    const inOrder = [at(1, 10, 'a'), at(1, 11, 'b'), at(2, 5, 'a'), at(2, 6, 'b')];
    const shuffled = [inOrder[3]!, inOrder[1]!, inOrder[2]!, inOrder[0]!];
    for (const records of [inOrder, shuffled]) {
      const grades = groupRecords(records)[0]!.questions[0]!.grades;
      expect(grades.map((g) => [g.trial, g.grader])).toEqual([
        [1, 'a'],
        [1, 'b'],
        [2, 'a'],
        [2, 'b'],
      ]);
    }
    expect(shuffled.map((r) => r.trial)).toEqual([2, 1, 2, 1]); // the input is left as it was
  });
});

describe('totalsOf', () => {
  it('counts average, pass rate, errors, degraded, unscored and judge tokens', () => {
    const usage = { promptTokens: 100, completionTokens: 20, totalTokens: 120 };
    const [target] = groupRecords([
      rec({ question: 'q1', grader: 'accuracy_judge', score: 5, llm: true, usage }),
      rec({ question: 'q2', grader: 'accuracy_judge', score: 2, llm: true, usage }),
      fail('q2', 'tool_usage_grader'),
      fail('q3', 'tool_usage_grader'),
      fail('q3', 'accuracy_judge'),
    ]);
    expect(totalsOf(target!.questions)).toEqual({
      questionCount: 3,
      averageScore: 3.5,
      passRate: 1 / 3,
      passedCount: 1,
      errorCount: 3,
      degradedCount: 2,
      unscoredCount: 1,
      coverage: { planned: 3, scored: 2, unscored: 0, errored: 1, degraded: 2, notLoaded: 0, share: 2 / 3 },
      judgeTokens: { prompt: 200, completion: 40, total: 240 },
    });
  });

  it('has no average and no pass rate for no questions', () => {
    expect(totalsOf([])).toMatchObject({ questionCount: 0, averageScore: null, passRate: null });
  });
});

describe('PrebuiltQuestions', () => {
  const test1 = [
    rec({ question: 'q1', grader: 'tool_usage_grader', score: 1, min: 0, max: 1 }),
    rec({ question: 'q1', grader: 'accuracy_judge', score: 2, reason: 'two facts of four' }),
  ];
  const test2 = [
    rec({ question: 'q2', grader: 'accuracy_judge', score: 4, trial: 2 }),
    rec({ question: 'q2', grader: 'accuracy_judge', score: 1, trial: 1 }),
    rec({ question: 'q2', grader: 'read_only_run', score: 0, min: 0, max: 1, negated: true }),
  ];
  const all = [...test1, ...test2];

  it('gives the report the questions built as their tests finished, equal to those built at the end', () => {
    const prebuilt = new PrebuiltQuestions('/repo');
    prebuilt.add(test1);
    prebuilt.add(test2);
    const early = groupRecords(all, { root: '/repo', prebuilt });
    const late = groupRecords(all, { root: '/repo' });
    expect(early).toEqual(late);
    // The report took both (each is given once, so nothing is left to take).
    expect(prebuilt.take(test1)).toBeUndefined();
    expect(prebuilt.take(test2.slice(0, 2))).toBeUndefined();
    expect(early[0]!.questions.map((q) => [q.id, q.test.file, q.composite])).toEqual([
      ['q1', 'test/support.test.ts', 3.5],
      ['q2', 'test/support.test.ts', 2.5],
    ]);
    // Each is given once: a second report of the same records builds its own.
    const again = new PrebuiltQuestions('/repo');
    again.add(test1);
    expect(again.take(test1.slice(0, 1))).toBeUndefined(); // not the list it was built from
    const first = groupRecords(all, { root: '/repo', prebuilt: again })[0]!.questions[0];
    const second = groupRecords(all, { root: '/repo', prebuilt: again })[0]!.questions[0];
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });

  it('builds afresh a question whose records changed since, and uses none built for another root', () => {
    const prebuilt = new PrebuiltQuestions('/repo');
    prebuilt.add(test1);
    // Another test of the same question in the same file added a grade after q1 was built early.
    const later = rec({ question: 'q1', grader: 'format_grader', score: 0 });
    const [target] = groupRecords([...test1, later], { root: '/repo', prebuilt });
    expect(target!.questions[0]!.grades.map((g) => g.grader)).toEqual([
      'tool_usage_grader',
      'accuracy_judge',
      'format_grader',
    ]);
    expect(target!.questions[0]!.composite).toBeCloseTo((5 + 2 + 0) / 3);
    // A record replaced by an equal copy is not the same record: built afresh, to the same result.
    const copies = new PrebuiltQuestions('/repo');
    copies.add(test1);
    const copied = groupRecords(
      test1.map((r) => ({ ...r, reason: 'changed after it was built' })),
      { root: '/repo', prebuilt: copies },
    );
    expect(copied[0]!.questions[0]!.grades.map((g) => g.reason)).toEqual([
      'changed after it was built',
      'changed after it was built',
    ]);
    const elsewhere = new PrebuiltQuestions('/elsewhere');
    elsewhere.add(test1);
    const [rooted] = groupRecords(test1, { root: '/repo', prebuilt: elsewhere });
    expect(rooted!.questions[0]!.test.file).toBe('test/support.test.ts');
  });
});
