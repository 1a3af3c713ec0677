import type { RunnerChannel } from '../src/run/channel.js';
import {
  checkGrader,
  checkOptions,
  checkReceived,
  checkThreshold,
  defaultThreshold,
  runGradeMatcher,
  type MatcherOutcome,
  type MatcherStateLike,
} from '../src/run/assertion.js';
import type { GradeMatcherOptions, GraderRef } from './types.js';

/** The `toPassGrader` matcher function, as a runner's `expect.extend` takes it. */
export type ToPassGrader = (
  this: MatcherStateLike,
  received: unknown,
  grader: GraderRef,
  options?: GradeMatcherOptions,
) => Promise<MatcherOutcome>;

/**
 * Makes `toPassGrader` for one runner channel. It grades the received response or agent run with
 * one grader through `gradeQuestion` and passes when the composite reaches `options.threshold`
 * (default: the target's, then the configured pass threshold, 3.5). Misuse throws a TypeError at
 * the call; a skip or an error fails, also under `.not`.
 *
 * @example
 * ```ts
 * expect.extend({ toPassGrader: createToPassGrader(vitestChannel) });
 * await expect({ output: 'Here are the articles', toolCalls: [] }).toPassGrader('read_only_run');
 * ```
 */
export function createToPassGrader(channel: RunnerChannel): ToPassGrader {
  return function toPassGrader(received, grader, options) {
    const name = 'toPassGrader';
    checkReceived(name, received);
    const resolved = checkGrader(name, grader);
    const checked = checkOptions(name, options);
    const threshold = checkThreshold(name, 'options.threshold', defaultThreshold(checked));
    return runGradeMatcher(this, channel, received, {
      name,
      expected: 'grader',
      grader: resolved,
      threshold,
      options: checked,
    });
  };
}
