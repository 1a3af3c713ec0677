// `npm run bench`: every benchmark, one after another, each writing its section of
// bench/results.md. Flags go to every script (`--pairs 5`, `--quick`, `--no-write`); `--only
// suite,judge` runs some of them. Build first: `npm run build`.
//
//   run.mjs        the grading model's micro-benchmarks (a table, nothing written)
//   suite.mjs      target 1: a generated suite against plain Vitest and plain Jest
//   trial-path.mjs target 1's budget: ai-eval's own work outside the runner against plain Vitest
//   suite-parts.mjs target 1, part by part: loading, the pipeline, graders, the reporter
//   datasets.mjs   target 2: dataset loading against JSON.parse / yaml.parse (--skip-memory here)
//   judge.mjs      target 3: judges under a provider's rate limit
//   replay.mjs     target 4: a judged suite replayed from the cache
//   aggregate.mjs  target 5: records through the reporter against JSON

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPTS = ['run', 'suite', 'trial-path', 'suite-parts', 'datasets', 'judge', 'replay', 'aggregate'];
const args = process.argv.slice(2);
const at = args.indexOf('--only');
const only = at === -1 ? SCRIPTS : args[at + 1].split(',');
const rest = at === -1 ? args : [...args.slice(0, at), ...args.slice(at + 2)];
let failed = false;
for (const name of SCRIPTS.filter((s) => only.includes(s))) {
  console.log(`\n=== bench/${name}.mjs`);
  const script = fileURLToPath(new URL(`./${name}.mjs`, import.meta.url));
  const { status } = spawnSync(
    process.execPath,
    [script, ...(name === 'run' ? [] : name === 'datasets' ? ['--skip-memory', ...rest] : rest)],
    {
      stdio: 'inherit',
    },
  );
  if (status !== 0) {
    console.error(`bench/${name}.mjs exited ${status}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
