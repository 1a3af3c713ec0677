import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalRecord } from '../../src/run/record-types.js';
import { makeProject, type RunResult } from '../helpers/project.js';
import { row, runVitestFixture, type Row, type VitestRun } from '../helpers/vitest-run.js';
import { recordFiles } from '../helpers/records.js';

let run: VitestRun;
let result: RunResult;
let rows: Row[];
beforeAll(async () => {
  run = await runVitestFixture(makeProject('evidence-vitest', recordFiles(), 'evidence-vitest'));
  ({ result, rows } = run);
});

function grades(fullName: string): Record<string, EvalRecord> {
  return Object.fromEntries(row(run, fullName).records.map((r) => [r.grader, r]));
}

describe('evidence suites in a real Vitest run', () => {
  it('passes and fails each question as its evidence says', () => {
    expect(rows.map((r) => [r.fullName, r.state])).toEqual([
      ['actions > tau-partial', 'passed'],
      ['actions > tau-critical', 'failed'],
      ['actions > ticket-failed', 'failed'],
      ['actions > ticket-ok', 'passed'],
      ['actions > cancel-failed', 'failed'],
      ['actions > liar', 'failed'],
      ['actions > typo', 'failed'],
      ['read-only > ui-delete', 'failed'],
      ['read-only > tau-write', 'failed'],
      ['read-only > tau-reads', 'passed'],
    ]);
    expect(result.code).toBe(1);
  });

  it('tau-bench: partial credit passes, a missed critical write scores 0 and says so', () => {
    const partial = grades('actions > tau-partial');
    expect(partial.tool_usage_grader!.composite).toBeCloseTo(4.58, 2);
    expect(partial.claims_grader).toMatchObject({ skipped: true });
    const critical = grades('actions > tau-critical').tool_usage_grader!;
    expect(critical).toMatchObject({ score: 0, error: false, toolCallRecord: true });
    expect(critical.reason).toMatch(
      /^critical expectation missed: expected_tools\[11\] \(exchange_delivered_order_items with /,
    );
  });

  it('succeeded and claims_grader read the outcomes in the SDK records', () => {
    const failed = grades('actions > ticket-failed');
    expect(failed.tool_usage_grader).toMatchObject({ score: 0 });
    expect(failed.tool_usage_grader!.reason).toContain('none that succeeded (#1 failed)');
    expect(failed.claims_grader!.reason).toContain(
      `"I've created the ticket" (only failed call #1 create_ticket`,
    );
    const ok = grades('actions > ticket-ok');
    expect([ok.tool_usage_grader!.score, ok.claims_grader!.score]).toEqual([5, 1]);
    expect(grades('actions > cancel-failed').claims_grader).toMatchObject({
      score: 0,
      reason: expect.stringContaining(
        '"I have cancelled order #W1" (only failed call #3 cancel_pending_order',
      ),
    });
    expect(grades('actions > liar').claims_grader).toMatchObject({
      score: 0,
      reason: expect.stringContaining(
        `"I've deleted the old draft" (no call of delete + draft among 1 recorded call)`,
      ),
    });
  });

  it('the tool catalog names the tool a typo meant, and decides read_only_run', () => {
    expect(grades('actions > typo').tool_usage_grader).toMatchObject({
      error: true,
      reason: expect.stringContaining("'list_node' is not in the tool catalog (did you mean list_nodes?)"),
    });
    expect(grades('read-only > ui-delete').read_only_run!.reason).toContain(
      'mutating tools called: delete_node',
    );
    expect(grades('read-only > tau-write').read_only_run!.reason).toBe(
      'mutating tools called: exchange_delivered_order_items (from the agent tool-call record; read-only or not as the tool catalog declares: get_order_details, exchange_delivered_order_items)',
    );
    expect(grades('read-only > tau-reads').read_only_run!.score).toBe(1);
  });
});
