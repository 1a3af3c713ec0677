import { clipAtWord } from '../internal/text.js';
import { fmt, pct, signed } from './gates.js';
import { figuresLine, verdictSentence, weakestQuestions } from './headline.js';
import type { EvalReport, GradeReport, QuestionReport, TargetReport } from './model.js';

/** The colour functions the renderer uses; picocolors' `createColors(enabled)` provides them. */
export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/**
 * A palette that adds no colour.
 *
 * @example
 * ```ts
 * renderTerminal(report, { palette: PLAIN });
 * ```
 */
export const PLAIN: Palette = {
  bold: (t) => t,
  dim: (t) => t,
  red: (t) => t,
  green: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
};

const BAR_WIDTH = 20;
const REASON_WIDTH = 110;

/**
 * A score bar of 20 cells for a 0 to 5 composite.
 *
 * @example
 * ```ts
 * scoreBar(2.5); // '██████████░░░░░░░░░░'
 * ```
 */
export function scoreBar(score: number | null): string {
  const filled = score === null ? 0 : Math.round((Math.max(0, Math.min(5, score)) / 5) * BAR_WIDTH);
  return '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
}

/**
 * One line of text, at most `width` characters, cut at a word boundary.
 *
 * @example
 * ```ts
 * oneLine('a\n  b', 10); // 'a b'
 * ```
 */
export function oneLine(text: string, width = REASON_WIDTH): string {
  return clipAtWord(text.replace(/\s+/g, ' ').trim(), width);
}

/**
 * The grade that explains a question best: an error, else the lowest composite, else a skip.
 *
 * @example
 * ```ts
 * weakestGrade(question)?.reason;
 * ```
 */
export function weakestGrade(question: QuestionReport): GradeReport | undefined {
  const errored = question.grades.find((g) => g.error);
  if (errored) return errored;
  const scored = question.grades.filter((g) => g.composite !== null);
  if (scored.length) return scored.reduce((a, b) => ((b.composite ?? 0) < (a.composite ?? 0) ? b : a));
  return question.grades[0];
}

function pad(text: string, width: number, right = false): string {
  const gap = ' '.repeat(Math.max(0, width - [...text].length));
  return right ? gap + text : text + gap;
}

function tableLines(report: EvalReport, c: Palette): string[] {
  const nameWidth = Math.max(6, ...report.targets.map((t) => t.name.length));
  const header = `  ${pad('Target', nameWidth)}  ${pad('Score', BAR_WIDTH)}  ${pad('Avg', 5, true)}  ${pad('Scored', 7, true)}  ${pad('Pass', 5, true)}  ${pad('Errors', 6, true)}  ${pad('Degraded', 8, true)}`;
  const lines = [c.bold(header)];
  for (const t of report.targets) {
    const ok = t.averageScore !== null && t.passRate !== null;
    // The bar shows what the target is scored by: its average, or its pass rate on the same 0-5 scale.
    const bar = scoreBar(
      t.scoreBy === 'pass_rate' ? (t.passRate === null ? null : t.passRate * 5) : t.averageScore,
    );
    const colouredBar = !ok ? c.dim(bar) : (t.passRate ?? 0) >= 1 ? c.green(bar) : c.yellow(bar);
    const scored = `${t.coverage.scored}/${t.coverage.planned}`;
    const scoredCell =
      t.coverage.scored < t.coverage.planned ? c.yellow(pad(scored, 7, true)) : pad(scored, 7, true);
    lines.push(
      `  ${pad(t.name, nameWidth)}  ${colouredBar}  ${pad(fmt(t.averageScore), 5, true)}  ${scoredCell}  ${pad(pct(t.passRate), 5, true)}  ${pad(String(t.errorCount), 6, true)}  ${pad(String(t.degradedCount), 8, true)}`,
    );
    if (t.passAtK !== undefined)
      lines.push(
        c.dim(`  ${pad('', nameWidth)}  trials: pass@k ${pct(t.passAtK)}, pass^k ${pct(t.passHatK ?? null)}`),
      );
  }
  return lines;
}

function questionLine(target: TargetReport, q: QuestionReport, c: Palette): string[] {
  const mark = q.passed ? c.green('✓') : c.red('✗');
  const flags = [q.errored ? 'errored' : q.unscored ? 'unscored' : '', q.degraded ? 'degraded' : '']
    .filter(Boolean)
    .join(', ');
  const duplicate =
    target.questions.filter((other) => other.id === q.id).length > 1 ? ` [${q.test.file}]` : '';
  const head = `  ${mark} ${target.name} › ${q.id}${duplicate}  ${fmt(q.composite)}${flags ? c.yellow(` (${flags})`) : ''}`;
  const lines = [head];
  if (q.trials) {
    const t = q.trials;
    lines.push(
      c.dim(
        `      ${t.count} trials: mean ${fmt(t.mean)} ± ${fmt(t.stdev)} (min ${fmt(t.min)}, max ${fmt(t.max)}), pass@${t.count} ${t.passAtK ? 'yes' : 'no'}, pass^${t.count} ${t.passHatK ? 'yes' : 'no'}`,
      ),
    );
  }
  const grade = weakestGrade(q);
  if (grade) lines.push(c.dim(`      ${grade.grader}: ${oneLine(grade.reason)}`));
  return lines;
}

/** Datasets that did not load, negated assertions and suites skipped by the filters. */
function suiteLines(report: EvalReport, c: Palette): string[] {
  const lines: string[] = [];
  const failures = report.targets.flatMap((t) => t.loadFailures.map((f) => ({ target: t.name, f })));
  if (failures.length) {
    lines.push('', c.bold('Datasets that did not load'));
    for (const { target, f } of failures) {
      lines.push(`  ${c.red('✗')} ${target} › ${f.suite}: ${f.dataset} (${f.test.file})`);
      for (const p of f.problems.slice(0, 3)) lines.push(c.dim(`      ${oneLine(p)}`));
    }
  }
  const negated = report.targets.flatMap((t) => t.negated.map((n) => ({ target: t.name, n })));
  if (negated.length) {
    lines.push('', c.bold('Negated assertions (.not, outside the averages)'));
    for (const { target, n } of negated) {
      const mark = n.passed ? c.green('✓') : c.red('✗');
      const why =
        n.composite === null ? 'no verdict' : `${fmt(n.composite)} (threshold ${fmt(n.passThreshold)})`;
      lines.push(`  ${mark} ${target} › ${n.question}  not ${n.grader}: ${why}`);
    }
  }
  if (report.skippedByFilter.length) {
    const suites = report.skippedByFilter.map((s) => s.suite);
    lines.push(
      '',
      c.dim(
        `Skipped by the filters (no question selected): ${report.skippedByFilter.length} suite${suites.length === 1 ? '' : 's'} (${oneLine(suites.join(', '), 80)})`,
      ),
    );
  }
  return lines;
}

/**
 * Renders the terminal summary: the figures (average beside its coverage), a partial-run or
 * coverage note, a table per target (score bar, average, scored of planned, pass rate, errors,
 * degraded), the questions that did not pass with their reasons, datasets that did not load,
 * negated assertions, filter skips, advisories, the baseline comparison and gate verdicts, ending
 * with the run's verdict: failed tests, coverage and gates. Pure: colours come from `palette`.
 *
 * @example
 * ```ts
 * import pc from 'picocolors';
 * process.stdout.write(renderTerminal(report, { palette: pc.createColors(false) }).join('\n'));
 * ```
 */
export function renderTerminal(
  report: EvalReport,
  options: { palette?: Palette; weakest?: number } = {},
): string[] {
  const c = options.palette ?? PLAIN;
  const lines = [c.bold(`ai-eval${report.partial ? ' (partial)' : ''}: ${figuresLine(report)}`)];
  if (report.partial) {
    const { index, count } = report.partial.shard;
    lines.push(
      c.yellow(
        `partial: shard ${index} of ${count}; these figures cover this shard only, and hard gates are left to ai-eval merge`,
      ),
    );
  }
  if (report.judgeTokens.total > 0) lines.push(c.dim(`judge tokens: ${report.judgeTokens.total}`));
  if (report.targets.length === 0) {
    lines.push(
      c.yellow(
        report.skippedByFilter.length > 0
          ? 'No question ran: the filters selected none in any suite.'
          : 'No eval records: no test in this run graded anything with ai-eval.',
      ),
    );
  } else lines.push('', ...tableLines(report, c));
  const weakest = weakestQuestions(report, options.weakest ?? 5);
  if (weakest.length) {
    lines.push('', c.bold('Weakest questions'));
    for (const { target, question } of weakest) lines.push(...questionLine(target, question, c));
  }
  lines.push(...suiteLines(report, c));
  if (report.advisories.length) {
    lines.push('', c.bold('Advisories'));
    for (const a of report.advisories) lines.push(`  ${c.yellow('!')} ${a.code}  ${a.message}`);
  }
  if (report.baseline) {
    lines.push('', c.bold(`Baseline (${report.baseline.file}, ${report.baseline.timestamp})`));
    if (report.baseline.changes.length === 0) lines.push('  no changes');
    for (const ch of report.baseline.changes) {
      const what = ch.question === undefined ? ch.target : `${ch.target} › ${ch.question}`;
      const arrow = ch.kind === 'improved' ? c.green('▲') : ch.kind === 'regressed' ? c.red('▼') : c.dim('•');
      lines.push(
        `  ${arrow} ${ch.kind} ${what}  ${fmt(ch.before)} -> ${fmt(ch.after)}${ch.delta === null ? '' : ` (${signed(ch.delta)})`}`,
      );
    }
  }
  if (report.gates.length) {
    lines.push('', c.bold('Gates'));
    for (const g of report.gates) {
      const mark = g.passed
        ? c.green('✓ pass')
        : g.deferred
          ? c.yellow('… defer')
          : g.level === 'hard'
            ? c.red('✗ FAIL')
            : c.yellow('! warn');
      lines.push(
        `  ${mark} ${g.level}  ${g.message}${g.deferred && !g.passed ? ' (deferred to ai-eval merge)' : ''}`,
      );
    }
  }
  const sentence = `ai-eval: ${verdictSentence(report)}`;
  const bold = c.bold(sentence);
  const coloured =
    report.verdict === 'passed' ? c.green(bold) : report.verdict === 'failed' ? c.red(bold) : c.yellow(bold);
  lines.push('', coloured);
  return lines;
}
