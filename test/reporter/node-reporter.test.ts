import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeReporter, type NodeTestEventLike } from '../../reporter/node.js';
import { appendRecords, CHANNEL_DIR_ENV } from '../../src/report/side-channel.js';
import { RECORD_VERSION, type EvalRecord } from '../../src/run/record-types.js';

const before = process.env[CHANNEL_DIR_ENV];
afterEach(() => {
  if (before === undefined) delete process.env[CHANNEL_DIR_ENV];
  else process.env[CHANNEL_DIR_ENV] = before;
});

async function* events(list: NodeTestEventLike[]): AsyncGenerator<NodeTestEventLike> {
  for (const event of list) yield await Promise.resolve(event);
}

const start = (name: string, nesting: number): NodeTestEventLike => ({
  type: 'test:start',
  data: { name, nesting },
});
const pass = (name: string, nesting: number, suite = false): NodeTestEventLike => ({
  type: 'test:pass',
  data: { name, nesting, ...(suite ? { details: { type: 'suite' } } : {}) },
});

/** A record of one accuracy_judge grade (0-5) of a test. */
function rec(question: string, score: number, name: string): EvalRecord {
  return {
    v: RECORD_VERSION,
    kind: 'grade',
    test: { file: '/x.test.mjs', name },
    target: {
      name: 'support-bot',
      mode: 'chat',
      graders: ['accuracy_judge'],
      actionObserving: [],
      passThreshold: 3.5,
    },
    question,
    trial: 1,
    grader: 'accuracy_judge',
    label: 'Accuracy (0-5)',
    min: 0,
    max: 5,
    score,
    composite: score,
    reason: 'scripted',
    error: false,
    skipped: false,
    llm: true,
    observesActions: false,
    toolCallRecord: false,
    passThreshold: 3.5,
    at: 1700000000000,
  };
}

describe('the node:test reporter', () => {
  it('joins the records to the tests node:test reported by full name, and keeps the last result', async () => {
    const reporter = createNodeReporter({ spec: false, colors: false });
    const dir = process.env[CHANNEL_DIR_ENV]!;
    expect(existsSync(dir)).toBe(true);
    appendRecords([rec('q1', 4, 'outer > support > q1'), rec('q2', 2, 'outer > gone')], dir);
    let out = '';
    const stream = events([
      start('outer', 0),
      start('support', 1),
      start('q1', 2),
      pass('q1', 2),
      start('broken', 2),
      { type: 'test:fail', data: { name: 'broken', nesting: 2 } },
      start('later', 2),
      { type: 'test:fail', data: { name: 'later', nesting: 2, todo: true } },
      pass('support', 1, true),
      pass('outer', 0, true),
    ]);
    for await (const chunk of reporter(stream)) out += chunk;
    expect(out).toContain('1 record of tests node:test did not report were dropped');
    expect(out).toContain('ai-eval: 1 target, 1 question, average 4.00 over 1 of 1 scored, 100% passed');
    // node:test's failed tests (not suites, not todos) are the run's failed tests.
    expect(reporter.lastResult?.report.failedTests).toBe(1);
    expect(reporter.lastResult?.report.questionCount).toBe(1);
    expect(existsSync(dir)).toBe(false);
  });
});
