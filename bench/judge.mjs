// Target 3: judges under a provider's rate limit. 300 questions x 1 judge (concurrent suites)
// against a local server that admits N requests per second and answers the rest 429 with
// Retry-After, 50 ms latency, with default judge settings: the achieved rate (admitted requests
// per second, first to last) against the limit, 429s, and failed grades, for one Vitest process,
// several Vitest forks and several Jest workers sharing the limit; and, as the reference, the same
// run with requestsPerMinute and rateWindowMs set by hand to the limit.
//
//   npm run build && node bench/judge.mjs [--full] [--limit 20] [--no-write]
//
// Default: no limit (the machine's ceiling), the 20/s limit in every arrangement and 5/s for Vitest
// forks and Jest workers (about six minutes); --full adds 5/s for one Vitest process. Nothing here is a pass/fail test.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { flags, loadNote, machine, requireBuild, ROOT, run, writeSection } from './lib/measure.mjs';
import { writeJudgeProject } from './judge/project.mjs';
import { achievedRate, startJudgeServer } from './judge/server.mjs';

const opts = flags();
const FULL = opts.rest.includes('--full');
const QUESTIONS = 300;
requireBuild(opts.pkg);

const work = mkdtempSync(join(tmpdir(), 'ai-eval-bench-judge-'));
const load = loadavg()[0];
const projects = new Map();
function project(files) {
  if (!projects.has(files)) {
    const dir = join(work, `files-${files}`);
    writeJudgeProject(dir, { count: QUESTIONS, files, pkg: opts.pkg, repo: ROOT });
    projects.set(files, dir);
  }
  return projects.get(files);
}

const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const JEST = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

/** One run: the runner, how many processes share the limit, the limit, explicit settings or none. */
async function measure({ runner, processes, limit, explicit }) {
  const server = await startJudgeServer({ limit: limit ?? undefined, latencyMs: 50 });
  const dir = project(processes);
  const env = {
    ...process.env,
    CI: '1',
    NO_COLOR: '1',
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: 'sk-bench',
    AI_EVAL_JUDGE_MODEL: 'bench-judge',
    AI_EVAL_JUDGE_CACHE: 'off',
    AI_EVAL_JUDGE_LIMIT_DIR: mkdtempSync(join(work, 'limits-')),
    BENCH_WORKERS: String(processes),
    ...(explicit ? { BENCH_JUDGE: JSON.stringify({ requestsPerMinute: limit, rateWindowMs: 1000 }) } : {}),
  };
  delete env.AI_EVAL_CHANNEL_DIR;
  const args =
    runner === 'vitest'
      ? [VITEST, 'run', '--config', 'vitest.judge.config.js']
      : [JEST, '--config', 'jest.judge.config.cjs', '--no-watchman', '--ci', `--maxWorkers=${processes}`];
  try {
    const { ms } = await run(process.execPath, args, { cwd: dir, env, allowFailure: true });
    const report = JSON.parse(readFileSync(join(dir, 'ai-eval.json'), 'utf8'));
    const { admitted, refused } = server.stats;
    const middle = admitted[Math.floor(admitted.length / 2)] ?? 0;
    return {
      runner,
      processes,
      limit,
      explicit,
      ms,
      requests: admitted.length,
      achieved: achievedRate(admitted),
      refused: refused.length,
      lateRefused: refused.filter((t) => t > middle).length,
      errors: report.errorCount,
      questions: report.questionCount,
    };
  } finally {
    await server.close();
  }
}

const plan = [
  // No limit: what the client sends at most on this machine now, the ceiling of every figure below.
  { runner: 'vitest', processes: 3, limit: null },
  { runner: 'vitest', processes: 1, limit: 20 },
  { runner: 'vitest', processes: 3, limit: 20 },
  { runner: 'jest', processes: 3, limit: 20 },
  { runner: 'vitest', processes: 3, limit: 5 },
  { runner: 'jest', processes: 3, limit: 5 },
  ...(FULL ? [{ runner: 'vitest', processes: 1, limit: 5 }] : []),
  { runner: 'vitest', processes: 3, limit: 20, explicit: true },
];
// --limit N: only the rows at that limit (a quicker look while changing the controller).
const only = opts.rest.includes('--limit') ? Number(opts.rest[opts.rest.indexOf('--limit') + 1]) : undefined;
const rows = [];
for (const step of plan.filter((s) => only === undefined || s.limit === only)) {
  const row = await measure(step);
  rows.push(row);
  console.log(
    `${row.runner} x${row.processes} at ${row.limit ?? 'no limit'}/s${row.explicit ? ' (explicit limits)' : ''}: ` +
      `${row.achieved.toFixed(1)}/s, ${row.limit ? (row.achieved / row.limit).toFixed(2) : '-'} of the limit, ${row.refused} 429s (${row.lateRefused} in the second half), ` +
      `${row.errors} failed grades of ${row.questions}, ${(row.ms / 1000).toFixed(1)} s`,
  );
}
rmSync(work, { recursive: true, force: true });

const defaults = rows.filter((r) => !r.explicit && r.limit);
const capacity = rows.find((r) => !r.limit);
const machineBound = defaults.filter((r) => capacity && r.limit * 0.9 > capacity.achieved);
const met = defaults.every((r) => r.achieved / r.limit >= 0.9 && r.errors === 0 && r.requests === QUESTIONS);
const body = `## Judges under a rate limit (target 3)

\`node bench/judge.mjs${FULL ? ' --full' : ''}\`, ${new Date().toISOString().slice(0, 10)}. Machine: ${machine(load)}.
${loadNote(load)} ${QUESTIONS} questions x 1 judge (\`relevance_grader\`, concurrent suites split
over the processes) against bench/judge/server.mjs: N requests in any second, the rest 429 with
\`retry-after-ms\` and \`Retry-After\`, 50 ms latency. Default judge settings unless marked; a fresh
limiter directory per run (the controller starts knowing nothing). Achieved = admitted requests
per second from the first to the last one.

| limit | runner | processes | settings | achieved /s | achieved / limit | 429s (second half) | failed grades | wall s |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows
  .map(
    (r) =>
      `| ${r.limit ? `${r.limit}/s` : 'none'} | ${r.runner} | ${r.processes} | ${r.explicit ? `requestsPerMinute ${r.limit}, rateWindowMs 1000` : 'defaults'} | ${r.achieved.toFixed(1)} | **${r.limit ? (r.achieved / r.limit).toFixed(2) : '-'}** | ${r.refused} (${r.lateRefused}) | ${r.errors} of ${r.questions} | ${(r.ms / 1000).toFixed(1)} |`,
  )
  .join('\n')}

The first row has no limit: it is what the client could send on this machine during the run
(${capacity ? capacity.achieved.toFixed(1) : '?'} requests per second; default \`concurrency\` 4, 50 ms answers). A limit above
about 90% of that cannot be reached whatever the controller does: such a row measures the machine.

- With default settings, at least 90% of the limit and 0 failed grades, one process and several
  sharing the limit: ${met ? 'met' : 'not met'}${machineBound.length > 0 ? ` (${machineBound.map((r) => `${r.runner} x${r.processes} at ${r.limit}/s`).join(', ')}: the limit was above what the machine could send)` : ''}.
`;
console.log(`\n${body}`);
if (opts.write) writeSection('judge', body);
