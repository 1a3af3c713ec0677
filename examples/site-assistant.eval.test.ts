import { inputOf } from 'ai-eval';
import { evalSuite } from 'ai-eval/vitest';
import { runSiteAssistant } from './agent.js';

// One generated test per dataset question. The tool-usage grader reads what the agent did, so an
// agent that claims work it never performed fails here, whatever its prose says.
evalSuite('site assistant: read-only questions', {
  dataset: 'examples/datasets/site-assistant.yaml',
  ids: ['list-drafts', 'pricing-page', 'published-as-json'],
  target: {
    name: 'site-assistant',
    mode: 'agent',
    graders: ['tool_usage_grader', 'read_only_run', 'format_grader'],
  },
  run: (question) => runSiteAssistant(inputOf(question)),
});

evalSuite('site assistant: editing', {
  dataset: 'examples/datasets/site-assistant.yaml',
  ids: ['create-roadmap-faq'],
  target: { name: 'site-assistant-editor', mode: 'agent', graders: ['tool_usage_grader'] },
  run: (question) => runSiteAssistant(inputOf(question)),
});

// An LLM judge beside the record: accuracy_grader checks the answer against the expected facts and
// is shown the tool calls. Its answers are replayed from examples/judge-cache (see setup.ts).
evalSuite('site assistant: answers', {
  dataset: 'examples/datasets/site-assistant.yaml',
  ids: ['list-drafts', 'pricing-page'],
  target: {
    name: 'site-assistant-answers',
    mode: 'agent',
    graders: ['tool_usage_grader', 'accuracy_grader'],
  },
  run: (question) => runSiteAssistant(inputOf(question)),
});

// An agent scored only on the shape of its text: the reporter flags that nothing observes its actions.
evalSuite('site assistant: format only', {
  dataset: 'examples/datasets/site-assistant.yaml',
  ids: ['published-as-json'],
  target: { name: 'site-assistant-format-only', mode: 'agent', graders: ['format_grader'] },
  run: (question) => runSiteAssistant(inputOf(question)),
});
