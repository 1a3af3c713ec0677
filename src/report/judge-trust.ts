import { readFileSync } from 'node:fs';
import { errorMessage } from '../internal/text.js';
import { own } from '../internal/own.js';
import type { Interval } from '../internal/stats.js';

/**
 * Where the trust file is looked for when nothing says otherwise: `ai-eval.judges.json` in the
 * project root. Commit it.
 *
 * @example
 * ```ts
 * resolve(root, options.judgesFile ?? DEFAULT_JUDGES_FILE);
 * ```
 */
export const DEFAULT_JUDGES_FILE = 'ai-eval.judges.json';

/**
 * The version of the trust file's shape.
 *
 * @example
 * ```ts
 * if (file.version !== TRUST_FILE_VERSION) throw new Error('trust file from another ai-eval version');
 * ```
 */
export const TRUST_FILE_VERSION = 1;

/**
 * How far a judge's scores can be taken at face value:
 * - `unvalidated`: never measured against gold labels;
 * - `trusted`: measured, and its TPR, TNR and n met the minimums;
 * - `untrusted`: measured, and it missed a minimum;
 * - `stale`: measured on another prompt (a changed prompt or template override) or model.
 *
 * @example
 * ```ts
 * const state: TrustState = report.judges[0]?.trust ?? 'unvalidated';
 * ```
 */
export type TrustState = 'unvalidated' | 'trusted' | 'untrusted' | 'stale';

/**
 * The minimums a judge must meet to be trusted. Defaults: TPR 0.8, TNR 0.8, n 30.
 *
 * @example
 * ```ts
 * const strict: TrustMinimums = { tpr: 0.9, tnr: 0.9, n: 50 };
 * ```
 */
export interface TrustMinimums {
  tpr: number;
  tnr: number;
  /** Items graded (errors left out). */
  n: number;
}

/**
 * The default {@link TrustMinimums}.
 *
 * @example
 * ```ts
 * DEFAULT_TRUST_MINIMUMS.tpr; // 0.8
 * ```
 */
export const DEFAULT_TRUST_MINIMUMS: Readonly<TrustMinimums> = Object.freeze({ tpr: 0.8, tnr: 0.8, n: 30 });

/**
 * A rate with its Wilson 95% interval; `null` value when nothing was counted.
 *
 * @example
 * ```ts
 * const { value, low, high }: Rate = metrics.tpr;
 * ```
 */
export interface Rate {
  value: number | null;
  low: number | null;
  high: number | null;
  /** Numerator and denominator. */
  count: number;
  of: number;
}

/**
 * What a judge's agreement with people came to, as `ai-eval judges validate` measured it.
 *
 * @example
 * ```ts
 * const { n, tp, fn, fp, tn, errors, tpr, tnr, kappa }: JudgeMetrics = entry.metrics;
 * ```
 */
export interface JudgeMetrics {
  /** Items the judge graded (errors left out). */
  n: number;
  /** People passed, judge passed. */
  tp: number;
  /** People passed, judge failed. */
  fn: number;
  /** People failed, judge passed. */
  fp: number;
  /** People failed, judge failed. */
  tn: number;
  /** Items the judge could not grade: counted apart, never as agreement or disagreement. */
  errors: number;
  /** Items the judge skipped as not applicable (say, no expected facts): left out like errors. */
  skipped: number;
  /** Of the responses people passed, the share the judge passed (sensitivity). */
  tpr: Rate;
  /** Of the responses people failed, the share the judge failed (specificity). */
  tnr: Rate;
  /** Share of items where judge and people agreed. */
  agreement: Rate;
  /** Cohen's kappa of the pass/fail verdicts; `null` when undefined. */
  kappa: number | null;
  /** With people's scores: items that had one and were graded. */
  scored: number;
  /** Mean absolute error of the judge's score against the people's, on the judge's scale. */
  mae: number | null;
  /** Spearman's rank correlation of judge and people scores. */
  spearman: number | null;
  /** Quadratic weighted kappa of the scores rounded to whole points of the judge's scale. */
  qwk: number | null;
}

/**
 * One judge's entry in the trust file: the state it earned and what it was measured on.
 *
 * @example
 * ```ts
 * const entry: JudgeTrustEntry | undefined = trust.judges.accuracy_grader;
 * if (entry && entry.promptHash !== current.promptHash) console.log('stale');
 * ```
 */
export interface JudgeTrustEntry {
  state: 'trusted' | 'untrusted';
  /** The judge's prompt hash at validation (template after overrides, description, guidance). */
  promptHash: string;
  /** The judge model at validation. */
  model: string;
  /** ISO 8601. */
  validatedAt: string;
  /** The gold file and a hash of its content. */
  gold: { file: string; hash: string };
  minimums: TrustMinimums;
  metrics: JudgeMetrics;
}

/**
 * The trust file (`ai-eval.judges.json`): entries by judge id. Written by `ai-eval judges validate`,
 * read by the reporters.
 *
 * @example
 * ```ts
 * const file: TrustFile = { version: TRUST_FILE_VERSION, judges: {} };
 * ```
 */
export interface TrustFile {
  version: typeof TRUST_FILE_VERSION;
  judges: Record<string, JudgeTrustEntry>;
}

/**
 * Reads a trust file. A missing file is an empty one (every judge unvalidated); a file that is not
 * a version 1 trust file gives `problem`, a sentence naming the file, and no entries.
 *
 * @example
 * ```ts
 * const { trust, problem } = readTrustFile('ai-eval.judges.json');
 * ```
 */
export function readTrustFile(file: string): { trust: TrustFile; problem?: string; missing?: boolean } {
  const empty: TrustFile = { version: TRUST_FILE_VERSION, judges: {} };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { trust: empty, missing: true };
    return { trust: empty, problem: `cannot read the judges file ${file}: ${errorMessage(error)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      trust: empty,
      problem: `the judges file ${file} is not valid JSON (${errorMessage(error)}); every judge counts as unvalidated. Fix it, or delete it and run ai-eval judges validate again.`,
    };
  }
  const v = value as Partial<TrustFile> | null;
  if (
    v === null ||
    typeof v !== 'object' ||
    v.version !== TRUST_FILE_VERSION ||
    typeof v.judges !== 'object' ||
    v.judges === null ||
    Array.isArray(v.judges)
  ) {
    return {
      trust: empty,
      problem: `the judges file ${file} is not a version ${TRUST_FILE_VERSION} trust file ({ "version": 1, "judges": { ... } }); every judge counts as unvalidated.`,
    };
  }
  const judges: Record<string, JudgeTrustEntry> = {};
  for (const [id, entry] of Object.entries(v.judges)) {
    const e = entry as Partial<JudgeTrustEntry> | null;
    if (
      e !== null &&
      typeof e === 'object' &&
      (e.state === 'trusted' || e.state === 'untrusted') &&
      typeof e.promptHash === 'string' &&
      typeof e.model === 'string' &&
      typeof e.metrics === 'object' &&
      e.metrics !== null
    )
      judges[id] = e as JudgeTrustEntry;
  }
  return { trust: { version: TRUST_FILE_VERSION, judges } };
}

/**
 * A judge's trust state now: `unvalidated` without an entry, `stale` when the entry was measured
 * on another prompt hash or model than the one in force, else the state it earned.
 *
 * @example
 * ```ts
 * trustState(trust.judges.accuracy_grader, { promptHash: record.promptHash, model: record.judgeModel });
 * ```
 */
export function trustState(
  entry: JudgeTrustEntry | undefined,
  current: { promptHash?: string | undefined; model?: string | undefined },
): TrustState {
  if (!entry) return 'unvalidated';
  if (current.promptHash !== undefined && current.promptHash !== entry.promptHash) return 'stale';
  if (current.model !== undefined && current.model !== entry.model) return 'stale';
  return entry.state;
}

/**
 * The entry of a judge id, looked up safely.
 *
 * @example
 * ```ts
 * trustEntry(trust, 'accuracy_grader')?.metrics.tpr.value;
 * ```
 */
export function trustEntry(trust: TrustFile, id: string): JudgeTrustEntry | undefined {
  return own(trust.judges, id);
}

/**
 * What a trust entry was validated on, as the reports and `ai-eval judges list` show it: the
 * prompt hash, the model, when, and the gold file.
 *
 * @example
 * ```ts
 * validatedOn(entry); // { promptHash: '9f2c…', model: 'gpt-4o-mini', validatedAt: '2026-…', gold: 'gold/tone.yaml' }
 * ```
 */
export function validatedOn(entry: JudgeTrustEntry): {
  promptHash: string;
  model: string;
  validatedAt: string;
  gold: string;
} {
  return {
    promptHash: entry.promptHash,
    model: entry.model,
    validatedAt: entry.validatedAt,
    gold: entry.gold.file,
  };
}

/** A {@link Rate} from an interval. */
export function rateOf(count: number, of: number, interval: Interval | null): Rate {
  return {
    value: of > 0 ? count / of : null,
    low: interval?.low ?? null,
    high: interval?.high ?? null,
    count,
    of,
  };
}
