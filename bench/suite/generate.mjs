// The generated-suite benchmark's project: N questions, a scripted agent that is a map lookup, and
// three deterministic graders (read_only_run, tool_usage_grader with argument subsets, and
// tool_usage_grader on names only), beside plain Vitest and plain Jest files of N trivial tests.
// Everything is deterministic: the same N always gives the same files.

import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const READS = ['search', 'list_nodes', 'load_node', 'get_user', 'fetch_page'];
const WRITES = ['save_node', 'delete_node', 'update_user'];

/** The dataset and the agent's answers for `count` questions. */
export function generate(count) {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = (list) => list[Math.floor(random() * list.length)];
  const questions = [];
  const answers = {};
  for (let i = 0; i < count; i++) {
    const id = `q${String(i + 1).padStart(5, '0')}`;
    const topic = `topic ${i % 97}`;
    const first = pick(READS);
    const second = pick(READS);
    const expected_tools = [{ name: 'search', args: { q: topic } }, first];
    if (i % 3 === 0) expected_tools.push({ name: second, args: { page: i % 4 } });
    questions.push({
      id,
      input: `Find what we know about ${topic} (${i})`,
      expected_tools,
      tags: [`t${i % 5}`],
    });
    // Most runs do what was asked; some miss an argument, skip a tool or write something.
    const calls = [
      { function_name: 'search', arguments: { q: random() < 0.85 ? topic : 'other', limit: 10 } },
    ];
    if (random() < 0.9) calls.push({ function_name: first, arguments: { id: i } });
    if (i % 3 === 0) calls.push({ function_name: second, arguments: { page: random() < 0.8 ? i % 4 : 9 } });
    if (random() < 0.1) calls.push({ function_name: pick(WRITES), arguments: { id: i } });
    answers[id] = { output: `Here is what I found about ${topic}.`, toolCalls: calls };
  }
  return { dataset: { name: 'bench', questions }, answers };
}

// The suite's target and agent, in ESM for Vitest and CJS for Jest (so each runner loads one copy
// of ai-eval, as a user's project would).
const SHARED_BODY = `

const toolUsage = getGrader('tool_usage_grader');
/** tool_usage_grader on the tool names only: every expectation's arguments dropped. */
const toolNames = defineGrader({
  id: 'tool_names',
  label: 'Tool names',
  minScore: 0,
  maxScore: 5,
  observesActions: true,
  grade(input, response, context, helpers) {
    const names = (context.expected_tools ?? []).map((e) => (typeof e === 'string' ? e : e.name));
    return toolUsage.grade(input, response, { ...context, expected_tools: names }, helpers);
  },
});

const target = {
  name: 'bench-agent',
  mode: 'agent',
  graders: ['read_only_run', 'tool_usage_grader', toolNames],
};
const map = new Map(Object.entries(answers));
const agent = (question) => map.get(question.id);
`;
const SHARED_ESM = `import { defineGrader, getGrader } from 'ai-eval';
import { readFileSync } from 'node:fs';

const answers = JSON.parse(readFileSync(new URL('./answers.json', import.meta.url), 'utf8'));
${SHARED_BODY}
export { target, agent };
`;
// The same target with every question passing (a pass threshold of 0): the suite without the
// failures Vitest prints, for reading the verdict rows (bench/suite.mjs).
const SHARED_PASSING_ESM = SHARED_ESM.replace("mode: 'agent',", "mode: 'agent',\n  passThreshold: 0,");
if (SHARED_PASSING_ESM === SHARED_ESM) throw new Error('bench: the passing target lost its pass threshold');
// The passing target with read_only_run alone, for bench/suite-parts.mjs: what the pipeline costs
// with one cheap grader, and so what the two tool_usage_grader grades add.
const SHARED_ONE_ESM = SHARED_PASSING_ESM.replace(
  "graders: ['read_only_run', 'tool_usage_grader', toolNames],",
  "graders: ['read_only_run'],",
);
if (SHARED_ONE_ESM === SHARED_PASSING_ESM) throw new Error('bench: the one-grader target kept its graders');
const SHARED_CJS = `const { defineGrader, getGrader } = require('ai-eval');
const answers = require('./answers.json');
${SHARED_BODY}
module.exports = { target, agent };
`;

/**
 * Installs the built package `pkg` (its dist, schema and package.json) into `dir`/node_modules as
 * a real directory, as npm would: a symlink out of node_modules would make Vitest transform
 * ai-eval's files instead of loading them as a dependency. Its dependencies and the runners are
 * linked from the repository's node_modules.
 */
export function installPackage(dir, { pkg, repo }) {
  const target = join(dir, 'node_modules', 'ai-eval');
  mkdirSync(target, { recursive: true });
  for (const part of ['dist', 'schema', 'package.json'])
    cpSync(join(pkg, part), join(target, part), { recursive: true });
  const { dependencies = {} } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  for (const dep of [...Object.keys(dependencies), 'vitest', 'jest', '@jest', 'openai']) {
    const scope = dep.startsWith('@') && dep.includes('/') ? dep.split('/')[0] : undefined;
    if (scope) mkdirSync(join(dir, 'node_modules', scope), { recursive: true });
    symlinkSync(join(repo, 'node_modules', dep), join(dir, 'node_modules', dep), 'dir');
  }
}

/** Writes the benchmark project for `count` questions into `dir`, with `ai-eval` installed from `pkg`. */
export function writeProject(dir, count, { pkg, repo }) {
  mkdirSync(join(dir, 'datasets'), { recursive: true });
  installPackage(dir, { pkg, repo });
  const { dataset, answers } = generate(count);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-suite', private: true }));
  writeFileSync(join(dir, 'datasets', 'bench.json'), JSON.stringify(dataset, null, 2));
  writeFileSync(join(dir, 'answers.json'), JSON.stringify(answers));
  writeFileSync(join(dir, 'shared.mjs'), SHARED_ESM);
  writeFileSync(join(dir, 'shared.cjs'), SHARED_CJS);
  writeFileSync(join(dir, 'shared-passing.mjs'), SHARED_PASSING_ESM);
  writeFileSync(join(dir, 'shared-one.mjs'), SHARED_ONE_ESM);

  // Vitest: the generated suite, plain trivial tests, and the scoring written inline.
  writeFileSync(
    join(dir, 'eval.test.js'),
    `import { evalSuite } from 'ai-eval/vitest';
import { agent, target } from './shared.mjs';

evalSuite('bench', { dataset: 'datasets/bench.json', target, run: agent });
`,
  );
  // The same suite from a dataset registered for the inline source (parsed with JSON.parse): the
  // suite's cost apart from reading the dataset file.
  writeFileSync(
    join(dir, 'eval-inline.test.js'),
    `import { registerInlineDataset } from 'ai-eval';
import { evalSuite } from 'ai-eval/vitest';
import { readFileSync } from 'node:fs';
import { agent, target } from './shared.mjs';

registerInlineDataset('bench', JSON.parse(readFileSync('datasets/bench.json', 'utf8')));
evalSuite('bench', { dataset: { source: 'inline', ref: 'bench' }, target, run: agent });
`,
  );
  writeFileSync(
    join(dir, 'eval-passing.test.js'),
    `import { evalSuite } from 'ai-eval/vitest';
import { agent, target } from './shared-passing.mjs';

evalSuite('bench', { dataset: 'datasets/bench.json', target, run: agent });
`,
  );
  writeFileSync(
    join(dir, 'eval-one.test.js'),
    `import { evalSuite } from 'ai-eval/vitest';
import { agent, target } from './shared-one.mjs';

evalSuite('bench', { dataset: 'datasets/bench.json', target, run: agent });
`,
  );
  // Plain trivial tests in a file that loads what the suite's file loads (ai-eval's modules, the
  // target's file and its answers) and defines no suite: what loading them costs.
  writeFileSync(
    join(dir, 'plain-imports.test.js'),
    `import { describe, expect, test } from 'vitest';
import 'ai-eval/vitest';
import './shared-passing.mjs';

describe('bench', () => {
  for (let i = 0; i < ${count}; i++) test(\`q\${i}\`, () => expect(i).toBe(i));
});
`,
  );
  writeFileSync(
    join(dir, 'plain.test.js'),
    `import { describe, expect, test } from 'vitest';

describe('bench', () => {
  for (let i = 0; i < ${count}; i++) test(\`q\${i}\`, () => expect(i).toBe(i));
});
`,
  );
  for (const [file, threshold] of [
    ['inline.test.js', 0],
    // Failing the questions ai-eval fails: the same formula, the default pass threshold.
    ['inline-failing.test.js', 3.5],
  ])
    writeFileSync(
      join(dir, file),
      `import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';

// Plain Vitest with the scoring written in the test: read-only, expected tools and names. The
// answers are read as the suite's target reads them (JSON.parse): an \`import\` of the 420 KB JSON
// file goes through Vite's JSON transform, which made this row read 1.44x plain in runs N to Q.
const answers = JSON.parse(readFileSync('answers.json', 'utf8'));
const { questions } = JSON.parse(readFileSync('datasets/bench.json', 'utf8'));
const same = (a, b) => Object.entries(b).every(([k, v]) => JSON.stringify(a[k]) === JSON.stringify(v));
describe('bench', () => {
  for (const q of questions) {
    test(q.id, () => {
      const calls = answers[q.id].toolCalls;
      const readOnly = calls.some((c) => /^(create|update|delete|edit|save)_/.test(c.function_name)) ? 0 : 5;
      const met = q.expected_tools.filter((e) =>
        typeof e === 'string'
          ? calls.some((c) => c.function_name === e)
          : calls.some((c) => c.function_name === e.name && same(c.arguments, e.args ?? {})),
      ).length;
      const names = q.expected_tools.filter((e) => calls.some((c) => c.function_name === (e.name ?? e))).length;
      const composite = (readOnly + (5 * met) / q.expected_tools.length + (5 * names) / q.expected_tools.length) / 3;
      expect(composite).toBeGreaterThanOrEqual(${threshold});
    });
  }
});
`,
    );
  for (const [name, include, reporters] of [
    ['eval', 'eval.test.js', `['default', ['ai-eval/reporter/vitest', { outputFile: 'ai-eval.json' }]]`],
    [
      'eval-inline',
      'eval-inline.test.js',
      `['default', ['ai-eval/reporter/vitest', { outputFile: 'ai-eval-inline.json' }]]`,
    ],
    [
      'eval-passing',
      'eval-passing.test.js',
      `['default', ['ai-eval/reporter/vitest', { outputFile: 'ai-eval-passing.json' }]]`,
    ],
    [
      'eval-one',
      'eval-one.test.js',
      `['default', ['ai-eval/reporter/vitest', { outputFile: 'ai-eval-one.json' }]]`,
    ],
    // Without the ai-eval reporter: the records still travel on task.meta, and nothing reads them
    // (the worker warns once that no ai-eval reporter collects them).
    ['eval-passing-unreported', 'eval-passing.test.js', `['default']`],
    ['eval-one-unreported', 'eval-one.test.js', `['default']`],
    ['plain-imports', 'plain-imports.test.js', `['default']`],
    ['plain', 'plain.test.js', `['default']`],
    ['inline', 'inline.test.js', `['default']`],
    ['inline-failing', 'inline-failing.test.js', `['default']`],
  ]) {
    writeFileSync(
      join(dir, `vitest.${name}.config.js`),
      `import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['${include}'], reporters: ${reporters} } });
`,
    );
  }

  // Jest: the generated suite and plain trivial tests.
  writeFileSync(
    join(dir, 'eval.test.cjs'),
    `const { evalSuite } = require('ai-eval/jest');
const { target, agent } = require('./shared.cjs');

evalSuite('bench', { dataset: 'datasets/bench.json', target, run: agent });
`,
  );
  writeFileSync(
    join(dir, 'plain.test.cjs'),
    `describe('bench', () => {
  for (let i = 0; i < ${count}; i++) test(\`q\${i}\`, () => expect(i).toBe(i));
});
`,
  );
  for (const [name, match, reporters] of [
    ['eval', 'eval.test.cjs', `['default', ['ai-eval/reporter/jest', { outputFile: 'ai-eval.json' }]]`],
    ['plain', 'plain.test.cjs', `['default']`],
  ]) {
    writeFileSync(
      join(dir, `jest.${name}.config.cjs`),
      `module.exports = { rootDir: __dirname, testMatch: ['**/${match}'], reporters: ${reporters}, testEnvironment: 'node' };
`,
    );
  }
}
