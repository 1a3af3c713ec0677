import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configure, resetConfig, type JudgeConfig } from '../../src/index.js';
import type { OpenAIServer } from '../helpers/openai-server.js';

/** A fake key: tests assert it never shows up in a reason, log or cache entry. */
export const TEST_KEY = 'sk-test-SECRET-0123456789abcdef';

/** Configures the judges against a scripted local server, with tiny retry delays. */
export function useServer(server: OpenAIServer, judge: JudgeConfig = {}): void {
  resetConfig();
  configure({
    judge: {
      baseURL: server.baseURL,
      apiKey: TEST_KEY,
      model: 'test-judge',
      limitDir: mkdtempSync(join(tmpdir(), 'ai-eval-limits-')),
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 5,
      timeoutMs: 10_000,
      cache: 'off',
      ...judge,
    },
  });
}
