import { AttemptTimeoutError, retryAfter } from './http-errors.js';
import { acquireSlot, type LimitSettings } from './limiter.js';
import { RateBlockedError, rateController, type RateController } from './rate-controller.js';

/**
 * The `fetch` the openai SDK calls (its `fetch` client option).
 *
 * @example
 * ```ts
 * const plain: FetchLike = (input, init) => fetch(input, init);
 * ```
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * One HTTP response, as {@link LimitedFetchOptions.onResponse} sees it: read in full, its slot
 * already freed.
 *
 * @example
 * ```ts
 * const onResponse = ({ status, retryAfterMs }: AttemptResponse) => {
 *   if (status === 429) console.log('slow down for', retryAfterMs ?? 'a while');
 * };
 * ```
 */
export interface AttemptResponse {
  /** 1 for the first attempt through this fetch, 2 for the SDK's first retry, and so on. */
  attempt: number;
  status: number;
  headers: Headers;
  /** What `retry-after-ms` or `Retry-After` asks for, in milliseconds, when the response has one. */
  retryAfterMs: number | undefined;
  /** The body, as text. */
  body: string;
}

/**
 * What a {@link LimitedFetchOptions.onResponse} hook may decide: `retry: false` tells the openai
 * SDK not to retry this response (an `x-should-retry: false` header, which the SDK obeys).
 *
 * @example
 * ```ts
 * const verdict: AttemptVerdict = { retry: false };
 * ```
 */
export interface AttemptVerdict {
  retry: false;
}

/**
 * Options of {@link limitedFetch}.
 *
 * @example
 * ```ts
 * const options: LimitedFetchOptions = { fetch: globalThis.fetch, limits, attemptTimeoutMs: 20_000 };
 * ```
 */
export interface LimitedFetchOptions {
  /** The fetch that sends the request (the client's own, or the global one). */
  fetch: FetchLike;
  limits: LimitSettings;
  /** The longest one attempt may take once it holds a slot, body included. */
  attemptTimeoutMs: number;
  /** Called with `true` when the wait for a slot begins and `false` when it ends. */
  onQueue?: (waiting: boolean) => void;
  /** Called when an attempt holds its slot and is about to be sent. */
  onAttempt?: (attempt: number) => void;
  /**
   * Called with every response before the SDK sees it: the seam where a rate controller observes
   * each attempt's status and `Retry-After`. Must not throw.
   */
  onResponse?: (response: AttemptResponse) => AttemptVerdict | undefined;
  /** Called when an attempt got no response: a connection error or an {@link AttemptTimeoutError}. */
  onError?: (attempt: number, error: unknown) => void;
  /**
   * How long an attempt may wait for the provider's shared `Retry-After` block, read when it is
   * about to wait (the call's budget left). A block that ends later fails the attempt at once with
   * a {@link RateBlockedError}, after {@link onBlocked}. Default: no bound.
   */
  maxBlockMs?: () => number;
  /**
   * Called with the {@link RateBlockedError} of an attempt that will not wait for a block, before
   * the fetch rejects with it: the caller stops the call there (the SDK would otherwise retry the
   * rejection as a connection error).
   */
  onBlocked?: (error: RateBlockedError) => void;
  /**
   * Paces the attempts and learns from their responses (src/judge/rate-controller.ts). Default:
   * the controller of `limits.dir` and `limits.key`; `false` for none.
   */
  rate?: RateController | false;
}

/** How many times one request is sent again after a 429, before the 429 goes to the SDK. */
export const MAX_RATE_RESENDS = 8;

/** Whether a request can be sent again as it is (a string or byte body, not a stream). */
function resendable(input: string | URL | Request, init: RequestInit | undefined): boolean {
  if (input instanceof Request) return false;
  const body = init?.body;
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

/** A 429 that says the quota is used up: waiting does not help, so it is not sent again. */
function quotaExhausted(body: string): boolean {
  return /insufficient_quota|quota_exceeded|billing/i.test(body);
}

/** Statuses whose response must have no body (`new Response` refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Wraps a `fetch` so that every HTTP attempt through it, the openai SDK's retries included, holds a
 * slot under the shared limits (`concurrency`, `requestsPerMinute`) from before it is sent until its
 * body has been read, and starts when the shared rate controller allows. Each attempt gets
 * `attemptTimeoutMs` from when it holds its slot and may start, so time spent queueing never makes
 * an attempt time out; a timed-out attempt rejects with an {@link AttemptTimeoutError}, which the SDK
 * retries as a timeout. The body is read inside the slot and handed to the SDK as a new `Response`.
 * Every response is fed to the controller; an attempt that would wait for the controller's shared
 * `Retry-After` block longer than `maxBlockMs()` fails at once instead. A 429 (other than a used-up
 * quota, and with a Retry-After no longer than `attemptTimeoutMs`) is sent again once the
 * controller allows, up to {@link MAX_RATE_RESENDS} times, without using the SDK's retries, unless
 * `onResponse` says not to retry it; the SDK sees only the last response.
 *
 * @example
 * ```ts
 * const fetch = limitedFetch({ fetch: globalThis.fetch, limits, attemptTimeoutMs: 20_000 });
 * const client = new OpenAI({ apiKey, fetch, maxRetries: 2 });
 * ```
 */
export function limitedFetch(options: LimitedFetchOptions): FetchLike {
  let attempts = 0;
  const rate =
    options.rate === false
      ? undefined
      : (options.rate ?? rateController({ dir: options.limits.dir, key: options.limits.key }));
  return async (input, init) => {
    const outer = init?.signal ?? undefined;
    for (let resends = 0; ; resends += 1) {
      options.onQueue?.(true);
      let release: () => Promise<void>;
      let sentAt: number;
      try {
        release = await acquireSlot(options.limits, outer);
        try {
          sentAt = rate ? await rate.pace(outer, options.maxBlockMs?.()) : Date.now();
        } catch (error) {
          await release();
          if (error instanceof RateBlockedError) options.onBlocked?.(error);
          throw error;
        }
      } finally {
        options.onQueue?.(false);
      }
      attempts += 1;
      const attempt = attempts;
      options.onAttempt?.(attempt);
      const timer = new AbortController();
      const timeout = setTimeout(
        () => timer.abort(new AttemptTimeoutError(options.attemptTimeoutMs)),
        options.attemptTimeoutMs,
      );
      let response: Response;
      let bytes: ArrayBuffer;
      try {
        const signal = outer ? AbortSignal.any([outer, timer.signal]) : timer.signal;
        response = await options.fetch(input, { ...init, signal });
        bytes = await response.arrayBuffer();
      } catch (error) {
        const failure = timer.signal.aborted && !outer?.aborted ? (timer.signal.reason as Error) : error;
        options.onError?.(attempt, failure);
        throw failure;
      } finally {
        clearTimeout(timeout);
        await release();
      }
      const retryAfterMs = retryAfter(response.headers);
      rate?.observe(sentAt, response.status, retryAfterMs);
      const body = new TextDecoder().decode(bytes);
      const again =
        rate !== undefined &&
        response.status === 429 &&
        resends < MAX_RATE_RESENDS &&
        resendable(input, init) &&
        !quotaExhausted(body) &&
        outer?.aborted !== true &&
        (retryAfterMs === undefined || retryAfterMs <= options.attemptTimeoutMs);
      const verdict = options.onResponse?.({
        attempt,
        status: response.status,
        headers: response.headers,
        retryAfterMs,
        body,
      });
      if (again && verdict?.retry !== false) continue;
      const headers = new Headers(response.headers);
      if (verdict?.retry === false) headers.set('x-should-retry', 'false');
      return new Response(NO_BODY.has(response.status) ? null : bytes, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    }
  };
}
