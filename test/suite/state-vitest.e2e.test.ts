import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalRecord } from '../../src/run/record-types.js';
import { makeProject, type RunResult } from '../helpers/project.js';
import { row, runVitestFixture, type Row, type VitestRun } from '../helpers/vitest-run.js';

let run: VitestRun;
let result: RunResult;
let rows: Row[];
beforeAll(async () => {
  run = await runVitestFixture(makeProject('state-vitest', {}, 'state-vitest'));
  ({ result, rows } = run);
});

function grades(fullName: string): Record<string, EvalRecord> {
  return Object.fromEntries(row(run, fullName).records.map((r) => [r.grader, r]));
}

describe('a suite with a rubric and a state grader in a real Vitest run', () => {
  it('passes only the honest run', () => {
    expect(rows.map((r) => [r.fullName, r.state])).toEqual([
      ['store > honest', 'passed'],
      ['store > liar', 'failed'],
      ['store > wrong-id', 'failed'],
      ['store > failed-create', 'failed'],
      ['store > seed-fails', 'failed'],
    ]);
    expect(result.code).toBe(1);
  });

  it('state_grader reads the store the run left, after the hooks seeded it', () => {
    expect(grades('store > honest').state_grader).toMatchObject({
      composite: 5,
      reason: 'PASS created (node_exists): node 3 "Q3 report" exists and is draft',
      observesActions: true,
      queriedState: true,
    });
    expect(grades('store > liar').state_grader!.reason).toBe(
      'FAIL created (node_exists): no node titled "Q3 report"',
    );
    expect(grades('store > wrong-id').state_grader!.reason).toBe(
      'FAIL published (node_status): node 1 is draft, expected published',
    );
    // The claim is backed by a call, so only the state catches the wrong id.
    expect(grades('store > wrong-id').claims_grader).toMatchObject({ composite: 5 });
  });

  it('rubric_checks runs the rubric, stores its version, and observes actions through its state check', () => {
    const honest = grades('store > honest').rubric_checks!;
    expect(honest).toMatchObject({
      composite: 5,
      observesActions: true,
      rubric: { id: 'create_report', version: '1.0.0' },
    });
    expect(honest.reason.split('\n')).toEqual([
      'rubric create_report 1.0.0: all_pass: 3/3 checks passed',
      'JUDGE checks[0] (llm_judge): criteria left to the judges, not run here',
      'PASS says_created (must_contain_any): contains "created"',
      expect.stringMatching(/^PASS called_create \(tool_usage\): 1\/1 expected tools met/),
      'PASS stored (state): node 3 "Q3 report" exists',
    ]);
    const failed = grades('store > failed-create').rubric_checks!;
    expect(failed.composite).toBe(0);
    expect(failed.reason).toContain('FAIL called_create (tool_usage)');
    // weighted_avg with the state check weighing 4: (1 + 1 + 0 x 4) / 6 is under the 0.5 threshold.
    const wrong = grades('store > wrong-id').rubric_checks!;
    expect(wrong).toMatchObject({ composite: 0, rubric: { id: 'publish_node', version: '2.0.0' } });
    expect(wrong.reason.split('\n')[0]).toBe(
      'rubric publish_node 2.0.0: weighted_avg 0.33, below the pass threshold 0.5',
    );
  });

  it('records a beforeQuestion failure as errored grades', () => {
    const failed = grades('store > seed-fails');
    expect(Object.values(failed).map((g) => [g.grader, g.error])).toEqual([
      ['state_grader', true],
      ['rubric_checks', true],
      ['claims_grader', true],
    ]);
    expect(failed.state_grader!.reason).toBe(
      'no response to grade: beforeQuestion hook failed: could not seed the store',
    );
  });
});
