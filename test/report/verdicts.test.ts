import { describe, expect, it } from 'vitest';
import { isAiEvalError } from '../../src/errors.js';
import { collect } from '../../src/report/collect.js';
import type { EvalReport, RunIdentity } from '../../src/report/model.js';
import { mergeReports } from '../../src/report/merge.js';
import { gateSettings, type ReporterOptions } from '../../src/report/options.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { renderTerminal } from '../../src/report/render-terminal.js';
import { filterSkipRecord, loadFailureRecord } from '../../src/run/record.js';
import type { AiEvalRecord } from '../../src/run/record-types.js';
import { validateReport } from '../helpers/report-schema.js';
import { SUPPORT, fail, rec, skip } from '../helpers/report-fixtures.js';

const identity: RunIdentity = {
  timestamp: '2026-01-01T00:00:00.000Z',
  packageVersion: '0.0.0',
  nodeVersion: 'v20',
  judgeModel: null,
  judgeHash: null,
  promptHashes: {},
  datasetHashes: {},
};

function report(
  records: AiEvalRecord[],
  options: ReporterOptions = {},
  extra: { shard?: { index: number; count: number }; failedTests?: number } = {},
): EvalReport {
  const r = collect(records, { identity, settings: gateSettings(options), root: '/repo', ...extra });
  expect(validateReport(JSON.parse(JSON.stringify(r))), JSON.stringify(validateReport.errors)).toBe(true);
  return r;
}

const README_GATE: ReporterOptions = { gate: { level: 'hard', minAverage: 3.5 } };
const dataset = { ref: 'file:evals/support.yaml', hash: 'abc123abc123' };

/** Case 1: one question scored, five whose agent threw, timed out or returned nothing. */
const mostlyErrored: AiEvalRecord[] = [
  rec({ question: 'q1', grader: 'tool_usage_grader', score: 5, dataset }),
  ...['q2', 'q3', 'q4', 'q5', 'q6'].map((q) =>
    fail(q, 'tool_usage_grader', { reason: 'no response to grade: run() failed: agent threw', dataset }),
  ),
];

describe('case 1: a gate needs evidence', () => {
  it('fails the README hard gate when 5 of 6 questions errored, and says why', () => {
    const r = report(mostlyErrored, README_GATE);
    expect(r.coverage).toEqual({
      planned: 6,
      scored: 1,
      unscored: 0,
      errored: 5,
      degraded: 5,
      notLoaded: 0,
      share: 1 / 6,
    });
    // The average stays over the scored questions (an error is never a zero), beside its coverage.
    expect(r.averageScore).toBe(5);
    expect(r.gates.map((g) => [g.passed, g.message])).toEqual([
      [true, 'run: average 5.00 over 1 of 6 scored meets the minimum 3.50'],
      [false, 'run: coverage 17% (1 of 6 planned questions scored, 5 errored) is below the minimum 100%'],
    ]);
    expect(r).toMatchObject({ verdict: 'failed', passed: false });
    const lines = renderTerminal(r);
    expect(lines[0]).toBe(
      'ai-eval: 1 target, 6 questions, average 5.00 over 1 of 6 scored, 17% passed, 5 errors, 5 degraded',
    );
    expect(lines.at(-1)).toBe(
      'ai-eval: FAILED: 1 of 6 planned questions scored, 5 errored; 1 hard gate failed: run: coverage 17% (1 of 6 planned questions scored, 5 errored) is below the minimum 100%',
    );
    expect(renderMarkdown(r)).toContain(
      '❌ **Failed**: 1 of 6 planned questions scored, 5 errored; 1 hard gate failed.',
    );
    expect(renderJunit(r)).toContain(
      '<failure message="run: coverage 17% (1 of 6 planned questions scored, 5 errored) is below the minimum 100%" type="gate"/>',
    );
  });

  it('lets a gate ask for less coverage, and a coverage-only gate', () => {
    const lenient = report(mostlyErrored, { gate: { level: 'hard', minAverage: 3.5, minCoverage: 0.1 } });
    expect(lenient.gates.every((g) => g.passed)).toBe(true);
    // Passed gates, but not every planned question scored: not "passed".
    expect(lenient).toMatchObject({ verdict: 'incomplete', passed: false });
    const coverageOnly = report(mostlyErrored, { gate: { level: 'soft', minCoverage: 0.5 } });
    expect(coverageOnly.gates.map((g) => [g.level, g.passed])).toEqual([['soft', false]]);
  });

  it('counts a question every grader skipped as unscored, not errored', () => {
    const r = report([rec({ question: 'q1', grader: 'g' }), skip('q2', 'g')], README_GATE);
    expect(r.coverage).toMatchObject({ planned: 2, scored: 1, unscored: 1, errored: 0 });
    expect(r.gates.at(-1)?.message).toBe(
      'run: coverage 50% (1 of 2 planned questions scored, 1 unscored) is below the minimum 100%',
    );
  });
});

describe('case 2: a dataset that fails to load is in every report format', () => {
  const failure = loadFailureRecord(
    {
      test: { file: '/repo/test/bad.test.ts', name: 'bad > dataset file:evals/typo.yaml' },
      target: SUPPORT,
      suite: 'bad',
      ref: 'file:evals/typo.yaml',
    },
    ['file:evals/typo.yaml: evals/typo.yaml does not exist'],
  );
  const records: AiEvalRecord[] = [rec({ question: 'q1', grader: 'tool_usage_grader', dataset }), failure];

  it('counts it as planned and not loaded, and fails a hard gate by default', () => {
    const r = report(records, README_GATE);
    expect(r.coverage).toMatchObject({ planned: 2, scored: 1, notLoaded: 1, share: 0.5 });
    expect(r.questionCount).toBe(1);
    expect(r.targets[0]!.loadFailures).toEqual([
      {
        suite: 'bad',
        dataset: 'file:evals/typo.yaml',
        test: { file: 'test/bad.test.ts', name: 'bad > dataset file:evals/typo.yaml' },
        problems: ['file:evals/typo.yaml: evals/typo.yaml does not exist'],
      },
    ]);
    expect(r.gates.at(-1)).toMatchObject({
      passed: false,
      message:
        'run: coverage 50% (1 of 2 planned questions scored, 1 dataset not loaded) is below the minimum 100%',
    });
    expect(r.verdict).toBe('failed');
  });

  it('shows it in the terminal, Markdown and JUnit', () => {
    const r = report(records);
    expect(r.verdict).toBe('incomplete');
    const lines = renderTerminal(r);
    expect(lines).toContain('Datasets that did not load');
    expect(lines).toContain('  ✗ support-bot › bad: file:evals/typo.yaml (test/bad.test.ts)');
    expect(lines.at(-1)).toBe(
      'ai-eval: INCOMPLETE: 1 of 2 planned questions scored, 1 dataset not loaded; no gate configured',
    );
    const md = renderMarkdown(r);
    expect(md).toContain(
      '⚠️ **Incomplete**: 1 of 2 planned questions scored, 1 dataset not loaded; no gate configured.',
    );
    expect(md).toContain(
      '| support-bot | bad | file:evals/typo.yaml | test/bad.test.ts | file:evals/typo.yaml: evals/typo.yaml does not exist |',
    );
    const xml = renderJunit(r);
    expect(xml).toContain('<testsuite name="support-bot" tests="2" failures="0" errors="1"');
    expect(xml).toContain(
      '<testcase classname="support-bot" name="bad › dataset file:evals/typo.yaml" file="test/bad.test.ts" time="0">',
    );
    expect(xml).toContain(
      '<error message="dataset file:evals/typo.yaml did not load, so nothing was evaluated" type="load-failure">file:evals/typo.yaml: evals/typo.yaml does not exist</error>',
    );
    expect(xml).toContain('<property name="verdict" value="incomplete"/>');
    expect(xml).toContain('<property name="coverage.notLoaded" value="1"/>');
  });
});

describe('case 3: shards defer their gates, merge judges the whole run', () => {
  const options: ReporterOptions = { gate: { level: 'hard', minAverage: 4.5 } };
  const shard1 = [rec({ question: 'q1', grader: 'g', score: 4 })];
  const shard2 = [
    rec({ question: 'q2', grader: 'g', score: 5 }),
    rec({ question: 'q3', grader: 'g', score: 4.5 }),
  ];

  it('marks a shard partial and defers its failing hard gate', () => {
    const r = report(shard1, options, { shard: { index: 1, count: 2 } });
    expect(r).toMatchObject({
      verdict: 'partial',
      partial: { reason: 'shard', shard: { index: 1, count: 2 } },
    });
    expect(r.gates[0]).toMatchObject({ passed: false, deferred: true, level: 'hard' });
    const lines = renderTerminal(r);
    expect(lines[0]).toMatch(/^ai-eval \(partial\): 1 target, 1 question, average 4\.00 over 1 of 1 scored/);
    expect(lines).toContain(
      '  … defer hard  run: average 4.00 over 1 of 1 scored is below the minimum 4.50 (deferred to ai-eval merge)',
    );
    expect(lines.at(-1)).toBe(
      'ai-eval: PARTIAL: shard 1 of 2; the 1 planned question scored; 2 hard gate verdicts deferred to ai-eval merge',
    );
  });

  it('merges the shards and judges the gate on the merged data', () => {
    const a = report(shard1, options, { shard: { index: 1, count: 2 } });
    const b = report(shard2, options, { shard: { index: 2, count: 2 } });
    const merged = mergeReports([a, b]);
    expect(merged).toMatchObject({ partial: null, averageScore: 4.5, verdict: 'passed', passed: true });
    expect(merged.gates.map((g) => [g.passed, g.deferred ?? false])).toEqual([
      [true, false],
      [true, false],
    ]);
    const failing = mergeReports([
      a,
      report([rec({ question: 'q2', grader: 'g', score: 4 })], options, { shard: { index: 2, count: 2 } }),
    ]);
    expect(failing.verdict).toBe('failed');
  });

  it('refuses shards gated with different settings, and incomplete shard sets', () => {
    const a = report(shard1, options, { shard: { index: 1, count: 2 } });
    const other = report(
      shard2,
      { gate: { level: 'hard', minAverage: 3 } },
      { shard: { index: 2, count: 2 } },
    );
    const attempt = (reports: EvalReport[]) => () => mergeReports(reports, { names: ['a.json', 'b.json'] });
    expect(attempt([a, other])).toThrow(
      'b.json was gated with other settings than a.json (gate: {"level":"hard","minAverage":4.5} vs {"level":"hard","minAverage":3})',
    );
    try {
      attempt([a, other])();
    } catch (error) {
      expect(isAiEvalError(error, 'MERGE_MISMATCH')).toBe(true);
    }
    expect(attempt([a])).toThrow(/^shard 2 of 2 is missing\. Merge the reports of every shard/);
    expect(attempt([a, a])).toThrow('a.json and b.json are the same report (shard 1 of 2 of the run of');
    const twin = report(shard1, options, { shard: { index: 1, count: 2 } });
    twin.timestamp = '2026-01-02T00:00:00.000Z';
    expect(attempt([a, twin])).toThrow('a.json and b.json are both shard 1 of 2');
    expect(attempt([a, report(shard2, options)])).toThrow('b.json is a whole run, the others are shards');
  });
});

describe('case 4: one question is one question', () => {
  const good = rec({
    question: 'list-drafts',
    grader: 'tool_usage_grader',
    score: 5,
    test: { file: '/repo/test/a.test.ts', name: 'list-drafts' },
  });
  const bad = rec({
    question: 'list-drafts',
    grader: 'tool_usage_grader',
    score: 0,
    test: { file: '/repo/test/b.test.ts', name: 'list-drafts' },
  });

  it('keeps the same target and id from two test files apart and flags it', () => {
    const r = report([bad, good]);
    expect(r.targets[0]!.questions.map((q) => [q.id, q.test.file, q.composite])).toEqual([
      ['list-drafts', 'test/a.test.ts', 5],
      ['list-drafts', 'test/b.test.ts', 0],
    ]);
    expect(r.advisories).toEqual([
      {
        code: 'DUPLICATE_QUESTION',
        target: 'support-bot',
        message:
          'support-bot: question list-drafts comes from 2 test files (test/a.test.ts, test/b.test.ts); they are reported apart, never averaged. Give each its own question id or its own target.',
      },
    ]);
    expect(renderTerminal(r)).toContain('  ✗ support-bot › list-drafts [test/b.test.ts]  0.00');
    // Merged shards keep them apart too.
    const merged = mergeReports([report([good]), report([bad])]);
    expect(merged.targets[0]!.questions.map((q) => q.composite)).toEqual([5, 0]);
    expect(merged.advisories.map((a) => a.code)).toEqual(['DUPLICATE_QUESTION']);
  });

  it('still pools the trials and assertions of one question in one file', () => {
    const r = report([good, { ...good, trial: 2, score: 4, composite: 4 }]);
    expect(r.targets[0]!.questions).toHaveLength(1);
    expect(r.targets[0]!.questions[0]!.trials?.count).toBe(2);
  });
});

describe('case 5: negated assertions stand apart', () => {
  it('reports a .not grade with its own verdict, outside the average and pass rate', () => {
    const file = { file: '/repo/test/bare.test.ts', name: 'bare' };
    const r = report([
      rec({
        question: 'read only',
        grader: 'read_only_run',
        score: 1,
        max: 1,
        target: null,
        test: { ...file, name: 'read only' },
      }),
      rec({
        question: 'writes',
        grader: 'read_only_run',
        score: 0,
        max: 1,
        target: null,
        negated: true,
        test: { ...file, name: 'writes' },
      }),
    ]);
    const target = r.targets[0]!;
    expect(target).toMatchObject({ questionCount: 1, passRate: 1, averageScore: 5 });
    expect(target.negated).toMatchObject([
      { question: 'writes', grader: 'read_only_run', composite: 0, passed: true },
    ]);
    expect(renderTerminal(r)).toContain(
      '  ✓ test/bare.test.ts › writes  not read_only_run: 0.00 (threshold 3.50)',
    );
    expect(renderJunit(r)).toContain('name="writes › not read_only_run"');
  });
});

describe('case 6: headlines say what happened', () => {
  const records = [
    rec({ question: 'q1', grader: 'g', score: 5 }),
    rec({ question: 'q2', grader: 'g', score: 1 }),
  ];

  it('says no gate is configured instead of Passed', () => {
    const r = report(records);
    expect(r).toMatchObject({ verdict: 'ungated', passed: false });
    expect(renderMarkdown(r).split('\n')[2]).toBe(
      '➖ **No gate configured**: all 2 planned questions scored; no gate configured.',
    );
    const none = report([rec({ question: 'q1', grader: 'g', score: 0 })]);
    expect(renderMarkdown(none)).not.toContain('✅');
  });

  it('says Passed only when gates passed, every planned question scored and no test failed', () => {
    const gated = report(records, { gate: { level: 'hard', minAverage: 3 } }, { failedTests: 0 });
    expect(gated).toMatchObject({ verdict: 'passed', passed: true });
    expect(renderMarkdown(gated).split('\n')[2]).toBe(
      '✅ **Passed**: no test failed; all 2 planned questions scored; no hard gate failed.',
    );
    const testsFailed = report(records, { gate: { level: 'hard', minAverage: 3 } }, { failedTests: 2 });
    expect(testsFailed.verdict).toBe('failed');
    expect(renderTerminal(testsFailed).at(-1)).toBe(
      'ai-eval: FAILED: 2 tests failed; all 2 planned questions scored; no hard gate failed',
    );
  });

  it('lists only questions that did not pass among the weakest', () => {
    const r = report(records);
    expect(renderTerminal(r).filter((l) => /^ {2}[✓✗] /.test(l))).toEqual(['  ✗ support-bot › q2  1.00']);
    expect(renderMarkdown(report([rec({ question: 'q1', grader: 'g', score: 5 })]))).not.toContain('Weakest');
  });
});

describe('case 7: every graded agent run is covered or flagged', () => {
  const bare = (question: string, extra: Parameters<typeof rec>[0]) =>
    rec({ ...extra, question, target: null, test: { file: '/repo/test/bare.test.ts', name: question } });

  it('flags an untargeted agent run that nothing action-observing scored, naming it', () => {
    const r = report([
      bare('lists drafts', { question: '', grader: 'tone_judge', llm: true, toolCallRecord: true }),
      bare('plain text', { question: '', grader: 'tone_judge', llm: true, toolCallRecord: false }),
      bare('observed', { question: '', grader: 'read_only_run', observesActions: true, max: 1, score: 1 }),
    ]);
    expect(r.advisories.filter((a) => a.code !== 'UNTRUSTED_JUDGES')).toEqual([
      {
        code: 'NO_ACTION_OBSERVER',
        target: 'test/bare.test.ts',
        message:
          'test/bare.test.ts: 1 agent run graded without a target (lists drafts) was scored by nothing that can see what the agent did. Grade it with an action-observing grader too (read_only_run, tool_usage_grader), or give the assertion a target.',
      },
    ]);
  });
});

describe('case 8: the observesActions contract', () => {
  it('raises an advisory for unverified observer grades, naming the grader', () => {
    const r = report([
      rec({
        question: 'q1',
        grader: 'my_observer',
        observesActions: true,
        toolCallRecord: false,
        unverified: true,
      }),
      rec({ question: 'q2', grader: 'my_observer', observesActions: true }),
    ]);
    expect(r.advisories.map((a) => [a.code, a.message])).toEqual([
      [
        'UNVERIFIED_OBSERVER',
        'support-bot: my_observer declares observesActions but scored 1 question (q1) that had no tool-call record, without saying so (`no tool-call record available`), so it claimed evidence it did not have; those grades do not count as seeing what the agent did.',
      ],
    ]);
    expect(r.targets[0]!.questions[0]!.grades[0]!.unverified).toBe(true);
  });
});

describe('case 9: filters that select nothing', () => {
  const skipped = (suite: string) =>
    filterSkipRecord(
      {
        test: { file: `/repo/test/${suite}.test.ts`, name: `${suite} > dataset` },
        target: SUPPORT,
        suite,
        ref: `file:${suite}.yaml`,
      },
      { ids: ['list-drafts'] },
    );

  it('passes when one suite ran the selected question, fails when none did', () => {
    const some = report([rec({ question: 'list-drafts', grader: 'g', dataset }), skipped('billing')]);
    expect(some.gates).toEqual([]);
    expect(some.skippedByFilter).toEqual([
      {
        suite: 'billing',
        target: 'support-bot',
        dataset: 'file:billing.yaml',
        test: { file: 'test/billing.test.ts', name: 'billing > dataset' },
        filters: { ids: ['list-drafts'] },
      },
    ]);
    // A filter skip is not a planned question.
    expect(some.coverage.planned).toBe(1);
    const none = report([skipped('billing'), skipped('refunds')]);
    expect(none.gates).toEqual([
      {
        scope: 'filters',
        level: 'hard',
        passed: false,
        message:
          'filters: ids list-drafts selected no question in any suite (2 suites skipped); check AI_EVAL_IDS, AI_EVAL_TAGS and AI_EVAL_SPLIT',
      },
    ]);
    expect(none.verdict).toBe('failed');
    // A matcher's question is not a suite's: the filters still selected nothing.
    expect(report([skipped('billing'), rec({ question: 'bare', grader: 'g' })]).verdict).toBe('failed');
    // A shard defers it: the question may be in another shard.
    expect(report([skipped('billing')], {}, { shard: { index: 1, count: 2 } }).gates[0]!.deferred).toBe(true);
  });
});
