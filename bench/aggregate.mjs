// Target 5: records through the reporter (collect, render the terminal summary, JUnit and
// Markdown, write the JSON report) against serialising and parsing the same records as JSON, at
// 25,000, 50,000 and 100,000 records: linear in the record count, and no slower than 3x JSON.
//
//   npm run build && node bench/aggregate.mjs [--pairs 5] [--no-write]
//
// It drives the public Vitest reporter (ai-eval/reporter/vitest) with test modules built by hand,
// in this process, each timed call after a forced GC; nothing here is a pass/fail test.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  collectGarbage,
  flags,
  loadNote,
  machine,
  median,
  requireBuild,
  spread,
  writeSection,
} from './lib/measure.mjs';

const opts = flags();
const PAIRS = opts.pairs ?? 5;
requireBuild(opts.pkg);
const { RECORD_VERSION } = await import(pathToFileURL(join(opts.pkg, 'dist', 'index.js')).href);
const { default: Reporter } = await import(
  pathToFileURL(join(opts.pkg, 'dist', 'reporter', 'vitest.js')).href
);

const dir = mkdtempSync(join(tmpdir(), 'ai-eval-bench-aggregate-'));
const load = loadavg()[0];

const GRADERS = [
  ['read_only_run', 'Read-only run (binary, 0-1)', 0, 1],
  ['tool_usage_grader', 'Tool usage (0-5)', 0, 5],
  ['relevance_grader', 'Relevance (1-5)', 1, 5],
];

/** `count` records: 5 targets, 3 graders, some questions over 2 trials, errors and skips. */
function makeRecords(count) {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const targets = Array.from({ length: 5 }, (_, t) => ({
    name: `target-${t}`,
    mode: 'agent',
    graders: GRADERS.map(([id]) => id),
    actionObserving: ['read_only_run', 'tool_usage_grader'],
    passThreshold: 3.5,
  }));
  const records = [];
  for (let q = 0; records.length < count; q++) {
    const target = targets[q % targets.length];
    const file = `/work/project/test/suite-${q % 7}.test.ts`;
    const trials = q % 10 === 0 ? 2 : 1;
    for (let trial = 1; trial <= trials && records.length < count; trial++) {
      for (const [grader, label, min, max] of GRADERS) {
        if (records.length >= count) break;
        const roll = random();
        const error = roll < 0.01;
        const skipped = !error && roll < 0.03;
        const score = error || skipped ? null : Math.round((min + random() * (max - min)) * 100) / 100;
        records.push({
          v: RECORD_VERSION,
          kind: 'grade',
          test: { file, name: `${target.name} > q${q}` },
          target,
          question: `q${q}`,
          grader,
          label,
          trial,
          score,
          min,
          max,
          composite: score === null ? null : (5 * (score - min)) / (max - min),
          reason: error
            ? 'judge call failed after 3 attempts: HTTP 503: overloaded'
            : `${grader} looked at ${1 + (q % 5)} calls: ${'search with {"q":"topic"}; '.repeat(1 + (q % 4))}`,
          error,
          skipped,
          llm: grader === 'relevance_grader',
          observesActions: grader !== 'relevance_grader',
          toolCallRecord: true,
          passThreshold: 3.5,
          at: 1_700_000_000_000 + records.length,
          dataset: { ref: 'file:evals/bench.yaml', hash: 'abcdef012345' },
        });
      }
    }
  }
  return records;
}

/** Test modules as Vitest's reporter API gives them, one test per question. */
function modulesOf(records) {
  const tests = new Map();
  for (const r of records) {
    const key = `${r.test.file}\n${r.test.name}`;
    if (!tests.has(key)) tests.set(key, { fullName: r.test.name, file: r.test.file, aiEval: [] });
    tests.get(key).aiEval.push(r);
  }
  const byFile = new Map();
  for (const t of tests.values()) {
    if (!byFile.has(t.file)) byFile.set(t.file, []);
    byFile.get(t.file).push({
      fullName: t.fullName,
      result: () => ({ state: 'passed' }),
      meta: () => ({ aiEval: t.aiEval }),
      diagnostic: () => ({ duration: 1 }),
    });
  }
  return [...byFile].map(([file, list]) => ({
    moduleId: file,
    errors: () => [],
    children: { allTests: () => list },
  }));
}

const vitest = {
  config: { root: '/work/project' },
  logger: { log: () => {}, outputStream: { isTTY: false } },
};

async function throughReporter(modules) {
  const outputFile = join(dir, 'ai-eval.json');
  rmSync(outputFile, { force: true });
  const reporter = new Reporter({
    outputFile,
    junitFile: join(dir, 'junit.xml'),
    markdownFile: join(dir, 'summary.md'),
    colors: false,
  });
  reporter.onInit(vitest);
  // Neither side pays for the garbage the call before it left (the reporter leaves far more).
  collectGarbage();
  const start = performance.now();
  // Async since the report writer is imported when a run starts: the warm-up run has imported it,
  // so what is timed is the aggregation, rendering and writing.
  await reporter.onTestRunEnd(modules);
  const ms = performance.now() - start;
  // A reporter that returned before writing must not read as a fast one.
  if (!existsSync(outputFile)) throw new Error('bench: the reporter wrote no JSON report');
  return ms;
}

function throughJson(records) {
  collectGarbage();
  const start = performance.now();
  JSON.parse(JSON.stringify(records));
  return performance.now() - start;
}

const sizesAt = opts.rest.indexOf('--sizes');
const SIZES = sizesAt === -1 ? [25_000, 50_000, 100_000] : opts.rest[sizesAt + 1].split(',').map(Number);
const rows = [];
const env = { ...process.env };
delete env.GITHUB_STEP_SUMMARY;
delete process.env.GITHUB_STEP_SUMMARY;
delete process.env.GITHUB_ACTIONS;
for (const size of SIZES) {
  const records = makeRecords(size);
  const modules = modulesOf(records);
  await throughReporter(modules); // warm-up
  throughJson(records);
  const reporterMs = [];
  const jsonMs = [];
  for (let p = 0; p < PAIRS; p++) {
    if (p % 2 === 0) {
      reporterMs.push(await throughReporter(modules));
      jsonMs.push(throughJson(records));
    } else {
      jsonMs.push(throughJson(records));
      reporterMs.push(await throughReporter(modules));
    }
  }
  const ratios = reporterMs.map((ms, i) => ms / jsonMs[i]);
  rows.push({ size, reporterMs, jsonMs, ratios });
  console.log(
    `${size} records: reporter ${spread(reporterMs, 0)} ms, JSON ${spread(jsonMs, 0)} ms, ratio ${spread(ratios)}`,
  );
}
rmSync(dir, { recursive: true, force: true });

const perRecord = (row) => median(row.reporterMs) / row.size;
const growth = perRecord(rows.at(-1)) / perRecord(rows[0]);
// The same for the baseline, a linear-time round trip: how much the machine itself (a larger heap,
// costlier collections, other tenants) adds per record from the smallest size to the largest.
const jsonPerRecord = (row) => median(row.jsonMs) / row.size;
const jsonGrowth = jsonPerRecord(rows.at(-1)) / jsonPerRecord(rows[0]);
const last = rows.at(-1);
const ratio = median(last.ratios);
const met = (ok) => (ok ? 'met' : 'not met');
const body = `## Aggregation (target 5)

\`node bench/aggregate.mjs\` (${PAIRS} interleaved pairs per size), ${new Date().toISOString().slice(0, 10)}.
Machine: ${machine(load)}. ${loadNote(load)} The public Vitest reporter's \`onTestRunEnd\` with
hand-made test modules: collect, the terminal summary, the JSON report, JUnit and Markdown written
to a temporary directory; against \`JSON.parse(JSON.stringify(records))\` of the same records.
Each timed call starts after a forced GC, so neither side pays for the garbage the other left. Median
(min-max) milliseconds.

| records | reporter ms | JSON ms | x JSON | reporter us per record |
| --- | --- | --- | --- | --- |
${rows
  .map(
    (r) =>
      `| ${r.size.toLocaleString('en')} | ${spread(r.reporterMs, 0)} | ${spread(r.jsonMs, 0)} | ${spread(r.ratios)} | ${((median(r.reporterMs) / r.size) * 1000).toFixed(1)} |`,
  )
  .join('\n')}

- Linear in the record count: per-record time at 100,000 is ${growth.toFixed(2)}x that at 25,000: ${met(growth <= 1.3)}. (The JSON round trip's own per-record time grew ${jsonGrowth.toFixed(2)}x in the same run.)
- At most 3x serialising and parsing as JSON at 100,000 records: ${met(ratio <= 3)} (${ratio.toFixed(2)}x).
`;
console.log(`\n${body}`);
if (opts.write) writeSection('aggregate', body);
