import type { JudgeChatBody, JudgeChatClient, JudgeChatCompletion, JudgeMessage } from '../config.js';
import { AiEvalError } from '../errors.js';
import type { TokenUsage } from '../grading/types.js';
import { shorten } from '../internal/text.js';
import { logger } from '../logger.js';
import { judgeCacheKey, judgeCachePath, readJudgeCache, writeJudgeCache } from './cache.js';
import { classify, redactSecrets, sleep, unsupported, type Failure } from './http-errors.js';
import { acquireSlot } from './limiter.js';
import { judgeClient } from './sdk.js';
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
  messages: JudgeMessage[];
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
  attempts: number;
}

function answerFormat(schema: Record<string, unknown>): NonNullable<JudgeChatBody['response_format']> {
  return { type: 'json_schema', json_schema: { name: 'judge_answer', strict: true, schema } };
}

/**
 * Calls the judge model once, as configured: replays or records through the cache, waits for a
 * slot under the cross-process limits, retries 429, 5xx, timeouts and connection errors with
 * exponential backoff and jitter (honouring `Retry-After`) up to `maxAttempts`, each attempt
 * within `attemptTimeoutMs` and all within `timeoutMs` (time spent queueing for a slot is not
 * counted). Throws an {@link AiEvalError}
 * (`JUDGE_FAILED`, or `JUDGE_CACHE_MISS` in replay mode) naming the cause, with the last
 * underlying error as its `cause`; neither contains the key.
 *
 * @example
 * ```ts
 * const reply = await callJudge({ judge: 'house_tone', messages: [{ role: 'user', content: prompt }], answerSchema, trial: 1 });
 * reply.content; // '{"score": 4, "reason": "..."}'
 * ```
 */
export async function callJudge(request: JudgeRequest): Promise<JudgeReply> {
  const settings = judgeSettings();
  const decoding = {
    temperature: 0,
    seed: settings.seed,
    structuredOutput: settings.structuredOutput,
    answerSchema: settings.structuredOutput ? request.answerSchema : null,
  };
  const key = judgeCacheKey({
    model: settings.model,
    messages: request.messages,
    decoding,
    trial: request.trial,
  });
  if (settings.cache === 'auto' || settings.cache === 'replay') {
    const hit = readJudgeCache(settings.cacheDir, key);
    if (hit) {
      return {
        content: hit.content,
        refusal: hit.refusal,
        source: 'cache',
        cacheFile: judgeCachePath(settings.cacheDir, key),
        attempts: 0,
      };
    }
    if (settings.cache === 'replay') {
      throw new AiEvalError(
        'JUDGE_CACHE_MISS',
        `judge cache miss in replay mode: no entry ${judgeCachePath(settings.cacheDir, key)} for ${request.judge} (model ${settings.model}, trial ${request.trial}); no model was called. Record it with AI_EVAL_JUDGE_CACHE=auto or record.`,
      );
    }
  }
  const reply = await callLive(request, settings);
  if (settings.cache === 'auto' || settings.cache === 'record') {
    const file = writeJudgeCache(settings.cacheDir, {
      v: 1,
      key,
      judge: request.judge,
      model: settings.model,
      trial: request.trial,
      prompt: request.messages.map((m) => m.content).join('\n\n'),
      content: reply.content === null ? null : redactSecrets(reply.content, settings.apiKey),
      refusal: reply.refusal,
      ...(reply.usage ? { usage: reply.usage } : {}),
      recordedAt: new Date().toISOString(),
    });
    return { ...reply, cacheFile: file };
  }
  return reply;
}

/** A failed attempt: why, the underlying error, and whether it used up the overall timeout. */
type Attempt =
  { reply: Omit<JudgeReply, 'attempts'> } | { failure: Failure; error: unknown; outOfTime: boolean };

/** The underlying error for `cause`: itself, or a copy without the key when its message holds one. */
function causeOf(error: unknown, apiKey: string | undefined): unknown {
  if (!(error instanceof Error)) return error;
  const message = redactSecrets(error.message, apiKey);
  if (message === error.message) return error;
  const copy = new Error(message);
  copy.name = error.name;
  const status = (error as { status?: unknown }).status;
  if (status !== undefined) Object.assign(copy, { status });
  return copy;
}

const fallbacks = new Set<string>();

const aborted = (cause?: unknown): AiEvalError =>
  new AiEvalError('JUDGE_FAILED', 'the judge call was aborted (test timeout or cancellation)', { cause });

function requestBody(request: JudgeRequest, settings: JudgeSettings, provider: string): JudgeChatBody {
  const body: JudgeChatBody = { model: settings.model, messages: request.messages, temperature: 0 };
  if (settings.seed !== null && !fallbacks.has(`seed|${provider}`)) body.seed = settings.seed;
  if (settings.structuredOutput && !fallbacks.has(`format|${provider}`))
    body.response_format = answerFormat(request.answerSchema);
  return body;
}

/** Drops a parameter the provider refused (once per provider and model); true when it did. */
function fellBack(body: JudgeChatBody, failure: Failure, provider: string): boolean {
  if (body.response_format && unsupported(failure.cause, 'response_format')) {
    fallbacks.add(`format|${provider}`);
    logger.warn(
      `${provider} refused structured output (${shorten(failure.cause, 100)}); asking for plain JSON instead`,
      'judge',
    );
    return true;
  }
  if (body.seed !== undefined && unsupported(failure.cause, 'seed')) {
    fallbacks.add(`seed|${provider}`);
    logger.warn(`${provider} refused the seed parameter; calling without it`, 'judge');
    return true;
  }
  return false;
}

function toReply(completion: JudgeChatCompletion): Omit<JudgeReply, 'attempts'> {
  const message = completion.choices?.[0]?.message;
  const u = completion.usage;
  const usage: TokenUsage | undefined = u
    ? {
        promptTokens: u.prompt_tokens ?? 0,
        completionTokens: u.completion_tokens ?? 0,
        totalTokens: u.total_tokens ?? 0,
      }
    : undefined;
  return {
    content: message?.content ?? null,
    refusal: message?.refusal ?? null,
    ...(usage ? { usage } : {}),
    source: 'live',
  };
}

/**
 * One attempt under the shared limits; queueing time extends the deadline. It waits at most
 * `attemptTimeoutMs`, and never past the deadline, so a hanging request leaves time for a retry.
 */
async function attemptOnce(
  client: JudgeChatClient,
  body: JudgeChatBody,
  request: JudgeRequest,
  settings: JudgeSettings,
  budget: { deadline: number },
): Promise<Attempt> {
  const queued = Date.now();
  const release = await acquireSlot(
    {
      dir: settings.limitDir,
      key: settings.baseURL ?? 'openai',
      concurrency: settings.concurrency,
      requestsPerWindow: settings.requestsPerMinute,
      windowMs: settings.rateWindowMs,
      holdLimitMs: settings.timeoutMs + 60_000,
    },
    request.signal,
  );
  budget.deadline += Date.now() - queued;
  const remaining = Math.max(1, budget.deadline - Date.now());
  const limit = Math.min(settings.attemptTimeoutMs, remaining);
  const cappedByDeadline = remaining <= settings.attemptTimeoutMs;
  const timeout = AbortSignal.timeout(limit);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  try {
    const completion = await client.chat.completions.create(body, {
      signal,
      timeout: limit,
      maxRetries: 0,
    });
    return { reply: toReply(completion) };
  } catch (error) {
    if (request.signal?.aborted) throw aborted(error);
    const classified = classify(error, settings.apiKey);
    // The SDK's own timer (set to the same limit) may fire first: a timeout either way.
    const timedOut = timeout.aborted || classified.cause === 'the request timed out';
    return {
      failure: timedOut
        ? {
            retry: true,
            cause: cappedByDeadline
              ? 'the request timed out'
              : `the request timed out (no answer within the ${limit} ms attempt timeout)`,
          }
        : classified,
      error: causeOf(error, settings.apiKey),
      outOfTime: timedOut && cappedByDeadline,
    };
  } finally {
    await release();
  }
}

async function callLive(request: JudgeRequest, settings: JudgeSettings): Promise<JudgeReply> {
  const client = await judgeClient(settings);
  const provider = `${settings.baseURL ?? 'openai'}|${settings.model}`;
  const budget = { deadline: Date.now() + settings.timeoutMs };
  let last = '';
  let lastError: unknown;
  let made = 0;
  for (let attempt = 1; attempt <= settings.maxAttempts; attempt += 1) {
    const body = requestBody(request, settings, provider);
    made += 1;
    const outcome = await attemptOnce(client, body, request, settings, budget);
    if ('reply' in outcome) return { ...outcome.reply, attempts: made };
    const { failure } = outcome;
    last = failure.cause;
    lastError = outcome.error;
    if (fellBack(body, failure, provider)) {
      attempt -= 1;
      continue;
    }
    if (outcome.outOfTime) {
      last += `; the ${settings.timeoutMs} ms timeout ran out`;
      break;
    }
    if (!failure.retry || attempt === settings.maxAttempts) break;
    const backoff = Math.min(settings.retryMaxDelayMs, settings.retryBaseDelayMs * 2 ** (attempt - 1));
    const delay = failure.retryAfterMs ?? backoff * (0.5 + Math.random() / 2);
    if (Date.now() + delay >= budget.deadline) {
      last +=
        failure.retryAfterMs !== undefined
          ? `; Retry-After asked for ${Math.round(delay)} ms, beyond the ${settings.timeoutMs} ms timeout`
          : `; the ${settings.timeoutMs} ms timeout ran out`;
      break;
    }
    logger.debug(
      `${request.judge}: attempt ${attempt} failed (${failure.cause}); retrying in ${Math.round(delay)} ms${failure.retryAfterMs !== undefined ? ' (Retry-After)' : ''}`,
      'judge',
    );
    await sleep(delay, request.signal).catch((error: unknown) => {
      throw aborted(error);
    });
  }
  throw new AiEvalError(
    'JUDGE_FAILED',
    `judge call failed after ${made} attempt${made === 1 ? '' : 's'}: ${last}`,
    { cause: lastError },
  );
}
