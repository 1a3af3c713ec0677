// Benchmarks of the core grading model, run against the built package (dist/): `npm run build`,
// then `npm run bench`. Every figure is a RATIO against a baseline measured in the same process, so
// results compare across machines; nothing here is a pass/fail threshold.
//
//   1. normalizeToolCalls on a large transcript   vs  JSON.parse of every call's arguments
//   2. tool_usage_grader (maximum matching)       vs  a greedy first-fit matcher over the same record
//   3. gradeQuestion (the whole pipeline)         vs  calling the same graders on a prebuilt context
//
// Memory is the heapUsed delta across each measured block, after a forced GC.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { collectGarbage } from './lib/measure.mjs';

const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
if (!existsSync(dist)) {
  console.error(`bench: ${dist} does not exist. Run \`npm run build\` first.`);
  process.exit(1);
}
const { getGrader, gradeQuestion, normalizeToolCalls } = await import(dist);

/** The context gradeQuestion builds (public API only: the result carries it). */
async function contextOf(question, response) {
  return (await gradeQuestion({ question, response, graders: [] })).context;
}

/** Median milliseconds per run of fn over `runs` timed runs, after warm-up. */
async function time(fn, runs = 15) {
  for (let i = 0; i < 3; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

/** heapUsed growth while fn runs `times` times, in KiB, results kept alive until measured. */
async function heapDelta(fn, times = 5) {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const kept = [];
  for (let i = 0; i < times; i++) kept.push(await fn());
  const after = process.memoryUsage().heapUsed;
  return { kib: (after - before) / 1024, kept: kept.length };
}

const rows = [];
async function compare(name, subject, baseline, note = '') {
  const subjectMs = await time(subject);
  const baselineMs = await time(baseline);
  const mem = await heapDelta(subject);
  rows.push({
    benchmark: name,
    'subject ms': subjectMs.toFixed(3),
    'baseline ms': baselineMs.toFixed(3),
    ratio: (subjectMs / baselineMs).toFixed(2),
    'heap KiB': mem.kib.toFixed(0),
    note,
  });
}

// Deterministic pseudo-random numbers, so every run benchmarks the same data.
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const TOOLS = ['search', 'load_node', 'save_node', 'list_nodes', 'get_user', 'fetch_page'];
const pick = () => TOOLS[Math.floor(random() * TOOLS.length)];

// 1. A long OpenAI Chat Completions transcript: 1000 assistant turns with two calls each.
const transcript = [{ role: 'system', content: 'You are an agent.' }];
for (let turn = 0; turn < 1000; turn++) {
  transcript.push({ role: 'user', content: `step ${turn}` });
  const calls = [0, 1].map((k) => ({
    id: `call_${turn}_${k}`,
    type: 'function',
    function: {
      name: pick(),
      arguments: JSON.stringify({ q: `query ${turn}`, page: k, body: 'x'.repeat(turn % 7 === 0 ? 800 : 40) }),
    },
  }));
  transcript.push({ role: 'assistant', content: null, tool_calls: calls });
  for (const c of calls) transcript.push({ role: 'tool', tool_call_id: c.id, content: '{"ok":true}' });
}
await compare(
  'normalizeToolCalls, 2000 calls in a 4001-message transcript',
  () => normalizeToolCalls(transcript),
  () => {
    const out = [];
    for (const m of transcript) {
      if (m.role !== 'assistant') continue;
      for (const c of m.tool_calls)
        out.push({ name: c.function.name, args: JSON.parse(c.function.arguments) });
    }
    return out;
  },
  'baseline: JSON.parse of each call',
);

// 2. Tool-usage matching: 600 recorded calls, 300 expectations (presence, args, after).
const record = Array.from({ length: 600 }, (_, i) => ({
  function_name: pick(),
  arguments: { q: `q${i % 40}`, page: i % 3 },
}));
const expected = Array.from({ length: 300 }, (_, i) => {
  const name = pick();
  const kind = i % 3;
  if (kind === 0) return name;
  if (kind === 1) return { name, args: { q: `q${i % 40}` } };
  return { name, after: pick() };
});
const toolUsage = getGrader('tool_usage_grader');
const context = await contextOf(
  { id: 'bench', input: 'x', expected_tools: expected },
  { output: 'done', toolCalls: record },
);
const grade = () => toolUsage.grade('x', 'done', context, { result: toolUsage.result });

/** A greedy first-fit matcher over the same record: each expectation takes its first free call. */
function greedy() {
  const taken = new Uint8Array(record.length);
  let met = 0;
  for (const e of expected) {
    const want = typeof e === 'string' ? { name: e } : e;
    const anchor = want.after ? record.findIndex((c) => c.function_name === want.after) : -1;
    for (let i = 0; i < record.length; i++) {
      const c = record[i];
      if (taken[i] || c.function_name !== want.name) continue;
      if (want.after && (anchor === -1 || i <= anchor)) continue;
      if (
        want.args &&
        !Object.entries(want.args).every(([k, v]) => JSON.stringify(c.arguments[k]) === JSON.stringify(v))
      )
        continue;
      taken[i] = 1;
      met++;
      break;
    }
  }
  return met;
}
const maxMet = Number(/^(\d+)\//.exec((await grade()).reason)[1]);
await compare(
  'tool_usage_grader, 300 expectations x 600 calls',
  grade,
  greedy,
  `met: maximum ${maxMet} vs greedy ${greedy()} of ${expected.length}`,
);

// 3. The whole pipeline on one question with three deterministic graders.
const graders = ['tool_usage_grader', 'format_grader', 'read_only_run'];
const question = {
  id: 'q1',
  input: 'List the pages as JSON',
  expected: { format: 'json', schema: { type: 'object', required: ['pages'] } },
  expected_tools: ['list_nodes', { name: 'search', args: { q: 'pages' } }],
};
const response = {
  output: '{"pages": ["a", "b"]}',
  toolCalls: [
    { type: 'function', function: { name: 'search', arguments: '{"q":"pages"}' } },
    { type: 'function', function: { name: 'list_nodes', arguments: '{}' } },
  ],
};
const BATCH = 500;
const resolved = graders.map(getGrader);
const direct = await contextOf(question, response);
await compare(
  `gradeQuestion x${BATCH}, 3 deterministic graders`,
  async () => {
    for (let i = 0; i < BATCH; i++) await gradeQuestion({ question, response, graders });
  },
  async () => {
    for (let i = 0; i < BATCH; i++)
      await Promise.all(
        resolved.map((g) => g.grade(question.input, response.output, direct, { result: g.result })),
      );
  },
  'baseline: the graders on a prebuilt context',
);
const pipelineMs = await time(async () => {
  for (let i = 0; i < BATCH; i++) await gradeQuestion({ question, response, graders });
}, 5);

console.log(`ai-eval benchmarks (node ${process.version}); ratio = subject / baseline, lower is cheaper`);
console.table(rows);
console.log(
  `gradeQuestion throughput: ${Math.round((BATCH / pipelineMs) * 1000)} questions/s on this machine`,
);
