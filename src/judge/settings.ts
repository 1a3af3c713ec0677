import { getConfig, checkPositiveInteger, type JudgeConfig } from '../config.js';
import { AiEvalError } from '../errors.js';
import { defaultLimitDir } from './limiter.js';

/** The SDK's first and longest wait between attempts (`calculateDefaultRetryTimeoutMillis`). */
const SDK_FIRST_RETRY_MS = 500;
const SDK_MAX_RETRY_MS = 8000;

/**
 * The longest the openai SDK waits between `maxAttempts` attempts when no `Retry-After` says
 * otherwise: 0.5 s before the first retry, doubling up to 8 s (its jitter only shortens them).
 *
 * @example
 * ```ts
 * sdkRetryWaitMs(3); // 1500
 * ```
 */
export function sdkRetryWaitMs(maxAttempts: number): number {
  let total = 0;
  for (let retry = 0; retry < maxAttempts - 1; retry += 1) {
    total += Math.min(SDK_MAX_RETRY_MS, SDK_FIRST_RETRY_MS * 2 ** retry);
  }
  return total;
}

/**
 * The replay cache modes.
 *
 * @example
 * ```ts
 * JUDGE_CACHE_MODES.includes(process.env.AI_EVAL_JUDGE_CACHE as JudgeCacheMode);
 * ```
 */
export const JUDGE_CACHE_MODES = ['auto', 'record', 'replay', 'off'] as const;

/**
 * A replay cache mode: `auto` replays a hit and records a miss; `replay` never calls a model.
 *
 * @example
 * ```ts
 * const mode: JudgeCacheMode = 'replay';
 * configure({ judge: { cache: mode } });
 * ```
 */
export type JudgeCacheMode = (typeof JUDGE_CACHE_MODES)[number];

/**
 * The judge settings in force, every default resolved.
 *
 * @example
 * ```ts
 * const { model, timeoutMs }: JudgeSettings = judgeSettings();
 * ```
 */
export interface JudgeSettings {
  model: string;
  baseURL: string | undefined;
  apiKey: string | undefined;
  maxAttempts: number;
  timeoutMs: number;
  attemptTimeoutMs: number;
  concurrency: number;
  requestsPerMinute: number | undefined;
  rateWindowMs: number;
  seed: number | null;
  responseCharLimit: number | undefined;
  cache: JudgeCacheMode;
  cacheDir: string;
  /** `full` keeps each entry's prompt; `answers` keeps only the answer. */
  cacheStore: 'full' | 'answers';
  structuredOutput: boolean;
  limitDir: string;
}

/**
 * The judge model when neither the configuration nor `AI_EVAL_JUDGE_MODEL` names one.
 *
 * @example
 * ```ts
 * judgeSettings().model === DEFAULT_JUDGE_MODEL; // true when nothing is configured
 * ```
 */
export const DEFAULT_JUDGE_MODEL = 'gpt-4o-mini';

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  checkPositiveInteger(`judge.${name}`, value);
  return value;
}

/**
 * The default attempt timeout: what `timeoutMs` leaves after the SDK's waits between attempts,
 * shared equally, so that every attempt gets made; a budget too small for that is shared as is.
 */
function attemptShare(timeoutMs: number, maxAttempts: number): number {
  const spare = timeoutMs - sdkRetryWaitMs(maxAttempts);
  return spare >= maxAttempts ? Math.floor(spare / maxAttempts) : Math.ceil(timeoutMs / maxAttempts);
}

/**
 * Resolves the judge settings: `configure({ judge })` first, then the environment
 * (`AI_EVAL_JUDGE_MODEL`, `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `AI_EVAL_JUDGE_CACHE`), then the
 * defaults. A malformed value is an {@link AiEvalError} (`INVALID_CONFIG`) naming the setting.
 *
 * @example
 * ```ts
 * configure({ judge: { model: 'llama3.1', baseURL: 'http://localhost:11434/v1' } });
 * judgeSettings().model; // 'llama3.1'
 * ```
 */
export function judgeSettings(): JudgeSettings {
  // Read on every judge grade: worked out again only when the configuration (configure() makes a
  // new one) or one of the environment variables it reads has changed.
  const config = getConfig();
  const env = process.env;
  const inputs = SETTINGS_ENV.map((name) => env[name]);
  if (lastSettings?.config === config && lastSettings.inputs.every((v, i) => v === inputs[i]))
    return lastSettings.settings;
  const settings = Object.freeze(resolveSettings(config.judge, env));
  lastSettings = { config, inputs, settings };
  return settings;
}

/** Every environment variable the judge settings depend on (the limiter folder's included). */
const SETTINGS_ENV = [
  'AI_EVAL_JUDGE_CACHE',
  'AI_EVAL_JUDGE_CACHE_STORE',
  'AI_EVAL_JUDGE_MODEL',
  'OPENAI_BASE_URL',
  'OPENAI_API_KEY',
  'AI_EVAL_JUDGE_LIMIT_DIR',
  'AI_EVAL_RUN_ID',
  // What os.tmpdir() reads (for the default limiter folder).
  ...(process.platform === 'win32' ? ['TEMP', 'TMP', 'SystemRoot', 'windir'] : ['TMPDIR']),
];

let lastSettings: { config: object; inputs: Array<string | undefined>; settings: JudgeSettings } | undefined;

function resolveSettings(judge: JudgeConfig, env: NodeJS.ProcessEnv): JudgeSettings {
  // Empty is unset, as for every other judge variable (CI YAML often sets `AI_EVAL_JUDGE_CACHE: ''`).
  const cache = (judge.cache ?? (env.AI_EVAL_JUDGE_CACHE || 'off')) as JudgeCacheMode;
  if (!JUDGE_CACHE_MODES.includes(cache)) {
    throw new AiEvalError(
      'INVALID_CONFIG',
      `judge.cache (or AI_EVAL_JUDGE_CACHE) must be one of ${JUDGE_CACHE_MODES.join(', ')}, got ${JSON.stringify(cache)}.`,
    );
  }
  const cacheStore = judge.cacheStore ?? (env.AI_EVAL_JUDGE_CACHE_STORE || 'full');
  if (cacheStore !== 'full' && cacheStore !== 'answers') {
    throw new AiEvalError(
      'INVALID_CONFIG',
      `judge.cacheStore (or AI_EVAL_JUDGE_CACHE_STORE) must be 'full' or 'answers', got ${JSON.stringify(cacheStore)}.`,
    );
  }
  const rpm = judge.requestsPerMinute;
  if (rpm !== undefined) checkPositiveInteger('judge.requestsPerMinute', rpm);
  const seed = judge.seed === undefined ? 0 : judge.seed;
  if (seed !== null && !Number.isInteger(seed)) {
    throw new AiEvalError(
      'INVALID_CONFIG',
      `judge.seed must be an integer or null, got ${JSON.stringify(seed)}.`,
    );
  }
  if (judge.responseCharLimit !== undefined)
    checkPositiveInteger('judge.responseCharLimit', judge.responseCharLimit);
  const maxAttempts = positive('maxAttempts', judge.maxAttempts, 3);
  const timeoutMs = positive('timeoutMs', judge.timeoutMs, 60_000);
  return {
    model: judge.model ?? (env.AI_EVAL_JUDGE_MODEL || DEFAULT_JUDGE_MODEL),
    baseURL: judge.baseURL ?? (env.OPENAI_BASE_URL || undefined),
    apiKey: judge.apiKey ?? (env.OPENAI_API_KEY || undefined),
    maxAttempts,
    timeoutMs,
    attemptTimeoutMs: positive(
      'attemptTimeoutMs',
      judge.attemptTimeoutMs,
      attemptShare(timeoutMs, maxAttempts),
    ),
    concurrency: positive('concurrency', judge.concurrency, 4),
    requestsPerMinute: rpm,
    rateWindowMs: positive('rateWindowMs', judge.rateWindowMs, 60_000),
    seed,
    responseCharLimit: judge.responseCharLimit,
    cache,
    cacheDir: judge.cacheDir ?? '.ai-eval/judge-cache',
    cacheStore,
    structuredOutput: judge.structuredOutput ?? true,
    limitDir: judge.limitDir ?? defaultLimitDir(),
  };
}
