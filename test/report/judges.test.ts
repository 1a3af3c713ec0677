import { describe, expect, it } from 'vitest';
import { collect } from '../../src/report/collect.js';
import { mergeReports } from '../../src/report/merge.js';
import type { JudgeTrustEntry, TrustFile } from '../../src/report/judge-trust.js';
import { gateSettings } from '../../src/report/options.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { renderTerminal } from '../../src/report/render-terminal.js';
import { roganGladen } from '../../src/internal/stats.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { FAQ, fail, identity, rec } from '../helpers/report-fixtures.js';
import { validateReport } from '../helpers/report-schema.js';

const HASH = 'abc123abc123';

function rate(count: number, of: number, low: number, high: number) {
  return { value: count / of, low, high, count, of };
}

/** A trust entry measured on HASH and test-judge: TPR 0.9 [0.8, 0.95], TNR 0.8 [0.7, 0.9]. */
function entry(state: 'trusted' | 'untrusted' = 'trusted'): JudgeTrustEntry {
  return {
    state,
    promptHash: HASH,
    model: 'test-judge',
    validatedAt: '2026-01-01T00:00:00.000Z',
    gold: { file: 'gold.yaml', hash: 'g' },
    minimums: { tpr: 0.8, tnr: 0.8, n: 30 },
    metrics: {
      n: 60,
      tp: 27,
      fn: 3,
      fp: 6,
      tn: 24,
      errors: 0,
      skipped: 0,
      tpr: rate(27, 30, 0.8, 0.95),
      tnr: rate(24, 30, 0.7, 0.9),
      agreement: rate(51, 60, 0.74, 0.92),
      kappa: 0.7,
      scored: 0,
      mae: null,
      spearman: null,
      qwk: null,
    },
  };
}

const judged = (question: string, score: number, extra: Partial<EvalRecord> = {}) =>
  rec({
    question,
    grader: 'accuracy_judge',
    llm: true,
    target: FAQ,
    score,
    promptHash: HASH,
    judgeModel: 'test-judge',
    ...extra,
  });

/** 10 questions: 7 the judge passed (score 5), 3 it failed (score 1). */
const records = [
  ...Array.from({ length: 7 }, (_, i) =>
    judged(`p${i}`, 5, { judgeCall: { source: i < 2 ? 'cache' : 'live', outcome: 'scored' } }),
  ),
  ...Array.from({ length: 3 }, (_, i) =>
    judged(`f${i}`, 1, { judgeCall: { source: 'live', outcome: 'scored' } }),
  ),
];

function report(
  list: readonly EvalRecord[],
  trust: TrustFile,
  gate?: Parameters<typeof gateSettings>[0]['gate'],
) {
  return collect(list, {
    identity: { ...identity, judgeModel: 'test-judge', promptHashes: { accuracy_judge: HASH } },
    settings: gateSettings(gate ? { gate } : {}),
    root: '/repo',
    trust: { file: 'ai-eval.judges.json', content: trust },
  });
}

describe('LLM judges in the report', () => {
  it('puts a trusted judge beside its scores with the Rogan-Gladen corrected pass rate and an interval', () => {
    const r = report(records, { version: 1, judges: { accuracy_judge: entry() } });
    expect(validateReport(r), JSON.stringify(validateReport.errors)).toBe(true);
    const [j] = r.targets[0]!.judges;
    expect(j).toMatchObject({ id: 'accuracy_judge', trust: 'trusted' });
    expect(j!.passRate.raw).toBeCloseTo(0.7, 10);
    // (0.7 + 0.8 - 1) / (0.9 + 0.8 - 1) = 5/7.
    expect(j!.passRate.corrected).toBeCloseTo(5 / 7, 10);
    expect(j!.passRate.corrected).toBeCloseTo(roganGladen(0.7, 0.9, 0.8)!, 10);
    expect(j!.passRate.low).toBeLessThan(5 / 7);
    expect(j!.passRate.high).toBeGreaterThan(5 / 7);
    expect(j!.health).toEqual({
      calls: 10,
      cacheHits: 2,
      errors: 0,
      refusals: 0,
      unparseable: 0,
      clamped: 0,
      errorRate: 0,
    });
    expect(r.judges[0]).toMatchObject({
      id: 'accuracy_judge',
      trust: 'trusted',
      promptHash: HASH,
      model: 'test-judge',
    });
    expect(r.judgesFile).toBe('ai-eval.judges.json');
    expect(r.advisories.map((a) => a.code)).not.toContain('UNTRUSTED_JUDGES');
    expect(renderTerminal(r).join('\n')).toMatch(
      /faq-bot › accuracy_judge {2}trusted {2}avg 3\.80 {2}pass 70% \(corrected 71%, \d+%-\d+%\)/,
    );
    expect(renderMarkdown(r)).toMatch(
      /\| faq-bot \| accuracy_judge \| trusted \| 3\.80 \| 70% \(corrected 71%, \d+%-\d+%\) \|/,
    );
    expect(renderJunit(r)).toContain(
      'name="judge.accuracy_judge" value="trusted; average 3.80; pass rate 70% (corrected 71%',
    );
  });

  it('gives no corrected rate for a judge that is not trusted, and advises on it', () => {
    for (const [trust, state] of [
      [{ version: 1, judges: {} }, 'unvalidated'],
      [{ version: 1, judges: { accuracy_judge: entry('untrusted') } }, 'untrusted'],
      [{ version: 1, judges: { accuracy_judge: { ...entry(), promptHash: 'other' } } }, 'stale'],
      [{ version: 1, judges: { accuracy_judge: { ...entry(), model: 'gpt-old' } } }, 'stale'],
    ] as const) {
      const r = report(records, trust);
      const [j] = r.targets[0]!.judges;
      expect(j!.trust).toBe(state);
      expect(j!.passRate).toMatchObject({ raw: 0.7, corrected: null, low: null, high: null });
      const advisory = r.advisories.find((a) => a.code === 'UNTRUSTED_JUDGES');
      expect(advisory?.message).toContain(`accuracy_judge (${state})`);
    }
  });

  it('gates on requireTrustedJudges: fails an unvalidated judge, passes a trusted one', () => {
    const gate = { level: 'hard' as const, requireTrustedJudges: true };
    const failing = report(records, { version: 1, judges: {} }, gate);
    const verdict = failing.gates.find((g) => g.message.includes('requireTrustedJudges'));
    expect(verdict).toMatchObject({ scope: 'run', passed: false });
    expect(verdict!.message).toBe('run: requireTrustedJudges, but accuracy_judge is unvalidated');
    expect(failing.verdict).toBe('failed');
    const passing = report(records, { version: 1, judges: { accuracy_judge: entry() } }, gate);
    expect(passing.gates.every((g) => g.passed)).toBe(true);
    expect(passing.verdict).toBe('passed');
  });

  it('counts judge health and gates on maxJudgeErrorRate', () => {
    const sick = [
      ...records.slice(0, 6),
      fail('e1', 'accuracy_judge', {
        llm: true,
        target: FAQ,
        judgeCall: { source: 'live', outcome: 'refused' },
      }),
      fail('e2', 'accuracy_judge', {
        llm: true,
        target: FAQ,
        judgeCall: { source: 'cache', outcome: 'unparseable' },
      }),
      fail('e3', 'accuracy_judge', { llm: true, target: FAQ, judgeCall: { outcome: 'failed' } }),
      judged('c1', 5, { judgeCall: { source: 'live', outcome: 'clamped' } }),
    ];
    const r = report(sick, { version: 1, judges: {} }, { level: 'hard', maxJudgeErrorRate: 0.2 });
    expect(r.judges[0]!.health).toEqual({
      calls: 10,
      cacheHits: 3,
      errors: 3,
      refusals: 1,
      unparseable: 1,
      clamped: 1,
      errorRate: 0.3,
    });
    const verdict = r.gates.find((g) => g.message.includes('judge error rate'));
    expect(verdict).toMatchObject({ passed: false, level: 'hard' });
    expect(verdict!.message).toBe('run: judge error rate accuracy_judge 30% (3 of 10) above the maximum 20%');
    const ok = report(sick, { version: 1, judges: {} }, { level: 'hard', maxJudgeErrorRate: 0.3 });
    expect(ok.gates.find((g) => g.message.includes('judge error rate'))?.passed).toBe(true);
    expect(renderTerminal(r).join('\n')).toContain(
      '10 calls, 3 cached, 3 errors (1 refusal, 1 unparseable), 1 clamped',
    );
  });

  it("keeps each judge's trust through ai-eval merge of shard reports", () => {
    const trust: TrustFile = { version: 1, judges: { accuracy_judge: entry() } };
    const shard = (list: readonly EvalRecord[], index: number) =>
      collect(list, {
        identity: { ...identity, judgeModel: 'test-judge', promptHashes: { accuracy_judge: HASH } },
        settings: gateSettings({}),
        root: '/repo',
        shard: { index, count: 2 },
        trust: { file: 'ai-eval.judges.json', content: trust },
      });
    const merged = mergeReports([shard(records.slice(0, 5), 1), shard(records.slice(5), 2)]);
    const [j] = merged.targets[0]!.judges;
    expect(j).toMatchObject({ trust: 'trusted', passRate: { raw: 0.7, passed: 7, scored: 10 } });
    expect(j!.passRate.corrected).toBeCloseTo(5 / 7, 10);
    expect(merged.judges[0]).toMatchObject({ id: 'accuracy_judge', trust: 'trusted', validated: { n: 60 } });
    expect(merged.judgesFile).toBe('ai-eval.judges.json');
  });
});
