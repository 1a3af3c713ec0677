import { redactText } from './redact.js';

/**
 * The longest a grade reason is kept, the truncation marker included: in grades, records, reports,
 * failure messages and annotations.
 *
 * @example
 * ```ts
 * capReason('x'.repeat(10_000)).length === REASON_CHAR_LIMIT; // true
 * ```
 */
export const REASON_CHAR_LIMIT = 2000;

/**
 * What ends a reason that was cut.
 *
 * @example
 * ```ts
 * capReason(long).endsWith(TRUNCATED_MARKER); // true
 * ```
 */
export const TRUNCATED_MARKER = '… [truncated]';

/**
 * Text of at most `limit` characters: a longer one is cut and ends with {@link TRUNCATED_MARKER}
 * (the marker counts toward the limit, so capping twice changes nothing).
 *
 * @example
 * ```ts
 * capReason('abcdef', 14); // 'a… [truncated]'
 * ```
 */
export function capReason(text: string, limit: number = REASON_CHAR_LIMIT): string {
  if (text.length <= limit) return text;
  let cut = text.slice(0, Math.max(0, limit - TRUNCATED_MARKER.length));
  // Never leave half of a surrogate pair at the end.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}${TRUNCATED_MARKER}`;
}

/**
 * A reason as ai-eval keeps it: secrets redacted, then capped at {@link REASON_CHAR_LIMIT}. (A huge
 * text is first cut to twice the limit, so redaction costs little; a secret split by that cut lies
 * past the final cut.)
 *
 * @example
 * ```ts
 * safeReason('sent {"password":"hunter2"}'); // 'sent {"password":"[redacted]"}'
 * ```
 */
export function safeReason(reason: string): string {
  const text = typeof reason === 'string' ? reason : String(reason);
  const head = text.length > REASON_CHAR_LIMIT * 2 ? text.slice(0, REASON_CHAR_LIMIT * 2) : text;
  return capReason(redactText(head));
}

/** Objects whose `reason` was made safe when they were built, with that reason. */
const SAFE_REASONS = new WeakMap<object, string>();

/**
 * Marks `holder.reason` as made safe by {@link safeReason} already: {@link safeReasonOf} then gives
 * it back as it is, for as long as it is not replaced. A grade's reason is made safe when its
 * grader's `result` builds it, and not again each time the grade is restamped or recorded.
 *
 * @example
 * ```ts
 * const grade = markSafeReason({ reason: safeReason(text) });
 * safeReasonOf(grade) === grade.reason; // true, without redacting it again
 * ```
 */
export function markSafeReason<T extends { reason: string }>(holder: T): T {
  SAFE_REASONS.set(holder, holder.reason);
  return holder;
}

/**
 * Whether `holder.reason` is still the reason {@link markSafeReason} marked (nothing replaced it).
 *
 * @example
 * ```ts
 * hasSafeReason(result(1, 'ok')); // true
 * ```
 */
export function hasSafeReason(holder: { reason: unknown }): boolean {
  const reason = holder.reason;
  return typeof reason === 'string' && SAFE_REASONS.get(holder) === reason;
}

/**
 * `holder.reason` made safe: as it is when it was marked safe and not replaced since, else through
 * {@link safeReason}.
 *
 * @example
 * ```ts
 * record.reason = safeReasonOf(grade);
 * ```
 */
export function safeReasonOf(holder: { reason: string }): string {
  return hasSafeReason(holder) ? holder.reason : safeReason(holder.reason);
}
