// For reading target 1 (no verdict of its own): where the generated suite's time over plain Vitest
// goes, part by part, measured as whole processes with the public API only. Every run is the
// 2,000-question project of bench/suite with every question passing (`passThreshold: 0`, so
// Vitest prints no failure), in interleaved pairs against plain Vitest's 2,000 trivial tests:
//
//   plain + imports    the trivial tests in a file that also loads ai-eval's modules and the
//                      target's file (its answers included): loading, and nothing else
//   one grader         the suite with read_only_run alone, without and with the ai-eval reporter
//   three graders      the suite of target 1 (plus the two tool_usage_grader grades), without and
//                      with the ai-eval reporter
//
// Without the ai-eval reporter the records still travel to Vitest's main process on task.meta;
// nothing aggregates them or writes a report. So the differences read: loading (imports - plain),
// the question pipeline with one grader and the records' trip (one grader unreported - imports),
// two more graders (three unreported - one unreported), and the reporter (reported - unreported).
//
//   npm run build && node bench/suite-parts.mjs [--pairs 5] [--no-write] [--pkg <dir>]

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  flags,
  interleaved,
  loadNote,
  machine,
  median,
  requireBuild,
  ROOT,
  run,
  spread,
  writeSection,
} from './lib/measure.mjs';
import { writeProject } from './suite/generate.mjs';

const opts = flags();
const PAIRS = opts.pairs ?? (opts.quick ? 1 : 5);
const COUNT = 2000;
requireBuild(opts.pkg);

const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const env = { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' };
delete env.AI_EVAL_CHANNEL_DIR;
const work = mkdtempSync(join(tmpdir(), 'ai-eval-bench-parts-'));
const project = join(work, `q${COUNT}`);
writeProject(project, COUNT, { pkg: opts.pkg, repo: ROOT });

/** A whole `vitest run` of one config of the project; resolves to ms. Every test must pass. */
const vitest = (config) => async () => {
  const { ms } = await run(process.execPath, [VITEST, 'run', '--config', `vitest.${config}.config.js`], {
    cwd: project,
    env,
  });
  return ms;
};

const load = loadavg()[0];
const log = (s) => console.log(s);
log(`Vitest, ${COUNT} questions, every one passing, ${PAIRS} interleaved pairs (plus a warm-up of each):`);
const ROWS = [
  ['plain + imports', 'plain-imports'],
  ['one grader, no ai-eval reporter', 'eval-one-unreported'],
  ['one grader', 'eval-one'],
  ['three graders, no ai-eval reporter', 'eval-passing-unreported'],
  ['three graders', 'eval-passing'],
];
const result = await interleaved(
  PAIRS,
  { name: 'plain', run: vitest('plain') },
  ROWS.map(([name, config]) => ({ name, run: vitest(config) })),
  { log },
);
rmSync(work, { recursive: true, force: true });

/** Median per-pair difference of two runs, as a share of plain Vitest's run of the same pair. */
const share = (a, b) =>
  median(
    result.times[a].map(
      (t, i) => (t - (b === 'plain' ? result.times.plain : result.times[b])[i]) / result.times.plain[i],
    ),
  );
const ms = (a, b) => median(result.times[a].map((t, i) => t - result.times[b][i]));
const part = (label, a, b) => `| ${label} | ${ms(a, b).toFixed(0)} | ${share(a, b).toFixed(2)} |`;
const secs = (ts) => spread(ts.map((t) => t / 1000));

const body = `## Where target 1's time goes (for reading it)

\`node bench/suite-parts.mjs\` (${PAIRS} pairs), ${new Date().toISOString().slice(0, 10)}.
Machine: ${machine(load)}. ${loadNote(load)}
The ${COUNT}-question project of the suite section with every question passing, as whole \`vitest
run\` processes in interleaved pairs against plain Vitest's ${COUNT} trivial tests; wall time,
median (min-max), ratios per pair. Without the ai-eval reporter the records still travel on
\`task.meta\` and nothing reads them.

| run | wall s | x plain |
| --- | --- | --- |
| plain Vitest, ${COUNT} trivial tests | ${secs(result.times.plain)} | 1 |
${ROWS.map(([name]) => `| ${name} | ${secs(result.times[name])} | ${spread(result.ratios[name])} |`).join('\n')}

Each part as the median per-pair difference of two rows, in ms and as a share of plain Vitest's
run (target 1 allows 0.25 for all of them together):

| part | ms | share of plain |
| --- | --- | --- |
${part("loading ai-eval's modules and the target's file", 'plain + imports', 'plain')}
${part('the question pipeline with one grader, records to the main process', 'one grader, no ai-eval reporter', 'plain + imports')}
${part('two more graders (tool_usage_grader, with and without arguments)', 'three graders, no ai-eval reporter', 'one grader, no ai-eval reporter')}
${part('the ai-eval reporter, three graders (records read, report built and written)', 'three graders', 'three graders, no ai-eval reporter')}
${part('the ai-eval reporter, one grader', 'one grader', 'one grader, no ai-eval reporter')}
`;
console.log(`\n${body}`);
if (opts.write) writeSection('suite-parts', body);
