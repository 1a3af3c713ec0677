import { optionsChecker } from '../internal/options-check.js';
import { targetSchema } from './option-schemas.js';
import type { Grader } from '../grading/define-grader.js';
import { resolveGrader, type GraderId } from '../registry/graders.js';

/** A gate on a target or a run. `hard` fails the run; `soft` warns. */
export interface Gate {
  level: 'hard' | 'soft';
  /** The lowest acceptable average question composite (0 to 5). */
  minAverage?: number;
  /** The lowest acceptable share of passing questions (0 to 1). */
  minPassRate?: number;
  /**
   * The lowest acceptable share of planned questions that got a composite (0 to 1). Default 1: a
   * question that errored, went unscored or whose dataset did not load fails the gate.
   */
  minCoverage?: number;
}

/**
 * What is evaluated and how: the graders that score each question, the agent or chat mode, and the
 * thresholds. An agent-mode target that no action-observing grader scores gets an advisory.
 */
export interface Target {
  name: string;
  mode: 'agent' | 'chat';
  graders: ReadonlyArray<GraderId | Grader>;
  /** Overrides the configured response char limit. */
  responseCharLimit?: number;
  /** Overrides the configured pass threshold (0 to 5). */
  passThreshold?: number;
  /** What the target is scored by in reports. Default `avg_score`. */
  scoreBy?: 'avg_score' | 'pass_rate';
  gate?: Gate;
}

const checkTarget = optionsChecker<Target>(targetSchema);

/**
 * Checks a target and resolves its graders. Errors name the target and what to fix.
 *
 * @example
 * ```ts
 * const graders = resolveTarget({ name: 'support-bot', mode: 'agent', graders: ['read_only_run'] });
 * ```
 */
export function resolveTarget(target: Target): Grader[] {
  const name = typeof (target as Partial<Target> | undefined)?.name === 'string' ? target.name : undefined;
  checkTarget(target, {
    code: 'INVALID_TARGET',
    subject: name !== undefined && name.trim() !== '' ? `target ${JSON.stringify(name)}` : 'target',
    docs: 'docs/suites.md',
  });
  return target.graders.map(resolveGrader);
}
