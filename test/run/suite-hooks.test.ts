import { afterEach, describe, expect, it } from 'vitest';
import { defineStateCheck, unregisterStateCheck } from '../../src/graders/state/state-checks.js';
import { defineGrader } from '../../src/grading/define-grader.js';
import type { Question } from '../../src/grading/types.js';
import type { AiEvalRecord, EvalRecord } from '../../src/run/record-types.js';
import type { EvalSuiteOptions } from '../../src/run/suite-options.js';
import { checkSuiteOptions } from '../../src/run/suite-options.js';
import { targetRecord } from '../../src/run/record.js';
import { runQuestion, type QuestionRuntime } from '../../src/run/suite-question.js';
import { resolveTarget } from '../../src/run/target.js';

afterEach(() => {
  unregisterStateCheck('count_is');
});

function runtime(runnerSignal?: () => AbortSignal | undefined): {
  runtime: QuestionRuntime;
  records: AiEvalRecord[];
} {
  const records: AiEvalRecord[] = [];
  return {
    records,
    runtime: {
      identify: (_context, title) => ({
        file: 'hooks.test.ts',
        name: `suite > ${title}`,
        title,
        isRunning: () => true,
      }),
      signal: runnerSignal ?? (() => undefined),
      channel: {
        identify: () => undefined,
        send: (_identity, sent) => {
          records.push(...sent);
          return Promise.resolve();
        },
      },
    },
  };
}

const question: Question = {
  id: 'q1',
  input: 'add one',
  metadata: { state: { assertions: [{ id: 'one', kind: 'count_is', count: 1 }] } },
};

async function runOnce(
  options: Partial<EvalSuiteOptions>,
  timeout = 10_000,
  runnerSignal?: () => AbortSignal | undefined,
) {
  const { runtime: rt, records } = runtime(runnerSignal);
  const full: EvalSuiteOptions = {
    dataset: 'd.yaml',
    target: { name: 'store-bot', mode: 'agent', graders: ['state_grader'] },
    run: () => 'done',
    ...options,
  };
  let failure: string | undefined;
  try {
    await runQuestion(rt, full, question, undefined, {
      title: 'q1',
      timeout,
      timeoutSource: 'suite',
      datasetFile: undefined,
      dataset: undefined,
      // The suite resolves its target once (src/run/suite.ts); here, the same by hand.
      target: {
        graders: resolveTarget(full.target),
        record: (passThreshold) => targetRecord(full.target, passThreshold),
      },
    });
  } catch (error) {
    failure = (error as Error).message;
  }
  return { failure, records: records as EvalRecord[] };
}

describe('evalSuite beforeQuestion and afterQuestion', () => {
  it('seed the state before run, and the state grader reads it before afterQuestion resets it', async () => {
    let count = 99;
    const order: string[] = [];
    defineStateCheck('count_is', {
      schema: { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } },
      check: ({ count: want }) => {
        order.push('state check');
        return { pass: count === want, reason: `count is ${count}` };
      },
    });
    const { failure, records } = await runOnce({
      beforeQuestion: (q, { trial, signal }) => {
        order.push(`before ${q.id} trial ${trial} ${signal.aborted ? 'aborted' : 'live'}`);
        count = 0;
      },
      run: () => {
        order.push('run');
        count += 1;
        return 'added one';
      },
      afterQuestion: (_q, { result, response }) => {
        order.push(
          `after ${typeof response === 'string' ? response : 'a run'} ${result?.passed === true ? 'passed' : 'not passed'}`,
        );
        count = 99;
      },
    });
    expect(failure).toBeUndefined();
    expect(order).toEqual(['before q1 trial 1 live', 'run', 'state check', 'after added one passed']);
    expect(records.map((r) => [r.grader, r.composite, r.reason])).toEqual([
      ['state_grader', 5, 'PASS one (count_is): count is 1'],
    ]);
  });

  it('records a beforeQuestion error as errored grades, does not run the agent, and still runs afterQuestion', async () => {
    let ran = false;
    let after = false;
    const { failure, records } = await runOnce({
      beforeQuestion: () => {
        throw new Error('seed failed');
      },
      run: () => ((ran = true), 'x'),
      afterQuestion: () => {
        after = true;
      },
    });
    expect([ran, after]).toEqual([false, true]);
    expect(failure).toBe('q1: beforeQuestion hook failed: seed failed');
    expect(records.map((r) => [r.grader, r.error, r.reason])).toEqual([
      ['state_grader', true, 'no response to grade: beforeQuestion hook failed: seed failed'],
    ]);
  });

  it('turns every grade into an error naming afterQuestion when it throws', async () => {
    defineStateCheck('count_is', { schema: {}, check: () => ({ pass: true, reason: 'fine' }) });
    const { failure, records } = await runOnce({
      afterQuestion: () => Promise.reject(new Error('reset failed')),
    });
    expect(records.map((r) => [r.error, r.composite, r.reason])).toEqual([
      [
        true,
        null,
        'afterQuestion hook failed: reset failed (the grade before it: PASS one (count_is): fine)',
      ],
    ]);
    expect(failure).toContain('q1: unscored: every grader skipped or errored');
  });

  it('runs the hooks inside the question timeout: a hook that hangs times the question out', async () => {
    const { failure, records } = await runOnce({ beforeQuestion: () => new Promise(() => undefined) }, 50);
    expect(failure).toMatch(
      /^q1: beforeQuestion hook failed: timed out after 50 ms \(the suite timeout option\)/,
    );
    expect(records[0]).toMatchObject({ error: true });
  });

  it('gives run(), the hooks and the graders one signal, aborted by the timeout, also when first read after it', async () => {
    const seen: string[] = [];
    let runSignal: AbortSignal | undefined;
    const { failure } = await runOnce(
      {
        run: async (_q, { signal }) => {
          runSignal = signal;
          signal.addEventListener('abort', () => seen.push(`run saw: ${String(signal.reason)}`));
          await new Promise((resolve) => setTimeout(resolve, 200));
          return 'late';
        },
        // Read only after the timeout: made then, already aborted, with the same reason.
        afterQuestion: (_q, context) => {
          seen.push(`afterQuestion: ${context.signal.aborted} ${String(context.signal.reason)}`);
        },
      },
      50,
    );
    expect(failure).toMatch(/^q1: timed out after 50 ms \(the suite timeout option\)/);
    expect(runSignal?.aborted).toBe(true);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatch(/^run saw: Error: timed out after 50 ms/);
    expect(seen[1]).toMatch(/^afterQuestion: true Error: timed out after 50 ms/);
  });

  it('refuses hooks that are not functions', () => {
    const options = {
      dataset: 'd.yaml',
      target: { name: 't', mode: 'agent', graders: ['state_grader'] },
      run: () => 'x',
    };
    expect(() => checkSuiteOptions('s', { ...options, beforeQuestion: 'reset' })).toThrow(
      'evalSuite("s"): beforeQuestion must be a function',
    );
    expect(() => checkSuiteOptions('s', { ...options, afterQuestion: () => undefined })).not.toThrow();
  });

  it('redacts a secret that a failing run() puts in its error, in the failure message and the records', async () => {
    const { failure, records } = await runOnce({
      run: () => {
        throw new Error('401 Incorrect API key provided: sk-live-0123456789abcdefABCDEF');
      },
    });
    expect(failure).toContain('401 Incorrect API key provided: [redacted]');
    expect(failure).not.toContain('sk-live-0123456789abcdefABCDEF');
    expect(JSON.stringify(records)).not.toContain('sk-live-0123456789abcdefABCDEF');
  });
});

describe("the runner's signal of the test", () => {
  it('aborts the trial with its reason once run() has taken the signal', async () => {
    const runner = new AbortController();
    let seen: unknown;
    const { failure } = await runOnce(
      {
        target: { name: 't', mode: 'agent', graders: ['read_only_run'] },
        run: (_q, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => {
              seen = signal.reason;
              reject(new Error('stopped'));
            });
            setTimeout(() => runner.abort(new Error('test cancelled')), 20);
          }),
      },
      10_000,
      () => runner.signal,
    );
    expect((seen as Error).message).toBe('test cancelled');
    expect(failure).toBe('q1: run() was aborted: test cancelled');
  });

  it('is already aborted for a trial that starts after the runner aborted', async () => {
    const runner = new AbortController();
    runner.abort(new Error('bail'));
    let aborted: boolean | undefined;
    const { failure } = await runOnce(
      {
        target: { name: 't', mode: 'agent', graders: ['read_only_run'] },
        run: (_q, { signal }) => {
          aborted = signal.aborted;
          return 'x';
        },
      },
      10_000,
      () => runner.signal,
    );
    expect(aborted).toBe(true);
    expect(failure).toBe('q1: run() was aborted: bail');
  });

  it('is not looked up, nor listened to, when nothing reads the trial signal', async () => {
    let lookups = 0;
    const runner = new AbortController();
    const { failure, records } = await runOnce(
      {
        target: { name: 't', mode: 'agent', graders: ['read_only_run'] },
        run: () => ({ output: 'x', toolCalls: [{ function_name: 'search', arguments: {} }] }),
      },
      10_000,
      () => {
        lookups++;
        return runner.signal;
      },
    );
    expect(lookups).toBe(0);
    expect(failure).toBeUndefined();
    expect(records.map((r) => [r.grader, r.composite])).toEqual([['read_only_run', 5]]);
  });

  it('stops being listened to when the trial ends', async () => {
    const runner = new AbortController();
    const added: string[] = [];
    const removed: string[] = [];
    const signal = runner.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, listener: EventListener) => {
      added.push(type);
      add(type, listener);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, listener: EventListener) => {
      removed.push(type);
      remove(type, listener);
    }) as typeof signal.removeEventListener;
    await runOnce(
      {
        target: { name: 't', mode: 'agent', graders: ['read_only_run'] },
        run: (_q, { signal: trial }) => (trial.aborted ? 'aborted' : 'x'),
      },
      10_000,
      () => signal,
    );
    expect([added, removed]).toEqual([['abort'], ['abort']]);
  });
});

describe('a trial whose grading outruns its timeout', () => {
  it('blames the grading, not the agent, which had answered', async () => {
    // A stand-in for an LLM judge that hangs: the agent answers at once.
    const hung = defineGrader({
      id: 'hung_judge',
      label: 'Hung judge',
      grade: () => new Promise<never>(() => undefined),
    });
    const { failure, records } = await runOnce(
      { target: { name: 't', mode: 'agent', graders: [hung] }, run: () => 'Paris.' },
      50,
    );
    const why =
      "the agent answered, but grading did not finish (the trial's timeout covers its grading, LLM judges included): timed out after 50 ms (the suite timeout option)";
    expect(failure).toContain(`q1: ${why}`);
    expect(records.map((r) => [r.grader, r.error, r.reason.slice(0, why.length + 10)])).toEqual([
      ['hung_judge', true, `no grade: ${why}`],
    ]);
  });

  it('says only why when grading failed on its own, with time to spare', async () => {
    const { failure, records } = await runOnce({
      target: { name: 't', mode: 'agent', graders: ['read_only_run'] },
      run: () => ({ output: 'Done.', toolCalls: { calls: [{ tool: 'delete_node' }] } }),
    });
    expect(failure).toMatch(/^q1: Unrecognised tool-call record at \$/);
    expect(failure).not.toContain('did not finish');
    expect(records.map((r) => [r.error, r.reason.slice(0, 40)])).toEqual([
      [true, 'no grade: Unrecognised tool-call record '],
    ]);
  });
});
