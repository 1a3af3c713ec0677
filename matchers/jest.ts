/**
 * `ai-eval/jest`: importing it (in a test file or a `setupFilesAfterEnv` entry) registers
 * `toPassGrader` and `toScoreAtLeast` on Jest's `expect` (the global one, which `@jest/globals`
 * also exports) and types them for `@jest/globals` and for `@types/jest` globals; it also exports
 * `evalSuite`.
 */
import type {} from 'expect';
import type {
  AiEvalRecord,
  EvalRecord,
  FilterSkipRecord,
  LoadFailureRecord,
  SuiteRecord,
} from '../src/run/record-types.js';
import { ChannelWriter } from '../src/report/side-channel.js';
import { createJestChannel, type JestExpectState } from './jest-channel.js';
import { jestSuiteRuntime } from './jest-suite.js';
import { defineEvalSuite } from '../src/run/suite.js';
import type { EvalSuiteOptions } from '../src/run/suite-options.js';
import { createToPassGrader } from './to-pass-grader.js';
import { createToScoreAtLeast } from './to-score-at-least.js';
import type { AiEvalMatchers } from './types.js';

interface JestExpectLike {
  extend(matchers: Record<string, unknown>): void;
  getState(): JestExpectState;
}

function jestExpect(): JestExpectLike | undefined {
  const candidate = (globalThis as { expect?: Partial<JestExpectLike> }).expect;
  return typeof candidate?.extend === 'function' && typeof candidate.getState === 'function'
    ? (candidate as JestExpectLike)
    : undefined;
}

const state = (): JestExpectState => jestExpect()?.getState() ?? {};
// One writer per copy of ai-eval (Jest loads one per test file): a matcher's records are written
// at once, a generated suite's held until its afterAll.
const writer = new ChannelWriter();
const channel = createJestChannel(state, writer);
// Outside Jest (a plain `node` import) there is no expect to extend: registering is skipped.
jestExpect()?.extend({
  toPassGrader: createToPassGrader(channel),
  toScoreAtLeast: createToScoreAtLeast(channel),
});

const runtime = jestSuiteRuntime(channel, createJestChannel(state, writer, { hold: true }), () =>
  writer.flush(),
);

/**
 * Turns a dataset into a Jest suite: one `describe(name)` with one test per question, titled by
 * its id and tags. Each test runs `run(question, { signal, trial })`, grades the response with
 * every target grader through `gradeQuestion`, writes the records to the reporter's side channel,
 * and fails when the composite is below the pass threshold, nothing scored it, or a grader
 * errored. Disabled questions show as skipped; an empty, missing or invalid dataset is one
 * failing test. Loading is synchronous (Jest cannot await inside `describe`).
 *
 * @example
 * ```ts
 * import { evalSuite } from 'ai-eval/jest';
 *
 * evalSuite('support bot', {
 *   dataset: 'evals/support.yaml',
 *   target: { name: 'support-bot', mode: 'agent', graders: ['read_only_run'] },
 *   run: (question, { signal }) => supportAgent.run(question.input ?? '', { signal }),
 * });
 * ```
 */
export function evalSuite(name: string, options: EvalSuiteOptions): void {
  defineEvalSuite(runtime, name, options);
}

declare module 'expect' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
  interface Matchers<R extends void | Promise<void>, T = unknown> extends AiEvalMatchers {}
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
    interface Matchers<R, T = {}> extends AiEvalMatchers {}
  }
}

export type { AiEvalMatchers, GradeMatcherOptions, GraderRef } from './types.js';
export type { AfterQuestionHelpers, EvalSuiteOptions, RunHelpers } from '../src/run/suite-options.js';
export type { AiEvalRecord, EvalRecord, FilterSkipRecord, LoadFailureRecord, SuiteRecord };
