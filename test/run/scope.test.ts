import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { captureLogs, captureLogsAsync, logger } from '../../src/logger.js';
import { runWithIdentity, scopedIdentity, type ScopedIdentity } from '../../src/run/channel.js';

const KEY = Symbol.for('ai-eval.test-scope');

function identity(name: string, running: { value: boolean } = { value: true }): ScopedIdentity {
  return {
    file: '/p/a.test.ts',
    name,
    title: name,
    isRunning: () => running.value,
    question: name,
    trial: 1,
  };
}

beforeEach(() => {
  delete (globalThis as Record<symbol, unknown>)[KEY];
});

describe('the scope of a generated test', () => {
  it('gives a sequential trial to matchers of its own test only, while it runs', async () => {
    const running = { value: true };
    const q1 = identity('suite > q1', running);
    const seen = await runWithIdentity(
      q1,
      async () => {
        await sleep(1);
        return {
          bare: scopedIdentity(),
          same: scopedIdentity({ ...q1, isRunning: () => true }),
          other: scopedIdentity({ ...identity('other test'), isRunning: () => true }),
        };
      },
      true,
    );
    expect(seen.bare).toBe(q1);
    expect(seen.same).toBe(q1);
    expect(seen.other).toBeUndefined();
    expect(scopedIdentity()).toBeUndefined();
  });

  it('gives nothing for a sequential trial whose test is no longer running', async () => {
    const running = { value: true };
    const q1 = identity('suite > q1', running);
    const seen = await runWithIdentity(
      q1,
      async () => {
        running.value = false;
        await sleep(1);
        return scopedIdentity();
      },
      true,
    );
    expect(seen).toBeUndefined();
  });

  it('carries later trials in the async context once a matcher read the scope', async () => {
    await runWithIdentity(identity('suite > q1'), () => Promise.resolve(scopedIdentity()), true);
    // q2 leaves work running past its end; q3 runs meanwhile. The late work still sees q2.
    let late: Promise<ScopedIdentity | undefined> | undefined;
    await runWithIdentity(
      identity('suite > q2'),
      () => {
        late = sleep(20).then(() => scopedIdentity());
        return Promise.resolve();
      },
      true,
    );
    const during = await runWithIdentity(
      identity('suite > q3'),
      async () => {
        await sleep(40);
        return scopedIdentity();
      },
      true,
    );
    expect(during?.name).toBe('suite > q3');
    expect((await late)?.name).toBe('suite > q2');
  });

  it('keeps concurrent trials apart through the async context', async () => {
    const [a, b] = await Promise.all(
      ['suite > c1', 'suite > c2'].map((name, i) =>
        runWithIdentity(identity(name), async () => {
          await sleep(10 - i * 5);
          return scopedIdentity()?.name;
        }),
      ),
    );
    expect([a, b]).toEqual(['suite > c1', 'suite > c2']);
  });
});

describe('captureLogs', () => {
  it('captures what the function writes while it runs, nested captures included', () => {
    const outer = captureLogs(() => {
      logger.debug('outer one', 'test');
      const inner = captureLogs(() => {
        logger.debug('inner', 'test');
        return 'value';
      });
      logger.debug('outer two', 'test');
      return inner;
    });
    expect(outer.value.value).toBe('value');
    expect(outer.value.logs.map((l) => l.message)).toEqual(['inner']);
    expect(outer.logs.map((l) => l.message)).toEqual(['outer one', 'inner', 'outer two']);
  });

  it('feeds an enclosing async capture, and leaves what runs after it returned to others', async () => {
    let late: Promise<void> | undefined;
    const sync = await captureLogsAsync(async () => {
      const { logs } = captureLogs(() => {
        logger.debug('during', 'test');
        late = sleep(1).then(() => logger.debug('after', 'test'));
      });
      await late;
      return logs;
    });
    expect(sync.value.map((l) => l.message)).toEqual(['during']);
    expect(sync.logs.map((l) => l.message)).toEqual(['during', 'after']);
  });
});
