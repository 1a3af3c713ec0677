import { shorten } from '../internal/text.js';

/**
 * Removes API keys and bearer tokens from text that may reach an error, log or cache entry.
 *
 * @example
 * ```ts
 * redactSecrets('Incorrect API key provided: sk-abc123456', 'sk-abc123456'); // 'Incorrect API key provided: [redacted]'
 * ```
 */
export function redactSecrets(text: string, apiKey?: string): string {
  let out = apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;
  out = out.replace(/\bsk-[A-Za-z0-9_*.-]{4,}/g, 'sk-[redacted]');
  out = out.replace(/(bearer\s+)[^\s"',]+/gi, '$1[redacted]');
  return out;
}

/** Why an attempt failed, and whether to try again. */
export interface Failure {
  retry: boolean;
  cause: string;
  retryAfterMs?: number;
}

export function classify(error: unknown, apiKey: string | undefined): Failure {
  const e = error as { status?: unknown; headers?: unknown; message?: unknown; name?: unknown };
  const message = redactSecrets(shorten(String(e?.message ?? error), 200), apiKey);
  const status = typeof e?.status === 'number' ? e.status : undefined;
  if (status === undefined) {
    const name = typeof e?.name === 'string' ? e.name : '';
    if (/Timeout/i.test(name) || /timed? ?out/i.test(message))
      return { retry: true, cause: 'the request timed out' };
    if (/Abort/i.test(name)) return { retry: true, cause: 'the request timed out' };
    return { retry: true, cause: `connection error: ${message}` };
  }
  const retryAfterMs = retryAfter(e.headers);
  const retry = status === 408 || status === 409 || status === 429 || status >= 500;
  return {
    retry,
    cause: `HTTP ${status}: ${message}`,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

function header(headers: unknown, name: string): string | undefined {
  if (headers && typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name) ?? undefined;
  if (headers && typeof headers === 'object') {
    const v = (headers as Record<string, unknown>)[name];
    return typeof v === 'string' ? v : undefined;
  }
  return undefined;
}

/**
 * Reads `retry-after-ms` or `Retry-After` (seconds or an HTTP date) into milliseconds.
 *
 * @example
 * ```ts
 * retryAfter(new Headers({ 'retry-after': '2' })); // 2000
 * ```
 */
export function retryAfter(headers: unknown): number | undefined {
  const ms = Number(header(headers, 'retry-after-ms'));
  if (header(headers, 'retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = header(headers, 'retry-after');
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (raw.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))), {
      once: true,
    });
  });

/** True when a 400/422 says the provider does not accept `response_format` (or `seed`). */
export function unsupported(cause: string, what: 'response_format' | 'seed'): boolean {
  if (!cause.startsWith('HTTP 400') && !cause.startsWith('HTTP 422')) return false;
  return what === 'seed' ? /\bseed\b/i.test(cause) : /response_format|json_schema|structured/i.test(cause);
}
