import type { RunnerChannel } from '../src/run/channel.js';
import {
  checkGrader,
  checkOptions,
  checkReceived,
  checkThreshold,
  runGradeMatcher,
  type MatcherOutcome,
  type MatcherStateLike,
} from '../src/run/assertion.js';
import type { GradeMatcherOptions, GraderRef } from './types.js';

/** The `toScoreAtLeast` matcher function, as a runner's `expect.extend` takes it. */
export type ToScoreAtLeast = (
  this: MatcherStateLike,
  received: unknown,
  grader: GraderRef,
  score: number,
  options?: Omit<GradeMatcherOptions, 'threshold'>,
) => Promise<MatcherOutcome>;

/**
 * Makes `toScoreAtLeast` for one runner channel: `toPassGrader` with an explicit composite (0 to
 * 5) to reach instead of the configured threshold.
 *
 * @example
 * ```ts
 * expect.extend({ toScoreAtLeast: createToScoreAtLeast(vitestChannel) });
 * await expect('Paris is the capital.').toScoreAtLeast('accuracy_grader', 4, {
 *   question: { expected_facts: ['Paris'] },
 * });
 * ```
 */
export function createToScoreAtLeast(channel: RunnerChannel): ToScoreAtLeast {
  return function toScoreAtLeast(received, grader, score, options) {
    const name = 'toScoreAtLeast';
    checkReceived(name, received);
    const resolved = checkGrader(name, grader);
    const threshold = checkThreshold(name, 'the score', score);
    const checked = checkOptions(name, options);
    return runGradeMatcher(this, channel, received, {
      name,
      expected: 'grader, score',
      grader: resolved,
      threshold,
      options: { ...checked, threshold },
    });
  };
}
