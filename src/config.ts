import { AiEvalError } from './errors.js';

/**
 * Settings of the LLM judges, set with `configure({ judge })`; each unset one falls back to its
 * environment variable (where it has one), then to its default. See docs/judges.md.
 *
 * @example
 * ```ts
 * // vitest.setup.ts: a local Ollama judge, answers replayed from a committed cache
 * import { configure } from 'ai-eval';
 * configure({
 *   judge: {
 *     model: 'llama3.1',
 *     baseURL: 'http://localhost:11434/v1',
 *     apiKey: 'ollama',
 *     maxAttempts: 3,
 *     timeoutMs: 60_000,
 *     attemptTimeoutMs: 20_000,
 *     concurrency: 2,
 *     cache: 'auto',
 *     prompts: { accuracy_grader: 'Judge %s.\nQuestion: %s\n%s\nResponse:\n%s' },
 *   },
 * });
 * ```
 */
export interface JudgeConfig {
  /** The judge model. Default `AI_EVAL_JUDGE_MODEL`, then `gpt-4o-mini`. */
  model?: string;
  /** OpenAI-compatible base URL. Default `OPENAI_BASE_URL`, then the SDK's default. */
  baseURL?: string;
  /** The API key. Default `OPENAI_API_KEY`. Never written to a report, log or cache entry. */
  apiKey?: string;
  /** Attempts per judge call, including the first. Default 3. */
  maxAttempts?: number;
  /** Overall timeout of one judge call in milliseconds, retries included. Default 60000. */
  timeoutMs?: number;
  /**
   * Timeout of one HTTP attempt in milliseconds, counted from when it holds a limiter slot, so that
   * a hanging request is retried instead of using up `timeoutMs`. No attempt waits past `timeoutMs`.
   * Default: what `timeoutMs` leaves after the openai SDK's waits between attempts, shared equally
   * (19500 of the default 60000 over 3 attempts).
   */
  attemptTimeoutMs?: number;
  /** Judge calls in flight at once across all workers of the run. Default 4. */
  concurrency?: number;
  /** Judge requests started per minute across all workers of the run. Default unlimited. */
  requestsPerMinute?: number;
  /** Seed sent for deterministic decoding where the provider accepts one. Default 0. */
  seed?: number | null;
  /** Characters of the response shown to the judge. Default 4000. */
  responseCharLimit?: number;
  /** Replay cache mode. Default `AI_EVAL_JUDGE_CACHE`, then `off`. */
  cache?: 'auto' | 'record' | 'replay' | 'off';
  /** Replay cache directory. Default `.ai-eval/judge-cache`. */
  cacheDir?: string;
  /**
   * What a recorded cache entry keeps: `full` (default) keeps the prompt, so a reviewer can read
   * what was asked; `answers` keeps only the hash-keyed answer (no prompt, so no question or
   * response text), for caches that are committed where responses must not be. Env
   * `AI_EVAL_JUDGE_CACHE_STORE`.
   */
  cacheStore?: 'full' | 'answers';
  /** Prompt template overrides by judge id. */
  prompts?: Record<string, string>;
  /** A directory of `<judge id>.txt` prompt overrides. */
  promptsDir?: string;
  /** Ask for structured JSON output (`response_format`). Default true. */
  structuredOutput?: boolean;
  /**
   * A client to use instead of one built from the settings above (tests, custom providers): an
   * `OpenAI` (or `AzureOpenAI`) instance from the openai SDK, or any object with
   * `chat.completions.create(body, options)`. Anything else is an `INVALID_CONFIG` error grade.
   * See {@link JudgeChatClient} for how each kind is retried and limited.
   */
  client?: JudgeChatClient;
  /**
   * Directory of the cross-process limiter state. Default `AI_EVAL_JUDGE_LIMIT_DIR`, then
   * `<tmp>/ai-eval-<user>/judge-limits/<AI_EVAL_RUN_ID or "shared">`.
   */
  limitDir?: string;
  /** The window of `requestsPerMinute` in milliseconds. Default 60000 (tests shorten it). */
  rateWindowMs?: number;
}

/**
 * Settings of the dataset sources. See docs/datasets.md.
 *
 * @example
 * ```ts
 * configure({ datasets: { paths: ['evals'], httpBaseUrl: 'https://registry.example/datasets' } satisfies DatasetConfig });
 * ```
 */
export interface DatasetConfig {
  /** Directories the `file` source searches, in order, before `datasets/` under the root. */
  paths?: string[];
  /** The project root. Default `process.cwd()`. */
  root?: string;
  /**
   * Whether the `file` source also searches the datasets directories that installed packages
   * declare (`"ai-eval": { "datasets": "datasets" }` in their package.json), after the root's.
   * Default true.
   */
  packages?: boolean;
  /** Base URL of the `http` source. */
  httpBaseUrl?: string;
  /** Timeout of one `http` source request in milliseconds. Default 10000. */
  httpTimeoutMs?: number;
  /** Datasets of the `inline` source, by ref. */
  inline?: Record<string, unknown>;
}

/**
 * Everything {@link configure} accepts.
 *
 * @example
 * ```ts
 * const config: AiEvalConfig = getConfig();
 * config.passThreshold; // 3.5 unless configured
 * ```
 */
export interface AiEvalConfig {
  /** Composite a question needs to pass. Default 3.5. */
  passThreshold: number;
  /** Default response character limit graders see. Default 4000. */
  responseCharLimit: number;
  /**
   * Milliseconds one trial of an `evalSuite` question may take (run and grading) when neither the
   * question nor the suite's `timeout` option says. Default 120000 (two minutes).
   */
  questionTimeout: number;
  /**
   * Vitest only: also show the grades of each question trial (and of each matcher assertion) as one
   * test annotation of type `ai-eval`, which Vitest's verbose and JUnit reporters print. Each costs
   * a stack trace and a round trip to Vitest's main process, so it is off by default; the ai-eval
   * reporter reads the records without it, and its `junitFile` lists every grade. Default false.
   */
  annotations: boolean;
  judge: JudgeConfig;
  datasets: DatasetConfig;
}

/**
 * A partial configuration, as {@link configure} takes it.
 *
 * @example
 * ```ts
 * const input: AiEvalConfigInput = { passThreshold: 4, judge: { cache: 'replay' } };
 * configure(input);
 * ```
 */
export interface AiEvalConfigInput {
  passThreshold?: number;
  responseCharLimit?: number;
  /** See {@link AiEvalConfig.questionTimeout}. */
  questionTimeout?: number;
  /** See {@link AiEvalConfig.annotations}. */
  annotations?: boolean;
  judge?: JudgeConfig;
  datasets?: DatasetConfig;
}

const KEY = Symbol.for('ai-eval.config');

/**
 * The default per-question timeout of `evalSuite` in milliseconds: two minutes, room for a real
 * agent's tool calls and an LLM judge. `configure({ questionTimeout })` changes it.
 *
 * @example
 * ```ts
 * getConfig().questionTimeout === DEFAULT_QUESTION_TIMEOUT; // true unless configured
 * ```
 */
export const DEFAULT_QUESTION_TIMEOUT = 120_000;

/**
 * The configuration before any {@link configure}: one frozen object, so that what is worked out
 * once per configuration (a judge's record identity) stays worked out while nothing is configured.
 */
const DEFAULTS: AiEvalConfig = Object.freeze({
  passThreshold: 3.5,
  responseCharLimit: 4000,
  questionTimeout: DEFAULT_QUESTION_TIMEOUT,
  annotations: false,
  judge: Object.freeze({}),
  datasets: Object.freeze({}),
});

function holder(): { [KEY]?: AiEvalConfig } {
  return globalThis as { [KEY]?: AiEvalConfig };
}

/**
 * Sets ai-eval's configuration for this process (merged into what was set before). Call it in a
 * setup file so every worker sees it. Values are validated here.
 *
 * @example
 * ```ts
 * // vitest.setup.ts
 * import { configure } from 'ai-eval';
 * configure({ passThreshold: 4, questionTimeout: 300_000, judge: { model: 'gpt-4o-mini', cache: 'auto' } });
 * ```
 */
export function configure(input: AiEvalConfigInput): AiEvalConfig {
  const current = getConfig();
  if (input.passThreshold !== undefined) checkRange('passThreshold', input.passThreshold, 0, 5);
  if (input.responseCharLimit !== undefined)
    checkPositiveInteger('responseCharLimit', input.responseCharLimit);
  if (input.questionTimeout !== undefined) {
    checkPositiveInteger('questionTimeout', input.questionTimeout);
    checkRange('questionTimeout', input.questionTimeout, 1, 2_147_483_647);
  }
  if (input.annotations !== undefined && typeof input.annotations !== 'boolean') {
    throw new AiEvalError(
      'INVALID_CONFIG',
      `annotations must be true or false, got ${JSON.stringify(input.annotations)}.`,
    );
  }
  const next: AiEvalConfig = {
    passThreshold: input.passThreshold ?? current.passThreshold,
    responseCharLimit: input.responseCharLimit ?? current.responseCharLimit,
    questionTimeout: input.questionTimeout ?? current.questionTimeout,
    annotations: input.annotations ?? current.annotations,
    judge: { ...current.judge, ...input.judge },
    datasets: { ...current.datasets, ...input.datasets },
  };
  holder()[KEY] = next;
  return next;
}

/**
 * The configuration in force: what {@link configure} set over the defaults.
 *
 * @example
 * ```ts
 * getConfig().passThreshold; // 3.5 unless configured
 * ```
 */
export function getConfig(): AiEvalConfig {
  return holder()[KEY] ?? DEFAULTS;
}

/**
 * Restores the default configuration (for tests).
 *
 * @example
 * ```ts
 * afterEach(() => resetConfig());
 * ```
 */
export function resetConfig(): void {
  delete holder()[KEY];
}

/** Throws a clear error unless `value` is a finite number within [min, max]. */
export function checkRange(name: string, value: unknown, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new AiEvalError(
      'INVALID_CONFIG',
      `${name} must be a number from ${min} to ${max}, got ${JSON.stringify(value)}.`,
    );
  }
}

/** Throws a clear error unless `value` is a positive integer. */
export function checkPositiveInteger(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new AiEvalError(
      'INVALID_CONFIG',
      `${name} must be a positive integer, got ${JSON.stringify(value)}.`,
    );
  }
}

/**
 * One chat message sent to a judge model.
 *
 * @example
 * ```ts
 * const message: JudgeMessage = { role: 'user', content: prompt };
 * ```
 */
export interface JudgeMessage {
  role: 'system' | 'user';
  content: string;
}

/**
 * The request body a judge sends: an OpenAI Chat Completions body.
 *
 * @example
 * ```ts
 * const body: JudgeChatBody = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }], temperature: 0, seed: 0 };
 * ```
 */
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

/**
 * What a judge reads from a chat completion.
 *
 * @example
 * ```ts
 * const completion: JudgeChatCompletion = { choices: [{ message: { content: '{"score":4,"reason":"ok"}' } }] };
 * ```
 */
export interface JudgeChatCompletion {
  choices: Array<{ message?: { content?: string | null; refusal?: string | null } | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
}

/**
 * The client a judge talks to: an `OpenAI` instance from the openai SDK, or anything with the same
 * `chat.completions.create(body, options)`. Pass one as `configure({ judge: { client } })`.
 *
 * An openai SDK instance (one with `withOptions`) is used through a derived client: its own `fetch`
 * (if any) is kept but wrapped so that every HTTP attempt, the SDK's retries included, takes a
 * slot under the shared limits, and its retries and timeouts are set from `maxAttempts` and
 * `attemptTimeoutMs`. Any other client is called once per judge call, inside one limiter slot, with
 * `{ signal, timeout, maxRetries }` as hints: it does its own retries, if any, and they are neither
 * limited one by one nor counted as attempts.
 *
 * @example
 * ```ts
 * const client: JudgeChatClient = new OpenAI({ baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' });
 * configure({ judge: { client } });
 * ```
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
