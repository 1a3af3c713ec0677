import { afterEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { isAiEvalError } from '../../src/errors.js';
import { defineGrader, type GradeFn, type Grader } from '../../src/grading/define-grader.js';
import type { GradingContext } from '../../src/grading/types.js';
import { gradeQuestion, responseText } from '../../src/run/grade-question.js';
import { resolveTarget, type Target } from '../../src/run/target.js';

afterEach(() => resetConfig());

let counter = 0;
const grader = (grade: GradeFn, scale: { minScore?: number; maxScore?: number } = {}): Grader =>
  defineGrader({ id: `test_grader_${++counter}`, label: 'Test', ...scale, grade });
const fixed = (score: number | null, scale: { minScore?: number; maxScore?: number } = {}): Grader =>
  grader((_i, _r, _c, { result }) => result(score, `fixed ${String(score)}`), scale);
const question = { id: 'q1', input: 'List the pages' };

describe('gradeQuestion', () => {
  it('runs async graders concurrently', async () => {
    const events: string[] = [];
    const slow = (name: string) =>
      grader(async (_i, _r, _c, { result }) => {
        events.push(`${name}:start`);
        await new Promise((resolve) => setImmediate(resolve));
        events.push(`${name}:end`);
        return result(5, 'ok');
      });
    await gradeQuestion({ question, response: 'x', graders: [slow('a'), slow('b')] });
    // Run one after the other, a would end before b starts.
    expect(events).toEqual(['a:start', 'b:start', 'a:end', 'b:end']);
  });

  it('records a throwing grader as an error, never a zero, and keeps the others', async () => {
    const throwsSync = grader(() => {
      throw new Error('boom');
    });
    const rejects = grader(() => Promise.reject(new Error('async boom')));
    const r = await gradeQuestion({ question, response: 'x', graders: [throwsSync, rejects, fixed(4)] });
    expect(r.grades[0]).toMatchObject({ score: null, composite: null, error: true, skipped: false });
    expect(r.grades[0]!.reason).toBe('grader threw: boom');
    expect(r.grades[1]!.reason).toBe('grader threw: async boom');
    expect(r.composite).toBe(4);
    // Degraded: part of the question went unchecked, so it does not pass, whatever the others said.
    expect(r.passed).toBe(false);
    expect(r.degraded).toBe(true);
  });

  it('waits for a grader that returns a thenable that is not a promise, and catches its failures', async () => {
    const thenable = grader((_i, _r, _c, { result }) => {
      const like = { then: (resolve: (value: unknown) => void) => resolve(result(3, 'from a thenable')) };
      return like as never;
    });
    const rejecting = grader(() => {
      const like = {
        then: (_resolve: unknown, reject: (error: unknown) => void) => reject(new Error('nope')),
      };
      return like as never;
    });
    // Reading `then` throws: the grader threw, the question still gets its other grades.
    const trap = grader(() => {
      const like = {
        get then(): never {
          throw new Error('trapped');
        },
      };
      return like as never;
    });
    const resolvesWrong = grader(() => Promise.resolve(7) as never);
    const r = await gradeQuestion({
      question,
      response: 'x',
      graders: [thenable, rejecting, trap, resolvesWrong, fixed(5)],
    });
    expect(r.grades.map((g) => g.reason)).toEqual([
      'from a thenable',
      'grader threw: nope',
      'grader threw: trapped',
      'grader returned number instead of a GradeResult; build it with result(score, reason)',
      'fixed 5',
    ]);
    expect(r.grades.map((g) => g.error)).toEqual([false, true, true, true, false]);
    expect(r.composite).toBe(4);
  });

  it('grades deterministic graders as they answer, each once, in the order given', async () => {
    const calls: string[] = [];
    const sync = (name: string, score: number) =>
      grader((_i, _r, _c, { result }) => {
        calls.push(name);
        return result(score, name);
      });
    const r = await gradeQuestion({
      question,
      response: 'x',
      graders: [sync('a', 5), sync('b', 3), sync('c', 4)],
    });
    expect(calls).toEqual(['a', 'b', 'c']);
    expect(r.grades.map((g) => g.reason)).toEqual(['a', 'b', 'c']);
    expect(r.composite).toBe(4);
  });

  it('records a grader that returns something other than a GradeResult as an error', async () => {
    const wrong = grader(() => 5 as never);
    const r = await gradeQuestion({ question, response: 'x', graders: [wrong] });
    expect(r.grades[0]).toMatchObject({ error: true, score: null });
    expect(r.grades[0]!.reason).toContain('grader returned number instead of a GradeResult');
  });

  it("restamps a hand-built result with the grader's own id and scale, clamping it", async () => {
    const binary = grader(
      () => ({
        grader: 'other',
        score: 9,
        min: 0,
        max: 9,
        composite: 9,
        reason: 'built by hand',
        error: false,
        skipped: false,
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      }),
      { minScore: 0, maxScore: 1 },
    );
    const r = await gradeQuestion({ question, response: 'x', graders: [binary] });
    expect(r.grades[0]).toMatchObject({
      grader: binary.id,
      score: 1,
      min: 0,
      max: 1,
      composite: 5,
      reason: 'built by hand',
      usage: { totalTokens: 3 },
    });
    expect(r.composite).toBe(5);
  });

  it('takes the mean of the non-null composites across scales', async () => {
    // Binary 1 -> 5, gradient 2 -> 2, a skip and an error left out: (5 + 2) / 2 = 3.5.
    const r = await gradeQuestion({
      question,
      response: 'x',
      graders: [
        fixed(1, { minScore: 0, maxScore: 1 }),
        fixed(2),
        fixed(null),
        grader(() => Promise.reject(new Error('x'))),
      ],
    });
    expect(r.grades.map((g) => g.composite)).toEqual([5, 2, null, null]);
    expect(r.composite).toBe(3.5);
    expect(r.degraded).toBe(true);
    expect(r.passed).toBe(false);
    expect(r.passThreshold).toBe(3.5);
  });

  it('passes at or above the threshold: default 3.5, configure(), then the target', async () => {
    expect((await gradeQuestion({ question, response: 'x', graders: [fixed(3.5)] })).passed).toBe(true);
    expect((await gradeQuestion({ question, response: 'x', graders: [fixed(3.49)] })).passed).toBe(false);
    configure({ passThreshold: 4 });
    const configured = await gradeQuestion({ question, response: 'x', graders: [fixed(3.5)] });
    expect([configured.passThreshold, configured.passed]).toEqual([4, false]);
    const target = await gradeQuestion({
      question,
      response: 'x',
      graders: [fixed(3.5)],
      target: { passThreshold: 3 },
    });
    expect([target.passThreshold, target.passed]).toEqual([3, true]);
  });

  it('leaves a question whose graders all skipped unscored, and not passed', async () => {
    const r = await gradeQuestion({ question, response: 'x', graders: [fixed(null), fixed(null)] });
    expect(r).toMatchObject({ composite: null, unscored: true, passed: false, degraded: false });
  });

  it('marks a question degraded when any grader errored, unscored when nothing scored', async () => {
    const errs = grader((_i, _r, _c, { result }) => result(null, 'provider returned nothing', true));
    const r = await gradeQuestion({ question, response: 'x', graders: [errs, fixed(null)] });
    expect(r).toMatchObject({ composite: null, unscored: true, passed: false, degraded: true });
  });

  it('builds one context for every grader, with the record read from the run', async () => {
    const seen: GradingContext[] = [];
    const spy = grader((_i, _r, context, { result }) => {
      seen.push(context);
      return result(5, 'ok');
    });
    const r = await gradeQuestion({
      question: { ...question, expected_tools: ['list_nodes'] },
      response: {
        output: 'Here',
        messages: [
          { role: 'assistant', tool_calls: [{ function: { name: 'list_nodes', arguments: '{}' } }] },
        ],
      },
      graders: [spy, spy, 'tool_usage_grader'],
      target: { responseCharLimit: 99 },
    });
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]).toBe(r.context);
    expect(r.context.response_char_limit).toBe(99);
    expect(r.toolCalls).toEqual([{ function_name: 'list_nodes', arguments: {} }]);
    expect(r.grades[2]!.score).toBe(5);
    expect(r.questionId).toBe('q1');
  });

  it('passes input, response text, trial and signal to the grader', async () => {
    let got: unknown[] = [];
    const controller = new AbortController();
    const spy = grader((input, response, _c, { result, trial, signal }) => {
      got = [input, response, trial, signal];
      return result(5, 'ok');
    });
    await gradeQuestion({
      question: { id: 'q', messages: [{ role: 'user', content: 'hi' }] },
      response: { output: 'hello' },
      graders: [spy],
      trial: 2,
      signal: controller.signal,
    });
    expect(got).toEqual(['user: hi', 'hello', 2, controller.signal]);
  });

  it('uses the input option only when the question has neither input nor messages', async () => {
    const seen: [string, GradingContext['messages']][] = [];
    const spy = grader((input, _r, context, { result }) => {
      seen.push([input, context.messages]);
      return result(5, 'ok');
    });
    await gradeQuestion({ question: { id: 'q' }, response: 'x', graders: [spy], input: 'beside' });
    await gradeQuestion({ question: { input: 'own' }, response: 'x', graders: [spy], input: 'beside' });
    await gradeQuestion({
      question: { messages: [{ role: 'user', content: 'hi' }] },
      response: 'x',
      graders: [spy],
      input: 'beside',
    });
    expect(seen).toEqual([
      ['beside', [{ role: 'user', content: 'beside' }]],
      ['own', [{ role: 'user', content: 'own' }]],
      ['user: hi', [{ role: 'user', content: 'hi' }]],
    ]);
  });

  it('has no record for a string response, and reads one given beside it', async () => {
    const none = await gradeQuestion({ question, response: 'x', graders: [fixed(5)] });
    expect(none.toolCalls).toBeUndefined();
    expect('tool_calls' in none.context).toBe(false);
    const given = await gradeQuestion({ question, response: 'x', graders: [fixed(5)], toolCalls: [] });
    expect(given.context.tool_calls).toEqual([]);
  });

  it('rejects an unrecognised record and a response that is not gradable with clear errors', async () => {
    await expect(
      gradeQuestion({ question, response: { output: 'x', toolCalls: [{ tool: 'x' }] }, graders: [fixed(5)] }),
    ).rejects.toSatisfy((e) => isAiEvalError(e, 'INVALID_TOOL_CALLS'));
    expect(() => responseText({ text: 'x' } as never)).toThrow(
      /Expected a response string or an agent run .* with keys text/,
    );
    await expect(gradeQuestion({ question, response: 42 as never, graders: [fixed(5)] })).rejects.toSatisfy(
      (e) => isAiEvalError(e, 'INVALID_RESPONSE'),
    );
  });

  it('rejects an unknown grader id with the known ids', async () => {
    await expect(gradeQuestion({ question, response: 'x', graders: ['nope_grader'] })).rejects.toThrow(
      /Unknown grader 'nope_grader'. Known graders: .*read_only_run/,
    );
  });
});

describe('resolveTarget', () => {
  const target: Target = { name: 'support-bot', mode: 'agent', graders: ['read_only_run', 'format_grader'] };

  it('resolves the graders of a valid target', () => {
    expect(resolveTarget(target).map((g) => g.id)).toEqual(['read_only_run', 'format_grader']);
  });

  it.each([
    [{ name: ' ' }, /^target name: expected a non-empty name, got " "/],
    [{ mode: 'batch' }, /target "support-bot" mode: expected 'agent' or 'chat', got "batch"/],
    [{ graders: [] }, /graders: expected a list of at least one grader id or grader, got \[\]/],
    [{ passThreshold: 6 }, /passThreshold: expected a number from 0 to 5, got 6/],
    [{ responseCharLimit: 0 }, /responseCharLimit: expected a positive whole number of characters, got 0/],
    [{ responseCharLimit: '4000' }, /responseCharLimit: expected .* got "4000"/],
    [{ scoreBy: 'median' }, /scoreBy: expected 'avg_score' or 'pass_rate', got "median"/],
    // A gate typo is refused with its path, never accepted silently.
    [
      { gate: { level: 'hrad', minAverage: 4 } },
      /target "support-bot" gate.level: expected 'hard' or 'soft', got "hrad"/,
    ],
    [{ gate: { level: 'hard', minAverage: 42 } }, /gate.minAverage: expected a number from 0 to 5, got 42/],
    [
      { gate: { level: 'hard' } },
      /target "support-bot" gate: a gate needs minAverage, minPassRate, minCoverage, requireTrustedJudges or maxJudgeErrorRate/,
    ],
    [
      { gate: { level: 'hard', minAvg: 4 } },
      /gate.minAvg: unknown option \(known: level, minAverage, minPassRate, minCoverage, requireTrustedJudges, maxJudgeErrorRate\)/,
    ],
    [{ gates: {} }, /target "support-bot" gates: unknown option/],
    [{ graders: ['nope_grader'] }, /Unknown grader 'nope_grader'/],
  ])('rejects %j with a clear error', (override, message) => {
    expect(() => resolveTarget({ ...target, ...override } as Target)).toThrow(message);
  });
});
