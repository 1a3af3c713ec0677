// Shared by the target benchmarks: interleaved pairs of whole processes, medians and ranges, the
// package under test, and each script's own section of bench/results.md.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, spread, verdict } from './stats.mjs';

export { median, spread, verdict };

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A full garbage collection now (V8's `gc`, exposed for this process): an in-process benchmark
 * calls it before each timed call, so that no call pays for the garbage the one before it left.
 */
export const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc');
})();

/** Command-line flags: `--pairs 5`, `--quick`, `--no-write`, `--pkg <dir>`, `--keep`. */
export function flags(argv = process.argv.slice(2)) {
  const out = { pairs: undefined, write: true, pkg: ROOT, keep: false, quick: false, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--pairs') out.pairs = Number(argv[++i]);
    else if (a === '--no-write') out.write = false;
    else if (a === '--pkg') out.pkg = argv[++i];
    else if (a === '--keep') out.keep = true;
    else if (a === '--quick') out.quick = true;
    else out.rest.push(a);
  }
  return out;
}

/** Fails early, saying what to do, when the package has not been built. */
export function requireBuild(pkg = ROOT) {
  const entry = join(pkg, 'dist', 'index.js');
  if (!existsSync(entry)) {
    console.error(`bench: ${entry} does not exist. Run \`npm run build\` first.`);
    process.exit(1);
  }
  // A copy imported in this process (bench/aggregate.mjs) resolves its dependencies from the
  // repository's node_modules, as the installed package would from the project's.
  if (pkg !== ROOT && !existsSync(join(pkg, 'node_modules')))
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
}

/** Runs a command to completion; resolves to its wall time in ms, stdout and stderr. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code !== 0 && !options.allowFailure) {
        reject(
          new Error(
            `${command} ${args.join(' ')} exited ${code}\n${stderr.slice(-3000)}\n${stdout.slice(-3000)}`,
          ),
        );
      } else resolve({ ms, code, stdout, stderr });
    });
  });
}

/**
 * Runs `pairs` interleaved pairs of `baseline` and each subject (the order rotates every pair, so
 * drift in the machine's load falls on both sides), after one unmeasured warm-up of each. Resolves
 * to the wall times per name and, per subject, the ratio of each pair.
 */
export async function interleaved(pairs, baseline, subjects, { warmup = true, log = console.log } = {}) {
  const all = [baseline, ...subjects];
  if (warmup) for (const s of all) await s.run();
  const times = Object.fromEntries(all.map((s) => [s.name, []]));
  const ratios = Object.fromEntries(subjects.map((s) => [s.name, []]));
  for (let p = 0; p < pairs; p++) {
    const order = p % 2 === 0 ? all : [...all].reverse();
    const got = {};
    for (const s of order) got[s.name] = await s.run();
    for (const s of all) times[s.name].push(got[s.name]);
    for (const s of subjects) ratios[s.name].push(got[s.name] / got[baseline.name]);
    log(
      `  pair ${p + 1}/${pairs}: ${all.map((s) => `${s.name} ${(got[s.name] / 1000).toFixed(2)} s`).join(', ')}`,
    );
  }
  return { times, ratios };
}

/** One line describing the machine, and how loaded it was while the benchmark ran. */
export function machine(loadBefore) {
  const cpu = cpus();
  const load = loadavg()[0];
  return (
    `${cpu.length} x ${cpu[0]?.model?.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
    `${process.platform} ${process.arch}, node ${process.version}; ` +
    `1-minute load average ${loadBefore?.toFixed(1) ?? '?'} before, ${load.toFixed(1)} after`
  );
}

/**
 * What the load average around a run says about it: a warning when other work shared the cores
 * (a 1-minute load average above the number of cores, before or after), else that it was quiet.
 */
export function loadNote(loadBefore) {
  const cores = cpus().length;
  const worst = Math.max(loadBefore ?? 0, loadavg()[0]);
  return worst > cores
    ? '**Taken under load** (other work shared the cores): the ratios are of runs interleaved in the same script, so the load falls on both sides, but the spread is wide.'
    : 'Taken on a quiet machine (the 1-minute load average stayed at or below the number of cores).';
}

const RESULTS = join(ROOT, 'bench', 'results.md');

/**
 * Replaces the text between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` in bench/results.md
 * (appending the section when it is not there yet), leaving every other section as it is.
 */
export function writeSection(name, body) {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  let text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  const block = `${open}\n${body.trim()}\n${close}`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start !== -1 && end > start) text = text.slice(0, start) + block + text.slice(end + close.length);
  else text = `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(RESULTS, text);
  console.log(`bench: wrote the ${name} section of ${RESULTS}`);
}

/** Where this file's sibling directory lives (for the fixture templates). */
export function benchDir(...parts) {
  return join(dirname(fileURLToPath(import.meta.url)), '..', ...parts);
}
