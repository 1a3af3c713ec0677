// Runs the demo suite under one runner and explains the outcome.
//
//   node examples/scripts/demo.mjs [vitest|jest|node] [--live]
//
// Scripted (the default), the run fails by design: the scripted agent plants four failures
// (examples/planted-failures.json). This script reads the JSON report and exits 0 when the eval
// caught exactly those, each by the grader meant to catch it, the prose-only target got its
// advisory and the hard gate failed; otherwise it says what differs and exits 1. Your own suites
// need no such script: the runner's exit code is the verdict.
//
// --live runs a real model as the agent and real judges through the openai SDK (OPENAI_API_KEY,
// or OPENAI_BASE_URL for any compatible server), records the judge answers into the cache
// (AI_EVAL_DEMO_CACHE_DIR, default examples/judge-cache) and exits with the runner's code.
// Jest and node:test run the built package (npm run build first; the demo:jest and demo:node
// scripts do).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Paths are relative to the repository root, wherever the script is started from.
process.chdir(fileURLToPath(new URL('../..', import.meta.url)));

const args = process.argv.slice(2);
const live = args.includes('--live');
const runner = args.find((a) => !a.startsWith('--')) ?? 'vitest';
const node = process.execPath;

// Each runner's commands, made when they run (the node:test files exist once tsc has compiled them).
const commands = {
  vitest: () => [
    [node, 'node_modules/vitest/vitest.mjs', 'run', '--config', 'examples/vitest/vitest.config.ts'],
  ],
  jest: () => [[node, 'node_modules/jest/bin/jest.js', '--config', 'examples/jest/jest.config.cjs']],
  node: () => [
    [node, 'node_modules/typescript/bin/tsc', '-p', 'examples/node/tsconfig.json'],
    () => [
      node,
      '--test',
      '--test-reporter=./examples/node/reporter.mjs',
      '--test-reporter-destination=stdout',
      ...nodeTests(),
    ],
  ],
};

function nodeTests() {
  const dir = '.tmp/demo-node/node';
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => join(dir, f));
}

function fail(message) {
  console.error(`\ndemo: ${message}`);
  process.exit(1);
}

if (!commands[runner]) fail(`unknown runner '${runner}': use vitest, jest or node`);
if ((runner === 'jest' || runner === 'node') && !existsSync('dist/index.js')) {
  fail(
    `the ${runner} demo runs the built package, and dist/ is missing: run npm run build first (npm run demo:${runner} does).`,
  );
}
if (live && !process.env.OPENAI_API_KEY && !process.env.OPENAI_BASE_URL) {
  fail(
    'live mode needs OPENAI_API_KEY (api.openai.com), or OPENAI_BASE_URL for an OpenAI-compatible server (Ollama, vLLM, LiteLLM).',
  );
}

const env = { ...process.env, ...(live ? { AI_EVAL_DEMO_LIVE: '1' } : {}) };
if (!live) {
  // Offline: no key. Replayed judges never call a model: a cache miss is an errored grade.
  delete env.OPENAI_API_KEY;
  delete env.AI_EVAL_DEMO_LIVE;
  delete env.AI_EVAL_JUDGE_CACHE;
}
const reportFile = `reports/demo/${runner}/ai-eval.json`;
rmSync(`reports/demo/${runner}`, { recursive: true, force: true });
if (runner === 'node') rmSync('.tmp/demo-node', { recursive: true, force: true });

let code = 0;
for (const step of commands[runner]()) {
  const [command, ...rest] = typeof step === 'function' ? step() : step;
  code = spawnSync(command, rest, { stdio: 'inherit', env }).status ?? 1;
  if (rest[0]?.endsWith('tsc') && code !== 0) fail('compiling the node:test suite failed (above).');
}

if (live) {
  console.log(
    `\ndemo: live run finished (exit code ${code}); judge answers recorded in ${env.AI_EVAL_DEMO_CACHE_DIR ?? 'examples/judge-cache'}.`,
  );
  process.exit(code);
}

if (!existsSync(reportFile)) fail(`the ${runner} run wrote no report (${reportFile}); see its output above.`);
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const planted = JSON.parse(readFileSync('examples/planted-failures.json', 'utf8'));

const problems = [];
const failed = report.targets.flatMap((t) =>
  t.questions.filter((q) => !q.passed).map((q) => `${t.name} › ${q.id}`),
);
const expected = planted.failures.map((f) => `${f.target} › ${f.question}`);
for (const name of failed)
  if (!expected.includes(name)) problems.push(`${name} failed, and it is not a planted failure`);
const caught = [];
for (const f of planted.failures) {
  const question = report.targets
    .find((t) => t.name === f.target)
    ?.questions.find((q) => q.id === f.question);
  const grade = question?.grades.find((g) => g.grader === f.grader);
  if (!question) problems.push(`${f.target} › ${f.question} is missing from the report`);
  else if (question.passed) problems.push(`${f.target} › ${f.question} passed: ${f.failure} went uncaught`);
  else if (grade?.composite !== 0)
    problems.push(
      `${f.target} › ${f.question}: ${f.grader} did not score it 0 (${grade?.reason ?? 'no grade'})`,
    );
  else
    caught.push(
      `  ✗ ${f.target} › ${f.question}: ${f.failure}\n      caught by ${f.grader}: ${grade.reason}`,
    );
}
const advisory = report.targets
  .find((t) => t.name === planted.proseOnly)
  ?.advisories.some((a) => a.code === 'NO_ACTION_OBSERVER');
if (!advisory) problems.push(`${planted.proseOnly} got no NO_ACTION_OBSERVER advisory`);
if (report.verdict !== 'failed') problems.push(`the verdict is ${report.verdict}, not failed`);
if (!report.gates.some((g) => g.level === 'hard' && !g.passed)) problems.push('no hard gate failed');

if (code === 0) problems.push('the runner exited 0, although tests failed and a hard gate failed');
if (report.errorCount > 0) {
  problems.push(
    `${report.errorCount} grades errored (a judge cache miss after a change to the demo? re-record: node examples/scripts/record-judge-cache.mjs)`,
  );
}
if (problems.length > 0)
  fail(`the ${runner} run did not come out as designed:\n  - ${problems.join('\n  - ')}`);
console.log(
  [
    '',
    `demo: the ${runner} run failed as designed (exit code ${code}): the scripted agent plants ${caught.length} failures and each was caught by the grader meant to catch it:`,
    ...caught,
    `  ! ${planted.proseOnly} passed the same answers: it is scored by prose judges alone, hence its NO_ACTION_OBSERVER advisory.`,
    `  Reports: reports/demo/${runner}/ (JSON, JUnit, Markdown). What each question shows: examples/README.md.`,
    'demo: exiting 0 because the eval caught exactly what it should. In your own project the failing run exits 1.',
  ].join('\n'),
);
