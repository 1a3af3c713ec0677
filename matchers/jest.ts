/**
 * `ai-eval/jest`: importing it (in a test file or a `setupFilesAfterEnv` entry) registers
 * `toPassGrader` and `toScoreAtLeast` on Jest's `expect` (the global one, which `@jest/globals`
 * also exports) and types them for `@jest/globals` and for `@types/jest` globals; it also exports
 * `evalSuite`.
 */
import type {} from 'expect';
import type { EvalRecord } from '../src/report/record.js';
import { createJestChannel, type JestExpectState } from './jest-channel.js';
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

const found = jestExpect();
if (found) {
  const channel = createJestChannel(() => found.getState());
  found.extend({
    toPassGrader: createToPassGrader(channel),
    toScoreAtLeast: createToScoreAtLeast(channel),
  });
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
export type { EvalRecord };
