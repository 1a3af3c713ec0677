import { configure } from 'ai-eval';

// The demo's LLM judge answers are replayed from examples/judge-cache, so the demo needs no API key
// and no network. A cache miss is an errored grade naming the missing entry, never a model call.
// Against a real model: OPENAI_API_KEY=... AI_EVAL_JUDGE_CACHE=record npm run demo
configure({
  judge: {
    model: 'gpt-4o-mini',
    cache: (process.env.AI_EVAL_JUDGE_CACHE as 'auto' | 'record' | 'replay' | 'off' | undefined) ?? 'replay',
    cacheDir: 'examples/judge-cache',
  },
});
