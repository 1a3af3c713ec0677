import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalRecord } from '../../src/run/record-types.js';
import { ROOT } from '../helpers/paths.js';
import { runJestFixture, type JestRun } from '../helpers/jest-run.js';
import { makeProject, type RunResult } from '../helpers/project.js';
import { recordFiles } from '../helpers/records.js';

const datasets = join(ROOT, 'fixtures', 'projects', 'evidence-vitest', 'datasets');
const datasetFiles = Object.fromEntries(
  readdirSync(datasets).map((name) => [`datasets/${name}`, readFileSync(join(datasets, name), 'utf8')]),
);

let result: RunResult;
let tests: JestRun['tests'];
let records: EvalRecord[];
beforeAll(async () => {
  ({ result, tests, records } = await runJestFixture(
    makeProject('evidence-jest', { ...datasetFiles, ...recordFiles() }, 'evidence-jest'),
    [],
  ));
});

const grade = (test: string, grader: string): EvalRecord => {
  const found = records.find((r) => r.test.name === test && r.grader === grader);
  if (!found) throw new Error(`no ${grader} record for ${test}\n${result.output}`);
  return found;
};

describe('evidence suites in a real Jest run', () => {
  it('passes and fails each question as its evidence says', () => {
    expect(tests.map((t) => [t.fullName, t.status])).toEqual([
      ['actions tau-partial', 'passed'],
      ['actions tau-critical', 'failed'],
      ['actions ticket-failed', 'failed'],
      ['actions ticket-ok', 'passed'],
      ['actions cancel-failed', 'failed'],
      ['actions liar', 'failed'],
      ['actions typo', 'failed'],
      ['read-only ui-delete', 'failed'],
      ['read-only tau-write', 'failed'],
      ['read-only tau-reads', 'passed'],
    ]);
  });

  it('fails a missed critical write with the reason in the test failure', () => {
    const failure = tests.find((t) => t.fullName === 'actions tau-critical')!.failureMessages[0];
    expect(failure).toContain('tau-critical: composite 0 is below the pass threshold 3.5');
    expect(failure).toContain(
      'critical expectation missed: expected_tools[11] (exchange_delivered_order_items',
    );
    expect(grade('actions tau-partial', 'tool_usage_grader').composite).toBeCloseTo(4.58, 2);
  });

  it('records the outcome-aware, catalog-aware grades', () => {
    expect(grade('actions ticket-failed', 'claims_grader')).toMatchObject({
      score: 0,
      observesActions: true,
    });
    expect(grade('actions ticket-ok', 'claims_grader')).toMatchObject({ score: 1 });
    expect(grade('actions cancel-failed', 'claims_grader').reason).toContain(
      'only failed call #3 cancel_pending_order',
    );
    expect(grade('actions liar', 'claims_grader').reason).toContain(`"I've deleted the old draft"`);
    expect(grade('actions typo', 'tool_usage_grader')).toMatchObject({
      error: true,
      reason: expect.stringContaining('(did you mean list_nodes?)'),
    });
    expect(grade('read-only tau-write', 'read_only_run').score).toBe(0);
    expect(grade('read-only ui-delete', 'read_only_run').score).toBe(0);
    expect(grade('read-only tau-reads', 'read_only_run').score).toBe(1);
  });
});
