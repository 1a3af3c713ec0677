import { mean } from '../internal/numbers.js';
import { plural } from '../internal/text.js';
import { roganGladen, roganGladenInterval, wilson } from '../internal/stats.js';
import { trustEntry, trustState, validatedOn, type TrustFile, type TrustState } from './judge-trust.js';
import type {
  JudgeHealth,
  JudgePassRate,
  JudgeReport,
  JudgeValidationSummary,
  TargetJudgeReport,
} from './judge-report-types.js';
import type { Advisory, GradeReport, QuestionReport, RunIdentity } from './model.js';

/** What the report knows of each judge's trust, by id. */
export type JudgeTrustLookup = ReadonlyMap<
  string,
  Pick<JudgeReport, 'trust' | 'promptHash' | 'model' | 'validated'>
>;

/**
 * The trust of every judge the run's identity names (its prompt hashes), against a trust file.
 *
 * @example
 * ```ts
 * const lookup = trustLookup(identity, readTrustFile('ai-eval.judges.json').trust);
 * ```
 */
export function trustLookup(
  identity: Pick<RunIdentity, 'promptHashes' | 'judgeModel'>,
  trust: TrustFile,
): JudgeTrustLookup {
  const out = new Map<string, Pick<JudgeReport, 'trust' | 'promptHash' | 'model' | 'validated'>>();
  const ids = new Set([...Object.keys(identity.promptHashes), ...Object.keys(trust.judges)]);
  for (const id of ids) {
    const entry = trustEntry(trust, id);
    const promptHash = Object.prototype.hasOwnProperty.call(identity.promptHashes, id)
      ? (identity.promptHashes[id] ?? null)
      : null;
    out.set(id, {
      trust: trustState(entry, {
        ...(promptHash !== null ? { promptHash } : {}),
        ...(identity.judgeModel !== null ? { model: identity.judgeModel } : {}),
      }),
      promptHash,
      model: identity.judgeModel,
      validated: entry
        ? {
            ...validatedOn(entry),
            n: entry.metrics.n,
            tpr: entry.metrics.tpr,
            tnr: entry.metrics.tnr,
          }
        : null,
    });
  }
  return out;
}

/**
 * The trust lookup of reports that already carry their judges (`ai-eval merge`).
 *
 * @example
 * ```ts
 * const lookup = lookupFromReports(reports.map((r) => r.judges ?? []));
 * ```
 */
export function lookupFromReports(lists: ReadonlyArray<readonly JudgeReport[]>): JudgeTrustLookup {
  const out = new Map<string, Pick<JudgeReport, 'trust' | 'promptHash' | 'model' | 'validated'>>();
  for (const list of lists)
    for (const j of list)
      if (!out.has(j.id))
        out.set(j.id, { trust: j.trust, promptHash: j.promptHash, model: j.model, validated: j.validated });
  return out;
}

/**
 * The health of a judge's grades.
 *
 * @example
 * ```ts
 * judgeHealth(grades).errorRate;
 * ```
 */
export function judgeHealth(grades: readonly GradeReport[]): JudgeHealth {
  let calls = 0;
  let cacheHits = 0;
  let errors = 0;
  let refusals = 0;
  let unparseable = 0;
  let clamped = 0;
  for (const g of grades) {
    // A grade without call information (an older record, a custom llm grader) still counts when it
    // scored or errored: something was asked.
    if (g.skipped) continue;
    calls += 1;
    if (g.judgeCall?.source === 'cache') cacheHits += 1;
    if (g.error) errors += 1;
    if (g.judgeCall?.outcome === 'refused') refusals += 1;
    if (g.judgeCall?.outcome === 'unparseable') unparseable += 1;
    if (g.judgeCall?.outcome === 'clamped') clamped += 1;
  }
  return {
    calls,
    cacheHits,
    errors,
    refusals,
    unparseable,
    clamped,
    errorRate: calls ? errors / calls : null,
  };
}

function passRateOf(
  grades: ReadonlyArray<{ grade: GradeReport; threshold: number }>,
  validated: JudgeValidationSummary | null,
  trust: TrustState,
): JudgePassRate {
  const scored = grades.filter((g) => g.grade.composite !== null);
  const passed = scored.filter((g) => (g.grade.composite as number) >= g.threshold - 1e-9).length;
  const raw = scored.length ? passed / scored.length : null;
  const none = { corrected: null, low: null, high: null };
  if (raw === null || trust !== 'trusted' || !validated)
    return { raw, passed, scored: scored.length, ...none };
  const { tpr, tnr } = validated;
  if (
    tpr.value === null ||
    tnr.value === null ||
    tpr.low === null ||
    tpr.high === null ||
    tnr.low === null ||
    tnr.high === null
  )
    return { raw, passed, scored: scored.length, ...none };
  const corrected = roganGladen(raw, tpr.value, tnr.value);
  const p = wilson(passed, scored.length);
  const interval =
    corrected === null || p === null
      ? null
      : roganGladenInterval(p, { low: tpr.low, high: tpr.high }, { low: tnr.low, high: tnr.high });
  return {
    raw,
    passed,
    scored: scored.length,
    corrected,
    low: interval?.low ?? null,
    high: interval?.high ?? null,
  };
}

function judgeGrades(
  questions: readonly QuestionReport[],
): Map<string, Array<{ grade: GradeReport; threshold: number }>> {
  const by = new Map<string, Array<{ grade: GradeReport; threshold: number }>>();
  for (const q of questions)
    for (const grade of q.grades) {
      if (!grade.llm) continue;
      const list = by.get(grade.grader) ?? [];
      list.push({ grade, threshold: q.passThreshold });
      by.set(grade.grader, list);
    }
  return by;
}

/**
 * Each LLM judge of a target's questions: trust state, mean composite, pass rate (corrected when
 * the judge is trusted) and health, in id order.
 *
 * @example
 * ```ts
 * targetJudges(target.questions, lookup).map((j) => `${j.id}: ${j.trust}`);
 * ```
 */
export function targetJudges(
  questions: readonly QuestionReport[],
  lookup: JudgeTrustLookup,
): TargetJudgeReport[] {
  return [...judgeGrades(questions)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, grades]) => {
      const known = lookup.get(id);
      const trust = known?.trust ?? 'unvalidated';
      return {
        id,
        trust,
        averageScore: mean(grades.map((g) => g.grade.composite).filter((c): c is number => c !== null)),
        passRate: passRateOf(grades, known?.validated ?? null, trust),
        health: judgeHealth(grades.map((g) => g.grade)),
      };
    });
}

/**
 * The run's LLM judges: {@link targetJudges} over every question, with what each was validated on.
 *
 * @example
 * ```ts
 * report.judges = runJudges(questions, lookup);
 * ```
 */
export function runJudges(questions: readonly QuestionReport[], lookup: JudgeTrustLookup): JudgeReport[] {
  return targetJudges(questions, lookup).map((j) => {
    const known = lookup.get(j.id);
    return {
      ...j,
      promptHash: known?.promptHash ?? null,
      model: known?.model ?? null,
      validated: known?.validated ?? null,
    };
  });
}

/**
 * The advisory of a target whose verdict rests on LLM judges that are not trusted: unvalidated,
 * stale or untrusted (only judges that scored something count).
 *
 * @example
 * ```ts
 * untrustedJudgesAdvisory('bot', target.judges)?.message;
 * ```
 */
export function untrustedJudgesAdvisory(
  target: string,
  judges: readonly TargetJudgeReport[],
): Advisory | undefined {
  const rest = judges.filter((j) => j.passRate.scored > 0 && j.trust !== 'trusted');
  if (rest.length === 0) return undefined;
  const list = rest.map((j) => `${j.id} (${j.trust})`).join(', ');
  return {
    code: 'UNTRUSTED_JUDGES',
    target,
    message: `${target}: its verdict rests on ${plural(rest.length, 'LLM judge')} not validated against people or no longer matching the validation: ${list}. Measure ${rest.length === 1 ? 'it' : 'them'} with ai-eval judges validate --gold <file> (node_modules/ai-eval/docs/judge-validation.md), or gate on requireTrustedJudges.`,
  };
}

/**
 * A judge's pass rate in words: raw, and corrected with its interval when trusted.
 *
 * @example
 * ```ts
 * passRateText(judge.passRate); // '80% (corrected 86%, 70-97%)'
 * ```
 */
export function passRateText(rate: JudgePassRate): string {
  const pc = (v: number | null) => (v === null ? '-' : `${Math.round(v * 100)}%`);
  if (rate.raw === null) return '-';
  if (rate.corrected === null) return pc(rate.raw);
  return `${pc(rate.raw)} (corrected ${pc(rate.corrected)}, ${pc(rate.low)}-${pc(rate.high)})`;
}

/**
 * A judge's health in words.
 *
 * @example
 * ```ts
 * healthText(judge.health); // '12 calls, 4 cached, 1 error (1 refusal)'
 * ```
 */
export function healthText(h: JudgeHealth): string {
  const kinds = [
    h.refusals ? plural(h.refusals, 'refusal') : '',
    h.unparseable ? `${h.unparseable} unparseable` : '',
  ].filter(Boolean);
  return [
    plural(h.calls, 'call'),
    `${h.cacheHits} cached`,
    `${plural(h.errors, 'error')}${kinds.length ? ` (${kinds.join(', ')})` : ''}`,
    h.clamped ? `${h.clamped} clamped` : '',
  ]
    .filter(Boolean)
    .join(', ');
}
