/**
 * How `rubric_checks` combines the outcomes of a rubric's checks: `all_pass` (5 when every check
 * passes, else 0), `any_pass` (5 when one does), or a numeric mode over the check scores (0 to 1):
 * `weighted_avg`, `min`, `max`, `median`.
 *
 * @example
 * ```ts
 * const mode: CombineMode = 'weighted_avg';
 * ```
 */
export type CombineMode = 'all_pass' | 'any_pass' | 'weighted_avg' | 'min' | 'max' | 'median';

/**
 * The `scoring` block of a rubric: the combine mode, and for the numeric modes an optional pass
 * threshold (0 to 1) under which the rubric scores 0.
 *
 * @example
 * ```ts
 * const scoring: RubricScoring = { combine: 'weighted_avg', pass_threshold: 0.7 };
 * ```
 */
export interface RubricScoring {
  combine: CombineMode;
  pass_threshold?: number;
}

/**
 * One check of a rubric: its `type` (the kind: `must_contain_any`, `must_not_contain`, `regex`,
 * `json_schema`, `format`, `target_match`, `tool_usage`, `state`, `llm_judge`, or a kind a
 * check executor brings), an optional `id` and `weight`, and the kind's own params. An
 * `llm_judge` check carries `criteria`, which reach the judges.
 *
 * @example
 * ```ts
 * const checks: RubricCheck[] = [
 *   { type: 'llm_judge', criteria: 'Names the 30-day window.' },
 *   { id: 'says_refund', type: 'must_contain_any', values: ['refund'], weight: 2 },
 * ];
 * ```
 */
export interface RubricCheck {
  type: string;
  id?: string;
  weight?: number;
  criteria?: string;
  [param: string]: unknown;
}

/**
 * A rubric document. Today's files (`checks: [{ type: llm_judge, criteria }]`, an optional `name`
 * and `description`) stay valid; the extended document adds `id` (snake_case), `version`
 * (semver: a major bump means old and new scores are not comparable; stored with each grade),
 * `label`, `scoring` and `applicable_bundles` (empty or absent means any bundle).
 *
 * @example
 * ```ts
 * const rubric: Rubric = {
 *   id: 'refund_reply',
 *   version: '1.0.0',
 *   checks: [{ id: 'mentions_refund', type: 'must_contain_any', values: ['refund'] }],
 *   scoring: { combine: 'all_pass' },
 * };
 * ```
 */
export interface Rubric {
  id?: string;
  version?: string;
  label?: string;
  name?: string;
  description?: string;
  checks: RubricCheck[];
  scoring?: RubricScoring;
  applicable_bundles?: string[];
}

/**
 * The rubric a question's `rubric_ref` names, as the grading context carries it (`context.rubric`):
 * the document and the file it came from, or why it could not be read.
 *
 * @example
 * ```ts
 * const resolved: ResolvedRubric = { ref: 'refund_reply', file: '/repo/rubrics/refund_reply.yaml', rubric };
 * ```
 */
export type ResolvedRubric =
  | { ref: string; file: string; rubric: Rubric; error?: undefined }
  | { ref: string; error: string; file?: string; rubric?: undefined };
