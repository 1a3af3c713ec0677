// Re-records the demo's judge cache (examples/judge-cache) from a scripted OpenAI-compatible judge
// on 127.0.0.1, so the demo replays real judge traffic offline. The scores are scripted for the
// demo, not a model's opinion. To record a real model instead:
//   rm -r examples/judge-cache && OPENAI_API_KEY=... AI_EVAL_JUDGE_CACHE=record npm run demo
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';

const answers = [
  {
    when: 'Which pages are still drafts?',
    score: 5,
    reason: 'Names Roadmap as the one draft, matching the ground truth and the list_nodes call.',
  },
  {
    when: 'Show me the pricing page.',
    score: 4,
    reason: 'States the page is node 2 and published; says nothing else about it.',
  },
];

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const prompt = JSON.parse(body)
      .messages.map((m) => m.content)
      .join('\n');
    const answer = answers.find((a) => prompt.includes(a.when)) ?? {
      score: 0,
      reason: 'unscripted question',
    };
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        id: 'chatcmpl-demo',
        object: 'chat.completion',
        created: 0,
        model: 'gpt-4o-mini',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: {
              role: 'assistant',
              content: JSON.stringify({ score: answer.score, reason: answer.reason }),
            },
          },
        ],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      }),
    );
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  rmSync('examples/judge-cache', { recursive: true, force: true });
  // Asynchronous: the scripted judge answers from this same process while the demo runs.
  const run = spawn('npm', ['run', 'demo'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      AI_EVAL_JUDGE_CACHE: 'record',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_API_KEY: 'demo-recording',
    },
  });
  run.on('close', (code) => {
    server.close();
    process.exitCode = code ?? 1;
  });
});
