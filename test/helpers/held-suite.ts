import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { readReport } from './report-schema.js';

/**
 * A probe of the side channel's holding, for the Jest and node:test entries: a three-question
 * dataset (`ds.json`) and a test file whose agent, on the last question, copies this process's
 * channel file to `held.txt`. `imports` brings `existsSync`, `readFileSync`, `writeFileSync`,
 * `join` and `evalSuite` in the runner's module syntax.
 */
export function heldSuiteFiles(testFile: string, imports: string): Record<string, string> {
  return {
    'ds.json': JSON.stringify({
      questions: [
        { id: 'q1', input: 'Find it', expected_tools: ['search'] },
        { id: 'q2', input: 'Find it again', expected_tools: ['search'] },
        { id: 'q3', input: 'And once more', expected_tools: ['search'] },
      ],
    }),
    [testFile]: `${imports}
const held = (question) => {
  // The last question reads this process's channel file: the two before it are graded already.
  if (question.id === 'q3') {
    const file = join(process.env.AI_EVAL_CHANNEL_DIR, 'records-' + process.pid + '.jsonl');
    writeFileSync('held.txt', existsSync(file) ? readFileSync(file, 'utf8') : '');
  }
  return { output: 'Found.', toolCalls: [{ function_name: 'search', arguments: {} }] };
};

evalSuite('held', { dataset: 'ds.json', target: { name: 'agent', mode: 'agent', graders: ['tool_usage_grader'] }, run: held });
`,
  };
}

/**
 * Checks what the probe saw: nothing of the suite written while it ran (one append at its end),
 * and every question in the project's report, `ai-eval.json`.
 */
export function expectHeldThenWritten(dir: string): void {
  expect(readFileSync(join(dir, 'held.txt'), 'utf8')).toBe('');
  const report = readReport(join(dir, 'ai-eval.json'));
  expect(report.targets[0]!.questions.map((q) => [q.id, q.composite])).toEqual([
    ['q1', 5],
    ['q2', 5],
    ['q3', 5],
  ]);
}
