import { describe, expect, it } from 'vitest';
import { collect } from '../../src/report/collect.js';
import { gateSettings } from '../../src/report/options.js';
import type { ReporterOptions } from '../../src/report/options.js';
import { mergeReports } from '../../src/report/merge.js';
import type { EvalRecord, RecordTarget } from '../../src/run/record-types.js';
import { FAQ, SUPPORT, fail, identity, rec, skip } from '../helpers/report-fixtures.js';

function report(records: EvalRecord[], options: ReporterOptions = {}) {
  return collect(records, { identity, settings: gateSettings(options) });
}

const BLIND = { ...SUPPORT, name: 'blind-agent', graders: ['accuracy_judge'], actionObserving: [] };

describe('advisories', () => {
  it('warns about an agent-mode target that no action-observing grader scores', () => {
    const r = report([rec({ question: 'q1', grader: 'accuracy_judge', target: BLIND })]);
    expect(r.advisories).toEqual([
      {
        code: 'NO_ACTION_OBSERVER',
        target: 'blind-agent',
        message: 'blind-agent is scored by nothing that can see what the agent did.',
      },
    ]);
    expect(r.targets[0]!.advisories).toEqual(r.advisories);
  });

  it('says nothing for a chat target or an agent with an action-observing grader', () => {
    const r = report([
      rec({ question: 'q1', grader: 'accuracy_judge', target: FAQ }),
      rec({ question: 'q1', grader: 'tool_usage_grader' }),
    ]);
    expect(r.advisories).toEqual([]);
  });

  it('raises the fallback-marker advisory once per grader, naming the questions', () => {
    const reason = 'list_nodes mentioned in the response (no tool-call record available)';
    const r = report([
      rec({ question: 'q1', grader: 'tool_usage_grader', reason, toolCallRecord: false }),
      rec({ question: 'q2', grader: 'tool_usage_grader', reason, toolCallRecord: false }),
      rec({ question: 'q3', grader: 'tool_usage_grader' }),
    ]);
    expect(r.advisories).toEqual([
      {
        code: 'NO_TOOL_CALL_RECORD',
        target: 'support-bot',
        message:
          'support-bot: tool_usage_grader had no tool-call record available for 2 questions (q1, q2), so it could not see what the agent did.',
      },
    ]);
  });

  it('warns about a grader every grade of which was skipped', () => {
    const r = report([
      rec({ question: 'q1', grader: 'tool_usage_grader' }),
      skip('q1', 'accuracy_judge'),
      skip('q2', 'accuracy_judge'),
      rec({ question: 'q2', grader: 'tool_usage_grader' }),
    ]);
    expect(r.advisories.map((a) => a.message)).toEqual([
      'support-bot: every grade of accuracy_judge was skipped (2 grades), so it scored nothing.',
    ]);
  });
});

describe('targets named by several matchers', () => {
  const FORMAT: RecordTarget = {
    name: 'shared-bot',
    mode: 'chat',
    graders: ['format_grader'],
    actionObserving: [],
    passThreshold: 3.5,
  };
  const TOOLS: RecordTarget = {
    name: 'shared-bot',
    mode: 'agent',
    graders: ['tool_usage_grader'],
    actionObserving: ['tool_usage_grader'],
    passThreshold: 4,
  };
  const both = [
    rec({ question: 'q1', grader: 'format_grader', target: FORMAT }),
    rec({ question: 'q2', grader: 'tool_usage_grader', target: TOOLS }),
  ];

  it('unions graders and action-observing graders over every record of the target', () => {
    for (const records of [both, [...both].reverse()]) {
      const r = report(records);
      expect(r.advisories).toEqual([]);
      expect(r.targets).toHaveLength(1);
      expect(r.targets[0]).toMatchObject({
        name: 'shared-bot',
        mode: 'agent',
        graders: ['format_grader', 'tool_usage_grader'],
        actionObserving: ['tool_usage_grader'],
      });
    }
  });

  it('still warns when no matcher of the target observes actions', () => {
    const blind = { ...TOOLS, graders: ['accuracy_judge'], actionObserving: [] };
    const r = report([both[0]!, rec({ question: 'q2', grader: 'accuracy_judge', target: blind })]);
    expect(r.advisories.map((a) => a.code)).toEqual(['NO_ACTION_OBSERVER']);
    expect(r.targets[0]!.graders).toEqual(['accuracy_judge', 'format_grader']);
  });

  it('unions them over shard reports too', () => {
    const merged = mergeReports([report([both[0]!]), report([both[1]!])]);
    expect(merged.advisories).toEqual([]);
    expect(merged.targets[0]).toMatchObject({
      mode: 'agent',
      graders: ['format_grader', 'tool_usage_grader'],
      actionObserving: ['tool_usage_grader'],
    });
  });
});

describe('gates', () => {
  const records = [
    rec({ question: 'q1', grader: 'tool_usage_grader', score: 5 }),
    rec({ question: 'q2', grader: 'tool_usage_grader', score: 2 }),
  ];

  it('fails a hard target gate below minAverage, with the reason', () => {
    const gated = records.map((r) => ({
      ...r,
      target: { ...SUPPORT, gate: { level: 'hard' as const, minAverage: 4 } },
    }));
    const r = report(gated);
    expect(r.gates).toEqual([
      {
        scope: 'support-bot',
        level: 'hard',
        passed: false,
        message: 'support-bot: average 3.50 over 2 of 2 scored is below the minimum 4.00',
      },
      {
        scope: 'support-bot',
        level: 'hard',
        passed: true,
        message: 'support-bot: coverage 100% (2 of 2 planned questions scored) meets the minimum 100%',
      },
    ]);
    expect(r.passed).toBe(false);
  });

  it('only warns for a soft gate and passes one that is met', () => {
    const r = report(records, {
      gates: { 'support-bot': { level: 'soft', minPassRate: 0.75 } },
      gate: { level: 'hard', minAverage: 3.5 },
    });
    expect(r.gates).toEqual([
      {
        scope: 'support-bot',
        level: 'soft',
        passed: false,
        message: 'support-bot: pass rate 50% is below the minimum 75%',
      },
      {
        scope: 'support-bot',
        level: 'soft',
        passed: true,
        message: 'support-bot: coverage 100% (2 of 2 planned questions scored) meets the minimum 100%',
      },
      {
        scope: 'run',
        level: 'hard',
        passed: true,
        message: 'run: average 3.50 over 2 of 2 scored meets the minimum 3.50',
      },
      {
        scope: 'run',
        level: 'hard',
        passed: true,
        message: 'run: coverage 100% (2 of 2 planned questions scored) meets the minimum 100%',
      },
    ]);
    expect(r.passed).toBe(true);
    expect(r.verdict).toBe('passed');
  });

  it('an options gate for a target wins over the gate the target declares', () => {
    const gated = records.map((r) => ({
      ...r,
      target: { ...SUPPORT, gate: { level: 'hard' as const, minAverage: 4.5 } },
    }));
    const r = report(gated, { gates: { 'support-bot': { level: 'hard', minAverage: 3 } } });
    expect(r.passed).toBe(true);
  });

  it('fails on any advisory with failOnAdvisory and on any error with failOnError', () => {
    const r = report(
      [
        rec({ question: 'q1', grader: 'accuracy_judge', target: BLIND }),
        fail('q1', 'other', { target: BLIND }),
      ],
      { failOnAdvisory: true, failOnError: true },
    );
    expect(r.gates).toEqual([
      { scope: 'advisories', level: 'hard', passed: false, message: '1 advisory and failOnAdvisory is set' },
      { scope: 'errors', level: 'hard', passed: false, message: '1 grader error and failOnError is set' },
    ]);
    expect(r.errorCount).toBe(1);
    expect(r.passed).toBe(false);
  });

  it('fails a gate on a run with no records instead of passing it quietly', () => {
    const r = report([], { gate: { level: 'hard', minPassRate: 0 } });
    expect(r.gates).toEqual([
      {
        scope: 'run',
        level: 'hard',
        passed: false,
        message: 'run: no questions, so no pass rate can meet the minimum 0%',
      },
      {
        scope: 'run',
        level: 'hard',
        passed: false,
        message: 'run: nothing was planned, so no coverage can meet the minimum 100%',
      },
    ]);
    expect(r.passed).toBe(false);
  });

  it('fails a target gate that names no target in the run, at its level', () => {
    const r = report(records, {
      gates: { bott: { level: 'hard', minAverage: 4 }, 'faq-bott': { level: 'soft', minPassRate: 0.5 } },
    });
    expect(r.gates).toEqual([
      {
        scope: 'bott',
        level: 'hard',
        passed: false,
        message: "bott: no target named 'bott' in this run; targets: support-bot",
      },
      {
        scope: 'faq-bott',
        level: 'soft',
        passed: false,
        message: "faq-bott: no target named 'faq-bott' in this run; targets: support-bot",
      },
    ]);
    expect(r.passed).toBe(false);
    expect(report([], { gates: { bott: { level: 'hard', minAverage: 4 } } }).gates[0]!.message).toBe(
      "bott: no target named 'bott' in this run; targets: none",
    );
  });

  it('defers a gated target missing from one shard of several to the merge', () => {
    const settings = gateSettings({ gates: { 'faq-bot': { level: 'hard', minAverage: 4 } } });
    const shard = collect(records, { identity, settings, shard: { index: 1, count: 2 } });
    expect(shard.gates).toEqual([
      {
        scope: 'faq-bot',
        level: 'hard',
        passed: false,
        deferred: true,
        message:
          "faq-bot: no target named 'faq-bot' in this shard (ai-eval merge checks the whole run); targets: support-bot",
      },
    ]);
    expect(shard).toMatchObject({
      verdict: 'partial',
      passed: false,
      partial: { shard: { index: 1, count: 2 } },
    });
    const faq = collect([rec({ question: 'f1', grader: 'accuracy_judge', target: FAQ, score: 3 })], {
      identity,
      settings,
      shard: { index: 2, count: 2 },
    });
    const merged = mergeReports([shard, faq]);
    expect(merged.gates).toEqual([
      {
        scope: 'faq-bot',
        level: 'hard',
        passed: false,
        message: 'faq-bot: average 3.00 over 1 of 1 scored is below the minimum 4.00',
      },
      {
        scope: 'faq-bot',
        level: 'hard',
        passed: true,
        message: 'faq-bot: coverage 100% (1 of 1 planned question scored) meets the minimum 100%',
      },
    ]);
    expect(merged).toMatchObject({ partial: null, verdict: 'failed' });
  });

  it('counts the errored grade of a negated assertion as a grader error, which failOnError fails', () => {
    // `.not.toPassGrader` on a grade that errored fails its test, but its error went uncounted:
    // "0 errors" and a passed errors gate beside it.
    const r = report(
      [rec({ question: 'q1', grader: 'accuracy_judge' }), fail('q2', 'read_only_run', { negated: true })],
      { failOnError: true },
    );
    expect(r.errorCount).toBe(1);
    expect(r.gates).toContainEqual({
      scope: 'errors',
      level: 'hard',
      passed: false,
      message: '1 grader error and failOnError is set',
    });
  });

  it('passes failOnError when nothing errored', () => {
    expect(report(records, { failOnError: true }).passed).toBe(true);
  });
});
