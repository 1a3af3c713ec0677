import { describe, expect, it } from 'vitest';
import { vitestChannel } from '../../matchers/vitest-channel.js';
import type { TestIdentity } from '../../src/run/channel.js';
import { RECORD_VERSION, type EvalRecord } from '../../src/run/record-types.js';

function record(question: string): EvalRecord {
  return {
    v: RECORD_VERSION,
    kind: 'grade',
    test: { file: '/x.test.ts', name: question },
    target: null,
    question,
    trial: 1,
    grader: 'read_only_run',
    label: 'Read-only run (binary, 0-1)',
    min: 0,
    max: 1,
    score: 1,
    composite: 5,
    reason: 'no mutating tool among 0 recorded calls',
    error: false,
    skipped: false,
    llm: false,
    observesActions: true,
    toolCallRecord: true,
    passThreshold: 3.5,
    at: 1700000000000,
  };
}

describe('the Vitest channel', () => {
  it("lets the worker's event loop turn while questions that never wait send their records", async () => {
    // A test that never waits for anything but its own sends, as a file of scripted questions: a
    // forks worker flushes what Vitest sends its main process only when its event loop turns.
    const task = { meta: {} as { aiEval?: EvalRecord[] }, context: {} };
    const identity: TestIdentity = {
      file: '/x.test.ts',
      name: 'q',
      title: 'q',
      isRunning: () => true,
      handle: task,
    };
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    let sends = 0;
    const start = performance.now();
    while (!turned && performance.now() - start < 1000) {
      await vitestChannel.send(identity, [record(`q${sends}`)]);
      sends += 1;
    }
    expect(turned).toBe(true);
    // Every record still lands on the test's meta, in order.
    expect(task.meta.aiEval?.map((r) => r.question)).toEqual(
      Array.from({ length: sends }, (_, i) => `q${i}`),
    );
  });
});
