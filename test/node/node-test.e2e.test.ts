import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { packedDir } from '../helpers/paths.js';
import { validateReport } from '../helpers/report-schema.js';
import { expectHeldThenWritten, heldSuiteFiles } from '../helpers/held-suite.js';
import { makeProject, runNode } from '../helpers/project.js';

const FIXTURE = 'node-test';
const ALL = ['tests/suite.test.mjs', 'tests/matchers.test.mjs', 'tests/cjs.test.cjs'];

/** Runs `node --test` with the given reporter on the files (node 20 takes no globs). */
function nodeTest(dir: string, files: string[], reporter: string, env: Record<string, string> = {}) {
  return runNode('--test', files, dir, env, [`--test-reporter=${reporter}`]);
}

function readReport(file: string): EvalReport {
  const report = JSON.parse(readFileSync(file, 'utf8')) as EvalReport;
  expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
  return report;
}

describe('node:test: evalSuite, the standalone expect and the reporter', () => {
  it('prints the spec output, then the summary, and writes the report of every test file', async () => {
    const dir = makeProject(FIXTURE, {}, FIXTURE);
    const result = await nodeTest(dir, ALL, 'ai-eval/reporter/node', {
      AI_EVAL_REPORTER_OPTIONS: JSON.stringify({
        outputFile: 'reports/ai-eval.json',
        htmlFile: 'reports/ai-eval.html',
      }),
    });
    // Failing questions fail their tests, so node:test exits 1.
    expect(result.code, result.output).toBe(1);
    const lines = result.output.split('\n');
    // node's spec output, with the generated suite's tests titled by question id and tags.
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}✔ q-pass \[smoke, billing\] \(/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}✖ q-low \(/));
    // A disabled question is skipped with a note saying why.
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}﹣ q-off \(.*# disabled in the dataset/));
    expect(result.output).toContain('q-slow: timed out after 200 ms (question.timeout)');
    expect(result.output).toContain(
      'evalSuite("missing"): dataset file:datasets/nope.yaml gave no questions',
    );
    // Then the ai-eval summary, after node's totals.
    expect(result.output.indexOf('ai-eval: 4 targets')).toBeGreaterThan(result.output.indexOf('ℹ tests'));
    expect(lines).toContain(
      'ai-eval: 4 targets, 9 questions, average 4.44 over 8 of 10 scored, 56% passed, 3 errors, 2 degraded',
    );
    expect(result.output).toContain('ai-eval: FAILED: 5 tests failed;');
    expect(result.output).not.toContain('did not report were dropped');
    const report = readReport(join(dir, 'reports/ai-eval.json'));
    // htmlFile: the HTML report of the same run, one row per question, tags read from the titles.
    const html = readFileSync(join(dir, 'reports/ai-eval.html'), 'utf8');
    expect(html.match(/<details class="q"/g)).toHaveLength(report.questionCount);
    expect(html).toContain('<option value="billing">billing</option>');
    expect(report.targets.map((t) => [t.name, t.questionCount])).toEqual([
      ['assistant', 1],
      ['cjs-bot', 2],
      ['support-bot', 5],
      ['tests/matchers.test.mjs', 1],
    ]);
    const support = report.targets.find((t) => t.name === 'support-bot')!;
    expect(support.questions.map((q) => [q.id, q.test.name, q.passed])).toEqual([
      ['q-degraded', 'support > q-degraded', false],
      ['q-low', 'support > q-low', false],
      ['q-pass', 'support > q-pass [smoke, billing]', true],
      ['q-slow', 'support > q-slow', false],
      ['q-write', 'support > q-write', false],
    ]);
    expect(support.questions[0]!.test.file).toBe('tests/suite.test.mjs');
    // The missing dataset is a planned suite that did not load, not a silent pass.
    expect(support.loadFailures.map((f) => [f.suite, f.dataset])).toEqual([
      ['missing', 'file:datasets/nope.yaml'],
    ]);
    // A matcher in a (nested) node:test test names its test by its full name.
    const matchers = report.targets.find((t) => t.name === 'tests/matchers.test.mjs')!;
    expect(matchers.questions.map((q) => q.test.name)).toEqual(['matchers > a read-only run passes']);
    expect(matchers.negated.map((n) => n.test.name)).toEqual([
      'matchers > nested > a write fails the read-only grader',
    ]);
  });

  it('runs trials and concurrent, tag-filtered questions inside a user describe, each record in its test', async () => {
    const dir = makeProject(`${FIXTURE}-more`, {}, FIXTURE);
    const result = await nodeTest(dir, ['tests/more.test.mjs'], 'ai-eval/reporter/node', {
      AI_EVAL_REPORTER_OPTIONS: JSON.stringify({ outputFile: 'reports/more.json' }),
    });
    expect(result.code, result.output).toBe(1);
    expect(result.output).toMatch(/✔ q-steady \(/);
    expect(result.output).toMatch(/✖ q-flaky \(/);
    expect(result.output).toContain('q-flaky: trial 2: composite 3 is below the pass threshold 3.5');
    expect(result.output).not.toContain('c-left-out');
    // Three questions of 400 ms each ran at once: each started before any of them ended.
    const spans = ['c-one', 'c-two', 'c-three'].map(
      (id) =>
        JSON.parse(readFileSync(join(dir, `span-${id}.json`), 'utf8')) as { start: number; end: number },
    );
    expect(Math.max(...spans.map((s) => s.start))).toBeLessThan(Math.min(...spans.map((s) => s.end)));
    const report = readReport(join(dir, 'reports/more.json'));
    const questions = report.targets.flatMap((t) => t.questions);
    expect(questions.map((q) => [q.id, q.test.name, q.passed])).toEqual([
      ['c-one', 'outer > concurrent > c-one [fast]', true],
      ['c-three', 'outer > concurrent > c-three [fast]', true],
      ['c-two', 'outer > concurrent > c-two [fast]', true],
      // The report judges a question over its trials by their mean (5 and 3: 4), while the test
      // failed on its second trial.
      ['q-flaky', 'outer > trials > q-flaky', true],
      ['q-steady', 'outer > trials > q-steady', true],
    ]);
    const flaky = questions.find((q) => q.id === 'q-flaky')!;
    expect(flaky.trials).toMatchObject({ count: 2, composites: [5, 3], passAtK: true, passHatK: false });
    // Concurrent questions keep their own grades: c-two scored 4, the others 5.
    const scores = Object.fromEntries(
      questions.map((q) => [q.id, q.grades.find((g) => g.grader === 'from_metadata')?.score]),
    );
    expect(scores).toMatchObject({ 'c-one': 5, 'c-two': 4, 'c-three': 5 });
  });

  it('fails the run through the exit code when a hard gate fails, with options set in a reporter module', async () => {
    const dir = makeProject(`${FIXTURE}-gate`, {}, FIXTURE);
    const result = await nodeTest(dir, ['tests/low.test.mjs'], './reporter.mjs');
    // Every test passed; the gate fails the run.
    expect(result.output).not.toMatch(/✖/);
    expect(result.output).not.toContain('ℹ tests'); // spec: false
    expect(result.output).toContain(
      'ai-eval: FAILED: no test failed; all 2 planned questions scored; 1 hard gate failed: run: average 2.50 over 2 of 2 scored is below the minimum 3.50',
    );
    expect(result.code).toBe(1);
    const junit = readFileSync(join(dir, 'reports/junit.xml'), 'utf8');
    expect(junit.match(/<testcase classname="low-bot" /g)).toHaveLength(2);
    expect(readFileSync(join(dir, 'reports/summary.md'), 'utf8')).toContain('| low-bot | chat | 2.50 |');
  });

  it('rejects options that are not JSON before any test runs', async () => {
    const dir = makeProject(`${FIXTURE}-bad`, {}, FIXTURE);
    const result = await nodeTest(dir, ['tests/cjs.test.cjs'], 'ai-eval/reporter/node', {
      AI_EVAL_REPORTER_OPTIONS: '{outputFile',
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('AI_EVAL_REPORTER_OPTIONS is not JSON');
  });

  it('lets a plain script on the standalone expect write records that ai-eval report reads', async () => {
    const dir = makeProject(`${FIXTURE}-script`, {}, FIXTURE);
    const channel = mkdtempSync(join(tmpdir(), 'ai-eval-script-channel-'));
    onTestFinished(() => rmSync(channel, { recursive: true, force: true }));
    const script = await runNode('script.mjs', [], dir, { AI_EVAL_CHANNEL_DIR: channel });
    expect(script.code, script.output).toBe(0);
    expect(script.stdout).toContain('failed as expected: expect(received).toPassGrader(grader)');
    const bin = join(packedDir(), 'dist', 'cli', 'bin.cjs');
    const report = await runNode(bin, ['report', channel, '-o', 'reports/script.json'], dir);
    expect(report.code, report.output).toBe(0);
    expect(report.output).toContain(
      'ai-eval: 1 target, 2 questions, average 2.50 over 2 of 2 scored, 50% passed',
    );
    // Gates come from an options file; a failed hard gate exits 1.
    writeFileSync(join(dir, 'gate.json'), JSON.stringify({ gate: { level: 'hard', minPassRate: 0.9 } }));
    const gated = await runNode(bin, ['report', channel, '--options', 'gate.json'], dir);
    expect(gated.output).toContain('1 hard gate failed: run: pass rate 50% is below the minimum 90%');
    expect(gated.code).toBe(1);
    const json = readReport(join(dir, 'reports/script.json'));
    expect(json.targets[0]!.questions.map((q) => [q.id, q.test])).toEqual([
      ['deletes', { file: 'script.mjs', name: 'script.mjs' }],
      ['lists', { file: 'script.mjs', name: 'script.mjs' }],
    ]);
  });

  it("holds a generated suite's records in the test process until the suite's after hook, then writes them all", async () => {
    const dir = makeProject(
      'node-test-held',
      heldSuiteFiles(
        'held.test.mjs',
        `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalSuite } from 'ai-eval/node';`,
      ),
    );
    const result = await nodeTest(dir, ['held.test.mjs'], 'ai-eval/reporter/node', {
      AI_EVAL_REPORTER_OPTIONS: JSON.stringify({ outputFile: 'ai-eval.json' }),
    });
    expect(result.code, result.output).toBe(0);
    expectHeldThenWritten(dir);
  });
});
