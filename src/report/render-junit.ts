import { formatNumber } from '../internal/numbers.js';
import { fmt } from './gates.js';
import type { EvalReport, QuestionReport } from './model.js';
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
  return (
    text
      // eslint-disable-next-line no-control-regex -- the XML 1.0 character range names control characters
      .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}="${xmlEscape(String(v))}"`)
    .join(' ');
}

function testcase(target: string, q: QuestionReport): string[] {
  const lines = [`    <testcase ${attrs({ classname: target, name: q.id, file: q.test.file, time: 0 })}>`];
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
      ? 'unscored: every grader skipped'
      : `composite ${fmt(q.composite)} is below the threshold ${fmt(q.passThreshold)}`;
    lines.push(
      `      <failure ${attrs({ message, type: q.unscored ? 'unscored' : 'below-threshold' })}>${xmlEscape(why)}</failure>`,
    );
  }
  lines.push('    </testcase>');
  return lines;
}

/**
 * Renders the report as JUnit XML: one testsuite per target, one testcase per question, each grade
 * a property; a failing question is a `<failure>`, a degraded one an `<error>`.
 *
 * @example
 * ```ts
 * writeFileAtomic('ai-eval.junit.xml', renderJunit(report));
 * ```
 */
export function renderJunit(report: EvalReport): string {
  const failures = (qs: QuestionReport[]): number => qs.filter((q) => !q.passed && !q.degraded).length;
  const errors = (qs: QuestionReport[]): number => qs.filter((q) => q.degraded).length;
  const all = report.targets.flatMap((t) => t.questions);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attrs({ name: 'ai-eval', tests: all.length, failures: failures(all), errors: errors(all), timestamp: report.timestamp })}>`,
  ];
  for (const t of report.targets) {
    lines.push(
      `  <testsuite ${attrs({ name: t.name, tests: t.questions.length, failures: failures(t.questions), errors: errors(t.questions), skipped: 0, timestamp: report.timestamp })}>`,
    );
    lines.push('    <properties>');
    lines.push(`      <property ${attrs({ name: 'averageScore', value: fmt(t.averageScore) })}/>`);
    lines.push(
      `      <property ${attrs({ name: 'passRate', value: t.passRate === null ? '-' : String(t.passRate) })}/>`,
    );
    for (const a of t.advisories)
      lines.push(`      <property ${attrs({ name: `advisory.${a.code}`, value: a.message })}/>`);
    lines.push('    </properties>');
    for (const q of t.questions) lines.push(...testcase(t.name, q));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
