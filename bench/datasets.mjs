// Dataset-load benchmark, against the built package (dist/): `npm run build`, then
// `node bench/datasets.mjs`. Figures are RATIOS against baselines measured in the same process,
// in interleaved pairs (subject, baseline; then the other order), reported as the median ratio
// with its min-max; times are CPU milliseconds. Nothing here is a pass/fail threshold of the
// test suite.
//
//   1. loadDatasetSync of a 10,000-question JSON file  vs  readFileSync + JSON.parse + the
//      precompiled validator (the same file, the same read)
//   2. validateDataset of the JSON text                vs  JSON.parse + the precompiled validator
//   3. loadDatasetSync of the same questions as YAML   vs  readFileSync + yaml.parse
//   4. memory: peak RSS of validating a 50 MB YAML and a 50 MB JSON dataset in a fresh process,
//      less the RSS of the same process before it reads anything, divided by the file's size;
//      yaml.parse alone of the YAML file for comparison
//
// Each timed call starts after a forced GC. Options: --runs N (default 15), --skip-memory.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { writeDatasets } from './make-datasets.mjs';
import { collectGarbage } from './lib/measure.mjs';
import { straddles } from './lib/stats.mjs';

const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
if (!existsSync(dist)) {
  console.error(`bench: ${dist} does not exist. Run \`npm run build\` first.`);
  process.exit(1);
}
const { loadDatasetSync, validateDataset, logger } = await import(dist);
const { document: validate } = await import('../src/datasets/compiled/dataset-validators.js');
logger.setEchoLevel('silent');

const args = process.argv.slice(2);
const loadBefore = (await import('node:os')).loadavg()[0];
const runs = Number(args[args.indexOf('--runs') + 1] || 15) || 15;

/**
 * One timed call, after a full GC, so that neither side pays for the other's garbage. Timed in
 * CPU time of this process (user + system), which other processes on a shared machine disturb
 * far less than wall-clock time; the code measured is synchronous and single-threaded.
 */
function ms(fn) {
  collectGarbage();
  const start = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, value };
}

/** Interleaved pairs: median and min-max of subject/baseline, and the median times. */
function pairs(subject, baseline) {
  for (let i = 0; i < 3; i++) {
    subject();
    baseline();
  }
  const ratios = [];
  const subjectMs = [];
  const baselineMs = [];
  for (let i = 0; i < runs; i++) {
    let s;
    let b;
    if (i % 2 === 0) {
      s = ms(subject).ms;
      b = ms(baseline).ms;
    } else {
      b = ms(baseline).ms;
      s = ms(subject).ms;
    }
    subjectMs.push(s);
    baselineMs.push(b);
    ratios.push(s / b);
  }
  const median = (list) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)];
  return {
    ratio: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    subjectMs: median(subjectMs),
    baselineMs: median(baselineMs),
  };
}

const { json, yaml } = writeDatasets(10_000);
const jsonText = readFileSync(json, 'utf8');
const check = (value) => {
  if (!validate(value)) throw new Error('bench: the generated dataset is invalid');
  return value;
};

const rows = [];
/** Whether each row with a target met it (a separate list: `rows` is printed as the table). */
const verdicts = [];
let unsure = 0;
function row(name, result, target) {
  if (target !== undefined) verdicts.push(result.ratio <= target);
  if (target !== undefined && straddles(result.min, result.max, target)) unsure += 1;
  rows.push({
    benchmark: name,
    'subject ms': result.subjectMs.toFixed(1),
    'baseline ms': result.baselineMs.toFixed(1),
    ratio: result.ratio.toFixed(2),
    'min-max': `${result.min.toFixed(2)}-${result.max.toFixed(2)}`,
    target:
      target === undefined
        ? ''
        : `<= ${target} ${result.ratio <= target ? 'met' : 'NOT met'}${straddles(result.min, result.max, target) ? ', pairs on both sides' : ''}`,
  });
}

const loadJson = () => {
  const load = loadDatasetSync({ path: json });
  if (load.questions.length !== 10_000) throw new Error(`bench: loaded ${load.questions.length}`);
  return load;
};
row(
  'loadDatasetSync, 10,000-question JSON file',
  pairs(loadJson, () => check(JSON.parse(readFileSync(json, 'utf8')))),
  1.3,
);
row(
  'validateDataset, the same JSON text',
  pairs(
    () => validateDataset(jsonText, { file: 'bench.json' }),
    () => check(JSON.parse(jsonText)),
  ),
  1.3,
);
row(
  'loadDatasetSync, the same questions as YAML',
  pairs(
    () => loadDatasetSync({ path: yaml }),
    () => parseYaml(readFileSync(yaml, 'utf8')),
  ),
  1.3,
);

console.log(`ai-eval dataset benchmarks (node ${process.version}, ${runs} interleaved pairs)`);
console.log(
  `JSON ${(statSync(json).size / 1e6).toFixed(1)} MB, YAML ${(statSync(yaml).size / 1e6).toFixed(1)} MB`,
);
console.table(rows);

if (!args.includes('--no-write')) {
  const { machine, writeSection } = await import('./lib/measure.mjs');
  const table = rows
    .map(
      (r) =>
        `| ${r.benchmark} | ${r['subject ms']} | ${r['baseline ms']} | ${r.ratio} | ${r['min-max']} | ${r.target} |`,
    )
    .join('\n');
  // ('NOT met' ends with ' met' too: the verdicts are kept apart from the table's text.)
  const met = verdicts.every(Boolean);
  writeSection(
    'datasets',
    `## Dataset loading (target 2)

\`node bench/datasets.mjs\`, ${new Date().toISOString().slice(0, 10)}, ${runs} interleaved pairs in one process,
CPU time (user + system) of each call after a forced GC. Machine: ${machine(loadBefore)}.
Subject: ai-eval's loader; baseline: \`readFileSync\` + \`JSON.parse\` + the precompiled validator
(JSON), \`readFileSync\` + \`yaml.parse\` (YAML). 10,000 generated questions (bench/make-datasets.mjs).

| benchmark | subject ms | baseline ms | ratio (median) | min-max | target |
| --- | --- | --- | --- | --- | --- |
${table}

- At most 1.3x for JSON (from a file and from a string) and for YAML: ${met ? 'met' : 'not met'} on this run${unsure > 0 ? ` (by the medians; in ${unsure} of the rows the pairs fell on both sides of 1.3x, so this run alone cannot tell for them)` : ''}.
`,
  );
}

if (!args.includes('--skip-memory')) {
  // About 10,000 questions are 5 MB: 100,000 make a 50 MB file.
  const big = writeDatasets(100_000);
  const measure = (file, how) => {
    const script = `
      const { readFileSync } = require('node:fs');
      const before = process.memoryUsage().rss;
      let ok;
      if (${JSON.stringify(how)} === 'yaml.parse') ok = !!require('yaml').parse(readFileSync(${JSON.stringify(file)}, 'utf8'));
      else ok = require(${JSON.stringify(fileURLToPath(new URL('../dist/index.cjs', import.meta.url)))}).validateDatasetFile(${JSON.stringify(file)}).valid;
      const peak = process.resourceUsage().maxRSS * 1024;
      console.log(JSON.stringify({ before, peak, ok }));
    `;
    const start = performance.now();
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const seconds = (performance.now() - start) / 1000;
    if (child.status !== 0) throw new Error(`bench: ${how} failed: ${child.stderr}`);
    const { before, peak, ok } = JSON.parse(child.stdout);
    const size = statSync(file).size;
    return {
      file: `${(size / 1e6).toFixed(1)} MB ${file.endsWith('.json') ? 'JSON' : 'YAML'}`,
      how,
      valid: ok,
      seconds: seconds.toFixed(1),
      'peak RSS MB': (peak / 1e6).toFixed(0),
      'factor (peak - start) / size': ((peak - before) / size).toFixed(1),
    };
  };
  console.table([
    measure(big.yaml, 'validateDatasetFile'),
    measure(big.yaml, 'yaml.parse'),
    measure(big.json, 'validateDatasetFile'),
  ]);
}
