import { afterEach, describe, expect, it } from 'vitest';
import { AiEvalError } from '../../src/errors.js';
import {
  defineStateCheck,
  getStateCheck,
  listStateChecks,
  unregisterStateCheck,
  type StateCheckContext,
} from '../../src/graders/state/state-checks.js';
import { defineStateGrader, stateGrader } from '../../src/graders/state/state-grader.js';
import { gradeQuestion } from '../../src/run/grade-question.js';
import { toRecords } from '../../src/run/record.js';
import type { Gradable, GradeResult } from '../../src/grading/types.js';

const kinds: string[] = [];
function kind(name: string, definition: Parameters<typeof defineStateCheck>[1]) {
  kinds.push(name);
  return defineStateCheck(name, definition);
}
afterEach(() => {
  for (const k of kinds.splice(0)) unregisterStateCheck(k);
});

const rows = new Map<number, string>([[1, 'Launch']]);
const titleSchema = {
  type: 'object',
  required: ['node', 'title'],
  properties: { node: { type: 'integer' }, title: { type: 'string' } },
  additionalProperties: false,
};
function titled() {
  return kind('node_title', {
    schema: titleSchema,
    check: ({ node, title }) =>
      rows.get(node as number) === title
        ? { pass: true, reason: `node ${String(node)} is "${String(title)}"` }
        : { pass: false, reason: `node ${String(node)} is ${JSON.stringify(rows.get(node as number))}` },
  });
}

async function grade(
  state: unknown,
  response: Gradable = 'done',
  signal?: AbortSignal,
): Promise<GradeResult> {
  const metadata = state === undefined ? {} : { state };
  const result = await gradeQuestion({
    question: { id: 'q', input: 'x', metadata },
    response,
    graders: ['state_grader'],
    ...(signal ? { signal } : {}),
  });
  return result.grades[0]!;
}

describe('defineStateCheck', () => {
  it('registers a kind with its params schema, and refuses a different one under the same kind', () => {
    titled();
    expect(getStateCheck('node_title')?.paramsProblem({ node: 'x', title: 'a' })).toBe(
      '/node must be integer',
    );
    expect(listStateChecks().map((c) => c.kind)).toContain('node_title');
    // The same definition again (a re-imported setup file) replaces it.
    expect(() => titled()).not.toThrow();
    let error: unknown;
    try {
      kind('node_title', { schema: {}, check: () => ({ pass: true, reason: 'other' }) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AiEvalError);
    expect((error as AiEvalError).code).toBe('DUPLICATE_CHECK');
    expect((error as Error).message).toContain("unregisterStateCheck('node_title')");
  });

  it('refuses a kind that is not snake_case, a schema that does not compile and a missing check', () => {
    const check = () => ({ pass: true, reason: 'ok' });
    expect(() => defineStateCheck('Node-Title', { schema: {}, check })).toThrow(/must be snake_case/);
    expect(() => defineStateCheck('bad_schema', { schema: { type: 'nope' }, check })).toThrow(
      /schema is not a valid JSON Schema/,
    );
    expect(() => defineStateCheck('no_check', { schema: {} } as never)).toThrow(/check a function/);
    expect(() => defineStateCheck('slow', { schema: {}, check, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(getStateCheck('bad_schema')).toBeUndefined();
  });
});

describe('state_grader', () => {
  it('is 0-5 and observes actions', () => {
    expect([stateGrader.minScore, stateGrader.maxScore, stateGrader.observesActions]).toEqual([0, 5, true]);
  });

  it('skips a question without metadata.state', async () => {
    expect(await grade(undefined)).toMatchObject({
      skipped: true,
      reason: 'no metadata.state in the question, skipping',
    });
  });

  it('scores 5 when every assertion passes, with one PASS or FAIL line per assertion in order', async () => {
    titled();
    const pass = await grade({ assertions: [{ id: 'named', kind: 'node_title', node: 1, title: 'Launch' }] });
    expect(pass).toMatchObject({ score: 5, reason: 'PASS named (node_title): node 1 is "Launch"' });
    const mixed = await grade({
      assertions: [
        { id: 'first', kind: 'node_title', node: 1, title: 'Launch' },
        { id: 'second', kind: 'node_title', node: 2, title: 'Other' },
      ],
    });
    expect(mixed.score).toBe(0);
    expect(mixed.reason).toBe(
      'PASS first (node_title): node 1 is "Launch"\nFAIL second (node_title): node 2 is undefined',
    );
  });

  it.each([
    ['a block that is not a mapping', 'nope', 'setup failure: metadata.state must be a mapping'],
    ['a block without assertions', {}, 'setup failure: metadata.state has no assertions list'],
    ['an empty assertion list', { assertions: [] }, 'setup failure: metadata.state.assertions is empty'],
    [
      'an assertions value that is not a list',
      { assertions: 'x' },
      'setup failure: metadata.state.assertions must be a list',
    ],
    [
      'an unknown kind',
      { assertions: [{ id: 'a', kind: 'no_such_kind' }] },
      "setup failure: metadata.state.assertions[0] (a): unknown kind 'no_such_kind'",
    ],
    [
      'params that fail the schema',
      { assertions: [{ id: 'a', kind: 'node_title', node: 'one', title: 'Launch' }] },
      "setup failure: metadata.state.assertions[0] (a): params do not match the schema of kind 'node_title': /node must be integer",
    ],
    [
      'an assertion without an id',
      { assertions: [{ kind: 'node_title', node: 1, title: 'Launch' }] },
      'setup failure: metadata.state.assertions[0] needs an id',
    ],
  ])('fails closed on %s: 0 with a setup failure reason', async (_what, state, reason) => {
    titled();
    const result = await grade(state);
    expect(result).toMatchObject({ score: 0, error: false, skipped: false });
    expect(result.reason.startsWith(reason)).toBe(true);
  });

  it('fails an assertion whose check throws, rejects, returns no boolean pass or times out; never throws', async () => {
    kind('throws', {
      schema: {},
      check: () => {
        throw new Error('db down');
      },
    });
    kind('rejects', { schema: {}, check: () => Promise.reject(new Error('refused')) });
    kind('truthy', { schema: {}, check: () => ({ pass: 'yes', reason: 'looks fine' }) as never });
    kind('hangs', { schema: {}, timeoutMs: 20, check: () => new Promise(() => undefined) });
    const result = await grade({
      assertions: [
        { id: 'a', kind: 'throws' },
        { id: 'b', kind: 'rejects' },
        { id: 'c', kind: 'truthy' },
        { id: 'd', kind: 'hangs' },
      ],
    });
    expect(result.score).toBe(0);
    expect(result.error).toBe(false);
    expect(result.reason.split('\n')).toEqual([
      'FAIL a (throws): the check threw: db down',
      'FAIL b (rejects): the check threw: refused',
      'FAIL c (truthy): the check returned pass "yes" instead of true or false',
      'FAIL d (hangs): the check did not finish within 20 ms and was aborted',
    ]);
  });

  it('gives the check the question, the run (output and record) and a signal that aborts on timeout', async () => {
    let seen: StateCheckContext | undefined;
    kind('peek', {
      schema: {},
      timeoutMs: 30,
      check: (_params, ctx) => {
        seen = ctx;
        return new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve({ pass: true, reason: 'late' })),
        );
      },
    });
    const response = { output: 'done', toolCalls: [{ function_name: 'save', arguments: { a: 1 } }] };
    const result = await grade({ assertions: [{ id: 'p', kind: 'peek' }] }, response);
    // A pass that arrives after the time ran out does not count.
    expect(result.reason).toBe('FAIL p (peek): the check did not finish within 30 ms and was aborted');
    expect(seen?.question.id).toBe('q');
    expect(seen?.run.output).toBe('done');
    expect(seen?.run.record).toEqual([{ function_name: 'save', arguments: { a: 1 } }]);
    expect(seen?.signal.aborted).toBe(true);
  });

  it('does not run checks once grading was aborted', async () => {
    let ran = false;
    kind('never', { schema: {}, check: () => ((ran = true), { pass: true, reason: 'ok' }) });
    const controller = new AbortController();
    controller.abort(new Error('test cancelled'));
    const result = await grade({ assertions: [{ id: 'n', kind: 'never' }] }, 'done', controller.signal);
    expect(result.reason).toBe('FAIL n (never): not checked: grading was aborted');
    expect(ran).toBe(false);
  });

  it('is an observation without a tool-call record: its records are not unverified', async () => {
    titled();
    const result = await gradeQuestion({
      question: {
        id: 'q',
        input: 'x',
        metadata: { state: { assertions: [{ id: 'n', kind: 'node_title', node: 1, title: 'Launch' }] } },
      },
      response: 'Renamed.',
      graders: ['state_grader'],
    });
    const [record] = toRecords(result, [stateGrader], {
      identity: { file: 'f', name: 'n', title: 'n', isRunning: () => true },
      target: null,
      question: 'q',
      trial: 1,
    });
    expect(record).toMatchObject({
      observesActions: true,
      toolCallRecord: false,
      queriedState: true,
      composite: 5,
    });
    expect(record!.unverified).toBeUndefined();
  });
});

describe('defineStateGrader', () => {
  it('makes a grader with its own id and kinds, which the global registry does not see', async () => {
    const crm = defineStateGrader({
      id: 'crm_state',
      label: 'CRM state',
      checks: {
        contact_exists: {
          schema: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
          check: ({ email }) => ({ pass: email === 'a@example.com', reason: `looked up ${String(email)}` }),
        },
      },
    });
    expect([crm.id, crm.observesActions, crm.maxScore]).toEqual(['crm_state', true, 5]);
    expect(getStateCheck('contact_exists')).toBeUndefined();
    const question = {
      id: 'q',
      input: 'x',
      metadata: { state: { assertions: [{ id: 'c', kind: 'contact_exists', email: 'a@example.com' }] } },
    };
    const own = await gradeQuestion({ question, response: 'ok', graders: [crm] });
    expect(own.grades[0]).toMatchObject({
      grader: 'crm_state',
      score: 5,
      reason: 'PASS c (contact_exists): looked up a@example.com',
    });
    const global = await gradeQuestion({ question, response: 'ok', graders: ['state_grader'] });
    expect(global.grades[0]!.reason).toMatch(/^setup failure: .*unknown kind 'contact_exists'/);
  });

  it('refuses a grader without kinds', () => {
    expect(() => defineStateGrader({ id: 'x_state', label: 'X', checks: {} })).toThrow(/at least one kind/);
  });
});
