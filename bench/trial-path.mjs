// Where target 1's time goes: ai-eval's own work for a generated suite, outside any runner. A
// cold Node process defines the 2,000-question suite of bench/suite (the same dataset, agent and
// three graders) through a minimal runtime that collects its tests, runs them one after another and
// keeps every record (as a runner's task.meta would), and prints how long defining and running
// took. Beside it, in interleaved pairs: plain Vitest running 2,000 trivial tests, whole process.
//
// The ratio says how much of the 1.25x budget of target 1 ai-eval's own pipeline (load, run,
// grade, records, verdicts) spends before the runner does anything for it: at 0.25 or more, the
// target cannot be met by the channel or the reporter alone. A third arm runs the same child with
// `node --no-opt`, and both report their CPU time: how much of the pipeline's cost is V8's
// optimising compiler at work on ai-eval's functions.
//
//   npm run build && node bench/trial-path.mjs [--pairs 5] [--no-write]
//
// The suite code is bundled from src/ with esbuild (defineEvalSuite is not a public export).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
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
const PAIRS = opts.pairs ?? (opts.quick ? 2 : 5);
const COUNT = 2000;
requireBuild(opts.pkg);

const work = mkdtempSync(join(tmpdir(), 'ai-eval-bench-trial-'));
const project = join(work, 'project');
writeProject(project, COUNT, { pkg: opts.pkg, repo: ROOT });

// The suite code and the project's own shared.mjs (its target, agent and tool_names grader) in one
// bundle, with 'ai-eval' taken from src/. It lies in the project, where shared.mjs finds its answers.
const lib = join(project, 'suite-lib.mjs');
writeFileSync(
  join(work, 'entry.ts'),
  [
    `export { defineEvalSuite } from ${JSON.stringify(join(ROOT, 'src/run/suite.ts'))};`,
    `export { loadDatasetSync } from ${JSON.stringify(join(ROOT, 'src/datasets/load.ts'))};`,
    `export { target, agent } from ${JSON.stringify(join(project, 'shared.mjs'))};`,
  ].join('\n'),
);
buildSync({
  entryPoints: [join(work, 'entry.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: lib,
  logLevel: 'error',
  alias: { 'ai-eval': join(ROOT, 'src/index.ts') },
  // Dependencies load from the repository, as the package's do.
  packages: 'external',
  nodePaths: [join(ROOT, 'node_modules')],
});

// The child: the suite of bench/suite, with the bundled suite code.
const child = join(work, 'trials.mjs');
writeFileSync(
  child,
  `const start = performance.now();
const { defineEvalSuite, loadDatasetSync, target, agent } = await import(${JSON.stringify(lib)});
const imported = performance.now();
const tests = [];
const kept = [];
const file = ${JSON.stringify(join(project, 'eval.test.js'))};
const runtime = {
  describe: (_name, fn) => fn(),
  test: (name, fn) => tests.push(fn),
  skip() {},
  skipWithNote() {},
  identify: (_context, title) => ({ file, name: 'bench > ' + title, title, isRunning: () => true }),
  signal: () => undefined,
  channel: { identify: () => undefined, send: async (_identity, records) => void kept.push(records) },
  load: (selector, filter) => loadDatasetSync(selector, filter),
};
defineEvalSuite(runtime, 'bench', {
  dataset: ${JSON.stringify(join(project, 'datasets', 'bench.json'))},
  target,
  run: agent,
});
const defined = performance.now();
let failed = 0;
for (const test of tests) await test({}).catch(() => (failed += 1));
const ran = performance.now();
if (tests.length !== ${COUNT} || kept.flat().length !== ${COUNT * 3}) throw new Error('not every question ran');
// The process's CPU time, every thread of it: V8's background compilers and collector included.
const { user, system } = process.cpuUsage();
process.stdout.write(JSON.stringify({ imported: imported - start, defined: defined - imported, ran: ran - defined, failed, cpu: (user + system) / 1000 }));
`,
);

const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const env = { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' };
const parts = { imported: [], defined: [], ran: [], cpu: [] };
// The same child with V8's optimising compiler off: how much of the pipeline's cost is TurboFan
// compiling ai-eval's functions (on a background thread, beside the runner's processes).
const unoptimised = { imported: [], defined: [], ran: [], cpu: [] };
const log = (s) => console.log(s);

/** One run of the child (with `flags` for Node); keeps its parts in `into`. */
async function trials(flags, into) {
  const { stdout } = await run(process.execPath, [...flags, child], { cwd: project, env });
  const got = JSON.parse(stdout);
  for (const key of Object.keys(into)) into[key].push(got[key]);
  // What the pipeline costs: defining the suite (the dataset load included) and running it.
  return got.defined + got.ran;
}
const load = loadavg()[0];

log(`ai-eval's own work for ${COUNT} questions, outside the runner, ${PAIRS} interleaved pairs:`);
const result = await interleaved(
  PAIRS,
  {
    name: 'plain Vitest',
    run: async () =>
      (
        await run(process.execPath, [VITEST, 'run', '--config', 'vitest.plain.config.js'], {
          cwd: project,
          env,
        })
      ).ms,
  },
  [
    { name: 'ai-eval trials', run: () => trials([], parts) },
    { name: 'ai-eval trials, --no-opt', run: () => trials(['--no-opt'], unoptimised) },
  ],
  { log },
);
rmSync(work, { recursive: true, force: true });

const ms = (values) => `${median(values).toFixed(0)} ms`;
const share = result.ratios['ai-eval trials'];
const perQuestion = (median(parts.defined) + median(parts.ran)) / COUNT;
const lines = [
  `- Plain Vitest, ${COUNT} trivial tests, whole process: ${ms(result.times['plain Vitest'])}.`,
  `- ai-eval's suite outside the runner: import ${ms(parts.imported)}, define (dataset load included) ${ms(parts.defined)}, run and grade ${ms(parts.ran)}; ${(perQuestion * 1000).toFixed(0)} µs per question.`,
  `- Defining and running, as a share of plain Vitest's whole run: **${spread(share)}** (median, min-max of the pairs). Target 1 allows the suite 0.25 of it for everything ai-eval adds, records and the reporter included.`,
  `- CPU time of the whole child process (every thread, the import included): ${ms(parts.cpu)}. With V8's optimising compiler off (\`node --no-opt\`): ${ms(unoptimised.cpu)} of CPU, run and grade ${ms(unoptimised.ran)}, a share of **${spread(result.ratios['ai-eval trials, --no-opt'])}**. Where the two runs take about as long, the CPU that optimising costs buys nothing within 2,000 questions, and on a machine of few cores that CPU is taken from the runner's processes.`,
];
for (const line of lines) log(line);

if (opts.write) {
  writeSection(
    'trial-path',
    [
      "## Where target 1's time goes: ai-eval's own work outside the runner",
      '',
      `${new Date().toISOString().slice(0, 10)}. Machine: ${machine(load)}. ${loadNote(load)}`,
      '',
      `\`node bench/trial-path.mjs\`: the suite of target 1 (${COUNT} questions x 3 deterministic graders) defined and run in a cold Node process through a minimal runtime that collects the tests and keeps every record, against plain Vitest running ${COUNT} trivial tests as a whole process, ${PAIRS} interleaved pairs.`,
      '',
      ...lines,
    ].join('\n'),
  );
}
