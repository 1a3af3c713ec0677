// Target 1: a generated suite of N questions x 3 deterministic graders, with the ai-eval reporter
// writing JSON, against plain Vitest (and plain Jest) running N trivial tests, as whole processes in
// interleaved pairs. Also: growth per question from 500 to 10,000 questions, and a check that the
// JSON report is what the code before the fast-by-default change wrote (bench/suite/reference-*).
//
//   npm run build && node bench/suite.mjs [--pairs 3] [--growth-pairs 2] [--quick] [--no-write]
//   node bench/suite.mjs --record-reference --pkg <a built copy of the old package>
//   node bench/suite.mjs --check-only     (the report check alone, no timing)
//
// Nothing here is a pass/fail test; it prints ratios and rewrites its section of bench/results.md.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';
import {
  benchDir,
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
import { writeProject } from './suite/generate.mjs';

const opts = flags();
const arg = (name, fallback) => {
  const i = opts.rest.indexOf(name);
  return i === -1 ? fallback : Number(opts.rest[i + 1]);
};
const PAIRS = opts.pairs ?? (opts.quick ? 1 : 3);
const GROWTH_PAIRS = arg('--growth-pairs', opts.quick ? 1 : 2);
const RECORD = opts.rest.includes('--record-reference');
const CHECK_ONLY = opts.rest.includes('--check-only');
requireBuild(opts.pkg);

const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const JEST = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const env = { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' };
delete env.AI_EVAL_CHANNEL_DIR;

/** How many tests failed in the last run of each runner, config and size. */
const failures = new Map();
const work = mkdtempSync(join(tmpdir(), 'ai-eval-bench-suite-'));
const projects = new Map();
/** The benchmark project for `count` questions (made once). */
function project(count) {
  if (!projects.has(count)) {
    const dir = join(work, `q${count}`);
    writeProject(dir, count, { pkg: opts.pkg, repo: ROOT });
    projects.set(count, dir);
  }
  return projects.get(count);
}

/** A Vitest or Jest run of one config in the project for `count` questions; resolves to ms. */
function runner(kind, config, count) {
  const dir = project(count);
  const args =
    kind === 'vitest'
      ? [VITEST, 'run', '--config', `vitest.${config}.config.js`]
      : [JEST, '--config', `jest.${config}.config.cjs`, '--no-watchman', '--ci'];
  return async () => {
    // A generated suite fails its questions below the threshold; the run exits 1, as it should.
    const { ms, code, stdout, stderr } = await run(process.execPath, args, {
      cwd: dir,
      env,
      allowFailure: true,
    });
    const out = `${stdout}\n${stderr}`;
    const failedCount = /Tests?:?\s+(\d+) failed/i.exec(out.replace(/\x1b\[[0-9;]*m/g, ''));
    failures.set(`${kind} ${config} ${count}`, failedCount ? Number(failedCount[1]) : 0);
    if (code !== 0 && !/Tests?:?\s.*failed/i.test(out.replace(/\x1b\[[0-9;]*m/g, '')))
      throw new Error(
        `${kind} ${config} (${count}) exited ${code} without failed tests:\n${out.slice(-3000)}`,
      );
    return ms;
  };
}

/**
 * The report with what legitimately changes between runs removed: time, durations, Node version,
 * and the package version (0.1.0 when the reference was recorded, 0.2.0 since).
 */
function normalise(report) {
  const copy = structuredClone(report);
  delete copy.timestamp;
  delete copy.nodeVersion;
  delete copy.packageVersion;
  dropDurations(copy);
  return copy;
}

/** Removes every `durationMs` (how long a question took: it changes from run to run). */
function dropDurations(value) {
  if (Array.isArray(value)) for (const item of value) dropDurations(item);
  else if (value !== null && typeof value === 'object') {
    delete value.durationMs;
    for (const inner of Object.values(value)) dropDurations(inner);
  }
}

/**
 * `value` with only the keys `reference` has, at every depth (arrays element by element), and the
 * paths of the keys it left out in `added` (`targets[].judges`): what later work added to the
 * report (each question's evidence, the judges table) is new content, not a changed score, reason
 * or verdict, and every field the reference has must still be the same.
 */
function restrict(value, reference, path, added) {
  if (Array.isArray(value) && Array.isArray(reference))
    return value.map((item, i) => restrict(item, reference[i], `${path}[]`, added));
  if (value === null || typeof value !== 'object' || reference === null || typeof reference !== 'object')
    return value;
  const out = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key in reference) out[key] = restrict(inner, reference[key], path ? `${path}.${key}` : key, added);
    else added.add(path ? `${path}.${key}` : key);
  }
  return out;
}

const REFERENCE = (kind) => benchDir('suite', `reference-${kind}-2000.json.gz`);

/** Compares the last report of the 2000-question suite with the recorded reference. */
function checkReport(kind) {
  const file = join(project(2000), 'ai-eval.json');
  const current = normalise(JSON.parse(readFileSync(file, 'utf8')));
  if (RECORD) {
    writeFileSync(REFERENCE(kind), gzipSync(JSON.stringify(current), { level: 9 }));
    return `recorded ${REFERENCE(kind)}`;
  }
  if (!existsSync(REFERENCE(kind))) return 'no reference recorded';
  const reference = normalise(JSON.parse(gunzipSync(readFileSync(REFERENCE(kind))).toString('utf8')));
  const added = new Set();
  const report = restrict(current, reference, '', added);
  const since = added.size > 0 ? `; added since: ${[...added].map((a) => `\`${a}\``).join(', ')}` : '';
  if (isDeepStrictEqual(reference, report))
    return `identical to the reference in every field it has (apart from timestamp, durations, Node and package version)${since}`;
  // Name the first difference.
  const where = firstDifference(reference, report, '$');
  return `DIFFERENT from the reference: first at ${where}`;
}

function firstDifference(a, b, path) {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null)
    return Object.is(a, b)
      ? null
      : `${path} (${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)})`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const d = firstDifference(a[k], b[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

const load = loadavg()[0];
const log = (s) => console.log(s);

if (RECORD || CHECK_ONLY) {
  await runner('vitest', 'eval', 2000)();
  log(`vitest: ${checkReport('vitest')}`);
  await runner('jest', 'eval', 2000)();
  log(`jest: ${checkReport('jest')}`);
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

// 1. Vitest, 2000 questions: plain trivial tests, the scoring written inline, ai-eval.
log(`Vitest, 2000 questions, ${PAIRS} interleaved pairs (plus a warm-up of each):`);
const v = await interleaved(
  PAIRS,
  { name: 'plain', run: runner('vitest', 'plain', 2000) },
  [
    { name: 'inline scoring', run: runner('vitest', 'inline', 2000) },
    { name: 'ai-eval', run: runner('vitest', 'eval', 2000) },
    // For reading the verdict: the suite's questions below the threshold fail, and Vitest prints
    // each failure; plain trivial tests print none. The same scoring inline failing the questions
    // it fails, and ai-eval with every question passing.
    { name: 'inline scoring, failing', run: runner('vitest', 'inline-failing', 2000) },
    { name: 'ai-eval, every question passing', run: runner('vitest', 'eval-passing', 2000) },
  ],
  { log },
);
const vitestCheck = checkReport('vitest');
log(`  report: ${vitestCheck}`);

// 2. Jest, 2000 questions.
log(`Jest, 2000 questions, ${PAIRS} interleaved pairs:`);
const j = await interleaved(
  PAIRS,
  { name: 'plain', run: runner('jest', 'plain', 2000) },
  [{ name: 'ai-eval', run: runner('jest', 'eval', 2000) }],
  { log },
);
const jestCheck = checkReport('jest');
log(`  report: ${jestCheck}`);

// 3. Growth per question, Vitest, 500 -> 10000 questions.
log(`Vitest growth, 500 and 10000 questions, ${GROWTH_PAIRS} interleaved pairs:`);
const g = await interleaved(
  GROWTH_PAIRS,
  { name: 'plain 500', run: runner('vitest', 'plain', 500) },
  [
    { name: 'plain 10000', run: runner('vitest', 'plain', 10000) },
    { name: 'ai-eval 500', run: runner('vitest', 'eval', 500) },
    { name: 'ai-eval 10000', run: runner('vitest', 'eval', 10000) },
  ],
  { log },
);
const slope = (a, b) => g.times[b].map((t, i) => (t - g.times[a][i]) / 9500);
const plainSlope = slope('plain 500', 'plain 10000');
const evalSlope = slope('ai-eval 500', 'ai-eval 10000');
const slopeRatio = evalSlope.map((s, i) => s / plainSlope[i]);

const secs = (ts) => spread(ts.map((t) => t / 1000));
const inlineFailures = failures.get('vitest inline-failing 2000');
const evalFailures = failures.get('vitest eval 2000');

const body = `## Generated suite (target 1)

\`node bench/suite.mjs\` (${PAIRS} pairs at 2,000 questions, ${GROWTH_PAIRS} for growth), ${new Date().toISOString().slice(0, 10)}.
Machine: ${machine(load)}. ${loadNote(load)}
Wall time of whole processes, median (min-max); ratios are per pair.

| run | wall s | x plain |
| --- | --- | --- |
| plain Vitest, 2,000 trivial tests | ${secs(v.times.plain)} | 1 |
| plain Vitest, scoring inline | ${secs(v.times['inline scoring'])} | ${spread(v.ratios['inline scoring'])} |
| ai-eval \`evalSuite\` + reporter (JSON), Vitest | ${secs(v.times['ai-eval'])} | **${spread(v.ratios['ai-eval'])}** |
| plain Vitest, scoring inline, failing below 3.5 (${inlineFailures} tests fail; ai-eval's suite fails ${evalFailures}) | ${secs(v.times['inline scoring, failing'])} | ${spread(v.ratios['inline scoring, failing'])} |
| ai-eval, every question passing (\`passThreshold: 0\`) | ${secs(v.times['ai-eval, every question passing'])} | ${spread(v.ratios['ai-eval, every question passing'])} |
| plain Jest, 2,000 trivial tests | ${secs(j.times.plain)} | 1 |
| ai-eval \`evalSuite\` + reporter (JSON), Jest | ${secs(j.times['ai-eval'])} | **${spread(j.ratios['ai-eval'])}** |

Growth per question, Vitest, 500 to 10,000 questions: plain ${spread(
  plainSlope.map((s) => s),
  3,
)} ms,
ai-eval ${spread(evalSlope, 3)} ms, ratio **${spread(slopeRatio)}**.

The two rows after ai-eval's are for reading its ratio, not verdicts: the suite fails the questions
below the default threshold, and Vitest prints each failure, while the plain trivial tests all pass.

- Vitest at 2,000 questions, at most 1.25x plain: ${verdict(v.ratios['ai-eval'], 1.25)}.
- Growth per question within 1.5x of plain Vitest's: ${verdict(slopeRatio, 1.5)}.
- Jest at 2,000 questions, at most 1.25x plain Jest: ${verdict(j.ratios['ai-eval'], 1.25)}.
- JSON report of the 2,000-question suite: Vitest ${vitestCheck}; Jest ${jestCheck}.
`;
console.log(`\n${body}`);
if (opts.write) writeSection('suite', body);
if (!opts.keep) rmSync(work, { recursive: true, force: true });
else log(`kept ${work}`);
