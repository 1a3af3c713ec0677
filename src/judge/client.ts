import type { JudgeChatBody, JudgeChatClient, JudgeChatCompletion, JudgeMessage } from '../config.js';
import { AiEvalError } from '../errors.js';
import type { TokenUsage } from '../grading/types.js';
import { plural, shorten } from '../internal/text.js';
import { logger } from '../logger.js';
import {
  judgeCacheKey,
  judgeCachePath,
  lookupJudgeCache,
  readJudgeCache,
  writeJudgeCache,
  type JudgeCacheEntry,
} from './cache.js';
import { Deadline } from './deadline.js';
import {
  causeOf,
  describeError,
  describeResponse,
  redactSecrets,
  sdkRetries,
  unsupported,
} from './http-errors.js';
import { acquireSlot, type LimitSettings } from './limiter.js';
import { limitedFetch, type AttemptResponse, type AttemptVerdict, type FetchLike } from './limited-fetch.js';
import type { RateBlockedError } from './rate-controller.js';
import { deriveSdkClient, isSdkClient, judgeClient } from './sdk.js';
import { readCompletion, type UnfinishedReason } from './reply.js';
import { judgeSettings, type JudgeSettings } from './settings.js';

export { redactSecrets } from './http-errors.js';
export type { JudgeChatBody, JudgeChatClient, JudgeChatCompletion, JudgeMessage } from '../config.js';

/**
 * One judge call, as a judge asks for it.
 *
 * @example
 * ```ts
 * const request: JudgeRequest = { judge: 'house_tone', messages: [{ role: 'user', content: prompt }], answerSchema, trial: 1 };
 * ```
 */
export interface JudgeRequest {
  judge: string;
  /**
   * The messages sent, or a function that builds them: it is called only when a request is sent,
   * so a call the cache answers never builds them.
   */
  messages: JudgeMessage[] | (() => JudgeMessage[]);
  /**
   * The same messages as the replay cache keys on and records them, when they differ from what is
   * sent: a judge sends each prompt with a random fence tag, and caches it with a stable one.
   * Default `messages`.
   */
  cacheMessages?: JudgeMessage[] | undefined;
  /** JSON Schema of the answer object, sent as `response_format` when structured output is on. */
  answerSchema: Record<string, unknown>;
  trial: number;
  signal?: AbortSignal | undefined;
}

/**
 * What came back: the raw reply, token usage for live calls, and where it came from.
 *
 * @example
 * ```ts
 * const reply: JudgeReply = await callJudge(request);
 * if (reply.source === 'cache') console.log('replayed from', reply.cacheFile);
 * ```
 */
export interface JudgeReply {
  content: string | null;
  refusal: string | null;
  usage?: TokenUsage;
  /** `live` (a model answered), or `cache` (replayed from the named file). */
  source: 'live' | 'cache';
  cacheFile?: string;
  /**
   * HTTP attempts the call made, the SDK's retries included; 0 for a cache hit. A plain client
   * (not an openai SDK instance) counts one per call, whatever it retried itself.
   */
  attempts: number;
  /**
   * A live answer that did not finish (`finish_reason` `content_filter` or `length`): never scored,
   * never recorded in the cache.
   */
  unfinished?: UnfinishedReason;
}

function answerFormat(schema: Record<string, unknown>): NonNullable<JudgeChatBody['response_format']> {
  return { type: 'json_schema', json_schema: { name: 'judge_answer', strict: true, schema } };
}

/**
 * Calls the judge model once, as configured: replays or records through the cache, else sends the
 * request through the openai SDK, which retries 408, 409, 429, 5xx, timeouts and connection errors
 * with its exponential backoff (honouring `Retry-After` and `retry-after-ms`) up to `maxAttempts`
 * attempts in all. Every HTTP attempt, each retry included, first waits for a slot under the
 * cross-process limits, then gets `attemptTimeoutMs`; all of it happens within `timeoutMs` (time
 * spent queueing for a slot is not counted), and no call waits for the provider's shared
 * `Retry-After` block past what is left of its `timeoutMs`: it fails at once instead. A plain
 * client is held to `timeoutMs` by a timer, whether or not it listens to the signal. A provider
 * that refuses `response_format` or `seed` with a 400/422 is asked once more without it. Throws an
 * {@link AiEvalError} (`JUDGE_FAILED`, or `JUDGE_CACHE_MISS` in replay mode, for a missing entry or
 * one that is there but unreadable, told apart) naming the cause and the attempts made, with the
 * last underlying error as its `cause`; neither contains the key.
 *
 * @example
 * ```ts
 * const reply = await callJudge({ judge: 'house_tone', messages: [{ role: 'user', content: prompt }], answerSchema, trial: 1 });
 * reply.content; // '{"score": 4, "reason": "..."}'
 * ```
 */
export async function callJudge(
  request: JudgeRequest,
  settings: JudgeSettings = judgeSettings(),
): Promise<JudgeReply> {
  return callJudgeNow(request, settings);
}

/**
 * {@link callJudge}, with the reply itself when the cache answers (a replayed or already recorded
 * call reads one file and waits for nothing), and a promise only for a live call. Throws at once
 * what `callJudge` would reject with before any request (a cache miss in replay mode); a live
 * call's failure is a rejection.
 *
 * @example
 * ```ts
 * const replied = callJudgeNow(request);
 * const reply = replied instanceof Promise ? await replied : replied;
 * ```
 */
export function callJudgeNow(
  request: JudgeRequest,
  settings: JudgeSettings = judgeSettings(),
): JudgeReply | Promise<JudgeReply> {
  const decoding = {
    temperature: 0,
    seed: settings.seed,
    structuredOutput: settings.structuredOutput,
    answerSchema: settings.structuredOutput ? request.answerSchema : null,
  };
  const stable = request.cacheMessages ?? messagesOf(request);
  const key = judgeCacheKey({
    model: settings.model,
    messages: stable,
    decoding,
    trial: request.trial,
  });
  if (settings.cache === 'auto') {
    const hit = readJudgeCache(settings.cacheDir, key);
    if (hit) return replayed(hit, judgeCachePath(settings.cacheDir, key));
  } else if (settings.cache === 'replay') {
    const found = lookupJudgeCache(settings.cacheDir, key);
    if ('entry' in found) return replayed(found.entry, found.file);
    const call = `${request.judge} (model ${settings.model}, trial ${request.trial})`;
    // An entry that is there but spoilt is not a miss: re-recording alone would not say what broke.
    throw new AiEvalError(
      'JUDGE_CACHE_MISS',
      'corrupt' in found
        ? `judge cache entry ${found.file} for ${call} is there but unreadable: ${found.corrupt}; no model was called. Delete it and record it again with AI_EVAL_JUDGE_CACHE=auto or record.`
        : `judge cache miss in replay mode: no entry ${found.file} for ${call}; no model was called. Record it with AI_EVAL_JUDGE_CACHE=auto or record.`,
    );
  }
  return callAndRecord(request, settings, key, stable);
}

/** The reply a cache entry gives. */
function replayed(entry: JudgeCacheEntry, file: string): JudgeReply {
  return { content: entry.content, refusal: entry.refusal, source: 'cache', cacheFile: file, attempts: 0 };
}

/** A live call, recorded in the cache when the cache mode records. */
async function callAndRecord(
  request: JudgeRequest,
  settings: JudgeSettings,
  key: string,
  stable: readonly JudgeMessage[],
): Promise<JudgeReply> {
  const reply = await callLive({ ...request, messages: messagesOf(request) }, settings);
  // An answer that did not finish is not the judge's answer: replaying it would repeat the accident.
  if ((settings.cache === 'auto' || settings.cache === 'record') && reply.unfinished === undefined) {
    const file = writeJudgeCache(settings.cacheDir, {
      v: 1,
      key,
      judge: request.judge,
      model: settings.model,
      trial: request.trial,
      ...(settings.cacheStore === 'full'
        ? { prompt: redactSecrets(stable.map((m) => m.content).join('\n\n'), settings.apiKey) }
        : {}),
      content: reply.content === null ? null : redactSecrets(reply.content, settings.apiKey),
      refusal: reply.refusal === null ? null : redactSecrets(reply.refusal, settings.apiKey),
      ...(reply.usage ? { usage: reply.usage } : {}),
      recordedAt: new Date().toISOString(),
    });
    return { ...reply, cacheFile: file };
  }
  return reply;
}

/** The messages a request sends, built now when they were given as a function. */
function messagesOf(request: JudgeRequest): JudgeMessage[] {
  return typeof request.messages === 'function' ? request.messages() : request.messages;
}

const fallbacks = new Set<string>();

const aborted = (cause?: unknown): AiEvalError =>
  new AiEvalError('JUDGE_FAILED', 'the judge call was aborted (test timeout or cancellation)', { cause });

function requestBody(request: JudgeRequest, settings: JudgeSettings, provider: string): JudgeChatBody {
  const body: JudgeChatBody = { model: settings.model, messages: messagesOf(request), temperature: 0 };
  if (settings.seed !== null && !fallbacks.has(`seed|${provider}`)) body.seed = settings.seed;
  if (settings.structuredOutput && !fallbacks.has(`format|${provider}`))
    body.response_format = answerFormat(request.answerSchema);
  return body;
}

/** Drops a parameter the provider refused (once per provider and model); true when it did. */
function fellBack(body: JudgeChatBody, cause: string, provider: string): boolean {
  if (body.response_format && unsupported(cause, 'response_format')) {
    fallbacks.add(`format|${provider}`);
    logger.warn(
      `${provider} refused structured output (${shorten(cause, 100)}); asking for plain JSON instead`,
      'judge',
    );
    return true;
  }
  if (body.seed !== undefined && unsupported(cause, 'seed')) {
    fallbacks.add(`seed|${provider}`);
    logger.warn(`${provider} refused the seed parameter; calling without it`, 'judge');
    return true;
  }
  return false;
}

/**
 * Settles as `work` does, or rejects with the signal's reason as soon as `signal` aborts, whether or
 * not `work` listens to it (a plain client may not). What `work` does later is ignored.
 */
function untilAborted<T>(work: PromiseLike<T> | T, signal: AbortSignal): Promise<T> {
  const settled = Promise.resolve(work);
  // A late failure of the abandoned work is nobody's concern.
  settled.catch(() => undefined);
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([settled, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/**
 * One live judge call: its overall deadline (stopped while it queues for a slot), the HTTP attempts
 * it made, and what the last one got back, for the reason of a failure.
 */
class LiveCall {
  readonly deadline: Deadline;
  /** Aborts when the deadline runs out, the caller aborts, or the call is stopped (see #blocked). */
  readonly signal: AbortSignal;
  readonly #stopper = new AbortController();
  /** Why the call was stopped before its deadline, when it was: the whole reason of its failure. */
  #stopped: string | undefined;
  /** What stopped it (the cause of its failure, rather than the SDK's abort error). */
  #stopCause: unknown;
  /** HTTP attempts made so far (calls, for a plain client). */
  attempts = 0;
  /** What the last failed attempt got back. */
  #last: string | undefined;
  /** Added to the reason of a failure: why a retry was not made. */
  #note = '';
  #sending = false;
  /** Whether an attempt was on the wire when the deadline ran out. */
  #cut = false;

  constructor(
    readonly request: JudgeRequest,
    readonly settings: JudgeSettings,
  ) {
    this.deadline = new Deadline(settings.timeoutMs, request.signal, () => {
      this.#cut = this.#sending;
    });
    this.signal = AbortSignal.any([this.deadline.signal, this.#stopper.signal]);
  }

  get limits(): LimitSettings {
    const s = this.settings;
    return {
      dir: s.limitDir,
      key: s.baseURL ?? 'openai',
      concurrency: s.concurrency,
      requestsPerWindow: s.requestsPerMinute,
      windowMs: s.rateWindowMs,
      holdLimitMs: s.timeoutMs + 60_000,
    };
  }

  /**
   * Sends one request body: through the SDK's retries, or once to a plain client. A plain client is
   * held to the deadline by a timer whether or not it listens to the signal: when the deadline runs
   * out the call rejects and frees its slot, whatever the client goes on doing.
   */
  async send(client: JudgeChatClient, body: JudgeChatBody): Promise<JudgeChatCompletion> {
    const { signal } = this;
    if (isSdkClient(client)) {
      const derived = deriveSdkClient(client, (inner) => this.#fetch(inner), this.settings);
      return derived.chat.completions.create(body, { signal });
    }
    const release = await this.#queue(() => acquireSlot(this.limits, signal));
    this.attempts += 1;
    this.#sending = true;
    try {
      const created = client.chat.completions.create(body, {
        signal,
        timeout: this.settings.attemptTimeoutMs,
        maxRetries: this.settings.maxAttempts - 1,
      });
      return await untilAborted(created, signal);
    } finally {
      this.#sending = false;
      await release();
    }
  }

  /** The underlying error of a failed call: what stopped it, or what the client threw. */
  cause(error: unknown): unknown {
    return this.#stopped !== undefined ? this.#stopCause : error;
  }

  /** The reason a failed call gives, after `judge call failed after N attempts: `. */
  reason(error: unknown): string {
    if (this.#stopped !== undefined) return this.#stopped;
    if (this.deadline.expired) {
      const what = this.#cut || this.#last === undefined ? 'the request timed out' : this.#last;
      return `${what}; the ${this.settings.timeoutMs} ms timeout ran out`;
    }
    return describeError(error, this.settings.apiKey) + this.#note;
  }

  /** Waits for something (a limiter slot) with the deadline's clock stopped. */
  async #queue<T>(wait: () => Promise<T>): Promise<T> {
    this.deadline.pause();
    try {
      return await wait();
    } finally {
      this.deadline.resume();
    }
  }

  /** The fetch of one SDK request: each attempt under the limits, observed. */
  #fetch(inner: FetchLike): FetchLike {
    return limitedFetch({
      fetch: inner,
      limits: this.limits,
      attemptTimeoutMs: this.settings.attemptTimeoutMs,
      onQueue: (waiting) => (waiting ? this.deadline.pause() : this.deadline.resume()),
      onAttempt: () => {
        this.attempts += 1;
        this.#sending = true;
      },
      onResponse: (response) => this.#observe(response),
      onError: (attempt, error) => {
        this.#sending = false;
        this.#failed(attempt, describeError(error, this.settings.apiKey));
      },
      // Read while the clock stands still for the queue: what is left of the budget.
      maxBlockMs: () => this.deadline.remaining(),
      onBlocked: (error) => this.#blocked(error),
    });
  }

  /**
   * The provider's shared Retry-After block ends after this call's budget: the call gives up at
   * once rather than wait for nothing (the SDK would retry the failed fetch as a connection error,
   * so the call is stopped first and the SDK gives up on the abort).
   */
  #blocked(error: RateBlockedError): void {
    // Said as the 429 of the call itself says it (#observe): against the timeout, though what is
    // compared is what is left of it.
    this.#stopped = `the provider asked to wait ${Math.round(error.waitMs)} ms (Retry-After) before the next request, beyond the ${this.settings.timeoutMs} ms timeout`;
    logger.debug(`${this.request.judge}: not waiting; ${this.#stopped}`, 'judge');
    this.#stopCause = error;
    this.#stopper.abort(error);
  }

  /**
   * Notes what a failed attempt got back, and stops the SDK from retrying when `Retry-After` asks
   * for a wait that reaches past the deadline (the call gives up at once rather than wait for
   * nothing).
   */
  #observe(response: AttemptResponse): AttemptVerdict | undefined {
    this.#sending = false;
    if (response.status < 400) return undefined;
    this.#failed(response.attempt, describeResponse(response.status, response.body, this.settings.apiKey));
    const { retryAfterMs } = response;
    const retries =
      response.attempt < this.settings.maxAttempts && sdkRetries(response.status, response.headers);
    if (!retries || retryAfterMs === undefined || retryAfterMs < this.deadline.remaining()) return undefined;
    this.#note = `; Retry-After asked for ${Math.round(retryAfterMs)} ms, beyond the ${this.settings.timeoutMs} ms timeout`;
    logger.debug(`${this.request.judge}: not retrying${this.#note}`, 'judge');
    return { retry: false };
  }

  #failed(attempt: number, what: string): void {
    this.#last = what;
    logger.debug(`${this.request.judge}: attempt ${attempt} failed (${what})`, 'judge');
  }
}

async function callLive(request: JudgeRequest, settings: JudgeSettings): Promise<JudgeReply> {
  const client = await judgeClient(settings);
  const provider = `${settings.baseURL ?? 'openai'}|${settings.model}`;
  const call = new LiveCall(request, settings);
  try {
    for (;;) {
      const body = requestBody(request, settings, provider);
      let completion: unknown;
      try {
        completion = await call.send(client, body);
      } catch (error) {
        if (request.signal?.aborted) throw aborted(error);
        const reason = call.reason(error);
        if (!call.deadline.expired && fellBack(body, reason, provider)) continue;
        const made =
          call.attempts === 0 ? 'before any request was sent' : `after ${plural(call.attempts, 'attempt')}`;
        throw new AiEvalError('JUDGE_FAILED', `judge call failed ${made}: ${reason}`, {
          cause: causeOf(call.cause(error), settings.apiKey),
        });
      }
      // What came back is checked outside the transport: a malformed reply is not a failed request.
      return { ...readCompletion(completion, settings.apiKey), source: 'live', attempts: call.attempts };
    }
  } finally {
    call.deadline.dispose();
  }
}
