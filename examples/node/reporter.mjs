// The node:test demo's reporter, with its options in code:
//   node --test --test-reporter=./examples/node/reporter.mjs --test-reporter-destination=stdout
// (or --test-reporter=ai-eval/reporter/node with the options as JSON in AI_EVAL_REPORTER_OPTIONS).
import { createNodeReporter } from 'ai-eval/reporter/node';

export default createNodeReporter({
  outputFile: 'reports/demo/node/ai-eval.json',
  junitFile: 'reports/demo/node/ai-eval.junit.xml',
  markdownFile: 'reports/demo/node/ai-eval.md',
  gate: { level: 'hard', minPassRate: 0.9 },
});
