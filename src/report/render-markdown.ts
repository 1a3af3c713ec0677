import { fmt, pct, signed } from './gates.js';
import type { EvalReport } from './model.js';
import { oneLine, weakestGrade, weakestQuestions } from './render-terminal.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * Renders the report as a Markdown summary (for `markdownFile` and `$GITHUB_STEP_SUMMARY`): the
 * verdict, a table of targets, the weakest questions, advisories, baseline changes and gates.
 *
 * @example
 * ```ts
 * appendFileSync(process.env.GITHUB_STEP_SUMMARY, renderMarkdown(report, { weakest: 5 }));
 * ```
 */
export function renderMarkdown(report: EvalReport, options: { weakest?: number } = {}): string {
  const failed = report.gates.filter((g) => !g.passed && g.level === 'hard');
  const out: string[] = [
    '## ai-eval',
    '',
    `${failed.length ? '❌ **Failed**' : '✅ **Passed**'}: ${plural(report.questionCount, 'question')}, average ${fmt(report.averageScore)}, ${pct(report.passRate)} passed, ${plural(report.errorCount, 'error')}, ${report.degradedCount} degraded.`,
    '',
    '| Target | Mode | Average | Pass rate | Questions | Errors | Degraded |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const t of report.targets)
    out.push(
      `| ${cell(t.name)} | ${t.mode ?? '-'} | ${fmt(t.averageScore)} | ${pct(t.passRate)} | ${t.questionCount} | ${t.errorCount} | ${t.degradedCount} |`,
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
    for (const g of report.gates)
      out.push(`- ${g.passed ? '✅' : g.level === 'hard' ? '❌' : '⚠️'} ${g.level}: ${cell(g.message)}`);
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
      lines.push(`::${g.level === 'hard' ? 'error' : 'warning'} title=ai-eval gate::${esc(g.message)}`);
  return lines;
}
