import { AiEvalError } from '../errors.js';
import type { TokenUsage } from '../grading/types.js';
import { logger } from '../logger.js';
import { getConfig } from '../config.js';
import { judgeCacheKey, judgeCachePath, readJudgeCache, writeJudgeCache } from './cache.js';
import { acquireSlot } from './limiter.js';
import { shorten } from './parse.js';
import { judgeSettings, type JudgeSettings } from './settings.js';

/** One chat message sent to a judge model. */
export interface JudgeMessage {
  role: 'system' | 'user';
  content: string;
}

/** The request body a judge sends: an OpenAI Chat Completions body. */
export interface JudgeChatBody {
  model: string;
  messages: JudgeMessage[];
  temperature: number;
  seed?: number;
  response_format?: {
    type: 'json_schema';
    json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
  };
}

/** What a judge reads from a chat completion. */
export interface JudgeChatCompletion {
  choices: Array<{ message?: { content?: string | null; refusal?: string | null } | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
}

/**
 * The client a judge talks to: an `OpenAI` instance from the openai SDK, or anything with the same
 * `chat.completions.create(body, options)`. Pass one as `configure({ judge: { client } })`.
 */
export interface JudgeChatClient {
  chat: {
    completions: {
      create(
        body: JudgeChatBody,
        options?: { signal?: AbortSignal; timeout?: number; maxRetries?: number },
      ): PromiseLike<JudgeChatCompletion>;
    };
  };
}

/** One judge call, as a judge asks for it. */
export interface JudgeRequest {
  judge: string;
  messages: JudgeMessage[];
  /** JSON Schema of the answer object, sent as `response_format` when structured output is on. */
  answerSchema: Record<string, unknown>;
  trial: number;
  signal?: AbortSignal | undefined;
}

/** What came back: the raw reply, token usage for live calls, and where it came from. */
export interface JudgeReply {
  content: string | null;
  refusal: string | null;
  usage?: TokenUsage;
  /** `live` (a model answered), or `cache` (replayed from the named file). */
  source: 'live' | 'cache';
  cacheFile?: string;
  attempts: number;
}

const fallbacks = new Set<string>();
const clients = new Map<string, Promise<JudgeChatClient>>();

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

async function buildClient(settings: JudgeSettings): Promise<JudgeChatClient> {
  const injected = getConfig().judge.client;
  if (injected !== undefined) {
    const c: { chat?: { completions?: { create?: unknown } } } | null =
      typeof injected === 'object' ? injected : null;
    if (typeof c?.chat?.completions?.create !== 'function') {
      throw new AiEvalError(
        'INVALID_CONFIG',
        'judge.client must be an OpenAI client or an object with chat.completions.create(body, options).',
      );
    }
    return c as JudgeChatClient;
  }
  if (!settings.apiKey && !settings.baseURL) {
    throw new AiEvalError(
      'JUDGE_FAILED',
      'no judge API key: set OPENAI_API_KEY (or judge.apiKey); for a local OpenAI-compatible server set OPENAI_BASE_URL (or judge.baseURL) instead.',
    );
  }
  const id = `${settings.baseURL ?? ''}\n${settings.apiKey ?? ''}`;
  let client = clients.get(id);
  if (!client) {
    client = loadOpenAI().then(
      (OpenAI) =>
        new OpenAI({
          apiKey: settings.apiKey ?? 'not-needed',
          baseURL: settings.baseURL ?? null,
          maxRetries: 0,
        }) as JudgeChatClient,
    );
    client.catch(() => clients.delete(id));
    clients.set(id, client);
  }
  return client;
}

type OpenAIConstructor = new (options: {
  apiKey: string;
  baseURL: string | null;
  maxRetries: number;
}) => unknown;

async function loadOpenAI(): Promise<OpenAIConstructor> {
  try {
    const mod = (await import('openai')) as unknown as {
      default?: OpenAIConstructor;
      OpenAI?: OpenAIConstructor;
    };
    const ctor = mod.OpenAI ?? mod.default;
    if (typeof ctor !== 'function') throw new Error('the openai module exports no OpenAI class');
    return ctor;
  } catch (error) {
    throw new AiEvalError(
      'JUDGE_FAILED',
      `the openai package could not be loaded (${shorten((error as Error).message, 120)}); LLM judges need it: npm i openai`,
      { cause: error },
    );
  }
}

interface Failure {
  retry: boolean;
  cause: string;
  retryAfterMs?: number;
}

function classify(error: unknown, apiKey: string | undefined): Failure {
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

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))), {
      once: true,
    });
  });

function answerFormat(schema: Record<string, unknown>): NonNullable<JudgeChatBody['response_format']> {
  return { type: 'json_schema', json_schema: { name: 'judge_answer', strict: true, schema } };
}

function unsupported(cause: string, what: 'response_format' | 'seed'): boolean {
  if (!cause.startsWith('HTTP 400') && !cause.startsWith('HTTP 422')) return false;
  return what === 'seed' ? /\bseed\b/i.test(cause) : /response_format|json_schema|structured/i.test(cause);
}

/**
 * Calls the judge model once, as configured: replays or records through the cache, waits for a
 * slot under the cross-process limits, retries 429, 5xx, timeouts and connection errors with
 * exponential backoff and jitter (honouring `Retry-After`) up to `maxAttempts`, all within
 * `timeoutMs` (time spent queueing for a slot is not counted). Throws an {@link AiEvalError}
 * (`JUDGE_FAILED`, or `JUDGE_CACHE_MISS` in replay mode) naming the cause; it never contains the key.
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

async function callLive(request: JudgeRequest, settings: JudgeSettings): Promise<JudgeReply> {
  const client = await buildClient(settings);
  const providerKey = `${settings.baseURL ?? 'openai'}|${settings.model}`;
  let deadline = Date.now() + settings.timeoutMs;
  let last = '';
  let made = 0;
  for (let attempt = 1; attempt <= settings.maxAttempts; attempt += 1) {
    const body: JudgeChatBody = { model: settings.model, messages: request.messages, temperature: 0 };
    if (settings.seed !== null && !fallbacks.has(`seed|${providerKey}`)) body.seed = settings.seed;
    if (settings.structuredOutput && !fallbacks.has(`format|${providerKey}`))
      body.response_format = answerFormat(request.answerSchema);
    made += 1;
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
    deadline += Date.now() - queued;
    const remaining = deadline - Date.now();
    const timeout = AbortSignal.timeout(Math.max(1, remaining));
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    try {
      const completion = await client.chat.completions.create(body, {
        signal,
        timeout: Math.max(1, remaining),
        maxRetries: 0,
      });
      const message = completion.choices?.[0]?.message;
      const u = completion.usage;
      return {
        content: message?.content ?? null,
        refusal: message?.refusal ?? null,
        ...(u
          ? {
              usage: {
                promptTokens: u.prompt_tokens ?? 0,
                completionTokens: u.completion_tokens ?? 0,
                totalTokens: u.total_tokens ?? 0,
              },
            }
          : {}),
        source: 'live',
        attempts: attempt,
      };
    } catch (error) {
      if (request.signal?.aborted)
        throw new AiEvalError('JUDGE_FAILED', 'the judge call was aborted (test timeout or cancellation)', {
          cause: error,
        });
      const failure = timeout.aborted
        ? { retry: true, cause: 'the request timed out' }
        : classify(error, settings.apiKey);
      last = failure.cause;
      if (body.response_format && unsupported(failure.cause, 'response_format')) {
        fallbacks.add(`format|${providerKey}`);
        logger.warn(
          `${providerKey} refused structured output (${shorten(failure.cause, 100)}); asking for plain JSON instead`,
          'judge',
        );
        attempt -= 1;
        continue;
      }
      if (body.seed !== undefined && unsupported(failure.cause, 'seed')) {
        fallbacks.add(`seed|${providerKey}`);
        logger.warn(`${providerKey} refused the seed parameter; calling without it`, 'judge');
        attempt -= 1;
        continue;
      }
      if (!failure.retry) break;
      if (attempt === settings.maxAttempts) break;
      const backoff = Math.min(settings.retryMaxDelayMs, settings.retryBaseDelayMs * 2 ** (attempt - 1));
      const delay = failure.retryAfterMs ?? backoff * (0.5 + Math.random() / 2);
      if (Date.now() + delay >= deadline) {
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
      await release();
      try {
        await sleep(delay, request.signal);
      } catch {
        throw new AiEvalError('JUDGE_FAILED', 'the judge call was aborted (test timeout or cancellation)');
      }
    } finally {
      await release();
    }
  }
  throw new AiEvalError(
    'JUDGE_FAILED',
    `judge call failed after ${made} attempt${made === 1 ? '' : 's'}: ${last}`,
  );
}
