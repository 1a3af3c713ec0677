import { afterEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { type AiEvalError } from '../../src/errors.js';
import { combineChecks } from '../../src/graders/rubric/combine.js';
import {
  defineCheckExecutor,
  listCheckExecutors,
  unregisterCheckExecutor,
} from '../../src/graders/rubric/executors.js';
import { rubricChecks } from '../../src/graders/rubric/rubric-checks.js';
import { defineStateCheck, unregisterStateCheck } from '../../src/graders/state/state-checks.js';
import type { Rubric, RubricCheck } from '../../src/grading/rubric-types.js';
import type { Gradable, GradeResult, Question } from '../../src/grading/types.js';
import { gradeQuestion } from '../../src/run/grade-question.js';
import { toRecords } from '../../src/run/record.js';
import { targetReport } from '../../src/report/collect.js';
import { groupRecords } from '../../src/report/aggregate.js';
import { validateRubric } from '../../src/datasets/rubrics.js';
import { scratch } from '../helpers/temp.js';
import { collect } from '../../src/report/collect.js';
import { gateSettings } from '../../src/report/options.js';
import { defineGrader } from '../../src/grading/define-grader.js';
import { validateReport } from '../helpers/report-schema.js';

afterEach(() => {
  resetConfig();
  unregisterCheckExecutor('max_words');
  unregisterStateCheck('flag_set');
});

async function run(
  rubric: Rubric,
  response: Gradable,
  question: Partial<Question> = {},
): Promise<GradeResult> {
  const result = await gradeQuestion({
    question: { id: 'q', input: 'x', rubric_ref: 'r', ...question },
    response,
    graders: ['rubric_checks'],
    rubric: { ref: 'r', file: '/rubrics/r.yaml', rubric },
  });
  return result.grades[0]!;
}

const one = (check: RubricCheck, scoring?: Rubric['scoring']): Rubric => ({
  id: 'r',
  version: '1.2.0',
  checks: [check],
  ...(scoring ? { scoring } : {}),
});

describe('rubric check kinds', () => {
  it('must_contain_any passes on one of the values, ignoring case unless case_sensitive', async () => {
    const check = { id: 'says', type: 'must_contain_any', values: ['refund', 'credit'] };
    expect(await run(one(check), 'Your REFUND is on its way')).toMatchObject({ score: 5 });
    expect((await run(one(check), 'Sorry')).score).toBe(0);
    expect((await run(one({ ...check, case_sensitive: true }), 'Your REFUND')).score).toBe(0);
    expect((await run(one(check), 'Sorry')).reason).toContain(
      'FAIL says (must_contain_any): contains none of "refund", "credit"',
    );
  });

  it('must_not_contain fails on any of the values', async () => {
    const check = { id: 'no_blame', type: 'must_not_contain', values: ['your fault'] };
    expect((await run(one(check), 'It was your fault.')).score).toBe(0);
    expect((await run(one(check), 'We are on it.')).score).toBe(5);
  });

  it('regex runs on the pattern worker and refuses a catastrophic pattern as an error', async () => {
    const check = { id: 'ticket', type: 'regex', pattern: 'ticket #\\d+', flags: 'i' };
    expect((await run(one(check), 'Opened Ticket #42')).score).toBe(5);
    expect((await run(one(check), 'Opened a ticket')).score).toBe(0);
    const bad = await run(one({ id: 'bad', type: 'regex', pattern: '^(\\w+\\s?)*$' }), 'x');
    expect(bad).toMatchObject({ error: true, score: null });
    expect(bad.reason).toContain('ERROR bad (regex): pattern "^(\\\\w+\\\\s?)*$" repeats a group');
  });

  it('json_schema parses the response (one fence allowed) and validates it', async () => {
    const check = { id: 'shape', type: 'json_schema', schema: { type: 'object', required: ['ok'] } };
    expect((await run(one(check), '```json\n{"ok": true}\n```')).score).toBe(5);
    const missing = await run(one(check), '{"nope": 1}');
    expect(missing.score).toBe(0);
    expect(missing.reason).toContain("must have required property 'ok'");
    expect((await run(one(check), 'not json')).reason).toContain('the response is not JSON');
  });

  it('format delegates to format_grader and scores the share of its checks met', async () => {
    const check = { id: 'fmt', type: 'format', format: 'json', pattern: '"id"' };
    expect((await run(one(check), '{"id": 1}')).score).toBe(5);
    // json passes, pattern fails, length passes: 2/3 in a numeric mode.
    const partial = await run(one(check, { combine: 'weighted_avg' }), '{"x": 1}');
    expect(partial.score).toBeCloseTo((5 * 2) / 3, 9);
    expect(partial.reason).toContain('FAIL fmt (format): 2/3 format checks passed');
  });

  it('target_match compares with the value at a dot path: exact, normalized, chrf with a threshold', async () => {
    const question = { expected: { reference: 'Paris, France.' } };
    const exact = { id: 'city', type: 'target_match', mode: 'exact' };
    expect((await run(one(exact), ' Paris, France.\n', question)).score).toBe(5);
    expect((await run(one(exact), 'paris france', question)).score).toBe(0);
    const normalized = { id: 'city', type: 'target_match', mode: 'normalized', path: 'expected.reference' };
    expect((await run(one(normalized), 'paris   FRANCE', question)).score).toBe(5);
    // chrF of "ab" against "abc" is 7/11 (hand computed in chrf.test.ts).
    const fuzzy = { id: 'near', type: 'target_match', mode: 'chrf', threshold: 0.6 };
    const near = await run(one(fuzzy, { combine: 'weighted_avg' }), 'ab', { expected: { reference: 'abc' } });
    expect(near.score).toBeCloseTo((5 * 7) / 11, 9);
    expect(near.reason).toContain('PASS near (target_match): chrF2 against expected.reference is 0.636');
    const far = await run(one({ ...fuzzy, threshold: 0.7 }), 'ab', { expected: { reference: 'abc' } });
    expect(far.reason).toContain('FAIL near (target_match)');
    const none = await run(one(exact), 'x', {});
    expect(none).toMatchObject({ error: true });
    expect(none.reason).toContain('the question has no text at expected.reference');
  });

  it('tool_usage delegates to tool_usage_grader on its own expectations and observes actions', async () => {
    const check = {
      id: 'created',
      type: 'tool_usage',
      expected_tools: [{ name: 'create_node', succeeded: true }],
    };
    const ok = await run(one(check), {
      output: 'ok',
      toolCalls: [{ function_name: 'create_node', arguments: {}, status: 'ok' }],
    });
    expect(ok).toMatchObject({ score: 5, observesActions: true });
    const failed = await run(one(check), {
      output: 'ok',
      toolCalls: [{ function_name: 'create_node', arguments: {}, status: 'error' }],
    });
    expect(failed.score).toBe(0);
    // Without a record the check cannot be answered: an error, never a pass.
    expect(await run(one(check), 'I created it')).toMatchObject({ error: true });
  });

  it('state delegates to a registered state check, fails closed on an unknown kind, and observes actions', async () => {
    let flag = false;
    defineStateCheck('flag_set', {
      schema: {},
      check: () => ({ pass: flag, reason: `flag is ${String(flag)}` }),
    });
    const check = { id: 'set', type: 'state', kind: 'flag_set' };
    expect(await run(one(check), 'done')).toMatchObject({
      score: 0,
      observesActions: true,
      queriedState: true,
    });
    flag = true;
    expect((await run(one(check), 'done')).reason).toContain('PASS set (state): flag is true');
    const unknown = await run(one({ id: 'u', type: 'state', kind: 'nobody_defined' }), 'done');
    expect(unknown.score).toBe(0);
    expect(unknown.reason).toContain(
      "FAIL u (state): setup failure: unknown state check kind 'nobody_defined'",
    );
  });

  it('llm_judge checks are never run: with nothing else the grade skips, and their criteria reach the judges', async () => {
    const rubric: Rubric = { checks: [{ type: 'llm_judge', criteria: 'Polite.' }] };
    const skip = await run(rubric, 'hi');
    expect(skip).toMatchObject({ skipped: true, score: null });
    expect(skip.reason).toContain(
      'no executable check (only llm_judge criteria, which the judges read), skipping',
    );
    expect(skip.reason).toContain('JUDGE checks[0] (llm_judge): criteria left to the judges, not run here');
  });
});

describe('combining', () => {
  const pass = (id: string, weight = 1) => ({ id, type: 'must_contain_any', values: ['yes'], weight });
  const fail = (id: string, weight = 1) => ({ id, type: 'must_contain_any', values: ['never-said'], weight });
  const rubric = (
    combine: NonNullable<Rubric['scoring']>['combine'],
    checks: RubricCheck[],
    pass_threshold?: number,
  ): Rubric => ({
    id: 'c',
    checks,
    scoring: { combine, ...(pass_threshold !== undefined ? { pass_threshold } : {}) },
  });

  it.each([
    ['all_pass', [pass('a'), fail('b')], 0],
    ['all_pass', [pass('a'), pass('b')], 5],
    ['any_pass', [fail('a'), pass('b')], 5],
    ['any_pass', [fail('a'), fail('b')], 0],
    // weights 3 and 1: (3 x 1 + 1 x 0) / 4 = 0.75, times 5.
    ['weighted_avg', [pass('a', 3), fail('b', 1)], 3.75],
    ['min', [pass('a'), fail('b')], 0],
    ['max', [pass('a'), fail('b')], 5],
    // scores 1, 1, 0: median 1.
    ['median', [pass('a'), pass('b'), fail('c')], 5],
    // scores 1, 0: the median of two is their mean.
    ['median', [pass('a'), fail('b')], 2.5],
  ] as const)('%s over %j scores %d', async (mode, checks, score) => {
    expect((await run(rubric(mode, [...checks]), 'yes')).score).toBe(score);
  });

  it('defaults to all_pass, and scores 0 under the pass threshold of a numeric mode', async () => {
    expect((await run({ checks: [pass('a'), fail('b')] }, 'yes')).score).toBe(0);
    const under = await run(rubric('weighted_avg', [pass('a', 3), fail('b', 1)], 0.8), 'yes');
    expect(under.score).toBe(0);
    expect(under.reason.split('\n')[0]).toBe('rubric c: weighted_avg 0.75, below the pass threshold 0.8');
    expect((await run(rubric('weighted_avg', [pass('a', 3), fail('b', 1)], 0.7), 'yes')).score).toBe(3.75);
  });

  it('combineChecks weighs only weighted_avg', () => {
    const checks = [
      { pass: true, score: 1, weight: 9 },
      { pass: false, score: 0, weight: 1 },
      { pass: false, score: 0.5, weight: 1 },
    ];
    expect(combineChecks('weighted_avg', checks)).toBeCloseTo(9.5 / 11, 12);
    expect(combineChecks('median', checks)).toBe(0.5);
    expect(combineChecks('min', checks)).toBe(0);
    expect(combineChecks('max', checks)).toBe(1);
  });
});

describe('rubric_checks', () => {
  it('is 0-5, stores the rubric id and version with the grade and lists each outcome', async () => {
    expect([rubricChecks.minScore, rubricChecks.maxScore, rubricChecks.observesActions]).toEqual([
      0,
      5,
      false,
    ]);
    const grade = await run(
      {
        id: 'refund_reply',
        version: '2.1.0',
        checks: [{ id: 'says', type: 'must_contain_any', values: ['refund'] }],
      },
      'refund sent',
    );
    expect(grade).toMatchObject({
      score: 5,
      rubric: { id: 'refund_reply', version: '2.1.0' },
      observesActions: false,
    });
    expect(grade.reason).toBe(
      'rubric refund_reply 2.1.0: all_pass: 1/1 checks passed\nPASS says (must_contain_any): contains "refund"',
    );
  });

  it('leaves out a check no executor claims and names it; skips when no check could run', async () => {
    const mixed = await run(
      {
        id: 'm',
        checks: [
          { id: 'custom', type: 'word_budget', max: 3 },
          { id: 'says', type: 'must_contain_any', values: ['ok'] },
        ],
      },
      'ok',
    );
    expect(mixed.score).toBe(5);
    expect(mixed.reason).toContain('; not run: custom (word_budget)');
    expect(mixed.reason).toContain(
      "NOT RUN custom (word_budget): no check executor claims this kind; define one with defineCheckExecutor({ kind: 'word_budget', ... })",
    );
    const none = await run({ id: 'n', checks: [{ id: 'custom', type: 'word_budget', max: 3 }] }, 'ok');
    expect(none).toMatchObject({ skipped: true, score: null, error: false });
    expect(none.reason.split('\n')[0]).toBe(
      'rubric n: no check could run (not run: custom (word_budget)), skipping',
    );
  });

  it('skips without a rubric_ref and for a bundle the rubric does not apply to', async () => {
    const result = await gradeQuestion({
      question: { id: 'q', input: 'x' },
      response: 'ok',
      graders: ['rubric_checks'],
    });
    expect(result.grades[0]).toMatchObject({
      skipped: true,
      reason: 'no rubric_ref in the question, skipping',
    });
    const rubric: Rubric = {
      id: 'b',
      applicable_bundles: ['faq'],
      checks: [{ id: 's', type: 'must_contain_any', values: ['ok'] }],
    };
    expect(await run(rubric, 'ok', { bundle: 'billing' })).toMatchObject({ skipped: true });
    expect((await run(rubric, 'ok', { bundle: 'faq' })).score).toBe(5);
  });

  it('errors naming the ref and the file when the rubric is missing or invalid', async () => {
    const root = scratch({ 'rubrics/broken.yaml': 'id: broken\nchecks:\n  - { id: x, type: regex }\n' });
    configure({ datasets: { root } });
    const grade = async (ref: string) =>
      (
        await gradeQuestion({
          question: { id: 'q', input: 'x', rubric_ref: ref },
          response: 'ok',
          graders: ['rubric_checks'],
        })
      ).grades[0]!;
    const missing = await grade('nowhere');
    expect(missing).toMatchObject({ error: true, score: null });
    expect(missing.reason).toMatch(
      /^rubric 'nowhere': No rubric named 'nowhere' \(looked for nowhere\.yaml in /,
    );
    const invalid = await grade('broken');
    expect(invalid).toMatchObject({ error: true });
    expect(invalid.reason).toContain("rubric 'broken': Rubric 'broken' (");
    expect(invalid.reason).toContain("broken.yaml:3:5: /checks/0: is missing the required key 'pattern'");
  });

  it('makes an executor that throws or answers badly an error, never a score', async () => {
    defineCheckExecutor({
      kind: 'max_words',
      execute: () => {
        throw new Error('boom');
      },
    });
    const grade = await run({ id: 't', checks: [{ id: 'w', type: 'max_words' }] }, 'ok');
    expect(grade).toMatchObject({ error: true, score: null });
    expect(grade.reason).toContain('ERROR w (max_words): the max_words executor threw: boom');
  });
});

describe('defineCheckExecutor', () => {
  const execute = (check: RubricCheck, { response }: { response: string }) => {
    const words = response.split(/\s+/).filter(Boolean).length;
    return { pass: words <= Number(check.max), reason: `${words} words, max ${String(check.max)}` };
  };

  it('runs checks of its kind, and its schema is part of rubric validation', async () => {
    defineCheckExecutor({
      kind: 'max_words',
      schema: {
        type: 'object',
        required: ['max'],
        properties: { max: { type: 'integer' } },
        additionalProperties: false,
      },
      execute,
    });
    expect(
      listCheckExecutors()
        .map((e) => e.kind)
        .at(-1),
    ).toBe('max_words');
    expect(
      (await run({ id: 'w', checks: [{ id: 'short', type: 'max_words', max: 2 }] }, 'one two three')).score,
    ).toBe(0);
    const bad = validateRubric('id: w\nchecks:\n  - { id: short, type: max_words, max: two }\n', 'w.yaml');
    expect(bad.problems.map((p) => `${p.line}: ${p.path}: ${p.message}`)).toEqual([
      "3: /checks/0: params do not match the schema of check kind 'max_words': /max must be integer.",
    ]);
    unregisterCheckExecutor('max_words');
    const unknown = validateRubric(
      'id: w\nchecks:\n  - { id: short, type: max_words, max: two }\n',
      'w.yaml',
    );
    expect(unknown.valid).toBe(true);
    expect(unknown.warnings[0]).toContain("check type 'max_words' is not a shipped kind");
  });

  it('takes the first executor whose applies accepts the check', async () => {
    defineCheckExecutor({
      kind: 'max_words',
      applies: (check) => check.type === 'max_words' || check.type === 'word_cap',
      execute,
    });
    expect((await run({ id: 'w', checks: [{ id: 'cap', type: 'word_cap', max: 5 }] }, 'one two')).score).toBe(
      5,
    );
  });

  it('refuses a shipped kind, a taken kind and a malformed definition', () => {
    expect(() => defineCheckExecutor({ kind: 'regex', execute })).toThrow(
      /'regex' is a check kind ai-eval ships/,
    );
    expect(() => defineCheckExecutor({ kind: 'llm_judge', execute })).toThrow(/ships/);
    defineCheckExecutor({ kind: 'max_words', execute });
    expect(() => defineCheckExecutor({ kind: 'max_words', execute })).not.toThrow();
    let error: unknown;
    try {
      defineCheckExecutor({ kind: 'max_words', execute: () => ({ pass: true, reason: 'other' }) });
    } catch (e) {
      error = e;
    }
    expect((error as AiEvalError).code).toBe('DUPLICATE_CHECK');
    expect(() => defineCheckExecutor({ kind: 'Bad Kind', execute })).toThrow(/snake_case/);
    expect(() => defineCheckExecutor({ kind: 'no_exec' } as never)).toThrow(/execute must be a function/);
    expect(() => defineCheckExecutor({ kind: 'bad_schema', schema: { type: 'nope' }, execute })).toThrow(
      /not a valid JSON Schema/,
    );
  });
});

describe('observesActions per grade', () => {
  const identity = { file: 'f.test.ts', name: 'suite > q', title: 'q', isRunning: () => true };
  const text = { id: 'says', type: 'must_contain_any', values: ['done'] };
  const tools = { id: 'called', type: 'tool_usage', expected_tools: ['save'] };

  async function records(rubric: Rubric) {
    const result = await gradeQuestion({
      question: { id: 'q', input: 'x', rubric_ref: 'r' },
      response: { output: 'done', toolCalls: [{ function_name: 'save', arguments: {} }] },
      graders: ['rubric_checks'],
      rubric: { ref: 'r', file: 'r.yaml', rubric },
    });
    const target = {
      name: 'bot',
      mode: 'agent' as const,
      graders: ['rubric_checks'],
      actionObserving: [],
      passThreshold: 3.5,
    };
    return toRecords(result, [rubricChecks], { identity, target, question: 'q', trial: 1 });
  }

  it('is true only in grades where a tool_usage or state check ran, and the advisory follows it', async () => {
    const observing = await records({ id: 'r', checks: [text, tools] });
    expect(observing[0]).toMatchObject({ observesActions: true, rubric: { id: 'r' } });
    const prose = await records({ id: 'r', checks: [text] });
    expect(prose[0]).toMatchObject({ observesActions: false });
    const advisories = (recs: typeof observing) =>
      targetReport(groupRecords(recs)[0]!).advisories.map((a) => a.code);
    expect(advisories(prose)).toContain('NO_ACTION_OBSERVER');
    expect(advisories(observing)).not.toContain('NO_ACTION_OBSERVER');
    expect(targetReport(groupRecords(observing)[0]!).actionObserving).toEqual(['rubric_checks']);
  });

  it('keeps the flags and the rubric stamp through the report, which matches the shipped schema', async () => {
    const report = collect(await records({ id: 'r', version: '3.0.0', checks: [text, tools] }), {
      identity: {
        timestamp: '2026-01-01T00:00:00.000Z',
        packageVersion: '0.0.0',
        nodeVersion: 'v20',
        judgeModel: null,
        judgeHash: null,
        promptHashes: {},
        datasetHashes: {},
      },
      settings: gateSettings({}),
    });
    const json = JSON.parse(JSON.stringify(report)) as typeof report;
    expect(validateReport(json), JSON.stringify(validateReport.errors)).toBe(true);
    expect(json.targets[0]!.questions[0]!.grades[0]).toMatchObject({
      grader: 'rubric_checks',
      observesActions: true,
      rubric: { id: 'r', version: '3.0.0' },
    });
  });

  it('lets only an action-observing grader or rubric_checks set the flag on a grade', async () => {
    const claims = defineGrader({
      id: 'prose_claims_observation',
      label: 'Prose',
      grade: (_i, _r, _c, { result }) => ({ ...result(5, 'reads prose'), observesActions: true }),
    });
    const result = await gradeQuestion({
      question: { id: 'q', input: 'x' },
      response: 'done',
      graders: [claims],
    });
    expect(result.grades[0]!.observesActions).toBeUndefined();
  });
});
