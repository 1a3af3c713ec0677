/**
 * Escapes text for HTML content and for a double- or single-quoted attribute value: everything a
 * report holds (responses, reasons, ids, test names) is untrusted and goes through here.
 *
 * @example
 * ```ts
 * escapeHtml('<img src=x onerror="alert(1)">'); // '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
 * ```
 */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c);
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * A composite (0 to 5) for display: two decimals, or an em dash when there is none.
 *
 * @example
 * ```ts
 * score(4.256); // '4.26'
 * score(null); // '—'
 * ```
 */
export function score(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(2);
}

/**
 * A share (0 to 1) as a percentage, or an em dash.
 *
 * @example
 * ```ts
 * percent(0.5); // '50%'
 * ```
 */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? '—'
    : `${Math.round(value * 1000) / 10}%`;
}
