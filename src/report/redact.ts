/**
 * What replaces a secret in a report.
 *
 * @example
 * ```ts
 * redactText('token=abc'); // `token=${REDACTED}`
 * ```
 */
export const REDACTED = '[redacted]';

const SECRET_KEY =
  /(["']?\b[\w-]*(?:api[_-]?key|token|password|passwd|authorization|secret)[\w-]*["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;}&]+)/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;
const KEY_SHAPED = /\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}\b/g;

/**
 * Removes secrets from text bound for a report: values under secret-looking keys (`api_key`,
 * `token`, `password`, `authorization`, `secret`), bearer credentials and key-shaped strings.
 *
 * @example
 * ```ts
 * redactText('called login {"password":"hunter2"}'); // 'called login {"password":"[redacted]"}'
 * ```
 */
export function redactText(text: string): string {
  return text
    .replace(SECRET_KEY, (_m, key: string, value: string) => {
      const quote = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : '';
      return `${key}${quote}${REDACTED}${quote}`;
    })
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(KEY_SHAPED, REDACTED);
}

/**
 * Redacts tool-call arguments: values under secret-looking keys become `[redacted]`, at any depth.
 *
 * @example
 * ```ts
 * redactArguments({ user: 'a', api_key: 'k' }); // { user: 'a', api_key: '[redacted]' }
 * ```
 */
export function redactArguments(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactArguments);
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) =>
      /api[_-]?key|token|password|passwd|authorization|secret/i.test(k)
        ? [k, REDACTED]
        : [k, redactArguments(v)],
    ),
  );
}
