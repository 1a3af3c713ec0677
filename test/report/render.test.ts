import { stripVTControlCharacters } from 'node:util';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/report/collect.js';
import { gateSettings, type ReporterOptions } from '../../src/report/options.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { githubAnnotations, renderMarkdown } from '../../src/report/render-markdown.js';
import { renderTerminal, scoreBar } from '../../src/report/render-terminal.js';
import { FAQ, SUPPORT, fail, identity, rec } from '../helpers/report-fixtures.js';

const BLIND = { ...FAQ, name: 'blind-agent', mode: 'agent' as const };

const records: EvalRecord[] = [
  rec({ question: 'q1', grader: 'tool_usage_grader', score: 1, min: 0, max: 1 }),
  rec({ question: 'q1', grader: 'accuracy_judge', score: 4 }),
  rec({
    question: 'q2',
    grader: 'tool_usage_grader',
    score: 0,
    min: 0,
    max: 1,
    reason: 'list_nodes was never called',
  }),
  fail('q2', 'accuracy_judge', { reason: 'judge timed out after 3 attempts' }),
  rec({ question: 'a', grader: 'accuracy_judge', score: 3, target: BLIND, reason: 'two of three facts' }),
];

function build(options: ReporterOptions = {}) {
  return collect(records, { identity, settings: gateSettings(options) });
}

describe('renderTerminal', () => {
  it('prints the headline, the table, the weakest questions, advisories, gates and the verdict', () => {
    const report = build({
      gates: { 'support-bot': { level: 'hard', minAverage: 3 } },
      gate: { level: 'soft', minPassRate: 0.5 },
    });
    const lines = renderTerminal(report, { palette: pc.createColors(true) });
    expect(lines.join('\n')).toContain('\u001b['); // coloured when asked
    expect(lines.map((l) => stripVTControlCharacters(l))).toEqual([
      'ai-eval: 2 targets, 3 questions, average 2.50 over 3 of 3 scored, 33% passed, 1 error, 1 degraded',
      '',
      '  Target       Score                   Avg   Scored   Pass  Errors  Degraded',
      '  blind-agent  ████████████░░░░░░░░   3.00      1/1     0%       0         0',
      '  support-bot  █████████░░░░░░░░░░░   2.25      2/2    50%       1         1',
      '',
      // Only questions that did not pass: q1 passed, so it is not among the weakest.
      'Weakest questions',
      '  ✗ support-bot › q2  0.00 (degraded)',
      '      accuracy_judge: judge timed out after 3 attempts',
      '  ✗ blind-agent › a  3.00',
      '      accuracy_judge: two of three facts',
      '',
      'Advisories',
      '  ! NO_ACTION_OBSERVER  blind-agent is scored by nothing that can see what the agent did.',
      '',
      'Gates',
      '  ✗ FAIL hard  support-bot: average 2.25 over 2 of 2 scored is below the minimum 3.00',
      '  ✓ pass hard  support-bot: coverage 100% (2 of 2 planned questions scored) meets the minimum 100%',
      '  ! warn soft  run: pass rate 33% is below the minimum 50%',
      '  ✓ pass soft  run: coverage 100% (3 of 3 planned questions scored) meets the minimum 100%',
      '',
      'ai-eval: FAILED: all 3 planned questions scored; 1 hard gate failed: support-bot: average 2.25 over 2 of 2 scored is below the minimum 3.00',
    ]);
  });

  it('adds no colour codes with colours off, and limits the weakest list', () => {
    const lines = renderTerminal(build(), { palette: pc.createColors(false), weakest: 1 });
    expect(lines.join('\n')).not.toContain('\u001b[');
    expect(lines.filter((l) => l.startsWith('  ✗') || l.startsWith('  ✓'))).toEqual([
      '  ✗ support-bot › q2  0.00 (degraded)',
    ]);
    expect(lines.at(-1)).toBe('ai-eval: NO GATE: all 3 planned questions scored; no gate configured');
  });

  it('shows trials and says so when there are no records', () => {
    const trials = collect(
      [1, 2].map((trial) =>
        rec({ question: 'q1', grader: 'accuracy_judge', trial, score: trial === 1 ? 5 : 1 }),
      ),
      { identity, settings: gateSettings({}) },
    );
    const lines = renderTerminal(trials);
    expect(lines).toContain('               trials: pass@k 100%, pass^k 0%');
    expect(lines).toContain('      2 trials: mean 3.00 ± 2.00 (min 1.00, max 5.00), pass@2 yes, pass^2 no');
    const empty = renderTerminal(collect([], { identity, settings: gateSettings({}) }));
    expect(empty[1]).toBe('No eval records: no test in this run graded anything with ai-eval.');
  });

  it('draws the bar from the pass rate for a target scored by pass_rate', () => {
    const byRate = { ...FAQ, name: 'by-rate', scoreBy: 'pass_rate' as const };
    const report = collect(
      [
        rec({ question: 'q1', grader: 'accuracy_judge', target: byRate, score: 5 }),
        rec({ question: 'q2', grader: 'accuracy_judge', target: byRate, score: 3 }),
      ],
      { identity, settings: gateSettings({}) },
    );
    expect(report.targets[0]!.scoreBy).toBe('pass_rate');
    expect(renderTerminal(report)[3]).toBe(
      '  by-rate  ██████████░░░░░░░░░░   4.00      2/2    50%       0         0',
    );
  });

  it('draws a 20-cell bar', () => {
    expect(scoreBar(5)).toBe('█'.repeat(20));
    expect(scoreBar(null)).toBe('░'.repeat(20));
    expect(scoreBar(1.25)).toBe('█████░░░░░░░░░░░░░░░');
  });
});

describe('renderJunit', () => {
  it('writes one testcase per question with every grade as a property', () => {
    const xml = renderJunit(build());
    expect(xml).toContain('<testsuites name="ai-eval" tests="3" failures="1" errors="1"');
    expect(xml).toContain('<testsuite name="support-bot" tests="2" failures="0" errors="1"');
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain(
      '<testcase classname="support-bot" name="q1" file="/repo/test/support.test.ts" time="0">',
    );
    expect(xml).toContain('<property name="grade.tool_usage_grader" value="1 of 0-1, composite 5: ok"/>');
    expect(xml).toContain(
      '<property name="grade.accuracy_judge" value="error: judge timed out after 3 attempts"/>',
    );
    expect(xml).toContain('<error message="degraded: accuracy_judge errored" type="degraded">');
    expect(xml).toContain(
      '<failure message="composite 3.00 is below the threshold 3.50" type="below-threshold">accuracy_judge: two of three facts</failure>',
    );
    expect(xml).toContain(
      '<property name="advisory.NO_ACTION_OBSERVER" value="blind-agent is scored by nothing that can see what the agent did."/>',
    );
  });

  it('escapes XML in names and reasons', () => {
    const xml = renderJunit(
      collect([rec({ question: 'a<b>&"c"', grader: 'g', reason: 'x < y & \u0001z' })], {
        identity,
        settings: gateSettings({}),
      }),
    );
    expect(xml).toContain('name="a&lt;b&gt;&amp;&quot;c&quot;"');
    expect(xml).toContain('value="5 of 0-5, composite 5: x &lt; y &amp; z"');
  });
});

describe('renderMarkdown and annotations', () => {
  it('summarises targets, weakest questions, advisories and gates', () => {
    const md = renderMarkdown(build({ gate: { level: 'hard', minAverage: 4 } }), { weakest: 2 });
    const lines = md.split('\n');
    expect(lines.slice(0, 10)).toEqual([
      '## ai-eval',
      '',
      '❌ **Failed**: all 3 planned questions scored; 1 hard gate failed.',
      '',
      '2 targets, 3 questions, average 2.50 over 3 of 3 scored, 33% passed, 1 error, 1 degraded.',
      '',
      '| Target | Mode | Average | Scored | Pass rate | Questions | Errors | Degraded |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      '| blind-agent | agent | 3.00 | 1 of 1 | 0% | 1 | 0 | 0 |',
      '| support-bot | agent | 2.25 | 2 of 2 | 50% | 2 | 1 | 1 |',
    ]);
    expect(lines).toContain(
      '| support-bot | q2 | 0.00 | no | accuracy_judge: judge timed out after 3 attempts |',
    );
    expect(lines).toContain(
      '- **NO_ACTION_OBSERVER**: blind-agent is scored by nothing that can see what the agent did.',
    );
    expect(lines).toContain('- ❌ hard: run: average 2.50 over 3 of 3 scored is below the minimum 4.00');
  });

  it('turns advisories into ::warning and failed hard gates into ::error', () => {
    expect(githubAnnotations(build({ gate: { level: 'hard', minAverage: 4 } }))).toEqual([
      '::warning title=ai-eval NO_ACTION_OBSERVER::blind-agent is scored by nothing that can see what the agent did.',
      '::error title=ai-eval gate::run: average 2.50 over 3 of 3 scored is below the minimum 4.00',
    ]);
  });
});

describe('SUPPORT fixture', () => {
  it('is an agent target with an action-observing grader', () => {
    expect(SUPPORT.actionObserving).toEqual(['tool_usage_grader']);
  });
});
