import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Token usage a scripted answer reports (OpenAI's snake_case shape). */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * One scripted reply of the server:
 * - `{ answer }`: a completion whose content is `JSON.stringify(answer)`;
 * - `{ content, refusal? }`: a completion with this raw content (malformed output, prose, fences);
 * - `{ status, headers?, body? }`: an HTTP error (429 with Retry-After, 500, 400 ...);
 * - `{ hang: true }`: never answers (until the client gives up or the server closes);
 * - `{ toolCalls, content? }`: a completion whose message asks for these function tool calls
 *   (`finish_reason: 'tool_calls'`), as a model playing an agent does.
 * `delayMs` holds any reply back first; `usage` overrides the reported usage.
 */
export type Step = (
  | { answer: Record<string, unknown> }
  | { content: string | null; refusal?: string }
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { hang: true }
  | { toolCalls: ScriptedToolCall[]; content?: string | null }
) & { delayMs?: number; usage?: ScriptedUsage };

/** A function tool call a scripted completion asks for; `arguments` is the JSON string. */
export interface ScriptedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A request the server received. */
export interface RecordedRequest {
  /** The parsed JSON body (model, messages, temperature, seed, response_format ...). */
  body: Record<string, unknown>;
  path: string;
  /** Whether an Authorization header was sent (its value is not kept). */
  authorized: boolean;
  /** The SHA-256 hex digest of the bearer token sent, if any (the token itself is not kept). */
  tokenHash: string | undefined;
  receivedAt: number;
  /** The prompt: the content of the first user message. */
  prompt: string;
}

/** A scriptable OpenAI-compatible Chat Completions server on 127.0.0.1. */
export interface OpenAIServer {
  /** The base URL to configure, ending in `/v1`. */
  baseURL: string;
  requests: RecordedRequest[];
  /** Most requests that were in flight at once. */
  maxInFlight: number;
  /** Queues replies, answered in order; when the queue is empty, `fallback` answers. */
  script(...steps: Step[]): void;
  /** Forgets the recorded requests, the unused script and the in-flight peak. */
  reset(): void;
  /** Answers requests once the script is used up. Default: a score of 4. */
  fallback: (request: RecordedRequest) => Step;
  /**
   * When set, a provider's rate limit: at most this many requests in any 1000 ms are answered
   * (scripted or fallback); the rest get a 429 with `retry-after-ms` and `retry-after` saying when
   * a slot frees. Refused requests are not in `requests`.
   */
  rateLimit: number | undefined;
  /** When each request the rate limit refused arrived (epoch ms). */
  refused: number[];
  close(): Promise<void>;
}

const DEFAULT_USAGE: ScriptedUsage = { prompt_tokens: 120, completion_tokens: 16, total_tokens: 136 };

function completion(
  content: string | null,
  refusal: string | null,
  usage: ScriptedUsage,
  toolCalls: ScriptedToolCall[] = [],
): unknown {
  const calls = toolCalls.map((c) => ({
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: c.arguments },
  }));
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'test-judge',
    choices: [
      {
        index: 0,
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        message: { role: 'assistant', content, refusal, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
      },
    ],
    usage,
  };
}

/**
 * The SHA-256 hex digest of a token, as {@link RecordedRequest.tokenHash} records it.
 *
 * @example
 * ```ts
 * expect(server.requests[0]!.tokenHash).toBe(tokenHash(process.env.OPENAI_API_KEY!));
 * ```
 */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function bearerHash(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return match ? tokenHash(match[1]!.trim()) : undefined;
}

function promptOf(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
  const first = messages[0]?.content;
  return typeof first === 'string' ? first : '';
}

/**
 * Starts the server on 127.0.0.1 with an ephemeral port.
 *
 * @example
 * ```ts
 * const server = await startOpenAIServer();
 * server.script({ status: 429, headers: { 'retry-after': '1' } }, { answer: { score: 4, reason: 'ok' } });
 * configure({ judge: { baseURL: server.baseURL, apiKey: 'test-key' } });
 * ```
 */
export async function startOpenAIServer(): Promise<OpenAIServer> {
  const queue: Step[] = [];
  /** When the requests the rate limit let through arrived, within the last second. */
  const admitted: number[] = [];
  let inFlight = 0;
  const state: OpenAIServer = {
    baseURL: '',
    requests: [],
    maxInFlight: 0,
    script: (...steps) => void queue.push(...steps),
    reset: () => {
      queue.length = 0;
      state.requests.length = 0;
      state.maxInFlight = 0;
      state.refused.length = 0;
      admitted.length = 0;
    },
    rateLimit: undefined,
    refused: [],
    fallback: () => ({ answer: { score: 4, reason: 'scripted default' } }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      // Recorded as an empty body; the test will notice.
    }
    if (state.rateLimit !== undefined) {
      const now = Date.now();
      while (admitted.length > 0 && admitted[0]! <= now - 1000) admitted.shift();
      if (admitted.length >= state.rateLimit) {
        state.refused.push(now);
        const waitMs = Math.max(1, admitted[0]! + 1000 - now);
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after-ms': String(waitMs),
          'retry-after': String(Math.ceil(waitMs / 1000)),
        });
        res.end(
          JSON.stringify({
            error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
          }),
        );
        return;
      }
      admitted.push(now);
    }
    const recorded: RecordedRequest = {
      body,
      path: req.url ?? '',
      authorized: typeof req.headers.authorization === 'string',
      tokenHash: bearerHash(req.headers.authorization),
      receivedAt: Date.now(),
      prompt: promptOf(body),
    };
    state.requests.push(recorded);
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => (inFlight -= 1));
    const step = queue.shift() ?? state.fallback(recorded);
    if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
    if ('hang' in step) return;
    const usage = step.usage ?? DEFAULT_USAGE;
    if ('status' in step) {
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      res.end(JSON.stringify(step.body ?? { error: { message: `scripted ${step.status}`, type: 'test' } }));
      return;
    }
    if ('toolCalls' in step) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion(step.content ?? null, null, usage, step.toolCalls)));
      return;
    }
    const content = 'answer' in step ? JSON.stringify(step.answer) : step.content;
    const refusal = 'refusal' in step ? (step.refusal ?? null) : null;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completion(content, refusal, usage)));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(599);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.baseURL = `http://127.0.0.1:${port}/v1`;
  return state;
}
