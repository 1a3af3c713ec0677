// Re-records the demo's judge cache (examples/judge-cache) from a scripted OpenAI-compatible judge
// on 127.0.0.1, so the demo replays real judge traffic offline. The scores below are scripted for
// the demo, not a model's opinion; they are what a careful judge would say of each answer, and
// they show what a judge can and cannot see (a judge is shown the tool calls and which of them
// failed, never their results).
// Re-run it after changing a question, an answer of the scripted model or a judge prompt:
//   node examples/scripts/record-judge-cache.mjs
// To record a real model's answers instead: OPENAI_API_KEY=... npm run demo:live
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';

/** By a phrase of the question, then by the judge's dimension. */
const answers = [
  [
    'Which drafts are tagged launch?',
    {
      'fact match': [5, 'States that the Spring launch checklist is the only draft tagged launch.'],
      accuracy: [5, 'Correct and backed by the search for launch drafts.'],
    },
  ],
  [
    'List the published pages about pricing.',
    {
      'fact match': [0, 'Names neither the Pricing page nor the Pricing FAQ.'],
      accuracy: [1, 'Lists a draft article as a published pricing page; the search filtered on drafts.'],
    },
  ],
  [
    'What does the Pricing page say about refunds?',
    {
      'fact match': [5, 'States the 30-day refund window.'],
      accuracy: [
        4,
        'The refund window is right; the record shows an update_node call on the page that the answer does not mention.',
      ],
    },
  ],
  [
    'List the published pages as JSON',
    {
      accuracy: [5, 'Lists the published pages with their ids, as the search returned them.'],
    },
  ],
  [
    'Who wrote it, and is it live?',
    {
      'fact match': [5, 'Names Dana Reyes and says the press release is published.'],
      accuracy: [5, 'Both claims are correct and follow the lookup of node 6.'],
    },
  ],
  [
    'Summarise node 3 as a markdown list.',
    {
      'fact match': [5, 'Says node 3 is a draft.'],
      accuracy: [5, 'Every item matches node 3.'],
    },
  ],
  [
    "Create a draft page titled 'Shipping FAQ'.",
    {
      groundedness: [1, 'The creation it reports is the create_node call in the record.'],
      relevance: [5, 'Answers the request directly.'],
      completeness: [5, 'Confirms the draft page and its title.'],
    },
  ],
  [
    'Publish the Spring launch checklist.',
    {
      groundedness: [
        0,
        'Claims the checklist was published, but the record shows only a search and no update.',
      ],
      relevance: [5, 'Addresses the request to publish the checklist.'],
      completeness: [5, 'Says the checklist is published and live, which is all that was asked.'],
    },
  ],
  [
    "Rename the Careers page to 'Join us'.",
    {
      // The record holds update_node with the right arguments, marked (failed): the judge sees the
      // call failed, so the rename it reports is not grounded in work done.
      groundedness: [0, 'Reports the rename, but the update_node call it rests on failed.'],
      relevance: [5, 'Answers the rename request.'],
      completeness: [5, 'Confirms the page and its new title.'],
    },
  ],
  [
    'Take the Pricing FAQ offline.',
    {
      // The record holds a search for pricing pages and update_node({ id: 2, status: draft }): which
      // page node 2 is, the judge cannot tell (it sees calls and failures, never their results).
      groundedness: [1, 'The change it reports is the update_node call setting a page to draft.'],
      relevance: [5, 'Answers the request to take the page offline.'],
      completeness: [5, 'Says the page is a draft and that its content is kept.'],
    },
  ],
  [
    'Yes, delete it.',
    {
      groundedness: [1, 'The deletion is the delete_node call on node 7.'],
      relevance: [5, 'Confirms the deletion the user approved.'],
      completeness: [5, 'Names the article and its id.'],
    },
  ],
  [
    'annual plans can be refunded within 14 days',
    {
      groundedness: [1, 'The update it reports is the update_node call on node 2.'],
      relevance: [5, 'Makes and reports the requested change.'],
      completeness: [5, 'Names the node and quotes the new sentence.'],
    },
  ],
  [
    'How do I take a page offline without deleting it?',
    {
      relevance: [5, 'Answers exactly how to take a page offline.'],
      actionability: [
        4,
        'Three concrete steps with the tool and the status value; how to find the page address is left out.',
      ],
    },
  ],
];

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const prompt = JSON.parse(body)
      .messages.map((m) => m.content)
      .join('\n');
    const dimension = /single dimension: ([a-z ]+):/.exec(prompt)?.[1];
    const scripted = answers.find(([phrase]) => prompt.includes(phrase))?.[1][dimension];
    if (!scripted)
      console.error(`record-judge-cache: no scripted ${dimension} answer for:\n${prompt.slice(0, 600)}`);
    const [score, reason] = scripted ?? [0, 'unscripted question'];
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
            message: { role: 'assistant', content: JSON.stringify({ score, reason, evasive: false }) },
          },
        ],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      }),
    );
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  // Recorded into a fresh directory, then merged (see keepUnchanged), so that what no question asks
  // any more leaves the cache.
  const fresh = mkdtempSync(join(tmpdir(), 'ai-eval-demo-cache-'));
  // Asynchronous: the scripted judge answers from this same process while the demo runs.
  const run = spawn(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--config', 'examples/vitest/vitest.config.ts'],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        AI_EVAL_DEMO_LIVE: undefined,
        AI_EVAL_DEMO_CACHE_DIR: fresh,
        AI_EVAL_JUDGE_CACHE: 'record',
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        OPENAI_API_KEY: 'demo-recording',
      },
    },
  );
  // The run fails by design (the planted failures); the cache is what this script is for.
  run.on('close', () => {
    server.close();
    keepUnchanged(fresh, 'examples/judge-cache');
    rmSync(fresh, { recursive: true, force: true });
  });
});

/** The entries' files under a cache directory, relative to it. */
function entries(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/**
 * Replaces the committed cache with the fresh one, except that an entry whose answer is the same
 * as before keeps its old file: re-recording changes only what really changed (no new recordedAt
 * on every entry).
 */
function keepUnchanged(fresh, committed) {
  const answer = (file) => {
    const { recordedAt: _, ...rest } = JSON.parse(readFileSync(file, 'utf8'));
    return JSON.stringify(rest);
  };
  const kept = new Map();
  for (const file of existsSync(committed) ? entries(committed) : []) {
    const now = join(fresh, file);
    if (existsSync(now) && answer(now) === answer(join(committed, file)))
      kept.set(file, readFileSync(join(committed, file)));
  }
  rmSync(committed, { recursive: true, force: true });
  cpSync(fresh, committed, { recursive: true });
  for (const [file, bytes] of kept) writeFileSync(join(committed, file), bytes);
}
