/**
 * `ai-eval/expect`: importing it registers `toPassGrader` and `toScoreAtLeast` on the standalone
 * `expect` package (what node:test, mocha and plain scripts use) and types them for it. Records go
 * to the side channel in `AI_EVAL_CHANNEL_DIR`: the node:test reporter (`ai-eval/reporter/node`)
 * sets it up and reads it; for mocha or a script, set it yourself and run `ai-eval report <dir>`.
 * Under `node --test` each record names the test that graded it.
 *
 * @example
 * ```ts
 * // agent.test.mjs, run with: node --test --test-reporter=ai-eval/reporter/node
 * import { test } from 'node:test';
 * import { expect } from 'ai-eval/expect';
 *
 * test('lists drafts without writing', async () => {
 *   await expect(await agent.run('Which pages are drafts?')).toPassGrader('read_only_run');
 * });
 * ```
 */
import { expect } from 'expect';
import type { EvalRecord } from '../src/run/record-types.js';
import { standaloneChannel, trackNodeTests } from './node-channel.js';
import { createToPassGrader } from './to-pass-grader.js';
import { createToScoreAtLeast } from './to-score-at-least.js';
import type { AiEvalMatchers } from './types.js';

trackNodeTests();
expect.extend({
  toPassGrader: createToPassGrader(standaloneChannel),
  toScoreAtLeast: createToScoreAtLeast(standaloneChannel),
});

declare module 'expect' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
  interface Matchers<R extends void | Promise<void>, T = unknown> extends AiEvalMatchers {}
}

/** The standalone `expect`, with the ai-eval matchers registered (the same object `expect` exports). */
export { expect };
export type { AiEvalMatchers, GradeMatcherOptions, GraderRef } from './types.js';
export type { EvalRecord };
