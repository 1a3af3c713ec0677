import { describe, expect, it } from 'vitest';
import { isAiEvalError } from '../../src/errors.js';
import { collect } from '../../src/report/collect.js';
import { mergeReports } from '../../src/report/merge.js';
import type { EvalReport } from '../../src/report/model.js';
import { gateSettings } from '../../src/report/options.js';
import type { AiEvalRecord } from '../../src/run/record-types.js';
import { identity, rec, skip } from '../helpers/report-fixtures.js';

const GATE = { gate: { level: 'hard' as const, minAverage: 3.5 } };

function report(
  records: AiEvalRecord[],
  extra: { shard?: { index: number; count: number }; timestamp?: string } = {},
): EvalReport {
  return collect(records, {
    identity: { ...identity, timestamp: extra.timestamp ?? identity.timestamp },
    settings: gateSettings(GATE),
    root: '/repo',
    ...(extra.shard ? { shard: extra.shard } : {}),
  });
}

/** The MERGE_MISMATCH message mergeReports throws for these reports (named a.json, b.json, ...). */
function refusal(reports: EvalReport[]): string {
  try {
    mergeReports(reports, { names: reports.map((_, i) => `${'abcdef'[i]}.json`) });
  } catch (error) {
    expect(isAiEvalError(error, 'MERGE_MISMATCH')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('mergeReports merged them');
}

const q1 = rec({ question: 'q1', grader: 'tool_usage_grader', score: 5 });
const q2 = rec({ question: 'q2', grader: 'tool_usage_grader', score: 2 });

describe('mergeReports refuses what is not the shards of one run', () => {
  it('refuses the same report given twice, whole or shard', () => {
    const whole = report([q1, q2]);
    expect(refusal([whole, structuredClone(whole)])).toBe(
      'a.json and b.json are the same report (the run of 2026-01-01T00:00:00.000Z) given twice. Give each report once: ai-eval merge combines the shards of one run (--shard=1/n to n/n).',
    );
    const shard = report([q1], { shard: { index: 1, count: 2 } });
    expect(refusal([shard, report([q2], { shard: { index: 2, count: 2 } }), shard])).toContain(
      'a.json and c.json are the same report (shard 1 of 2 of the run of 2026-01-01T00:00:00.000Z) given twice',
    );
  });

  it('refuses two whole runs that hold the same question, saying to use diff to compare them', () => {
    const scored = report([q1, q2], { timestamp: '2026-01-01T00:00:00.000Z' });
    // The second run's every grader skipped q1: merged, its run would vanish into the first one's score.
    const skipped = report([skip('q1', 'tool_usage_grader'), q2], { timestamp: '2026-01-02T00:00:00.000Z' });
    expect(refusal([scored, skipped])).toBe(
      'a.json and b.json are two whole runs (neither is a shard) that both hold support-bot › q1 (test/support.test.ts) and 1 more question: merged, the grades of both runs would be pooled into one question. ai-eval merge combines the shards of one run (--shard=1/n to n/n), each once; to compare two runs, use ai-eval diff a.json b.json.',
    );
  });

  it('still merges whole runs of different questions, and the shards of one run', () => {
    const merged = mergeReports([report([q1]), report([q2], { timestamp: '2026-01-02T00:00:00.000Z' })]);
    expect(merged.targets[0]?.questions.map((q) => q.id)).toEqual(['q1', 'q2']);
    const shards = mergeReports([
      report([q1], { shard: { index: 1, count: 2 } }),
      report([q2], { shard: { index: 2, count: 2 } }),
    ]);
    expect(shards).toMatchObject({ partial: null, questionCount: 2 });
  });

  it('says what is wrong with a shard set once, without the command name (the CLI adds it)', () => {
    const message = refusal([report([q1], { shard: { index: 1, count: 2 } })]);
    expect(message).toBe(
      'shard 2 of 2 is missing. Merge the reports of every shard of one run (--shard=1/n to n/n), each once.',
    );
  });
});
