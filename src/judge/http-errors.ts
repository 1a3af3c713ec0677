import { redactText } from '../internal/redact.js';
import { errorMessage, shorten } from '../internal/text.js';

/**
 * Removes API keys, credentials and every other secret {@link redactText} knows from text that may
 * reach an error, log or cache entry; `apiKey` (the configured key) is removed wherever it appears
 * when it is long enough to be a secret (16 characters; a placeholder such as `ollama` is not).
 *
 * @example
 * ```ts
 * redactSecrets('Incorrect API key provided: my-own-key-0123456', 'my-own-key-0123456'); // 'Incorrect API key provided: [redacted]'
 * ```
 */
export function redactSecrets(text: string, apiKey?: string): string {
  return redactText(text, [apiKey]);
}

/**
 * An HTTP attempt that got no complete answer within `attemptTimeoutMs` (counted from when it held
 * a limiter slot). The openai SDK retries it as a timeout, as its message says.
 *
 * @example
 * ```ts
 * new AttemptTimeoutError(20_000).message; // 'the request timed out (no answer within the 20000 ms attempt timeout)'
 * ```
 */
export class AttemptTimeoutError extends Error {
  override readonly name = 'TimeoutError';

  constructor(readonly timeoutMs: number) {
    super(`the request timed out (no answer within the ${timeoutMs} ms attempt timeout)`);
  }
}

/**
 * Reads `retry-after-ms` or `Retry-After` (seconds or an HTTP date) into milliseconds.
 *
 * @example
 * ```ts
 * retryAfter(new Headers({ 'retry-after': '2' })); // 2000
 * ```
 */
export function retryAfter(headers: Headers): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const raw = headers.get('retry-after');
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (raw.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Whether the openai SDK retries a response of this status (while it has retries left): it obeys
 * an `x-should-retry` header, else retries 408, 409, 429 and 5xx.
 *
 * @example
 * ```ts
 * sdkRetries(429, new Headers()); // true
 * ```
 */
export function sdkRetries(status: number, headers: Headers): boolean {
  const told = headers.get('x-should-retry');
  if (told === 'true' || told === 'false') return told === 'true';
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

const clean = (text: string, apiKey: string | undefined): string => shorten(redactSecrets(text, apiKey), 200);

/**
 * One line saying what an HTTP error response said: `HTTP <status>: <its error message or body>`.
 *
 * @example
 * ```ts
 * describeResponse(503, '{"error":{"message":"overloaded"}}', key); // 'HTTP 503: overloaded'
 * ```
 */
export function describeResponse(status: number, body: string, apiKey: string | undefined): string {
  let message = body.trim();
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } } | null;
    const inner = parsed?.error?.message;
    if (typeof inner === 'string' && inner !== '') message = inner;
  } catch {
    // Not JSON: the body itself says what went wrong.
  }
  return `HTTP ${status}${message === '' ? ' (no body)' : `: ${clean(message, apiKey)}`}`;
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (
    let e = error;
    e !== undefined && e !== null && chain.length < 8;
    e = (e as { cause?: unknown }).cause
  ) {
    chain.push(e);
    if (typeof e !== 'object') break;
  }
  return chain;
}

/**
 * One line saying why a call or an attempt failed, without secrets: `HTTP <status>: <message>` for
 * an error response (the SDK's `APIError`), the attempt timeout or `the request timed out` for a
 * timeout, else `connection error: <message (causes)>`.
 *
 * @example
 * ```ts
 * describeError(new APIError(503, { message: 'overloaded' }, undefined, new Headers()), key); // 'HTTP 503: overloaded'
 * ```
 */
export function describeError(error: unknown, apiKey: string | undefined): string {
  const e = error as { status?: unknown; name?: unknown } | null | undefined;
  const message = errorMessage(error);
  if (typeof e?.status === 'number') {
    // The SDK's APIError message starts with the status again.
    return `HTTP ${e.status}: ${clean(message.replace(new RegExp(`^${e.status} `), ''), apiKey)}`;
  }
  const chain = causes(error);
  const attempt = chain.find((c): c is AttemptTimeoutError => c instanceof AttemptTimeoutError);
  if (attempt) return attempt.message;
  const name = typeof e?.name === 'string' ? e.name : '';
  if (/Timeout|Abort/i.test(name) || /timed? ?out/i.test(message)) return 'the request timed out';
  const details = chain
    .slice(1)
    .map(errorMessage)
    .filter((m) => m !== '' && m !== message);
  return `connection error: ${clean(details.length ? `${message} (${details.join('; ')})` : message, apiKey)}`;
}

/**
 * The underlying error for a `cause`: itself, or a copy without the key when its message holds one.
 *
 * @example
 * ```ts
 * new AiEvalError('JUDGE_FAILED', reason, { cause: causeOf(error, settings.apiKey) });
 * ```
 */
export function causeOf(error: unknown, apiKey: string | undefined): unknown {
  if (!(error instanceof Error)) return error;
  const message = redactSecrets(error.message, apiKey);
  if (message === error.message) return error;
  const copy = new Error(message);
  copy.name = error.name;
  const status = (error as { status?: unknown }).status;
  if (status !== undefined) Object.assign(copy, { status });
  return copy;
}

/**
 * True when a failure (as {@link describeError} put it) is a 400/422 saying the provider does not
 * accept `response_format` (or `seed`).
 *
 * @example
 * ```ts
 * unsupported("HTTP 400: 'response_format' of type 'json_schema' is not supported", 'response_format'); // true
 * ```
 */
export function unsupported(cause: string, what: 'response_format' | 'seed'): boolean {
  if (!cause.startsWith('HTTP 400') && !cause.startsWith('HTTP 422')) return false;
  return what === 'seed' ? /\bseed\b/i.test(cause) : /response_format|json_schema|structured/i.test(cause);
}
