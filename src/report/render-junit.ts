import { formatNumber } from '../internal/numbers.js';
import { failsRun, fmt } from './gates.js';
import { healthText, passRateText } from './judges.js';
import { verdictSentence } from './headline.js';
import type {
  DisabledQuestionReport,
  EvalReport,
  LoadFailureReport,
  NegatedReport,
  QuestionReport,
  TargetReport,
} from './model.js';
import { weakestGrade } from './render-terminal.js';

/**
 * Escapes text for an XML attribute or text node, dropping characters XML 1.0 forbids.
 *
 * @example
 * ```ts
 * xmlEscape('a < b'); // 'a &lt; b'
 * ```
 */
export function xmlEscape(text: string): string {
  // Most text has nothing to drop and nothing (or little) to escape: each pass runs only when needed.
  let out = text;
  if (MAY_DROP.test(out)) {
    // eslint-disable-next-line no-control-regex -- the XML 1.0 character range names control characters
    out = out.replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
  }
  const first = out.search(ESCAPED);
  if (first === -1) return out;
  // One pass from the first character to escape (five replaceAll passes cost five copies).
  let escaped = '';
  let from = 0;
  for (let i = first; i < out.length; i++) {
    let entity: string;
    switch (out.charCodeAt(i)) {
      case 38:
        entity = '&amp;';
        break;
      case 60:
        entity = '&lt;';
        break;
      case 62:
        entity = '&gt;';
        break;
      case 34:
        entity = '&quot;';
        break;
      case 39:
        entity = '&apos;';
        break;
      default:
        continue;
    }
    escaped += out.slice(from, i) + entity;
    from = i + 1;
  }
  return escaped + out.slice(from);
}

/** Characters XML 1.0 may forbid: controls, surrogates (a lone one is dropped), U+FFFE and U+FFFF. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const MAY_DROP = /[\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
const ESCAPED = /[&<>"']/;

function attrs(values: Record<string, string | number>): string {
  let out = '';
  for (const key in values) out += `${out === '' ? '' : ' '}${key}="${xmlEscape(String(values[key]))}"`;
  return out;
}

/** JUnit `time`: seconds, from the runner's measure of the test (0 when it gave none). */
function seconds(ms: number | undefined): string {
  return ms === undefined ? '0' : (ms / 1000).toFixed(3);
}

function testcase(target: string, q: QuestionReport): string[] {
  const lines = [
    `    <testcase ${attrs({ classname: target, name: q.id, file: q.test.file, time: seconds(q.durationMs) })}>`,
  ];
  lines.push('      <properties>');
  lines.push(`        <property ${attrs({ name: 'composite', value: fmt(q.composite) })}/>`);
  lines.push(`        <property ${attrs({ name: 'test', value: q.test.name })}/>`);
  for (const g of q.grades) {
    const trial = q.trials ? `#${g.trial}` : '';
    const state = g.error
      ? 'error'
      : g.skipped
        ? 'skipped'
        : `${formatNumber(g.score ?? 0)} of ${formatNumber(g.min)}-${formatNumber(g.max)}, composite ${formatNumber(g.composite ?? 0)}`;
    lines.push(
      `        <property ${attrs({ name: `grade.${g.grader}${trial}`, value: `${state}: ${g.reason}` })}/>`,
    );
  }
  lines.push('      </properties>');
  const worst = weakestGrade(q);
  const why = worst ? `${worst.grader}: ${worst.reason}` : 'no grades';
  if (q.degraded) {
    const errors = q.grades.filter((g) => g.error);
    lines.push(
      `      <error ${attrs({ message: `degraded: ${errors.map((g) => g.grader).join(', ')} errored`, type: 'degraded' })}>${xmlEscape(errors.map((g) => `${g.grader}: ${g.reason}`).join('\n'))}</error>`,
    );
  } else if (!q.passed) {
    const message = q.unscored
      ? 'unscored: every grader skipped, so nothing checked it'
      : `composite ${fmt(q.composite)} is below the threshold ${fmt(q.passThreshold)}`;
    lines.push(
      `      <failure ${attrs({ message, type: q.unscored ? 'unscored' : 'below-threshold' })}>${xmlEscape(why)}</failure>`,
    );
  }
  lines.push('    </testcase>');
  return lines;
}

function loadFailureCase(target: string, f: LoadFailureReport): string[] {
  const name = `${f.suite} › dataset ${f.dataset}`;
  return [
    `    <testcase ${attrs({ classname: target, name, file: f.test.file, time: 0 })}>`,
    `      <error ${attrs({ message: `dataset ${f.dataset} did not load, so nothing was evaluated`, type: 'load-failure' })}>${xmlEscape(f.problems.join('\n'))}</error>`,
    '    </testcase>',
  ];
}

function disabledCase(target: string, d: DisabledQuestionReport): string[] {
  return [
    `    <testcase ${attrs({ classname: target, name: d.question, file: d.test.file, time: 0 })}>`,
    `      <skipped ${attrs({ message: `disabled in dataset ${d.dataset}` })}/>`,
    '    </testcase>',
  ];
}

function negatedCase(target: string, n: NegatedReport): string[] {
  const name = `${n.question} › not ${n.grader}`;
  const lines = [`    <testcase ${attrs({ classname: target, name, file: n.test.file, time: 0 })}>`];
  lines.push('      <properties>');
  lines.push(`        <property ${attrs({ name: 'negated', value: 'true' })}/>`);
  lines.push(`        <property ${attrs({ name: 'composite', value: fmt(n.composite) })}/>`);
  lines.push('      </properties>');
  if (!n.passed) {
    const why = n.grades.map((g) => `${g.grader}: ${g.reason}`).join('\n');
    const message =
      n.composite === null
        ? `not ${n.grader}: the grader gave no verdict`
        : `not ${n.grader}: composite ${fmt(n.composite)} reaches the threshold ${fmt(n.passThreshold)}`;
    lines.push(`      <failure ${attrs({ message, type: 'negated' })}>${xmlEscape(why)}</failure>`);
  }
  lines.push('    </testcase>');
  return lines;
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function countsOf(t: TargetReport, disabled: number): Counts {
  return {
    skipped: disabled,
    tests: t.questions.length + t.loadFailures.length + t.negated.length + disabled,
    failures:
      t.questions.filter((q) => !q.passed && !q.degraded).length + t.negated.filter((n) => !n.passed).length,
    errors: t.questions.filter((q) => q.degraded).length + t.loadFailures.length,
  };
}

/** The run's verdict as a testsuite: its sentence and coverage as properties, each gate a testcase. */
function verdictSuite(report: EvalReport): { lines: string[]; counts: Counts } {
  const failures = report.gates.filter(failsRun).length;
  const lines = [
    `  <testsuite ${attrs({ name: 'ai-eval verdict', tests: report.gates.length, failures, errors: 0, skipped: 0, timestamp: report.timestamp })}>`,
    '    <properties>',
    `      <property ${attrs({ name: 'verdict', value: report.verdict })}/>`,
    `      <property ${attrs({ name: 'summary', value: verdictSentence(report) })}/>`,
    `      <property ${attrs({ name: 'failedTests', value: report.failedTests === null ? '-' : String(report.failedTests) })}/>`,
    `      <property ${attrs({ name: 'coverage.planned', value: report.coverage.planned })}/>`,
    `      <property ${attrs({ name: 'coverage.scored', value: report.coverage.scored })}/>`,
    `      <property ${attrs({ name: 'coverage.errored', value: report.coverage.errored })}/>`,
    `      <property ${attrs({ name: 'coverage.unscored', value: report.coverage.unscored })}/>`,
    `      <property ${attrs({ name: 'coverage.notLoaded', value: report.coverage.notLoaded })}/>`,
    '    </properties>',
  ];
  for (const g of report.gates) {
    lines.push(
      `    <testcase ${attrs({ classname: 'ai-eval.gates', name: `${g.level} ${g.scope}: ${g.message}`, time: 0 })}>`,
    );
    if (failsRun(g)) lines.push(`      <failure ${attrs({ message: g.message, type: 'gate' })}/>`);
    else if (!g.passed)
      lines.push(
        `      <system-out>${xmlEscape(g.deferred ? `deferred to ai-eval merge: ${g.message}` : `soft gate warned: ${g.message}`)}</system-out>`,
      );
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>');
  return { lines, counts: { tests: report.gates.length, failures, errors: 0, skipped: 0 } };
}

/**
 * Renders the report as JUnit XML: one testsuite per target with one testcase per question (each
 * grade a property; a failing question is a `<failure>`, a degraded one an `<error>`), each dataset
 * that did not load an errored testcase, each negated assertion a testcase of its own; then a
 * testsuite `ai-eval verdict` with the verdict, failed tests and coverage as properties and one
 * testcase per gate verdict (a failed hard gate is a `<failure>`).
 *
 * @example
 * ```ts
 * writeFileAtomic('ai-eval.junit.xml', renderJunit(report));
 * ```
 */
export function renderJunit(report: EvalReport): string {
  const body: string[] = [];
  const total: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const add = (c: Counts): void => {
    total.tests += c.tests;
    total.failures += c.failures;
    total.errors += c.errors;
    total.skipped += c.skipped;
  };
  const disabled = report.disabled ?? [];
  const disabledOf = (name: string): DisabledQuestionReport[] => disabled.filter((d) => d.target === name);
  for (const t of report.targets) {
    const off = disabledOf(t.name);
    const counts = countsOf(t, off.length);
    add(counts);
    body.push(
      `  <testsuite ${attrs({ name: t.name, tests: counts.tests, failures: counts.failures, errors: counts.errors, skipped: counts.skipped, timestamp: report.timestamp, time: seconds(t.questions.reduce((s, q) => s + (q.durationMs ?? 0), 0)) })}>`,
    );
    body.push('    <properties>');
    body.push(`      <property ${attrs({ name: 'averageScore', value: fmt(t.averageScore) })}/>`);
    body.push(
      `      <property ${attrs({ name: 'passRate', value: t.passRate === null ? '-' : String(t.passRate) })}/>`,
    );
    body.push(
      `      <property ${attrs({ name: 'coverage', value: `${t.coverage.scored} of ${t.coverage.planned} planned scored` })}/>`,
    );
    for (const a of t.advisories)
      body.push(`      <property ${attrs({ name: `advisory.${a.code}`, value: a.message })}/>`);
    for (const j of t.judges)
      body.push(
        `      <property ${attrs({ name: `judge.${j.id}`, value: `${j.trust}; average ${fmt(j.averageScore)}; pass rate ${passRateText(j.passRate)}; ${healthText(j.health)}` })}/>`,
      );
    body.push('    </properties>');
    // Each testcase's lines are joined at once: the body keeps one string per testcase, and the
    // many small line strings are garbage before they can age (a report of 30,000 questions made
    // a quarter of a million lines that all lived until the end).
    for (const q of t.questions) body.push(testcase(t.name, q).join('\n'));
    for (const f of t.loadFailures) body.push(loadFailureCase(t.name, f).join('\n'));
    for (const n of t.negated) body.push(negatedCase(t.name, n).join('\n'));
    for (const d of off) body.push(disabledCase(t.name, d).join('\n'));
    body.push('  </testsuite>');
  }
  // A target all of whose questions are disabled has no other testcase: its own testsuite.
  const known = new Set(report.targets.map((t) => t.name));
  for (const name of [...new Set(disabled.map((d) => d.target))].filter((n) => !known.has(n))) {
    const off = disabledOf(name);
    add({ tests: off.length, failures: 0, errors: 0, skipped: off.length });
    body.push(
      `  <testsuite ${attrs({ name, tests: off.length, failures: 0, errors: 0, skipped: off.length, timestamp: report.timestamp })}>`,
    );
    for (const d of off) body.push(disabledCase(name, d).join('\n'));
    body.push('  </testsuite>');
  }
  const verdict = verdictSuite(report);
  add(verdict.counts);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attrs({ name: 'ai-eval', tests: total.tests, failures: total.failures, errors: total.errors, skipped: total.skipped, timestamp: report.timestamp })}>`,
    ...body,
    ...verdict.lines,
    '</testsuites>',
    '',
  ].join('\n');
}
