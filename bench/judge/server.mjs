// A local OpenAI-compatible Chat Completions server on 127.0.0.1 for the judge benchmarks: every
// answer is `{"score": 4, "reason": ...}` after `latencyMs`; with `limit` set it admits at most that
// many requests in any 1000 ms and answers the rest 429 with `retry-after-ms` and `Retry-After`
// (seconds) saying when a slot frees, as a provider's rate limit does.

import { createServer } from 'node:http';

/** Starts the server; resolves to its base URL, counters and `close()`. */
export async function startJudgeServer({ limit, latencyMs = 50 } = {}) {
  const admitted = []; // arrival times of admitted requests within the last second
  const stats = { admitted: [], refused: [] };
  const server = createServer(async (req, res) => {
    for await (const _chunk of req); // read the body
    const now = Date.now();
    if (limit !== undefined) {
      while (admitted.length > 0 && admitted[0] <= now - 1000) admitted.shift();
      if (admitted.length >= limit) {
        stats.refused.push(now);
        const waitMs = Math.max(1, admitted[0] + 1000 - now);
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after-ms': String(waitMs),
          'retry-after': String(Math.ceil(waitMs / 1000)),
        });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }));
        return;
      }
      admitted.push(now);
    }
    stats.admitted.push(now);
    await new Promise((r) => setTimeout(r, latencyMs));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: Math.floor(now / 1000),
        model: 'bench-judge',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: '{"score":4,"reason":"relevant"}', refusal: null },
          },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
      }),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/v1`,
    stats,
    reset() {
      admitted.length = 0;
      stats.admitted.length = 0;
      stats.refused.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Admitted requests per second from the first to the last admitted one. */
export function achievedRate(admitted) {
  if (admitted.length < 2) return 0;
  return (admitted.length - 1) / ((admitted.at(-1) - admitted[0]) / 1000);
}
