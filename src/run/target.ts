import { AiEvalError } from '../errors.js';
import type { Grader } from '../grading/define-grader.js';
import { resolveGrader, type GraderId } from '../grading/registry.js';
import { normalizeToolCatalog, type ToolCatalogInput } from '../grading/tool-catalog.js';
import type { ClaimPattern } from '../grading/types.js';
import { checkClaimPatterns } from '../graders/claim-patterns.js';

/** A gate on a target or a run. `hard` fails the run; `soft` warns. */
export interface Gate {
  level: 'hard' | 'soft';
  /** The lowest acceptable average question composite (0 to 5). */
  minAverage?: number;
  /** The lowest acceptable share of passing questions (0 to 1). */
  minPassRate?: number;
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

/**
 * Checks a target and resolves its graders. Errors name the target and what to fix.
 *
 * @example
 * ```ts
 * const graders = resolveTarget({ name: 'support-bot', mode: 'agent', graders: ['read_only_run'] });
 * ```
 */
export function resolveTarget(target: Target): Grader[] {
  const where = `target ${JSON.stringify(target?.name)}`;
  if (!target || typeof target.name !== 'string' || target.name.trim() === '') {
    throw new AiEvalError('INVALID_TARGET', 'A target needs a non-empty name.');
  }
  if (target.mode !== 'agent' && target.mode !== 'chat') {
    throw new AiEvalError(
      'INVALID_TARGET',
      `${where}: mode must be 'agent' or 'chat', got ${JSON.stringify(target.mode)}.`,
    );
  }
  if (!Array.isArray(target.graders) || target.graders.length === 0) {
    throw new AiEvalError('INVALID_TARGET', `${where}: graders must list at least one grader id or grader.`);
  }
  if (target.passThreshold !== undefined && !(target.passThreshold >= 0 && target.passThreshold <= 5)) {
    throw new AiEvalError(
      'INVALID_TARGET',
      `${where}: passThreshold must be from 0 to 5, got ${target.passThreshold}.`,
    );
  }
  const limit = target.responseCharLimit;
  if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit) && limit > 0)) {
    throw new AiEvalError(
      'INVALID_TARGET',
      `${where}: responseCharLimit must be a positive whole number of characters, got ${JSON.stringify(limit)}.`,
    );
  }
  if (target.scoreBy !== undefined && target.scoreBy !== 'avg_score' && target.scoreBy !== 'pass_rate') {
    throw new AiEvalError(
      'INVALID_TARGET',
      `${where}: scoreBy must be 'avg_score' or 'pass_rate', got ${JSON.stringify(target.scoreBy)}.`,
    );
  }
  checkEvidence(target, where);
  return target.graders.map(resolveGrader);
}

/** The target's tool catalog and claim patterns, checked so a malformed one fails before any question runs. */
function checkEvidence(target: Target, where: string): void {
  if (target.tools !== undefined) {
    try {
      normalizeToolCatalog(target.tools, 'tools');
    } catch (error) {
      throw new AiEvalError('INVALID_TARGET', `${where}: ${(error as Error).message}`, { cause: error });
    }
  }
  if (target.claimPatterns !== undefined) {
    const problems = checkClaimPatterns(target.claimPatterns, 'claimPatterns');
    if (problems.length > 0) throw new AiEvalError('INVALID_TARGET', `${where}: ${problems.join('; ')}`);
  }
}
