import { AiEvalError } from '../errors.js';
import { optionsChecker } from '../internal/options-check.js';
import { errorMessage } from '../internal/text.js';
import { targetSchema } from './option-schemas.js';
import { target as validateTarget } from './option-validators.generated.js';
import type { Grader } from '../grading/define-grader.js';
import { resolveGrader, type GraderId } from '../registry/graders.js';
import { normalizeToolCatalog, type ToolCatalogInput } from '../grading/tool-catalog.js';
import type { ClaimPattern } from '../grading/types.js';
import { checkClaimPatterns } from '../graders/claim-patterns.js';

/**
 * A gate on a target or a run. `hard` fails the run; `soft` warns.
 *
 * @example
 * ```ts
 * const gate: Gate = { level: 'hard', minAverage: 3.5, minPassRate: 0.8 };
 * ```
 */
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
  /** Fail when any LLM judge that graded is not `trusted` (unvalidated, stale or untrusted). */
  requireTrustedJudges?: boolean;
  /** The highest acceptable share of errored calls of any one LLM judge (0 to 1). */
  maxJudgeErrorRate?: number;
}

/**
 * What is evaluated and how: the graders that score each question, the agent or chat mode, and the
 * thresholds. An agent-mode target that no action-observing grader scores gets an advisory.
 *
 * @example
 * ```ts
 * const target: Target = {
 *   name: 'support-bot',
 *   mode: 'agent',
 *   graders: ['tool_usage_grader', 'read_only_run', 'accuracy_grader'],
 *   gate: { level: 'hard', minAverage: 3.5 },
 * };
 * ```
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
  /**
   * The tools the agent was given: an OpenAI tools array, an MCP `tools/list` result, an AI SDK
   * tools object, or `{ name, readOnly?, destructive? }` entries. Graders see it as
   * `context.tools`: `read_only_run` takes declared hints over name fragments, `tool_usage_grader`
   * flags an expected tool the catalog does not have.
   */
  tools?: ToolCatalogInput;
  /** Replaces `claims_grader`'s English claim patterns for this target (a question's `metadata.claim_patterns` wins). */
  claimPatterns?: ClaimPattern[];
}

const checkTarget = optionsChecker<Target>(targetSchema, validateTarget);

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
    docs: 'node_modules/ai-eval/docs/suites.md',
  });
  checkEvidence(target, name !== undefined ? `target ${JSON.stringify(name)}` : 'target');
  return target.graders.map(resolveGrader);
}

/** The target's tool catalog and claim patterns, checked so a malformed one fails before any question runs. */
function checkEvidence(target: Target, where: string): void {
  if (target.tools !== undefined) {
    try {
      normalizeToolCatalog(target.tools, 'tools');
    } catch (error) {
      throw new AiEvalError('INVALID_TARGET', `${where}: ${errorMessage(error)}`, { cause: error });
    }
  }
  if (target.claimPatterns !== undefined) {
    const problems = checkClaimPatterns(target.claimPatterns, 'claimPatterns');
    if (problems.length > 0) throw new AiEvalError('INVALID_TARGET', `${where}: ${problems.join('; ')}`);
  }
}
