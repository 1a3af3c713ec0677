import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalRecord } from '../../src/run/record-types.js';
import { ROOT } from '../helpers/paths.js';
import { runJestFixture, type JestRun } from '../helpers/jest-run.js';
import { makeProject, type RunResult } from '../helpers/project.js';

// The Vitest fixture's datasets, rubrics and agent, so both runners run the same suite.
const source = join(ROOT, 'fixtures', 'projects', 'state-vitest');
const read = (path: string) => readFileSync(join(source, path), 'utf8');
const files = {
  'agent.cjs': read('agent.cjs'),
  'datasets/store.yaml': read('datasets/store.yaml'),
  'datasets/rubrics/create_report.yaml': read('datasets/rubrics/create_report.yaml'),
  'datasets/rubrics/publish_node.yaml': read('datasets/rubrics/publish_node.yaml'),
};

let result: RunResult;
let tests: JestRun['tests'];
let records: EvalRecord[];
beforeAll(async () => {
  ({ result, tests, records } = await runJestFixture(makeProject('state-jest', files, 'state-jest'), []));
});

const grade = (test: string, grader: string): EvalRecord => {
  const found = records.find((r) => r.test.name === test && r.grader === grader);
  if (!found) throw new Error(`no ${grader} record for ${test}\n${result.output}`);
  return found;
};

describe('a suite with a rubric and a state grader in a real Jest run', () => {
  it('passes only the honest run', () => {
    expect(tests.map((t) => [t.fullName, t.status])).toEqual([
      ['store honest', 'passed'],
      ['store liar', 'failed'],
      ['store wrong-id', 'failed'],
      ['store failed-create', 'failed'],
      ['store seed-fails', 'failed'],
    ]);
    expect(result.code).toBe(1);
  });

  it('grades from the store and the rubric, per grade', () => {
    expect(grade('store honest', 'state_grader')).toMatchObject({ composite: 5, queriedState: true });
    expect(grade('store wrong-id', 'state_grader').reason).toBe(
      'FAIL published (node_status): node 1 is draft, expected published',
    );
    expect(grade('store honest', 'rubric_checks')).toMatchObject({
      composite: 5,
      observesActions: true,
      rubric: { id: 'create_report', version: '1.0.0' },
    });
    expect(grade('store liar', 'rubric_checks').reason).toContain(
      'FAIL stored (state): no node titled "Q3 report"',
    );
    expect(grade('store seed-fails', 'claims_grader')).toMatchObject({ error: true });
  });
});
