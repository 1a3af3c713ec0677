import { getConfig, type JudgeChatClient } from '../config.js';
import { AiEvalError } from '../errors.js';
import { errorMessage, shorten } from '../internal/text.js';
import type { JudgeSettings } from './settings.js';

const clients = new Map<string, Promise<JudgeChatClient>>();

/**
 * The client judges call: `judge.client` when configured, else an `OpenAI` instance (the openai
 * SDK, imported lazily on first use) for the base URL and key, with the SDK's retries off.
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
      `the openai package could not be loaded (${shorten(errorMessage(error), 120)}); LLM judges need it: npm i openai`,
      { cause: error },
    );
  }
}
