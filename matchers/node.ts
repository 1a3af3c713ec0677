/**
 * `ai-eval/node`: `evalSuite` for node:test, built on node:test's `describe` and `test`. For the
 * matchers, import `ai-eval/expect`. Run the files with the ai-eval reporter to get the report and
 * gates: `node --test --test-reporter=ai-eval/reporter/node`.
 */
import { defineEvalSuite } from '../src/run/suite.js';
import type { EvalSuiteOptions } from '../src/run/suite-options.js';
import { trackNodeTests } from './node-channel.js';
import { nodeSuiteRuntime } from './node-suite.js';

trackNodeTests();

/**
 * Turns a dataset into a node:test suite: one `describe(name)` with one test per question, titled
 * by its id and tags. Each test runs `run(question, { signal, trial })` (the signal aborts when
 * node:test times the test out), grades the response with every target grader through
 * `gradeQuestion`, writes the records to the reporter's side channel, and fails when the composite
 * is below the pass threshold, nothing scored it, or a grader errored. Disabled questions show as
 * skipped; an empty, missing or invalid dataset is one failing test.
 *
 * @example
 * ```ts
 * // support.test.mjs, run with: node --test --test-reporter=ai-eval/reporter/node
 * import { evalSuite } from 'ai-eval/node';
 *
 * evalSuite('support bot', {
 *   dataset: 'evals/support.yaml',
 *   target: { name: 'support-bot', mode: 'agent', graders: ['read_only_run'] },
 *   run: (question, { signal }) => supportAgent.run(question.input ?? '', { signal }),
 * });
 * ```
 */
export function evalSuite(name: string, options: EvalSuiteOptions): void {
  defineEvalSuite(nodeSuiteRuntime(options.concurrent === true), name, options);
}

export type { AiEvalMatchers, GradeMatcherOptions, GraderRef } from './types.js';
export type { AfterQuestionHelpers, EvalSuiteOptions, RunHelpers } from '../src/run/suite-options.js';
export type { EvalRecord, RecordTarget } from '../src/run/record-types.js';
