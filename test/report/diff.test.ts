import { describe, expect, it } from 'vitest';
import { diffReports, passUnits } from '../../src/report/diff.js';
import { collect } from '../../src/report/collect.js';
import { gateSettings } from '../../src/report/options.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { fixtureReport } from '../helpers/html-fixtures.js';
import { identity, rec } from '../helpers/report-fixtures.js';

/** A report of `passing` passing and `failing` failing questions on one target. */
function run(passing: number, failing: number, extra: EvalRecord[] = []) {
  const records = [
    ...Array.from({ length: passing }, (_, i) =>
      rec({ question: `p${i}`, grader: 'tool_usage_grader', score: 5 }),
    ),
    ...Array.from({ length: failing }, (_, i) =>
      rec({ question: `f${i}`, grader: 'tool_usage_grader', score: 1 }),
    ),
    ...extra,
  ];
  return collect(records, { identity, settings: gateSettings({}) });
}

/** A report of one question per score, q0, q1, ... */
function scored(scores: number[]) {
  const records = scores.map((score, i) => rec({ question: `q${i}`, grader: 'tool_usage_grader', score }));
  return collect(records, { identity, settings: gateSettings({}) });
}

describe('diffReports', () => {
  it('lists per question the composite and verdict changes, new and removed questions', () => {
    const result = diffReports(fixtureReport('base'), fixtureReport('head'));
    const support = result.targets.find((t) => t.name === 'support-bot');
    const byId = Object.fromEntries(support?.questions.map((q) => [q.id, q]) ?? []);
    expect(byId['cancel-order']).toMatchObject({
      change: 'regressed',
      before: { composite: 4.5, passed: true },
      after: { composite: 1.5, passed: false },
      delta: -3,
    });
    expect(byId['new-question']?.change).toBe('new');
    expect(byId['old-question']?.change).toBe('removed');
    expect(byId['refund-order']?.change).toBe('same');
    const billing = result.targets.find((t) => t.name === 'billing-bot');
    expect(billing?.questions.find((q) => q.id === 'vat-number')).toMatchObject({
      change: 'changed',
      delta: -0.5,
    });
    expect(support?.regressed).toBe(true);
    expect(billing?.regressed).toBe(false);
    expect(result.regressions).toBe(1);
  });

  it('names the graders whose mean moved and the advisories that appeared or went away', () => {
    const result = diffReports(fixtureReport('base'), fixtureReport('head'));
    const support = result.targets.find((t) => t.name === 'support-bot');
    expect(support?.graders.map((g) => g.grader)).toEqual(['accuracy_grader', 'tool_usage_grader']);
    const blind = collect(
      [
        rec({
          question: 'q',
          grader: 'accuracy_judge',
          target: {
            name: 'support-bot',
            mode: 'agent',
            graders: ['accuracy_judge'],
            actionObserving: [],
            passThreshold: 3.5,
          },
        }),
      ],
      {
        identity,
        settings: gateSettings({}),
      },
    );
    const seeing = run(1, 0);
    const appeared = diffReports(seeing, blind).targets[0]?.advisories;
    expect(appeared?.appeared.map((a) => a.code)).toEqual(['NO_ACTION_OBSERVER']);
    expect(appeared?.gone).toEqual([]);
    expect(diffReports(blind, seeing).targets[0]?.advisories.gone.map((a) => a.code)).toEqual([
      'NO_ACTION_OBSERVER',
    ]);
  });

  it('says a pass-share change is beyond noise only when the interval excludes 0', () => {
    // 18 of 20 -> 8 of 20: Newcombe's interval on -0.5 lies wholly below 0.
    const big = diffReports(run(18, 2), run(8, 12)).targets[0];
    expect(big?.passRateDelta).toBeCloseTo(-0.5, 10);
    expect(big?.beyondNoise).toBe(true);
    expect(big?.passRateInterval?.high).toBeLessThan(0);
    // 3 of 4 -> 2 of 4 (q2 now fails): a drop on four questions is within noise...
    const small = diffReports(scored([5, 5, 5, 1]), scored([5, 5, 1, 1])).targets[0];
    expect(small?.beyondNoise).toBe(false);
    expect(small?.passRateInterval?.low).toBeLessThan(0);
    expect(small?.passRateInterval?.high).toBeGreaterThan(0);
    // ...and still a regression, because a question that passed no longer does.
    expect(small?.regressed).toBe(true);
  });

  it('counts each trial of a question that ran several as one unit of the pass share', () => {
    const head = fixtureReport('head');
    const support = head.targets.find((t) => t.name === 'support-bot');
    // 6 questions, one of them with 3 trials (2 of which pass): 5 + 3 units.
    expect(passUnits(support!)).toEqual({ passed: 5, units: 8 });
  });

  it('lists new and removed targets', () => {
    const other = collect(
      [
        rec({
          question: 'x',
          grader: 'g',
          target: { name: 'other', mode: 'chat', graders: ['g'], actionObserving: [], passThreshold: 3.5 },
        }),
      ],
      {
        identity,
        settings: gateSettings({}),
      },
    );
    const result = diffReports(run(1, 0), other);
    expect(result.targets.map((t) => [t.name, t.status])).toEqual([
      ['other', 'new'],
      ['support-bot', 'removed'],
    ]);
    expect(result.regressions).toBe(0);
  });
});
