import { accuracyGrader } from '../judges/accuracy-grader.js';
import { actionabilityGrader } from '../judges/actionability-grader.js';
import { completenessGrader } from '../judges/completeness-grader.js';
import { factMatchGrader } from '../judges/fact-match-grader.js';
import { groundednessGrader } from '../judges/groundedness-grader.js';
import { relevanceGrader } from '../judges/relevance-grader.js';
import { claimsGrader } from '../graders/claims.js';
import { formatGrader } from '../graders/format.js';
import { readOnlyRun } from '../graders/read-only-run.js';
import { toolUsageGrader } from '../graders/tool-usage.js';
import { stateGrader } from '../graders/state/state-grader.js';
import { rubricChecks } from '../graders/rubric/rubric-checks.js';

/**
 * The graders ai-eval ships, by id: a const map, so their ids form a typed union. The registry
 * looks here first, so shipped graders need no registration.
 *
 * @example
 * ```ts
 * Object.keys(builtinGraders); // ['read_only_run', 'tool_usage_grader', 'format_grader', ...]
 * builtinGraders.read_only_run.displayLabel; // 'Read-only run (binary, 0-1)'
 * ```
 */
export const builtinGraders = {
  read_only_run: readOnlyRun,
  tool_usage_grader: toolUsageGrader,
  format_grader: formatGrader,
  claims_grader: claimsGrader,
  state_grader: stateGrader,
  rubric_checks: rubricChecks,
  relevance_grader: relevanceGrader,
  completeness_grader: completenessGrader,
  actionability_grader: actionabilityGrader,
  accuracy_grader: accuracyGrader,
  fact_match_grader: factMatchGrader,
  groundedness_grader: groundednessGrader,
} as const;

/**
 * The id of a shipped grader.
 *
 * @example
 * ```ts
 * const id: BuiltinGraderId = 'tool_usage_grader';
 * ```
 */
export type BuiltinGraderId = keyof typeof builtinGraders;
