import { linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { isAiEvalError } from '../../src/errors.js';
import { judgeIdentity } from '../../src/registry/judge-identity.js';
import { compareWithBaseline, parseReport } from '../../src/report/baseline.js';
import type { EvalReport } from '../../src/report/model.js';
import { mergeReports } from '../../src/report/merge.js';
import { checkReporterOptions, type ReporterOptions } from '../../src/report/options.js';
import { checkRecords, parseJsonLines } from '../../src/report/side-channel.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { filterSkipRecord, loadFailureRecord } from '../../src/run/record.js';
import { redactArguments, redactText } from '../../src/report/redact.js';
import { finishRun, useColour } from '../../src/report/write.js';
import { writeFileAtomic } from '../../src/internal/atomic-write.js';
import { validateReport } from '../helpers/report-schema.js';
import { tempDir } from '../helpers/temp.js';
import { SUPPORT, fail, rec } from '../helpers/report-fixtures.js';

const records: EvalRecord[] = [
  rec({ question: 'q1', grader: 'tool_usage_grader', score: 1, min: 0, max: 1 }),
  rec({ question: 'q2', grader: 'tool_usage_grader', score: 0, min: 0, max: 1, trial: 1 }),
  rec({ question: 'q2', grader: 'tool_usage_grader', score: 1, min: 0, max: 1, trial: 2 }),
  fail('q3', 'accuracy_judge', {
    llm: true,
    usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
  }),
  rec({
    question: 'bare',
    grader: 'accuracy_judge',
    target: null,
    test: { file: '/repo/test/b.test.ts', name: 'bare' },
  }),
];

function run(options: ReporterOptions, env: NodeJS.ProcessEnv = {}, input = records) {
  const dir = tempDir('ai-eval-write-');
  let printed = '';
  const result = finishRun(input, options, {
    root: dir,
    print: (t) => (printed += t),
    env,
    isTTY: false,
    now: new Date('2026-02-03T04:05:06.000Z'),
  });
  return { dir, printed, ...result };
}

describe('finishRun', () => {
  it('writes a JSON report that matches the published schema and keeps the design key names', () => {
    const { dir, report, printed, failed } = run({ outputFile: 'out/ai-eval.json' });
    const json = JSON.parse(readFileSync(join(dir, 'out/ai-eval.json'), 'utf8')) as EvalReport;
    expect(validateReport(json), JSON.stringify(validateReport.errors)).toBe(true);
    expect(json).toEqual(JSON.parse(JSON.stringify(report)));
    expect(json).toMatchObject({
      schemaVersion: 2,
      timestamp: '2026-02-03T04:05:06.000Z',
      packageVersion: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
        .version,
      questionCount: 4,
      errorCount: 1,
      judgeTokens: { prompt: 10, completion: 5, total: 15 },
    });
    // An LLM grader ran, but no model is named for this process: unknown, not guessed.
    expect(json.judgeModel).toBe(process.env.AI_EVAL_JUDGE_MODEL || null);
    const target = json.targets.find((t) => t.name === 'support-bot')!;
    expect(Object.keys(target)).toEqual(
      expect.arrayContaining([
        'name',
        'mode',
        'graders',
        'actionObserving',
        'averageScore',
        'passRate',
        'errorCount',
        'degradedCount',
        'advisories',
        'questions',
      ]),
    );
    expect(Object.keys(target.questions[0]!)).toEqual(
      expect.arrayContaining(['id', 'test', 'composite', 'passed', 'degraded', 'grades']),
    );
    expect(Object.keys(target.questions[0]!.grades[0]!)).toEqual(
      expect.arrayContaining(['grader', 'score', 'min', 'max', 'composite', 'reason', 'error', 'skipped']),
    );
    // outside the root, the file keeps its absolute path
    expect(json.targets.map((t) => t.name)).toEqual(['/repo/test/b.test.ts', 'support-bot']);
    expect(printed).toContain('ai-eval: 2 targets, 4 questions');
    expect(printed).not.toContain('\u001b[');
    expect(failed).toBe(false);
    expect(readdirSync(join(dir, 'out'))).toEqual(['ai-eval.json']); // no temp file left behind
  });

  it('writes JUnit and Markdown and appends Markdown to GITHUB_STEP_SUMMARY', () => {
    const summaryDir = tempDir('ai-eval-summary-');
    const summary = join(summaryDir, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const { dir, printed } = run(
      { junitFile: 'junit.xml', markdownFile: 'summary.md' },
      { GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: 'true' },
      [
        ...records,
        rec({
          question: 'q9',
          grader: 'accuracy_judge',
          target: { ...SUPPORT, name: 'blind', actionObserving: [] },
        }),
      ],
    );
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(
      /^<\?xml[\s\S]*<testcase classname="support-bot" name="q1"/,
    );
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).toMatch(/^## ai-eval\n/);
    expect(readFileSync(summary, 'utf8')).toBe(`# earlier step\n${md}`);
    expect(printed).toContain(
      '::warning title=ai-eval NO_ACTION_OBSERVER::blind is scored by nothing that can see what the agent did.',
    );
  });

  it('fails the run with the reason when a hard gate fails', () => {
    const { failed, failure, printed } = run({ gate: { level: 'hard', minPassRate: 0.9 } });
    expect(failed).toBe(true);
    expect(failure).toBe(
      'ai-eval: run: pass rate 50% is below the minimum 90%; run: coverage 75% (3 of 4 planned questions scored, 1 errored) is below the minimum 100%',
    );
    expect(printed).toContain(
      'ai-eval: FAILED: 3 of 4 planned questions scored, 1 errored; 2 hard gates failed: run: pass rate 50% is below the minimum 90%; run: coverage 75%',
    );
  });

  it('prints the failure even with the summary off', () => {
    const { printed } = run({ summary: false, failOnError: true });
    expect(printed.trim()).toBe(
      'ai-eval: FAILED: 3 of 4 planned questions scored, 1 errored; 1 hard gate failed: 1 grader error and failOnError is set',
    );
  });

  it('compares with a baseline and gates on a drop', () => {
    const first = run({ outputFile: 'base.json' });
    const better = records.map((r) =>
      r.question === 'q2' && r.trial === 1 ? rec({ ...r, score: 1, composite: 5 }) : r,
    );
    const worse = records.filter((r) => r.question !== 'q1');
    const baseline = join(first.dir, 'base.json');
    const up = run({ baseline }, {}, better);
    expect(up.report.baseline?.changes).toEqual([
      { target: 'support-bot', before: 3.75, after: 5, delta: 1.25, kind: 'improved' },
      { target: 'support-bot', question: 'q2', before: 2.5, after: 5, delta: 2.5, kind: 'improved' },
    ]);
    expect(up.printed).toContain('  ▲ improved support-bot › q2  2.50 -> 5.00 (+2.50)');
    const down = run({ baseline, maxDrop: 0.5 }, {}, worse);
    expect(down.report.baseline?.changes.map((c) => [c.kind, c.question])).toEqual([
      ['regressed', undefined],
      ['removed', 'q1'],
    ]);
    expect(down.failed).toBe(true);
    expect(down.failure).toBe('ai-eval: support-bot: average 3.75 -> 2.50 (-1.25), allowed drop 0.50');
  });

  it('warns and goes on without a baseline that cannot be read, but fails when maxDrop needs it', () => {
    const missing = run({ baseline: 'nope.json' });
    expect(missing.failed).toBe(false);
    expect(missing.printed).toMatch(
      /warning: no baseline comparison: .*nope\.json: cannot read the baseline report/,
    );
    const needed = run({ baseline: 'nope.json', maxDrop: 1, outputFile: 'r.json' });
    expect(needed.failed).toBe(true);
    expect(needed.report.passed).toBe(false);
    expect(needed.report.gates.at(-1)?.message).toMatch(
      /^maxDrop cannot be checked: .*nope\.json: cannot read/,
    );
    const written = JSON.parse(readFileSync(join(needed.dir, 'r.json'), 'utf8')) as EvalReport;
    expect(written.passed).toBe(false);
  });

  it('takes the baseline from the outputFile it is about to replace', () => {
    const first = run({ outputFile: 'r.json' });
    const previous = readFileSync(join(first.dir, 'r.json'), 'utf8');
    let printed = '';
    const again = finishRun(
      records.filter((r) => r.question !== 'q1'),
      { outputFile: 'r.json', baseline: 'r.json', maxDrop: 0.5 },
      { root: first.dir, print: (t) => (printed += t), env: {}, now: new Date('2026-02-04T00:00:00.000Z') },
    );
    expect(again.report.baseline).toMatchObject({ file: 'r.json', timestamp: '2026-02-03T04:05:06.000Z' });
    expect(again.report.baseline?.changes.map((c) => [c.kind, c.question])).toEqual([
      ['regressed', undefined],
      ['removed', 'q1'],
    ]);
    expect(again.failed).toBe(true);
    expect(again.failure).toBe('ai-eval: support-bot: average 3.75 -> 2.50 (-1.25), allowed drop 0.50');
    expect(printed).not.toContain('warning');
    // A ratchet moves only forward: the failed run's report goes beside the baseline, which stays.
    expect(printed).toContain(
      "[ai-eval] maxDrop failed: the baseline r.json is kept as it was, and this run's report is written to r.rejected.json.",
    );
    expect(readFileSync(join(first.dir, 'r.json'), 'utf8')).toBe(previous);
    const rejected = readFileSync(join(first.dir, 'r.rejected.json'), 'utf8');
    expect(JSON.parse(rejected)).toEqual(JSON.parse(JSON.stringify(again.report)));
  });

  it('fails a rerun of the same regression too (it was written over the baseline and passed)', () => {
    const first = run({ outputFile: 'r.json' });
    const options = { outputFile: 'r.json', baseline: 'r.json', maxDrop: 0.5 };
    const io = { root: first.dir, print: () => undefined, env: {} };
    const worse = records.filter((r) => r.question !== 'q1');
    expect(finishRun(worse, options, io).failed).toBe(true);
    const rerun = finishRun(worse, options, io);
    expect(rerun.failed).toBe(true);
    expect(rerun.failure).toBe('ai-eval: support-bot: average 3.75 -> 2.50 (-1.25), allowed drop 0.50');
    // A run within the drop moves the ratchet.
    const fine = finishRun(records, options, io);
    expect(fine.failed).toBe(false);
    expect(JSON.parse(readFileSync(join(first.dir, 'r.json'), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(fine.report)),
    );
  });

  it('names the shard in file options through [shard]', () => {
    const dir = tempDir('ai-eval-shard-');
    const io = { root: dir, print: () => undefined, env: {} };
    finishRun(records, { outputFile: 'r-[shard].json' }, { ...io, shard: { index: 2, count: 3 } });
    finishRun(records, { outputFile: 'r-[shard].json' }, io);
    expect(readdirSync(dir).sort()).toEqual(['r-1-of-1.json', 'r-2-of-3.json']);
  });

  it('prints record problems as warnings', () => {
    const dir = tempDir('ai-eval-w-');
    let printed = '';
    finishRun(
      records,
      {},
      { root: dir, print: (t) => (printed += t), env: {}, warnings: ['x.jsonl:3: not JSON'] },
    );
    expect(printed).toContain('[ai-eval] warning: x.jsonl:3: not JSON');
  });
});

describe('run identity', () => {
  it('takes the judge model and prompt and dataset hashes from the records, none without an LLM grader', () => {
    const extra = { judgeModel: 'llama3.1', promptHash: 'p1', dataset: { ref: 'support.yaml', hash: 'd1' } };
    const withIds = run({}, {}, [
      rec({ question: 'q', grader: 'accuracy_judge', llm: true, ...extra }),
    ]).report;
    expect(withIds).toMatchObject({
      judgeModel: 'llama3.1',
      promptHashes: { accuracy_judge: 'p1' },
      datasetHashes: { 'support.yaml': 'd1' },
    });
    const llm = [rec({ question: 'q', grader: 'accuracy_judge', llm: true })];
    configure({ judge: { model: 'configured-judge' } });
    try {
      const named = run({}, {}, llm).report;
      expect(named.judgeModel).toBe('configured-judge');
      expect(named.judgeHash).toBe(judgeIdentity().hash);
    } finally {
      resetConfig();
    }
    const none = run({}, {}, [rec({ question: 'q', grader: 'tool_usage_grader' })]).report;
    expect(none).toMatchObject({ judgeModel: null, judgeHash: null });
  });
});

describe('mergeReports', () => {
  it('gives the report of one run from shard reports', () => {
    const options: ReporterOptions = { gate: { level: 'hard', minAverage: 3 } };
    const whole = run(options).report;
    const shard1 = run(
      options,
      {},
      records.filter((r) => r.question !== 'q2' && r.question !== 'bare'),
    ).report;
    const shard2 = run(
      options,
      {},
      records.filter((r) => r.question === 'q2' || r.question === 'bare'),
    ).report;
    const merged = mergeReports([shard2, shard1], { now: new Date('2026-02-03T04:05:06.000Z') });
    expect(merged).toEqual(whole);
  });
});

describe('parseReport and compareWithBaseline', () => {
  it('names the file and JSON path of a malformed report', () => {
    expect(() =>
      parseReport('{"schemaVersion":2,"targets":[{"name":"a","questions":[{"id":3}]}]}', 'r.json'),
    ).toThrow('r.json at $.targets[0].questions[0].id: expected a string');
    expect(() => parseReport('{"schemaVersion":1}', 'r.json')).toThrow(
      'r.json at $.schemaVersion: expected 2, got 1',
    );
    let thrown: unknown;
    try {
      parseReport('{', 'r.json');
    } catch (error) {
      thrown = error;
    }
    expect(isAiEvalError(thrown, 'INVALID_REPORT')).toBe(true);
  });

  it('ignores changes under 0.01 and lists new targets', () => {
    const base = run({}).report;
    const changes = compareWithBaseline(
      [...base.targets, { ...base.targets[0]!, name: 'zzz' }],
      base.targets,
    );
    expect(changes).toEqual([
      { target: 'zzz', before: null, after: base.targets[0]!.averageScore, delta: null, kind: 'new' },
    ]);
  });
});

describe('reading records', () => {
  it('skips bad records with the path of the problem', () => {
    const good = rec({ question: 'q', grader: 'g' });
    const { records: ok, problems } = checkRecords(
      [good, { ...good, v: 1 }, { ...good, score: 'x' }],
      'a.test.ts > t',
    );
    expect(ok).toEqual([good]);
    expect(problems).toEqual([
      'a.test.ts > t: record 1 skipped, $[1].v: expected 2, got 1 (a record from another ai-eval version)',
      'a.test.ts > t: record 2 skipped, $[2].score: expected a number or null',
    ]);
    expect(checkRecords('nope', 'x').problems).toEqual([
      'x: meta.aiEval is not an array of records; skipped',
    ]);
  });

  it('reads suite records and names what is wrong with a bad one', () => {
    const test = { file: '/repo/a.test.ts', name: 'a > dataset file:a.yaml' };
    const target = SUPPORT;
    const failure = loadFailureRecord({ test, target, suite: 'a', ref: 'file:a.yaml' }, [
      'a.yaml does not exist',
    ]);
    const skipped = filterSkipRecord({ test, target, suite: 'a', ref: 'file:a.yaml' }, { ids: ['q9'] });
    const { records: ok, problems } = checkRecords(
      [
        failure,
        skipped,
        { ...failure, problems: 'x' },
        { ...skipped, target: null },
        { ...failure, kind: 'other' },
      ],
      'a.test.ts',
    );
    expect(ok).toEqual([failure, skipped]);
    expect(problems).toEqual([
      'a.test.ts: record 2 skipped, $[2].problems: expected an array of strings',
      'a.test.ts: record 3 skipped, $[3].target: expected { name, mode, graders, ... }',
      "a.test.ts: record 4 skipped, $[4].kind: expected 'grade', 'load-failure', 'filter-skip' or 'disabled'",
    ]);
  });

  it('parses JSON Lines, naming file and line of a bad one', () => {
    const good = JSON.stringify(rec({ question: 'q', grader: 'g' }));
    const { records: ok, problems } = parseJsonLines(`${good}\n\n{"v":1\n${good}\n`, 'records-1.jsonl');
    expect(ok).toHaveLength(2);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^records-1\.jsonl:3: not JSON/);
  });
});

describe('options, colour and redaction', () => {
  it('rejects bad options with the option named', () => {
    expect(() => checkReporterOptions({ outputfile: 'x' })).toThrow(
      'ai-eval reporter option outputfile: unknown option (known: outputFile,',
    );
    expect(() => checkReporterOptions({ gate: { level: 'firm', minAverage: 3 } })).toThrow(
      "option gate.level: expected 'hard' or 'soft', got \"firm\". See node_modules/ai-eval/docs/reporter.md.",
    );
    expect(() => checkReporterOptions({ gate: { level: 'hard', minPassRate: 50 } })).toThrow(
      'option gate.minPassRate: expected a number from 0 to 1, got 50',
    );
    expect(() => checkReporterOptions({ maxDrop: 1 })).toThrow('option maxDrop: needs `baseline` as well.');
    expect(() => checkReporterOptions({ gate: { level: 'hard' } })).toThrow(
      'a gate needs minAverage, minPassRate, minCoverage, requireTrustedJudges or maxJudgeErrorRate',
    );
  });

  it('colours only on a TTY without NO_COLOR, unless forced', () => {
    expect(useColour(undefined, {}, true)).toBe(true);
    expect(useColour(undefined, {}, false)).toBe(false);
    expect(useColour(undefined, { NO_COLOR: '1' }, true)).toBe(false);
    expect(useColour(true, { NO_COLOR: '1' }, false)).toBe(true);
  });

  it('redacts secrets in reasons and arguments', () => {
    expect(
      redactText(
        'login {"password":"hunter2","user":"a"} with Bearer abcdefghijk and sk-abcdefghijklmnopqrstu',
      ),
    ).toBe('login {"password":"[redacted]","user":"a"} with Bearer [redacted] and [redacted]');
    expect(redactText('api_key=XYZ token: t0k3n')).toBe('api_key=[redacted] token: [redacted]');
    expect(
      redactArguments({ user: 'a', nested: { Authorization: 'x', list: [{ secret_value: 1 }] } }),
    ).toEqual({
      user: 'a',
      nested: { Authorization: '[redacted]', list: [{ secret_value: '[redacted]' }] },
    });
    const { report } = run({}, {}, [
      rec({ question: 'q', grader: 'g', reason: 'sent api_key=abc123 to the tool' }),
    ]);
    expect(report.targets[0]!.questions[0]!.grades[0]!.reason).toBe('sent api_key=[redacted] to the tool');
  });

  it('writes atomically: a reader of the old file keeps it whole, the new one replaces it', () => {
    const dir = tempDir('ai-eval-atomic-');
    const file = join(dir, 'r.json');
    writeFileAtomic(file, 'old');
    // A hard link stands for a reader that opened the old report: a write in place (plain
    // writeFileSync) would change what it reads; a rename over the name leaves it alone.
    linkSync(file, join(dir, 'reader'));
    const before = statSync(file).ino;
    writeFileAtomic(file, 'new');
    expect(readFileSync(join(dir, 'reader'), 'utf8')).toBe('old');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).ino).not.toBe(before);
    expect(readdirSync(dir).sort()).toEqual(['r.json', 'reader']);
  });

  it('writes content given in pieces whole, and leaves the old file when making a piece fails', () => {
    const dir = tempDir('ai-eval-atomic-');
    const file = join(dir, 'r.json');
    writeFileAtomic(file, ['{"a":', '"é ✓"', '}\n']);
    expect(readFileSync(file, 'utf8')).toBe('{"a":"é ✓"}\n');
    function* failing(): Generator<string> {
      yield '{"half":';
      throw new Error('cannot render');
    }
    expect(() => writeFileAtomic(file, failing())).toThrow('cannot render');
    expect(readFileSync(file, 'utf8')).toBe('{"a":"é ✓"}\n');
    expect(readdirSync(dir)).toEqual(['r.json']);
  });

  it('leaves no temporary file and the target untouched when the rename fails', () => {
    const dir = tempDir('ai-eval-atomic-');
    const target = join(dir, 'r.json');
    mkdirSync(target);
    writeFileSync(join(target, 'keep'), 'kept');
    expect(() => writeFileAtomic(target, 'new')).toThrow();
    expect(readdirSync(dir)).toEqual(['r.json']);
    expect(readdirSync(target)).toEqual(['keep']);
    expect(readFileSync(join(target, 'keep'), 'utf8')).toBe('kept');
  });
});
