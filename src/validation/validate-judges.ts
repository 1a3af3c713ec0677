import { getConfig } from '../config.js';
import type { GoldLabel } from '../datasets/gold-labels.js';
import { findJudge } from '../datasets/gold-labels.js';
import { AiEvalError } from '../errors.js';
import type { Judge } from '../judge/define-judge.js';
import { cochranSampleSize, zForConfidence } from '../internal/stats.js';
import { judgeRecordIdentity } from '../registry/judge-identity.js';
import {
  DEFAULT_TRUST_MINIMUMS,
  type JudgeMetrics,
  type Rate,
  type TrustMinimums,
} from '../report/judge-trust.js';
import { gradeQuestion } from '../run/grade-question.js';
import { judgeMetrics, type GoldOutcome } from './metrics.js';
import { sha256Hex } from '../internal/sha256.js';

/**
 * One gold item as the judge graded it in a validation.
 *
 * @example
 * ```ts
 * const disagreements = result.items.filter((i: GoldItemResult) => i.judgePassed !== null && i.judgePassed !== (i.label === 'pass'));
 * ```
 */
export interface GoldItemResult {
  id: string;
  label: 'pass' | 'fail';
  personScore?: number;
  judgeScore: number | null;
  /** `null` when the judge could not grade it (an error) or skipped it. */
  judgePassed: boolean | null;
  error: boolean;
  skipped: boolean;
  reason: string;
}

/**
 * How many more labels Cochran's formula asks for, for the chosen margin and confidence: people
 * passes (for TPR) and people fails (for TNR), and more items in all for the minimum n.
 *
 * @example
 * ```ts
 * const { passes, fails }: LabelsNeeded = result.labelsNeeded;
 * ```
 */
export interface LabelsNeeded {
  margin: number;
  confidence: number;
  /** More items people passed, to estimate TPR within the margin. */
  passes: number;
  /** More items people failed, to estimate TNR within the margin. */
  fails: number;
  /** More graded items to reach the minimum n. */
  forMinimum: number;
}

/**
 * The validation of one judge against its gold items.
 *
 * @example
 * ```ts
 * const [result]: JudgeValidation[] = (await validateJudges({ items, file: 'gold.yaml', text })).judges;
 * console.log(result.judge, result.state, result.metrics.tpr.value, result.metrics.tnr.value);
 * ```
 */
export interface JudgeValidation {
  judge: string;
  dimension: string;
  min: number;
  max: number;
  /** The composite at or above which the judge's score counts as its pass. */
  passThreshold: number;
  promptHash: string;
  model: string;
  metrics: JudgeMetrics;
  minimums: TrustMinimums;
  /** Which minimums held. */
  met: { tpr: boolean; tnr: boolean; n: boolean };
  state: 'trusted' | 'untrusted';
  labelsNeeded: LabelsNeeded;
  items: GoldItemResult[];
}

/**
 * What {@link validateJudges} takes.
 *
 * @example
 * ```ts
 * const options: ValidateJudgesOptions = { items, file: 'gold/accuracy.yaml', text, judge: 'accuracy_grader' };
 * ```
 */
export interface ValidateJudgesOptions {
  /** The gold items (validated: see `validateGoldLabels`). */
  items: readonly GoldLabel[];
  /** The gold file, as the trust file records it. */
  file: string;
  /** The gold file's text, hashed into the trust file. */
  text: string;
  /** Validate only this judge (grader id or dimension). */
  judge?: string;
  minimums?: Partial<TrustMinimums>;
  /** Cochran's margin of error. Default 0.05. */
  margin?: number;
  /** Cochran's confidence. Default 0.95. */
  confidence?: number;
  /** Called after each item is graded. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Re-scores every gold item with its judge through the normal judge path (`gradeQuestion`, so the
 * replay cache applies: a rerun can be free and offline), turns each score into the judge's pass
 * or fail with the pass threshold in force, and measures each judge against the people: the
 * confusion counts, TPR, TNR, agreement, Cohen's kappa and (with person scores) MAE, Spearman and
 * quadratic weighted kappa, with its trust state against the minimums (defaults TPR 0.8, TNR 0.8,
 * n 30) and the labels Cochran's formula still asks for.
 *
 * @example
 * ```ts
 * const { judges } = await validateJudges({ items, file: 'gold.yaml', text });
 * for (const j of judges) console.log(j.judge, j.state);
 * ```
 */
export async function validateJudges(
  options: ValidateJudgesOptions,
): Promise<{ goldHash: string; judges: JudgeValidation[] }> {
  const minimums: TrustMinimums = { ...DEFAULT_TRUST_MINIMUMS, ...options.minimums };
  const margin = options.margin ?? 0.05;
  const confidence = options.confidence ?? 0.95;
  const only = options.judge !== undefined ? resolve(options.judge) : undefined;
  const groups = new Map<string, { judge: Judge; items: GoldLabel[] }>();
  for (const item of options.items) {
    const judge = resolve(item.judge);
    if (only && judge.id !== only.id) continue;
    const group = groups.get(judge.id) ?? { judge, items: [] };
    group.items.push(item);
    groups.set(judge.id, group);
  }
  if (only && !groups.has(only.id)) {
    throw new AiEvalError(
      'INVALID_RUBRIC',
      `${options.file} has no item for judge ${only.id}. Fix: label some responses for it, or drop --judge.`,
    );
  }
  const passThreshold = getConfig().passThreshold;
  const total = [...groups.values()].reduce((n, g) => n + g.items.length, 0);
  let done = 0;
  const judges: JudgeValidation[] = [];
  for (const { judge, items } of [...groups.values()].sort((a, b) => a.judge.id.localeCompare(b.judge.id))) {
    const graded = await Promise.all(
      items.map(async (item) => {
        const result = await gradeItem(judge, item, passThreshold);
        done += 1;
        options.onProgress?.(done, total);
        return result;
      }),
    );
    const outcomes: GoldOutcome[] = graded.map((g) => ({
      label: g.label,
      personScore: g.personScore,
      judgePassed: g.judgePassed,
      judgeScore: g.judgeScore,
      skipped: g.skipped,
    }));
    const metrics = judgeMetrics(outcomes, { min: judge.minScore, max: judge.maxScore });
    const met = {
      tpr: metrics.tpr.value !== null && metrics.tpr.value >= minimums.tpr - 1e-9,
      tnr: metrics.tnr.value !== null && metrics.tnr.value >= minimums.tnr - 1e-9,
      n: metrics.n >= minimums.n,
    };
    const identity = judgeRecordIdentity(judge);
    judges.push({
      judge: judge.id,
      dimension: judge.judge.dimension,
      min: judge.minScore,
      max: judge.maxScore,
      passThreshold,
      promptHash: identity?.promptHash ?? '',
      model: identity?.judgeModel ?? '',
      metrics,
      minimums,
      met,
      state: met.tpr && met.tnr && met.n ? 'trusted' : 'untrusted',
      labelsNeeded: labelsNeeded(metrics, minimums, margin, confidence),
      items: graded,
    });
  }
  return { goldHash: hashText(options.text), judges };
}

/**
 * A short SHA-256 of a text (12 hex digits), as the trust file keeps the gold file's.
 *
 * @example
 * ```ts
 * hashText('items: []'); // '5b0c…'
 * ```
 */
export function hashText(text: string): string {
  return sha256Hex(text).slice(0, 12);
}

function resolve(name: string): Judge {
  const found = findJudge(name);
  if (!found.judge)
    throw new AiEvalError('INVALID_RUBRIC', `judge '${name}' ${found.problem ?? 'is unknown'}`);
  return found.judge;
}

async function gradeItem(judge: Judge, item: GoldLabel, passThreshold: number): Promise<GoldItemResult> {
  const question = {
    id: item.id,
    ...(item.input !== undefined ? { input: item.input } : {}),
    ...(item.messages !== undefined ? { messages: item.messages } : {}),
    ...(item.criteria !== undefined ? { criteria: item.criteria } : {}),
    ...(item.expected_facts !== undefined ? { expected_facts: item.expected_facts } : {}),
  };
  const response =
    item.tool_calls !== undefined ? { output: item.response, toolCalls: item.tool_calls } : item.response;
  const result = await gradeQuestion({ question, response, graders: [judge], target: { passThreshold } });
  const grade = result.grades[0]!;
  const scored = !grade.error && !grade.skipped && grade.score !== null && grade.composite !== null;
  return {
    id: item.id,
    label: item.label,
    ...(item.score !== undefined ? { personScore: item.score } : {}),
    judgeScore: scored ? grade.score : null,
    judgePassed: scored ? (grade.composite as number) >= passThreshold - 1e-9 : null,
    error: grade.error,
    skipped: grade.skipped,
    reason: grade.reason,
  };
}

/** The labels still needed: Cochran's n for each rate at its least favourable plausible value. */
function labelsNeeded(
  metrics: JudgeMetrics,
  minimums: TrustMinimums,
  margin: number,
  confidence: number,
): LabelsNeeded {
  const z = zForConfidence(confidence);
  const needed = (rate: Rate): number => {
    // The proportion in the rate's interval closest to 0.5 (0.5 when nothing was counted): the
    // largest p(1 - p) the data leave plausible, so a perfect score on few labels is not "enough".
    const p = rate.low === null || rate.high === null ? 0.5 : Math.min(Math.max(0.5, rate.low), rate.high);
    return Math.max(0, cochranSampleSize({ margin, p, z }) - rate.of);
  };
  return {
    margin,
    confidence,
    passes: needed(metrics.tpr),
    fails: needed(metrics.tnr),
    forMinimum: Math.max(0, minimums.n - metrics.n),
  };
}
