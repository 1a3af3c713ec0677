import type { RunnerTestCase } from 'vitest';
import { getConfig } from '../src/config.js';
import { formatNumber } from '../src/internal/numbers.js';
import type { AiEvalRecord, EvalRecord } from '../src/run/record-types.js';
import type { RunnerChannel, TestIdentity } from '../src/run/channel.js';

/** The annotation type of grades in Vitest (and its JUnit `<property>`) when annotations are on. */
export const ANNOTATION_TYPE = 'ai-eval';

/** The identity of a running Vitest test. */
export function vitestIdentity(task: RunnerTestCase): TestIdentity {
  return {
    file: task.file.filepath,
    name: task.fullTestName,
    title: task.name,
    // `result.state` is 'run' while the test runs; a timed-out or finished test has moved on.
    isRunning: () => task.result?.state === 'run',
    handle: task,
  };
}

/** The one-line annotation of a record, for example `read_only_run: score 1 of 0-1, composite 5: ...`. */
export function annotationOf(record: AiEvalRecord): string {
  if (record.kind === 'load-failure')
    return `dataset ${record.dataset.ref} did not load: ${record.problems.join(' | ')}`;
  if (record.kind === 'filter-skip')
    return `dataset ${record.dataset.ref}: no question selected by the filters`;
  return gradeAnnotation(record);
}

function gradeAnnotation(record: EvalRecord): string {
  const score =
    record.score === null || record.composite === null
      ? record.error
        ? 'error'
        : 'skipped'
      : `score ${formatNumber(record.score)} of ${formatNumber(record.min)}-${formatNumber(record.max)}, composite ${formatNumber(record.composite)}`;
  const trial = record.trial > 1 ? ` (trial ${record.trial})` : '';
  return `${record.question}${trial} ${record.grader}: ${score}: ${record.reason}`;
}

/**
 * The Vitest channel: records go on the test's `task.meta.aiEval`, which Vitest serialises from any
 * pool to the reporter with the test's result, at no cost per grade. With `configure({ annotations:
 * true })` each send (a question trial, a matcher assertion) also becomes one test annotation, one
 * line per record, so Vitest's own JUnit and verbose reporters show the grades; it is off by
 * default because every annotation captures a stack trace and waits for Vitest's main process.
 * The matcher finds its test through `this.task`, which is the right test under `test.concurrent`
 * only when the test uses its context `expect` (`test('...', async ({ expect }) => ...)`).
 */
export const vitestChannel: RunnerChannel = {
  identify(state) {
    const task = (state as { task?: RunnerTestCase } | undefined)?.task;
    return task && task.type === 'test' ? vitestIdentity(task) : undefined;
  },
  async send(identity, records) {
    const task = identity.handle as RunnerTestCase | undefined;
    if (!task) return;
    const meta = task.meta as { aiEval?: AiEvalRecord[] };
    meta.aiEval ??= [];
    meta.aiEval.push(...records);
    if (!getConfig().annotations || records.length === 0) return;
    const annotate = (
      task.context as { annotate?: (message: string, type?: string) => Promise<unknown> } | undefined
    )?.annotate;
    if (typeof annotate !== 'function') return;
    await annotate(records.map(annotationOf).join('\n'), ANNOTATION_TYPE);
  },
};
