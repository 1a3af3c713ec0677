import { describe, test, type TestContext } from 'vitest';
import { loadDatasetSync } from '../src/datasets/load.js';
import { watchedFiles } from '../src/datasets/sources/file-watch.js';
import { defineEvalSuite, type SuiteRuntime } from '../src/run/suite.js';
import type { EvalSuiteOptions } from '../src/run/suite-options.js';
import { vitestChannel, vitestIdentity } from './vitest-channel.js';

/**
 * The Vitest suite runtime of one `evalSuite` call. Each generated test also names the files its
 * suite was loaded from (the dataset and its rubrics) on `task.meta.aiEvalFiles`, so the ai-eval
 * reporter can rerun the suite in watch mode when one changes.
 */
function vitestRuntime(): SuiteRuntime {
  let files: string[] = [];
  const watch = (context: TestContext): void => {
    if (files.length > 0) (context.task.meta as { aiEvalFiles?: string[] }).aiEvalFiles = files;
  };
  return {
    describe: (name, fn) => describe(name, fn),
    test: (name, fn, { concurrent, timeout }) =>
      test(name, timeout !== undefined ? { concurrent, timeout } : { concurrent }, (context) => {
        watch(context);
        return fn(context);
      }),
    skip: (name) => test.skip(name, () => undefined),
    skipWithNote: (_suite, title, note, records) =>
      test(title, async (context) => {
        watch(context);
        const identity = vitestIdentity(context.task);
        await vitestChannel.send(identity, records({ file: identity.file, name: identity.name }));
        context.skip(note);
      }),
    identify: (context) => vitestIdentity((context as TestContext).task),
    signal: (context) => (context as TestContext).signal,
    channel: vitestChannel,
    load: (selector, filter) => {
      const load = loadDatasetSync(selector, filter);
      files = watchedFiles(load);
      return load;
    },
  };
}

/**
 * Turns a dataset into a Vitest suite: one `describe(name)` with one test per question, titled by
 * its id and tags. Each test runs `run(question, { signal, trial })`, grades the response with
 * every target grader through `gradeQuestion`, puts the records on the test for the reporter, and
 * fails when the composite is below the pass threshold, nothing scored it, or a grader errored.
 * Disabled questions show as skipped; an empty, missing or invalid dataset is one failing test.
 *
 * @example
 * ```ts
 * import { inputOf } from 'ai-eval';
 * import { evalSuite } from 'ai-eval/vitest';
 *
 * evalSuite('support bot', {
 *   dataset: 'evals/support.yaml',
 *   target: { name: 'support-bot', mode: 'agent', graders: ['read_only_run', 'tool_usage_grader'] },
 *   run: (question, { signal }) => supportAgent.run(inputOf(question), { signal }),
 *   timeout: 30_000,
 * });
 * ```
 */
export function evalSuite(name: string, options: EvalSuiteOptions): void {
  defineEvalSuite(vitestRuntime(), name, options);
}
