#!/usr/bin/env node
// The support matrix: installs fixtures/compat once per cell below (a Node major with a set of
// runner, openai and TypeScript versions, all from the npm registry, Node binaries included) and
// runs the same compact scenario in each: Vitest, Jest and node:test on the matchers, one generated
// suite and one LLM judge answered by a local server on 127.0.0.1, checking each reporter's JSON,
// then a consumer type check. The cells cover every value of every axis (not the full product);
// the README's support table lists them. Needs a built package (npm run build).
//
//   node .ci/compat.mjs            every cell
//   node .ci/compat.mjs node22     the cells whose name contains "node22"
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = join(ROOT, '.tmp', 'compat');

/** Each cell pins exact versions. Keep the README's support table in step with this list. */
export const CELLS = [
  {
    name: 'node20-vitest3-jest29-openai6-ts5.9',
    node: '20.20.2',
    deps: {
      vitest: '3.2.7',
      jest: '29.7.0',
      '@jest/globals': '29.7.0',
      expect: '29.7.0',
      openai: '6.49.0',
      typescript: '5.9.3',
      'ts-jest': '29.4.15',
      '@types/node': '20.19.43',
    },
    transform: 'ts-jest',
  },
  {
    name: 'node22-vitest4-jest30-openai7-ts7',
    node: '22.23.5',
    deps: {
      vitest: '4.1.12',
      jest: '30.5.2',
      '@jest/globals': '30.5.2',
      expect: '30.5.2',
      openai: '7.59.0',
      typescript: '7.0.2',
      '@swc/core': '1.16.22',
      '@swc/jest': '0.2.39',
      '@types/node': '22.20.7',
    },
    transform: 'swc',
  },
  {
    name: 'node24-vitest5-jest30-openai7-ts5.9',
    node: '24.22.3',
    deps: {
      vitest: '5.1.2',
      jest: '30.5.2',
      '@jest/globals': '30.5.2',
      expect: '30.5.2',
      openai: '7.59.0',
      typescript: '5.9.3',
      'ts-jest': '29.4.15',
      '@types/node': '24.19.4',
    },
    transform: 'ts-jest',
  },
];

function run(command, args, options = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}

/** A Node binary of this exact version, from the registry's node-<platform>-<arch> package. */
async function nodeBinary(version) {
  if (process.version === `v${version}`) return process.execPath;
  const dir = join(WORK, `node-${version}`);
  const bin = join(dir, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const pkg = `node-${process.platform}-${process.arch}@${version}`;
    const install = await run('npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--prefix',
      dir,
      pkg,
    ]);
    if (install.code !== 0) throw new Error(`npm install ${pkg} failed:\n${install.output}`);
  }
  return bin;
}

/** A local OpenAI-compatible server: every chat completion answers score 4. */
async function judgeServer() {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      const content = JSON.stringify({ score: 4, reason: 'compat judge', evasive: false });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-compat',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'compat-judge',
          choices: [
            { index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null } },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
        }),
      );
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/v1`,
    requests: () => requests,
    close: () => new Promise((r) => server.close(r)),
  };
}

/** What every runner's report must say: the suite's two questions and the matcher test, all passed. */
function checkReport(file) {
  if (!existsSync(file)) return `no report ${file}`;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const bot = report.targets.find((t) => t.name === 'compat-bot');
  if (!bot) return `no compat-bot target in ${file}`;
  const ids = bot.questions
    .map((q) => q.id)
    .sort()
    .join(',');
  if (ids !== 'q-list,q-search') return `compat-bot questions are ${ids}`;
  for (const q of bot.questions) {
    if (!q.passed || q.composite !== 4.5) return `${q.id}: composite ${q.composite}, passed ${q.passed}`;
    const judge = q.grades.find((g) => g.grader === 'accuracy_grader');
    if (judge?.score !== 4) return `${q.id}: accuracy_grader scored ${judge?.score} (${judge?.reason})`;
  }
  const matchers = report.targets.filter((t) => t.name !== 'compat-bot').flatMap((t) => t.questions);
  if (matchers.length !== 1 || !matchers.every((q) => q.passed))
    return `matcher records: ${JSON.stringify(matchers)}`;
  return null;
}

async function runCell(cell, tarball, server) {
  const dir = join(WORK, cell.name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(ROOT, 'fixtures', 'compat'), dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: `compat-${cell.name}`,
        private: true,
        dependencies: { 'ai-eval': `file:${tarball}`, ...cell.deps },
      },
      null,
      2,
    ),
  );
  const results = [];
  const step = async (name, fn) => {
    const started = Date.now();
    let problem;
    try {
      problem = await fn();
    } catch (error) {
      problem = String(error?.stack ?? error);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    results.push({ name: `${cell.name} ${name}`, problem });
    console.log(
      `${problem ? 'FAIL' : 'ok  '} ${cell.name} ${name} (${seconds} s)${problem ? `\n${indent(problem)}` : ''}`,
    );
  };
  const node = await nodeBinary(cell.node);
  const env = {
    ...process.env,
    PATH: `${dirname(node)}:${process.env.PATH}`,
    CI: 'true',
    NO_COLOR: '1',
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: 'compat-key',
    AI_EVAL_JUDGE_MODEL: 'compat-judge',
    AI_EVAL_COMPAT_TRANSFORM: cell.transform,
  };
  const opts = { cwd: dir, env };
  const tool = (...parts) => join(dir, 'node_modules', ...parts);
  let installed = false;
  await step('npm install', async () => {
    const r = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'],
      opts,
    );
    installed = r.code === 0;
    return installed ? null : r.output;
  });
  if (!installed) return results;
  await step(`node ${cell.node}`, async () => {
    const r = await run(node, ['--version'], opts);
    return r.output.trim() === `v${cell.node}` ? null : `runs ${r.output.trim()}`;
  });
  await step(`vitest ${cell.deps.vitest}`, async () => {
    const r = await run(node, [tool('vitest', 'vitest.mjs'), 'run', '--config', 'vitest.config.mjs'], opts);
    return r.code !== 0 ? r.output : checkReport(join(dir, 'reports', 'vitest.json'));
  });
  await step(`jest ${cell.deps.jest} (${cell.transform})`, async () => {
    const r = await run(node, [tool('jest', 'bin', 'jest.js'), '--ci', '--config', 'jest.config.cjs'], opts);
    return r.code !== 0 ? r.output : checkReport(join(dir, 'reports', 'jest.json'));
  });
  await step('node:test', async () => {
    const r = await run(node, ['--test', '--test-reporter=ai-eval/reporter/node', 'compat.node.test.mjs'], {
      ...opts,
      env: { ...env, AI_EVAL_REPORTER_OPTIONS: JSON.stringify({ outputFile: 'reports/node.json' }) },
    });
    return r.code !== 0 ? r.output : checkReport(join(dir, 'reports', 'node.json'));
  });
  await step(`tsc ${cell.deps.typescript}`, async () => {
    const r = await run(node, [tool('typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], opts);
    return r.code === 0 ? null : r.output;
  });
  return results;
}

function indent(text) {
  return text
    .trim()
    .split('\n')
    .slice(-40)
    .map((l) => `    ${l}`)
    .join('\n');
}

async function main() {
  const filter = process.argv[2];
  const cells = CELLS.filter((c) => !filter || c.name.includes(filter));
  if (cells.length === 0) throw new Error(`no cell matches ${filter}`);
  mkdirSync(WORK, { recursive: true });
  for (const old of readdirSync(WORK)) if (old.endsWith('.tgz')) rmSync(join(WORK, old));
  const pack = await run('npm', ['pack', '--silent', '--pack-destination', WORK], { cwd: ROOT });
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.output}`);
  const tarball = join(WORK, pack.output.trim().split('\n').pop());
  const server = await judgeServer();
  const results = [];
  try {
    // Cells one after another: each runs several runners' workers, and the machine has 2 cores.
    for (const cell of cells) results.push(...(await runCell(cell, tarball, server)));
  } finally {
    await server.close();
  }
  if (server.requests() === 0) results.push({ name: 'judge server', problem: 'no judge request reached it' });
  const failed = results.filter((r) => r.problem);
  console.log(`\ncompat: ${results.length - failed.length} passed, ${failed.length} failed`);
  for (const r of failed) console.log(`  failed: ${r.name}`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

// Run when executed (`node .ci/compat.mjs`); a test imports CELLS to hold the README to them.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
