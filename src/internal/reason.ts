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
