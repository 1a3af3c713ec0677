// Target 4: a judged suite replayed from the judge cache against the same suite without the judge.
// 2,000 questions (concurrent suite, read_only_run + tool_usage_grader, plus relevance_grader in
// the judged one): the answers are recorded once from a local server, then the two suites run in
// interleaved pairs with AI_EVAL_JUDGE_CACHE=replay; the server counts the requests replay made.
//
//   npm run build && node bench/replay.mjs [--pairs 3] [--no-write]
//
// Nothing here is a pass/fail test.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  flags,
  interleaved,
  loadNote,
  machine,
  requireBuild,
  ROOT,
  run,
  spread,
  verdict,
  writeSection,
} from './lib/measure.mjs';
import { writeJudgeProject } from './judge/project.mjs';
import { startJudgeServer } from './judge/server.mjs';

const opts = flags();
const PAIRS = opts.pairs ?? (opts.quick ? 1 : 5);
const QUESTIONS = 2000;
requireBuild(opts.pkg);

const work = mkdtempSync(join(tmpdir(), 'ai-eval-bench-replay-'));
const load = loadavg()[0];
const judged = join(work, 'judged');
const plain = join(work, 'deterministic');
writeJudgeProject(judged, { count: QUESTIONS, files: 1, pkg: opts.pkg, repo: ROOT });
writeJudgeProject(plain, { count: QUESTIONS, files: 1, pkg: opts.pkg, repo: ROOT, deterministic: true });

const server = await startJudgeServer({ latencyMs: 0 });
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const env = (cache) => {
  const e = {
    ...process.env,
    CI: '1',
    NO_COLOR: '1',
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: 'sk-bench',
    AI_EVAL_JUDGE_MODEL: 'bench-judge',
    AI_EVAL_JUDGE_CACHE: cache,
    AI_EVAL_JUDGE_LIMIT_DIR: mkdtempSync(join(work, 'limits-')),
  };
  delete e.AI_EVAL_CHANNEL_DIR;
  return e;
};
const suite = (dir, cache) => async () =>
  (
    await run(process.execPath, [VITEST, 'run', '--config', 'vitest.judge.config.js'], {
      cwd: dir,
      env: env(cache),
      allowFailure: true,
    })
  ).ms;

try {
  console.log(`recording ${QUESTIONS} judge answers ...`);
  await suite(judged, 'record')();
  const recorded = server.stats.admitted.length;
  server.reset();
  console.log(`replay against the deterministic suite, ${PAIRS} interleaved pairs:`);
  const r = await interleaved(
    PAIRS,
    { name: 'deterministic', run: suite(plain, 'off') },
    [{ name: 'replay', run: suite(judged, 'replay') }],
    { log: console.log },
  );
  const requests = server.stats.admitted.length;
  const report = JSON.parse(readFileSync(join(judged, 'ai-eval.json'), 'utf8'));
  const secs = (ts) => spread(ts.map((t) => t / 1000));
  const body = `## Replay (target 4)

\`node bench/replay.mjs\` (${PAIRS} pairs), ${new Date().toISOString().slice(0, 10)}. Machine: ${machine(load)}.
${loadNote(load)} ${QUESTIONS} questions in one concurrent Vitest suite: read_only_run and
tool_usage_grader, plus relevance_grader replayed from the judge cache (${recorded} answers
recorded first from bench/judge/server.mjs), against the same suite without the judge. Wall time
of whole processes, median (min-max); the ratio is per pair.

| run | wall s | x deterministic |
| --- | --- | --- |
| deterministic suite | ${secs(r.times.deterministic)} | 1 |
| judged suite, AI_EVAL_JUDGE_CACHE=replay | ${secs(r.times.replay)} | **${spread(r.ratios.replay)}** |

- Requests made by the ${PAIRS + 1} replay runs (warm-up included): ${requests}; judge errors in the last
  report: ${report.errorCount}.
- 0 requests and at most 1.1x the deterministic suite: ${requests === 0 && report.errorCount === 0 ? verdict(r.ratios.replay, 1.1) : `not met (${requests} requests, ${report.errorCount} judge errors)`}.
`;
  console.log(`\n${body}`);
  if (opts.write) writeSection('replay', body);
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
