import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/report/collect.js';
import type { EvalReport } from '../../src/report/model.js';
import { gateSettings } from '../../src/report/options.js';
import { loadFailureRecord } from '../../src/run/record.js';
import type { AiEvalRecord } from '../../src/run/record-types.js';
import { packedDir } from '../helpers/paths.js';
import { runNode, type RunResult } from '../helpers/project.js';
import { FAQ, SUPPORT, identity, rec } from '../helpers/report-fixtures.js';
import { scratch } from '../helpers/temp.js';

const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');
const diff = (args: string[], cwd: string): Promise<RunResult> =>
  runNode(bin(), ['diff', ...args], cwd, { NO_COLOR: '1' });

const REF = 'file:evals/support.yaml';
const GATE = { gate: { level: 'hard' as const, minAverage: 3.5 } };
const question = (id: string, hash = 'aaaaaaaaaaaa') =>
  rec({ question: id, grader: 'tool_usage_grader', score: 5, dataset: { ref: REF, hash } });
const faq = rec({ question: 'hours', grader: 'accuracy_judge', target: FAQ });

/** A report of these records, with the dataset hashes a run takes from them. */
function json(records: AiEvalRecord[]): string {
  const datasetHashes: Record<string, string> = {};
  for (const r of records) if (r.kind === 'grade' && r.dataset) datasetHashes[r.dataset.ref] = r.dataset.hash;
  const report = collect(records, {
    identity: { ...identity, datasetHashes },
    settings: gateSettings(GATE),
    root: '/repo',
  });
  return JSON.stringify(report, null, 2);
}

const notLoaded = loadFailureRecord(
  {
    test: { file: '/repo/test/support.test.ts', name: 'support > dataset file:evals/support.yaml' },
    target: SUPPORT,
    suite: 'support',
    ref: REF,
  },
  [`${REF}: evals/support.yaml does not exist`],
);

interface DiffJson {
  regressions: number;
  notLoaded: Array<{ target: string; dataset: string; problems: string[] }>;
  targets: Array<{
    name: string;
    status: string;
    regressed: boolean;
    questions: Array<{ id: string; change: string; regression: boolean; absent?: { reason: string } }>;
  }>;
}

describe('ai-eval diff: a question that passed in base and is not in head did not pass there', () => {
  it("fails --fail-on-regression when head's dataset did not load, naming the load failure", async () => {
    const dir = scratch({
      'base.json': json([question('q1'), question('q2'), faq]),
      'head.json': json([notLoaded, faq]),
    });
    const text = await diff(['base.json', 'head.json', '--fail-on-regression'], dir);
    expect(text.code, text.output).toBe(1);
    expect(text.stdout).toContain('support-bot  REGRESSED');
    expect(text.stdout).toContain(
      `  dataset not loaded in head: ${REF} (suite support): ${REF}: evals/support.yaml does not exist`,
    );
    expect(text.stdout).toContain(
      `    ! q1: removed (was 5.00 passed): its dataset ${REF} did not load in head  REGRESSED`,
    );
    expect(text.stdout).toContain('1 target(s) regressed; 1 dataset(s) did not load in head.');
    expect(text.stdout).not.toContain('No regression');

    const out = await diff(['base.json', 'head.json', '--json', '--fail-on-regression'], dir);
    expect(out.code, out.output).toBe(1);
    const parsed = JSON.parse(out.stdout) as DiffJson;
    expect(parsed.regressions).toBe(1);
    expect(parsed.notLoaded).toEqual([expect.objectContaining({ target: 'support-bot', dataset: REF })]);
    const support = parsed.targets.find((t) => t.name === 'support-bot');
    expect(support?.regressed).toBe(true);
    expect(support?.questions.map((q) => [q.id, q.regression, q.absent?.reason])).toEqual([
      ['q1', true, 'not-loaded'],
      ['q2', true, 'not-loaded'],
    ]);
  });

  it('fails --fail-on-regression when a whole target with passing questions is gone from head', async () => {
    const dir = scratch({
      'base.json': json([question('q1'), faq]),
      'head.json': json([faq]),
    });
    const text = await diff(['base.json', 'head.json', '--fail-on-regression'], dir);
    expect(text.code, text.output).toBe(1);
    expect(text.stdout).toContain('support-bot: removed (was average 5.00, pass rate 100%)  REGRESSED');
    expect(text.stdout).toContain(
      `    ! q1: removed (was 5.00 passed): not in head, nor anything of its dataset ${REF}  REGRESSED`,
    );
    expect(text.stdout).toContain('1 target(s) regressed.');
    const out = await diff(['base.json', 'head.json', '--json', '--fail-on-regression'], dir);
    expect(out.code).toBe(1);
    const parsed = JSON.parse(out.stdout) as DiffJson;
    expect(parsed.regressions).toBe(1);
    expect(parsed.targets.find((t) => t.name === 'support-bot')).toMatchObject({
      status: 'removed',
      regressed: true,
    });
  });

  it('does not fail on a question taken out of a dataset that loaded in head with other content', async () => {
    const dir = scratch({
      'base.json': json([question('q1'), question('q2'), faq]),
      'head.json': json([question('q1', 'bbbbbbbbbbbb'), faq]),
    });
    const text = await diff(['base.json', 'head.json', '--fail-on-regression'], dir);
    expect(text.code, text.output).toBe(0);
    expect(text.stdout).toContain(
      `    - q2: removed from the dataset (was 5.00 passed; ${REF} changed and no longer has it)`,
    );
    expect(text.stdout).toContain('No regression.');
    // The same dataset, unchanged: q2 should have run, and did not pass.
    const same = scratch({
      'base.json': json([question('q1'), question('q2'), faq]),
      'head.json': json([question('q1'), faq]),
    });
    const missing = await diff(['base.json', 'head.json', '--fail-on-regression'], same);
    expect(missing.code, missing.output).toBe(1);
    expect(missing.stdout).toContain(
      `    ! q2: removed (was 5.00 passed): not in head, though its dataset ${REF} is unchanged  REGRESSED`,
    );
  });
});

describe('ai-eval diff: reports it cannot read', () => {
  it('names the role of the file it cannot read: the base or the head', async () => {
    const dir = scratch({ 'base.json': json([question('q1')]) });
    const head = await diff(['base.json', 'nope.json'], dir);
    expect(head.code).toBe(2);
    expect(head.stderr).toMatch(/^ai-eval diff: .*nope\.json: cannot read the head report \(/);
    expect(head.stderr).not.toContain('baseline');
    const base = await diff(['nope.json', 'base.json'], dir);
    expect(base.code).toBe(2);
    expect(base.stderr).toMatch(/^ai-eval diff: .*nope\.json: cannot read the base report \(/);
  });

  it('refuses a report with a value of the wrong type, naming its JSON path (exit 2, no crash)', async () => {
    const bad = JSON.parse(json([question('q1')])) as EvalReport;
    (bad.targets[0]!.questions[0] as unknown as { composite: string }).composite = '5';
    const dir = scratch({ 'base.json': json([question('q1')]), 'bad.json': JSON.stringify(bad) });
    const result = await diff(['base.json', 'bad.json'], dir);
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toContain(
      'bad.json at $.targets[0].questions[0].composite: expected a number or null, got "5"',
    );
    expect(result.stderr).not.toContain('toFixed');
    expect(result.stdout).toBe('');
  });
});
