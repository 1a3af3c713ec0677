import { describe, expect, it } from 'vitest';
import { vitestChannel } from '../../matchers/vitest-channel.js';
import type { TestIdentity } from '../../src/run/channel.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { rec } from '../helpers/report-fixtures.js';

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
      await vitestChannel.send(identity, [rec({ question: `q${sends}`, grader: 'read_only_run' })]);
      sends += 1;
    }
    expect(turned).toBe(true);
    // Every record still lands on the test's meta, in order.
    expect(task.meta.aiEval?.map((r) => r.question)).toEqual(
      Array.from({ length: sends }, (_, i) => `q${i}`),
    );
  });
});
