/**
 * What the Vitest, Jest and node:test suites of the demo share: the judge settings, how a question
 * is run, and the suites (targets and the questions each one answers). Each runner's test file
 * hands these to its own `evalSuite`.
 *
 * Scripted by default: the scripted model plays the agent and the judges are replayed from
 * examples/judge-cache. `npm run demo:live` sets AI_EVAL_DEMO_LIVE=1: the openai SDK then talks to
 * OPENAI_BASE_URL (or api.openai.com with OPENAI_API_KEY) for the agent and the judges, and the
 * judge answers are recorded into the cache (AI_EVAL_DEMO_CACHE_DIR, default examples/judge-cache).
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { configure, type JudgeCacheMode, type Question, type Target } from 'ai-eval';
import { runEditorialAgent, type ChatClient, type EditorialRun } from './agent.js';
import { scriptedModel } from './scripted-model.js';
import { TOOLS } from './tools.js';

const env = process.env;

/** `live`: a real model over the openai SDK; `scripted`: the scripted model, offline. */
export const DEMO_MODE: 'live' | 'scripted' = env.AI_EVAL_DEMO_LIVE === '1' ? 'live' : 'scripted';

/** The dataset every suite reads (paths are relative to the working directory: the repository root). */
export const DATASET = 'examples/datasets/editorial.yaml';

/** Configures the judges: replayed from the committed cache, or live and recorded. */
export function configureDemo(): void {
  const cache =
    (env.AI_EVAL_JUDGE_CACHE as JudgeCacheMode | undefined) ?? (DEMO_MODE === 'live' ? 'record' : 'replay');
  configure({
    judge: {
      model: env.AI_EVAL_JUDGE_MODEL ?? 'gpt-4o-mini',
      cache,
      cacheDir: env.AI_EVAL_DEMO_CACHE_DIR ?? 'examples/judge-cache',
    },
  });
}

let liveClient: ChatClient | undefined;

function client(): ChatClient {
  if (DEMO_MODE === 'scripted') return scriptedModel();
  // A local OpenAI-compatible server (Ollama, vLLM, LiteLLM) may need no key.
  liveClient ??= new OpenAI({ apiKey: env.OPENAI_API_KEY ?? 'no-key', baseURL: env.OPENAI_BASE_URL });
  return liveClient;
}

/** Runs the agent on one question: its `messages` (multi-turn) or its `input`. */
export function runQuestion(question: Question, { signal }: { signal: AbortSignal }): Promise<EditorialRun> {
  const conversation: ChatCompletionMessageParam[] = question.messages?.map((m) =>
    m.role === 'assistant' ? { role: 'assistant', content: m.content } : { role: 'user', content: m.content },
  ) ?? [{ role: 'user', content: question.input ?? '' }];
  return runEditorialAgent(conversation, {
    client: client(),
    model: env.AI_EVAL_DEMO_MODEL ?? 'gpt-4o-mini',
    signal,
  });
}

/** One generated suite: a target and the questions it answers. */
export interface DemoSuite {
  name: string;
  target: Target;
  split?: string;
  tags?: string[];
}

/**
 * The demo's suites. The graders that read the tool-call record (`tool_usage_grader`,
 * `read_only_run`, `claims_grader`) sit beside LLM judges; the last agent target is scored by
 * prose judges alone, and the reporter says that nothing there can see what the agent did.
 */
export const DEMO_SUITES: DemoSuite[] = [
  {
    name: 'editorial assistant: lookups',
    split: 'lookups',
    target: {
      name: 'editorial-lookups',
      mode: 'agent',
      tools: TOOLS,
      // A lookup that writes fails: one binary 0 among three 5s averages 3.75, so the bar is 4.
      passThreshold: 4,
      graders: [
        'tool_usage_grader',
        'read_only_run',
        'format_grader',
        'fact_match_grader',
        'accuracy_grader',
      ],
    },
  },
  {
    name: 'editorial assistant: edits',
    split: 'edits',
    target: {
      name: 'editorial-edits',
      mode: 'agent',
      tools: TOOLS,
      passThreshold: 4,
      graders: ['tool_usage_grader', 'claims_grader', 'groundedness_grader'],
    },
  },
  {
    name: 'editorial assistant: edits, judged on prose only',
    split: 'edits',
    target: {
      name: 'editorial-prose-only',
      mode: 'agent',
      graders: ['relevance_grader', 'completeness_grader'],
    },
  },
  {
    name: 'editorial assistant: help',
    tags: ['help'],
    target: { name: 'editorial-help', mode: 'chat', graders: ['relevance_grader', 'actionability_grader'] },
  },
];

/** The `evalSuite` options of a demo suite. */
export function suiteOptions(suite: DemoSuite) {
  return {
    dataset: DATASET,
    target: suite.target,
    ...(suite.split ? { split: suite.split } : {}),
    ...(suite.tags ? { tags: suite.tags } : {}),
    run: runQuestion,
    timeout: 60_000,
  };
}
