import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { configure, resetConfig, type JudgeConfig } from '../../src/index.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';

/** A fake key: tests assert it never shows up in a reason, log or cache entry. */
export const TEST_KEY = 'sk-test-SECRET-0123456789abcdef';

/** Configures the judges against a scripted local server, in a limiter directory of its own. */
export function useServer(server: OpenAIServer, judge: JudgeConfig = {}): void {
  resetConfig();
  configure({
    judge: {
      baseURL: server.baseURL,
      apiKey: TEST_KEY,
      model: 'test-judge',
      limitDir: mkdtempSync(join(tmpdir(), 'ai-eval-limits-')),
      timeoutMs: 10_000,
      cache: 'off',
      ...judge,
    },
  });
}

/**
 * Starts a scripted judge server for the calling test file: once before all its tests (closed
 * after them), and before each test forgets what the server recorded and configures the judges
 * against it with {@link useServer} (`judge` overrides the defaults).
 *
 * @example
 * ```ts
 * const env = withJudgeServer();
 * it('asks once', async () => {
 *   env.server.script({ answer: { score: 4, reason: 'fine' } });
 *   // ...
 *   expect(env.server.requests).toHaveLength(1);
 * });
 * ```
 */
export function withJudgeServer(judge?: JudgeConfig): { readonly server: OpenAIServer } {
  let server: OpenAIServer | undefined;
  const current = (): OpenAIServer => {
    if (!server) throw new Error('the judge server starts in beforeAll: use it inside a hook or a test');
    return server;
  };
  beforeAll(async () => {
    server = await startOpenAIServer();
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    current().reset();
    useServer(current(), judge);
  });
  return {
    get server() {
      return current();
    },
  };
}
