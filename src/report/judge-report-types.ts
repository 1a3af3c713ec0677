import type { Rate, TrustState } from './judge-trust.js';

/**
 * How an LLM judge's calls went in a run: calls (grades that asked the judge, live or replayed),
 * cache hits, errors (every errored grade, including the three kinds below), refusals,
 * unparseable answers, scores clamped onto its scale, and the error rate (`errors / calls`).
 *
 * @example
 * ```ts
 * const { calls, errors, errorRate }: JudgeHealth = report.judges[0]!.health;
 * ```
 */
export interface JudgeHealth {
  calls: number;
  cacheHits: number;
  errors: number;
  refusals: number;
  unparseable: number;
  clamped: number;
  /** `null` when there were no calls. */
  errorRate: number | null;
}

/**
 * A judge's pass rate in a run (the share of its scored grades at or above the question's pass
 * threshold) and, for a trusted judge, the rate corrected for its measured errors (Rogan-Gladen),
 * with a conservative interval: the corrected rate over the corners of the Wilson 95% intervals of
 * the raw rate, TPR and TNR.
 *
 * @example
 * ```ts
 * const { raw, corrected, low, high }: JudgePassRate = target.judges[0]!.passRate;
 * ```
 */
export interface JudgePassRate {
  /** `null` when the judge scored nothing. */
  raw: number | null;
  passed: number;
  scored: number;
  /** Trusted judges only; otherwise `null`. */
  corrected: number | null;
  low: number | null;
  high: number | null;
}

/**
 * What the report knows of a judge's validation.
 *
 * @example
 * ```ts
 * const validated: JudgeValidationSummary | null = report.judges[0]!.validated;
 * ```
 */
export interface JudgeValidationSummary {
  promptHash: string;
  model: string;
  validatedAt: string;
  gold: string;
  n: number;
  tpr: Rate;
  tnr: Rate;
}

/**
 * One LLM judge in a target: its trust state beside its scores.
 *
 * @example
 * ```ts
 * for (const j of target.judges) console.log(j.id, j.trust, j.averageScore, j.passRate.raw, j.passRate.corrected);
 * ```
 */
export interface TargetJudgeReport {
  id: string;
  trust: TrustState;
  /** Mean composite of its scored grades. */
  averageScore: number | null;
  passRate: JudgePassRate;
  health: JudgeHealth;
}

/**
 * One LLM judge over the whole run: trust state, what it was validated on and what ran, pass rate
 * and health.
 *
 * @example
 * ```ts
 * const stale = report.judges.filter((j: JudgeReport) => j.trust === 'stale');
 * ```
 */
export interface JudgeReport extends TargetJudgeReport {
  /** The prompt hash and model the run's records carry. */
  promptHash: string | null;
  model: string | null;
  validated: JudgeValidationSummary | null;
}
