import { healthText, passRateText } from './judges.js';
import { fmt, pct, signed } from './gates.js';
import { figuresLine, verdictSentence, weakestQuestions } from './headline.js';
import type { EvalReport, RunVerdict } from './model.js';
import { oneLine, weakestGrade } from './render-terminal.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

const BADGES: Record<RunVerdict, string> = {
  passed: '✅ **Passed**',
  failed: '❌ **Failed**',
  incomplete: '⚠️ **Incomplete**',
  ungated: '➖ **No gate configured**',
  partial: '🧩 **Partial**',
};

/** The sections about suites: datasets that did not load, negated assertions, filter skips. */
function suiteSections(report: EvalReport): string[] {
  const out: string[] = [];
  const failures = report.targets.flatMap((t) => t.loadFailures.map((f) => ({ target: t.name, f })));
  if (failures.length) {
    out.push('', '### Datasets that did not load', '', '| Target | Suite | Dataset | Test file | Problems |');
    out.push('| --- | --- | --- | --- | --- |');
    for (const { target, f } of failures)
      out.push(
        `| ${cell(target)} | ${cell(f.suite)} | ${cell(f.dataset)} | ${cell(f.test.file)} | ${cell(oneLine(f.problems.join(' / '), 300))} |`,
      );
  }
  const negated = report.targets.flatMap((t) => t.negated.map((n) => ({ target: t.name, n })));
  if (negated.length) {
    out.push(
      '',
      '### Negated assertions',
      '',
      'Outside the averages and pass rates: each passes when its grader did not.',
      '',
    );
    out.push('| Target | Question | Grader | Composite | Passed |', '| --- | --- | --- | ---: | --- |');
    for (const { target, n } of negated)
      out.push(
        `| ${cell(target)} | ${cell(n.question)} | not ${cell(n.grader)} | ${fmt(n.composite)} | ${n.passed ? 'yes' : 'no'} |`,
      );
  }
  if (report.skippedByFilter.length)
    out.push(
      '',
      `Skipped by the filters (no question selected): ${report.skippedByFilter.map((s) => cell(s.suite)).join(', ')}.`,
    );
  return out;
}

/**
 * Renders the report as a Markdown summary (for `markdownFile` and `$GITHUB_STEP_SUMMARY`): the
 * verdict (failed tests, coverage, gates), the figures, a table of targets, the questions that did
 * not pass, datasets that did not load, negated assertions, advisories, baseline changes and gates.
 *
 * @example
 * ```ts
 * appendFileSync(process.env.GITHUB_STEP_SUMMARY, renderMarkdown(report, { weakest: 5 }));
 * ```
 */
export function renderMarkdown(report: EvalReport, options: { weakest?: number } = {}): string {
  const sentence = verdictSentence(report, false).replace(/^[A-Z ]+: /, '');
  const out: string[] = [
    '## ai-eval',
    '',
    `${BADGES[report.verdict]}: ${cell(sentence)}.`,
    '',
    `${figuresLine(report)}.`,
    '',
    '| Target | Mode | Average | Scored | Pass rate | Questions | Errors | Degraded |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const t of report.targets)
    out.push(
      `| ${cell(t.name)} | ${t.mode ?? '-'} | ${fmt(t.averageScore)} | ${t.coverage.scored} of ${t.coverage.planned} | ${pct(t.passRate)} | ${t.questionCount} | ${t.errorCount} | ${t.degradedCount} |`,
    );
  const weakest = weakestQuestions(report, options.weakest ?? 5);
  if (weakest.length) {
    out.push(
      '',
      '### Weakest questions',
      '',
      '| Target | Question | Composite | Passed | Why |',
      '| --- | --- | ---: | --- | --- |',
    );
    for (const { target, question } of weakest) {
      const g = weakestGrade(question);
      out.push(
        `| ${cell(target.name)} | ${cell(question.id)} | ${fmt(question.composite)} | ${question.passed ? 'yes' : 'no'} | ${g ? cell(`${g.grader}: ${oneLine(g.reason, 200)}`) : ''} |`,
      );
    }
  }
  out.push(...suiteSections(report));
  const judged = report.targets.flatMap((t) => t.judges.map((j) => ({ target: t.name, j })));
  if (judged.length) {
    out.push(
      '',
      '### LLM judges',
      '',
      '| Target | Judge | Trust | Average | Pass rate (corrected when trusted) | Health |',
      '| --- | --- | --- | ---: | --- | --- |',
    );
    for (const { target, j } of judged)
      out.push(
        `| ${cell(target)} | ${cell(j.id)} | ${j.trust} | ${fmt(j.averageScore)} | ${passRateText(j.passRate)} | ${healthText(j.health)} |`,
      );
  }
  if (report.advisories.length) {
    out.push('', '### Advisories', '');
    for (const a of report.advisories) out.push(`- **${a.code}**: ${cell(a.message)}`);
  }
  if (report.baseline) {
    out.push('', `### Against baseline \`${report.baseline.file}\``, '');
    if (!report.baseline.changes.length) out.push('No changes.');
    for (const ch of report.baseline.changes) {
      const what = ch.question === undefined ? ch.target : `${ch.target} › ${ch.question}`;
      out.push(
        `- ${ch.kind} ${cell(what)}: ${fmt(ch.before)} → ${fmt(ch.after)}${ch.delta === null ? '' : ` (${signed(ch.delta)})`}`,
      );
    }
  }
  if (report.gates.length) {
    out.push('', '### Gates', '');
    for (const g of report.gates) {
      const mark = g.passed ? '✅' : g.deferred ? '⏸️' : g.level === 'hard' ? '❌' : '⚠️';
      out.push(
        `- ${mark} ${g.level}: ${cell(g.message)}${g.deferred && !g.passed ? ' (deferred to ai-eval merge)' : ''}`,
      );
    }
  }
  out.push('');
  return out.join('\n');
}

/**
 * GitHub Actions workflow commands: a `::warning` per advisory and soft gate that failed, an
 * `::error` per hard gate that failed.
 *
 * @example
 * ```ts
 * if (process.env.GITHUB_ACTIONS === 'true') for (const line of githubAnnotations(report)) console.log(line);
 * ```
 */
export function githubAnnotations(report: EvalReport): string[] {
  const esc = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const lines = report.advisories.map((a) => `::warning title=ai-eval ${a.code}::${esc(a.message)}`);
  for (const g of report.gates)
    if (!g.passed)
      lines.push(
        `::${g.level === 'hard' && !g.deferred ? 'error' : 'warning'} title=ai-eval gate::${esc(g.message)}`,
      );
  return lines;
}
