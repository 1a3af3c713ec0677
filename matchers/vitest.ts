/**
 * `ai-eval/vitest`: importing it (in a test file or a `setupFiles` entry) registers
 * `toPassGrader` and `toScoreAtLeast` on Vitest's `expect` and types them, and exports `evalSuite`.
 */
import { expect } from 'vitest';
import type { AiEvalRecord } from '../src/run/record-types.js';
import { createToPassGrader } from './to-pass-grader.js';
import { createToScoreAtLeast } from './to-score-at-least.js';
import type { AiEvalMatchers } from './types.js';
import { vitestChannel } from './vitest-channel.js';

expect.extend({
  toPassGrader: createToPassGrader(vitestChannel),
  toScoreAtLeast: createToScoreAtLeast(vitestChannel),
});

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
  interface Matchers<T = any> extends AiEvalMatchers {}
  interface TaskMeta {
    /** Every grade ai-eval computed in this test (and what a suite says about itself), for the ai-eval reporter. */
    aiEval?: AiEvalRecord[];
    /** The dataset and rubric files a generated test was loaded from, for watch mode. */
    aiEvalFiles?: string[];
  }
}

export { evalSuite } from './vitest-suite.js';
export type { AiEvalMatchers, GradeMatcherOptions, GraderRef } from './types.js';
export type { AfterQuestionHelpers, EvalSuiteOptions, RunHelpers } from '../src/run/suite-options.js';
export type {
  AiEvalRecord,
  EvalRecord,
  FilterSkipRecord,
  LoadFailureRecord,
  RecordTarget,
  SuiteRecord,
} from '../src/run/record-types.js';
