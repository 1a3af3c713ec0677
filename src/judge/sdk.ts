import { getConfig, type JudgeChatClient } from '../config.js';
import { AiEvalError } from '../errors.js';
import { errorMessage, shorten } from '../internal/text.js';
import type { FetchLike } from './limited-fetch.js';
import type { JudgeSettings } from './settings.js';

/**
 * The SDK's own timeout, set out of the way: its clock starts before the request reaches `fetch`,
 * so it would count the wait for a limiter slot. The attempt timeout is kept by the limited fetch
 * instead, from when the attempt holds its slot. (The largest delay a timer takes.)
 */
const SDK_TIMEOUT_MS = 2 ** 31 - 1;

const clients = new Map<string, Promise<JudgeChatClient>>();

/**
 * The client judges call: `judge.client` when configured, else an `OpenAI` instance (the openai
 * SDK, imported lazily on first use) for the base URL and key, kept per base URL and key. Each call
 * derives the client it sends through from this one with {@link deriveSdkClient}.
 *
 * @example
 * ```ts
 * const client = await judgeClient(judgeSettings());
 * ```
 */
export async function judgeClient(settings: JudgeSettings): Promise<JudgeChatClient> {
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
          maxRetries: settings.maxAttempts - 1,
          timeout: SDK_TIMEOUT_MS,
        }) as JudgeChatClient,
    );
    client.catch(() => clients.delete(id));
    clients.set(id, client);
  }
  return client;
}

/** The options a judge sets on an openai SDK client. */
interface SdkOptions {
  fetch: FetchLike;
  maxRetries: number;
  timeout: number;
}

/** An openai SDK instance: a chat client that can derive a copy with other options. */
interface SdkClient extends JudgeChatClient {
  withOptions(options: SdkOptions): JudgeChatClient;
}

/**
 * True for an openai SDK instance (`OpenAI`, `AzureOpenAI`): it has `withOptions`.
 *
 * @example
 * ```ts
 * if (!isSdkClient(client)) await client.chat.completions.create(body, { signal });
 * ```
 */
export function isSdkClient(client: JudgeChatClient): client is SdkClient {
  return typeof (client as { withOptions?: unknown }).withOptions === 'function';
}

/**
 * A client derived from an openai SDK instance that sends every HTTP attempt through
 * `wrap(its own fetch)` and retries up to `maxAttempts - 1` times. The instance's own `fetch`
 * (a proxy, an undici agent) is kept inside the wrapper; everything else it was built with
 * (key, base URL, headers, fetch options) carries over.
 *
 * @example
 * ```ts
 * const derived = deriveSdkClient(client, (inner) => limitedFetch({ fetch: inner, limits, attemptTimeoutMs }), settings);
 * await derived.chat.completions.create(body, { signal });
 * ```
 */
export function deriveSdkClient(
  client: SdkClient,
  wrap: (inner: FetchLike) => FetchLike,
  settings: JudgeSettings,
): JudgeChatClient {
  // `fetch` is the SDK's (TypeScript-private) field holding the fetch it was given, or the global one.
  const own = (client as { fetch?: unknown }).fetch;
  const inner: FetchLike =
    typeof own === 'function'
      ? (input, init) => (own as FetchLike).call(undefined, input, init)
      : (input, init) => globalThis.fetch(input, init);
  return client.withOptions({
    fetch: wrap(inner),
    maxRetries: settings.maxAttempts - 1,
    timeout: SDK_TIMEOUT_MS,
  });
}

type OpenAIConstructor = new (options: {
  apiKey: string;
  baseURL: string | null;
  maxRetries: number;
  timeout: number;
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
      `the openai package could not be loaded (${shorten(errorMessage(error), 120)}); LLM judges need it: npm i openai`,
      { cause: error },
    );
  }
}
