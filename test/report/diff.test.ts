import { describe, expect, it } from 'vitest';
import { diffReports, passUnits } from '../../src/report/diff.js';
import { collect } from '../../src/report/collect.js';
import { gateSettings } from '../../src/report/options.js';
import { disabledRecord, filterSkipRecord, loadFailureRecord } from '../../src/run/record.js';
import type { AiEvalRecord, EvalRecord } from '../../src/run/record-types.js';
import { fixtureReport } from '../helpers/html-fixtures.js';
import { FAQ, SUPPORT, identity, rec } from '../helpers/report-fixtures.js';

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
    // support-bot's p0 passed in base and is nowhere in head: it did not pass there.
    expect(result.regressions).toBe(1);
  });
});

const REF = 'file:evals/support.yaml';
const scope = (test: string) => ({
  test: { file: '/repo/test/support.test.ts', name: `support > ${test}` },
  target: SUPPORT,
  suite: 'support',
  ref: REF,
});
/** A passing (5) or failing (1) question of the support dataset, as a suite grades it. */
const question = (id: string, score = 5, hash = 'aaaaaaaaaaaa') =>
  rec({ question: id, grader: 'tool_usage_grader', score, dataset: { ref: REF, hash } });
/** A report of these records, with the dataset hashes a run takes from them. */
function reportOf(records: AiEvalRecord[]) {
  const datasetHashes: Record<string, string> = {};
  for (const r of records) if (r.kind === 'grade' && r.dataset) datasetHashes[r.dataset.ref] = r.dataset.hash;
  return collect(records, {
    identity: { ...identity, datasetHashes },
    settings: gateSettings({}),
    root: '/repo',
  });
}

describe('diffReports: questions that passed in base and are absent from head', () => {
  const base = reportOf([question('q1'), question('q2'), question('q3', 1)]);

  it("counts them as regressions when head's dataset did not load, and names the load failure", () => {
    const head = reportOf([
      loadFailureRecord(scope('dataset file:evals/support.yaml'), [
        `${REF}: evals/support.yaml does not exist`,
      ]),
    ]);
    expect(head.coverage.notLoaded).toBe(1);
    const result = diffReports(base, head);
    const support = result.targets[0]!;
    expect(support.status).toBe('compared');
    expect(support.regressed).toBe(true);
    expect(support.notLoaded).toEqual([
      expect.objectContaining({ dataset: REF, problems: [`${REF}: evals/support.yaml does not exist`] }),
    ]);
    expect(support.questions.map((q) => [q.id, q.change, q.absent?.reason, q.regression])).toEqual([
      ['q1', 'removed', 'not-loaded', true],
      ['q2', 'removed', 'not-loaded', true],
      ['q3', 'removed', 'not-loaded', false],
    ]);
    expect(result.regressions).toBe(1);
    expect(result.notLoaded.map((f) => [f.target, f.dataset])).toEqual([['support-bot', REF]]);
  });

  it('counts a head dataset that did not load as a regression even for a target new in head', () => {
    const faqFailure = loadFailureRecord(
      { ...scope('dataset faq'), target: FAQ, ref: 'file:evals/faq.yaml' },
      ['no such file'],
    );
    const result = diffReports(
      base,
      reportOf([question('q1'), question('q2'), question('q3', 1), faqFailure]),
    );
    expect(result.targets.map((t) => [t.name, t.status, t.regressed])).toEqual([
      ['faq-bot', 'new', true],
      ['support-bot', 'compared', false],
    ]);
    expect(result.regressions).toBe(1);
  });

  it('counts a whole target gone from head as a regression when a question of it passed', () => {
    const faq = rec({ question: 'hours', grader: 'accuracy_judge', target: FAQ });
    const result = diffReports(reportOf([question('q1'), faq]), reportOf([faq]));
    const support = result.targets.find((t) => t.name === 'support-bot')!;
    expect(support).toMatchObject({ status: 'removed', regressed: true });
    expect(support.questions).toEqual([
      expect.objectContaining({
        id: 'q1',
        change: 'removed',
        regression: true,
        absent: { reason: 'missing', dataset: REF, hashes: { base: 'aaaaaaaaaaaa', head: null } },
      }),
    ]);
    expect(result.regressions).toBe(1);
    // A removed target none of whose questions passed is no regression.
    const failing = diffReports(reportOf([question('q1', 1), faq]), reportOf([faq]));
    expect(failing.regressions).toBe(0);
  });

  it('counts a question missing from head as a regression while its dataset is unchanged (filtered, skipped, not run)', () => {
    const result = diffReports(base, reportOf([question('q1'), question('q3', 1)]));
    const q2 = result.targets[0]!.questions.find((q) => q.id === 'q2');
    expect(q2).toMatchObject({
      change: 'removed',
      regression: true,
      absent: { reason: 'missing', dataset: REF, hashes: { base: 'aaaaaaaaaaaa', head: 'aaaaaaaaaaaa' } },
    });
    expect(result.regressions).toBe(1);
  });

  it('counts a suite the filters skipped in head as a regression, naming the filters', () => {
    const head = reportOf([filterSkipRecord(scope('support'), { ids: ['other'] })]);
    const q1 = diffReports(base, head).targets[0]!.questions.find((q) => q.id === 'q1');
    expect(q1).toMatchObject({ regression: true, absent: { reason: 'filtered', dataset: REF } });
  });

  it('does not count a question taken out of a dataset that loaded in head with other content', () => {
    const head = reportOf([question('q1', 5, 'bbbbbbbbbbbb'), question('q3', 1, 'bbbbbbbbbbbb')]);
    const result = diffReports(base, head);
    const q2 = result.targets[0]!.questions.find((q) => q.id === 'q2');
    expect(q2).toMatchObject({
      change: 'removed',
      regression: false,
      absent: { reason: 'removed-from-dataset', dataset: REF },
    });
    expect(result.targets[0]!.regressed).toBe(false);
    expect(result.regressions).toBe(0);
  });

  it('does not count a question disabled in head', () => {
    const head = reportOf([
      question('q1', 5, 'bbbbbbbbbbbb'),
      question('q3', 1, 'bbbbbbbbbbbb'),
      disabledRecord(scope('q2'), 'q2'),
    ]);
    const q2 = diffReports(base, head).targets[0]!.questions.find((q) => q.id === 'q2');
    expect(q2).toMatchObject({ regression: false, absent: { reason: 'disabled', dataset: REF } });
  });
});
