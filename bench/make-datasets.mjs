// Writes the datasets the dataset-load benchmark reads: N questions (default 10,000) as JSON and as
// YAML, deterministic (a seeded generator), shaped like real eval questions. Run it through
// `node bench/datasets.mjs`, which calls it; or alone: `node bench/make-datasets.mjs [count] [dir]`.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

const WORDS = (
  'refund invoice order account password billing plan upgrade cancel shipping address email ' +
  'payment card policy support ticket delivery return exchange warranty subscription renewal ' +
  'discount coupon receipt tax region language agent escalate manager callback schedule'
).split(' ');
const TOOLS = ['find_invoice', 'send_email', 'search_kb', 'get_order', 'refund_payment', 'lookup_user'];

/** A deterministic generator (LCG), so every run writes the same bytes. */
function generator(seed) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = (list) => list[Math.floor(next() * list.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  return { next, pick, words };
}

/** A dataset document of `count` questions. */
export function makeDataset(count, seed = 42) {
  const g = generator(seed);
  const questions = [];
  for (let i = 0; i < count; i++) {
    const question = {
      id: `q-${i}`,
      input: `${g.words(12 + Math.floor(g.next() * 20))}?`,
      criteria: `${g.words(10)}.`,
      expected_facts: [g.words(3), g.words(4)],
      tags: [g.pick(WORDS), g.pick(WORDS)],
    };
    if (i % 3 === 0) question.expected_tools = [g.pick(TOOLS), { name: g.pick(TOOLS), times: 1 }];
    if (i % 5 === 0) question.expected = { format: 'markdown', pattern: `${g.pick(WORDS)}|${g.pick(WORDS)}` };
    if (i % 7 === 0) question.metadata = { owner: 'support', priority: i % 4 };
    if (i % 11 === 0)
      question.messages = [
        { role: 'user', content: g.words(8) },
        { role: 'assistant', content: g.words(6) },
      ];
    if (i % 13 === 0) question.timeout = 20000;
    questions.push(question);
  }
  return {
    name: 'bench',
    label: `Benchmark dataset of ${count} questions`,
    splits: { smoke: ['q-0', 'q-1', 'q-2'], holdout: { fraction: 0.2, seed: 7 } },
    questions,
  };
}

/** Writes `<dir>/questions-<count>.json` and `.yaml`; returns their paths. */
export function writeDatasets(
  count = 10_000,
  dir = fileURLToPath(new URL('../.tmp/bench', import.meta.url)),
) {
  mkdirSync(dir, { recursive: true });
  const document = makeDataset(count);
  const json = join(dir, `questions-${count}.json`);
  const yaml = join(dir, `questions-${count}.yaml`);
  writeFileSync(json, `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(yaml, stringify(document));
  return { json, yaml };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2] ?? 10_000);
  console.log(writeDatasets(count, process.argv[3]));
}
