import { createHash } from 'node:crypto';
import { coverageSentence, gatesSentence, verdictSentence } from '../headline.js';
import type { EvalReport, GradeReport, QuestionReport, TargetReport } from '../model.js';
import { COLOURS, coverageBar, histogram, scoreBar } from './html-charts.js';
import { escapeHtml as esc, percent, score } from './html-escape.js';
import { renderJudges } from './html-judges.js';
import { HTML_SCRIPT, HTML_STYLE } from './html-assets.js';

/**
 * Options of {@link renderHtml}.
 *
 * @example
 * ```ts
 * renderHtml(report, { baseline: readBaseline('reports/main.json') });
 * ```
 */
export interface HtmlReportOptions {
  /** A previous report: each target's trend (average and pass rate) is shown against it. */
  baseline?: EvalReport;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');

/** The strict Content-Security-Policy of the page: only its own inline script and style, no request. */
function csp(): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${sha256(HTML_SCRIPT)}'`,
    `style-src 'sha256-${sha256(HTML_STYLE)}'`,
    "img-src 'none'",
    "connect-src 'none'",
    "font-src 'none'",
    "media-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

type Verdict = 'passed' | 'failed' | 'unscored' | 'errored';

function verdictOf(q: QuestionReport): Verdict {
  if (q.errored) return 'errored';
  if (q.unscored) return 'unscored';
  return q.passed ? 'passed' : 'failed';
}

/** Tags, from the test title (`id [tag, tag]`, as generated suites name their tests). */
function tagsOf(q: QuestionReport): string[] {
  const match = /\[([^[\]]*)\]$/.exec(q.test.name);
  return match?.[1]
    ? match[1]
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : [];
}

function badge(verdict: string): string {
  return `<span class="badge ${esc(verdict)}">${esc(verdict)}</span>`;
}

function trend(delta: number | null, unit: 'score' | 'share'): string {
  if (delta === null) return '';
  const shown = unit === 'score' ? delta.toFixed(2) : `${Math.round(delta * 1000) / 10} pts`;
  if (Math.abs(delta) < (unit === 'score' ? 0.01 : 0.0005))
    return `<span class="trend same">= ${shown}</span>`;
  return delta > 0
    ? `<span class="trend up">▲ +${shown}</span>`
    : `<span class="trend down">▼ ${shown}</span>`;
}

function targetTrend(target: TargetReport, report: EvalReport, baseline: EvalReport | undefined) {
  const old = baseline?.targets.find((t) => t.name === target.name);
  if (old) {
    return {
      average:
        old.averageScore === null || target.averageScore === null
          ? null
          : target.averageScore - old.averageScore,
      passRate: old.passRate === null || target.passRate === null ? null : target.passRate - old.passRate,
    };
  }
  const change = report.baseline?.changes.find((c) => c.target === target.name && c.question === undefined);
  return { average: change?.delta ?? null, passRate: null };
}

function header(report: EvalReport): string {
  return `<header><h1>ai-eval report</h1>
<p class="meta">${esc(report.timestamp)} · ai-eval ${esc(report.packageVersion)} · Node ${esc(report.nodeVersion)}${report.baseline ? ` · compared with ${esc(report.baseline.file)}` : ''}</p>
<p class="verdict">${badge(report.verdict)} <span id="verdict-sentence">${esc(verdictSentence(report))}</span></p></header>`;
}

function overview(report: EvalReport): string {
  const c = report.coverage;
  const gates =
    report.gates.length === 0
      ? '<p class="muted">No gate configured: nothing decided this run.</p>'
      : `<ul class="gates">${report.gates
          .map(
            (g) =>
              `<li>${badge(g.deferred ? 'deferred' : g.passed ? 'passed' : 'failed')} <b>${esc(g.level)}</b> ${esc(g.message)}</li>`,
          )
          .join('')}</ul>`;
  return `<section id="overview"><h2>Coverage and gates</h2>
<div class="cards">
<div class="card"><div class="big">${percent(c.share)}</div><div>coverage</div>${coverageBar(c)}
<div class="small">${c.scored} scored · ${c.unscored} unscored · ${c.errored} errored · ${c.notLoaded} not loaded · ${c.degraded} degraded, of ${c.planned} planned</div>
<div class="small">${esc(coverageSentence(c))}</div></div>
<div class="card"><div class="big">${score(report.averageScore)}</div><div>average of ${report.questionCount} question(s)</div></div>
<div class="card"><div class="big">${percent(report.passRate)}</div><div>pass rate (${report.passedCount} passed)</div></div>
<div class="card"><div class="big">${report.errorCount}</div><div>errored grade(s)</div></div>
</div>
<h3>Gates</h3><p class="small">${esc(gatesSentence(report))}</p>${gates}</section>`;
}

function targetsSection(report: EvalReport, baseline: EvalReport | undefined): string {
  const rows = report.targets
    .map((t) => {
      const threshold = t.questions[0]?.passThreshold ?? 3.5;
      const tr = targetTrend(t, report, baseline);
      const failures = t.loadFailures.length
        ? `<div class="small warn">${t.loadFailures.map((f) => `${esc(f.dataset)} did not load: ${esc(f.problems.join('; '))}`).join('<br>')}</div>`
        : '';
      return `<tr class="target"><td><b>${esc(t.name)}</b><div class="small">${esc(t.mode ?? 'no target')} · ${t.questionCount} question(s) · scored by ${esc(t.scoreBy)}</div>${failures}</td>
<td>${scoreBar(t.averageScore, threshold)}<div class="small">${score(t.averageScore)} ${trend(tr.average, 'score')}</div></td>
<td>${percent(t.passRate)} ${trend(tr.passRate, 'share')}<div class="small">${t.passedCount} of ${t.questionCount}${t.passAtK !== undefined ? ` · pass@k ${percent(t.passAtK)}` : ''}${t.passHatK !== undefined ? ` · pass^k ${percent(t.passHatK)}` : ''}</div></td>
<td>${percent(t.coverage.share)}</td></tr>`;
    })
    .join('');
  return `<section id="targets"><h2>Targets</h2><table><thead><tr><th>Target</th><th>Average (0–5, threshold marked)</th><th>Pass rate</th><th>Coverage</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function gradersSection(report: EvalReport): string {
  const by = new Map<
    string,
    { label: string; composites: number[]; skipped: number; errored: number; threshold: number }
  >();
  for (const t of report.targets) {
    for (const q of t.questions) {
      for (const g of q.grades) {
        if (g.negated) continue;
        const entry = by.get(g.grader) ?? {
          label: g.label,
          composites: [],
          skipped: 0,
          errored: 0,
          threshold: q.passThreshold,
        };
        if (g.error) entry.errored++;
        else if (g.skipped || g.composite === null) entry.skipped++;
        else entry.composites.push(g.composite);
        by.set(g.grader, entry);
      }
    }
  }
  if (by.size === 0) return '';
  const cards = [...by]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([id, e]) =>
        `<div class="card grader" data-grader="${esc(id)}"><b>${esc(id)}</b><div class="small">${esc(e.label)}</div>${histogram(e.composites, e.threshold)}<div class="small">${e.composites.length} scored · ${e.skipped} skipped · ${e.errored} errored</div></div>`,
    )
    .join('');
  return `<section id="graders"><h2>Composites by grader</h2><div class="cards">${cards}</div></section>`;
}

function advisoriesSection(report: EvalReport): string {
  if (report.advisories.length === 0)
    return `<section id="advisories"><h2>Advisories</h2><p class="muted">None.</p></section>`;
  return `<section id="advisories"><h2>Advisories</h2><ul>${report.advisories
    .map((a) => `<li><code>${esc(a.code)}</code> <b>${esc(a.target)}</b>: ${esc(a.message)}</li>`)
    .join('')}</ul></section>`;
}

/** Optional evidence a question may carry (a response, a tool-call record): shown when present. */
interface Evidence {
  response?: unknown;
  toolCalls?: unknown;
}

function flags(g: GradeReport): string {
  const on = [
    g.error && 'error',
    g.skipped && 'skipped',
    g.unverified && 'unverified',
    g.negated && 'negated',
  ];
  return on
    .filter((f): f is string => typeof f === 'string')
    .map((f) => `<span class="flag ${f}">${f}</span>`)
    .join(' ');
}

function gradeCell(g: GradeReport | undefined): string {
  if (!g) return '<td class="muted">—</td>';
  return `<td><b>${score(g.composite)}</b> <span class="small">(${g.score === null ? '—' : esc(g.score)} on ${esc(g.min)}–${esc(g.max)})</span> ${flags(g)}<div class="reason">${esc(g.reason)}</div></td>`;
}

function gradesTable(q: QuestionReport): string {
  const trials = [...new Set(q.grades.map((g) => g.trial))].sort((a, b) => a - b);
  const graders = [...new Set(q.grades.map((g) => g.grader))];
  const head =
    trials.length > 1 ? trials.map((t) => `<th>Trial ${t}</th>`).join('') : '<th>Grade and reason</th>';
  const rows = graders
    .map((id) => {
      const label = q.grades.find((g) => g.grader === id)?.label ?? id;
      const cells = trials
        .map((t) => gradeCell(q.grades.find((g) => g.grader === id && g.trial === t)))
        .join('');
      return `<tr><th scope="row">${esc(id)}<div class="small">${esc(label)}</div></th>${cells}</tr>`;
    })
    .join('');
  const trialRow =
    q.trials && trials.length > 1
      ? `<tr><th scope="row">composite</th>${q.trials.composites.map((c) => `<td><b>${score(c)}</b></td>`).join('')}</tr>`
      : '';
  return `<table class="grades"><thead><tr><th>Grader</th>${head}</tr></thead><tbody>${rows}${trialRow}</tbody></table>`;
}

function toolCallsBlock(calls: unknown): string {
  if (!Array.isArray(calls)) return '';
  if (calls.length === 0) return '<h4>Tool calls</h4><p class="muted">The agent called no tool.</p>';
  const rows = calls
    .map((call: unknown, i) => {
      const c = (call ?? {}) as Record<string, unknown>;
      const name = c.function_name ?? c.name ?? '?';
      return `<tr><td>${i + 1}</td><td><code>${esc(name)}</code></td><td><pre>${esc(JSON.stringify(c.arguments ?? {}, null, 2))}</pre></td><td>${esc(c.status ?? 'unknown')}</td></tr>`;
    })
    .join('');
  return `<h4>Tool calls</h4><table class="calls"><thead><tr><th>#</th><th>Tool</th><th>Arguments</th><th>Outcome</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function evidenceBlock(q: QuestionReport): string {
  const e = q as QuestionReport & Evidence;
  const response =
    e.response === undefined
      ? ''
      : `<h4>Response</h4><pre class="response">${esc(typeof e.response === 'string' ? e.response : JSON.stringify(e.response, null, 2))}</pre>`;
  const calls = e.toolCalls === undefined ? '' : toolCallsBlock(e.toolCalls);
  const record = q.grades.some((g) => g.toolCallRecord)
    ? 'a tool-call record came with the response'
    : 'no tool-call record came with the response';
  return `${calls}${response}${calls === '' ? `<p class="small">Tool calls: ${record}.</p>` : ''}`;
}

function questionRow(t: TargetReport, q: QuestionReport): string {
  const verdict = verdictOf(q);
  const graders = [...new Set(q.grades.map((g) => g.grader))];
  const tags = tagsOf(q);
  const trials = q.trials
    ? `<span class="small">${q.trials.count} trials · mean ${score(q.trials.mean)} · min ${score(q.trials.min)} · max ${score(q.trials.max)}${q.trials.passHatK ? ' · all passed' : q.trials.passAtK ? ' · some passed' : ' · none passed'}</span>`
    : '';
  return `<details class="q" data-id="${esc(q.id)}" data-target="${esc(t.name)}" data-verdict="${verdict}" data-degraded="${q.degraded}" data-graders="${esc(JSON.stringify(graders))}" data-tags="${esc(JSON.stringify(tags))}">
<summary><span class="qid">${esc(q.id)}</span> <span class="small">${esc(t.name)}</span> ${badge(verdict)}${q.degraded ? ' <span class="flag error">degraded</span>' : ''} <b>${score(q.composite)}</b> <span class="small">/ ${score(q.passThreshold)}</span> ${tags.map((tag) => `<span class="tag">${esc(tag)}</span>`).join(' ')} ${trials}</summary>
<div class="body"><p class="small">${esc(q.test.file)} › ${esc(q.test.name)}${q.dataset ? ` · dataset ${esc(q.dataset)}` : ''}</p>
${gradesTable(q)}${evidenceBlock(q)}</div></details>`;
}

function options(values: readonly string[]): string {
  return values.map((v) => `<option value="${esc(v)}">${esc(v)}</option>`).join('');
}

function questionsSection(report: EvalReport): string {
  const all = report.targets.flatMap((t) => t.questions.map((q) => [t, q] as const));
  const targets = report.targets.map((t) => t.name);
  const graders = [...new Set(all.flatMap(([, q]) => q.grades.map((g) => g.grader)))].sort();
  const tags = [...new Set(all.flatMap(([, q]) => tagsOf(q)))].sort();
  return `<section id="questions"><h2>Questions</h2>
<div class="filters">
<label>Target <select id="f-target"><option value="">all</option>${options(targets)}</select></label>
<label>Verdict <select id="f-verdict"><option value="">all</option>${options(['passed', 'failed', 'unscored', 'errored', 'degraded'])}</select></label>
<label>Grader <select id="f-grader"><option value="">all</option>${options(graders)}</select></label>
<label>Tag <select id="f-tag"><option value="">all</option>${options(tags)}</select></label>
<label>Id <input id="f-search" type="search" placeholder="search ids" autocomplete="off"></label>
<span id="f-count" class="small">${all.length} of ${all.length} questions</span>
</div>
<div id="question-list">${all.map(([t, q]) => questionRow(t, q)).join('\n')}</div>
<p id="f-none" class="muted" hidden>No question matches the filters.</p></section>`;
}

/**
 * Renders a report as one self-contained HTML page: no network request (a strict
 * Content-Security-Policy allows only its own inline script and style, by hash), hand-drawn SVG
 * charts, every report string escaped. It shows the verdict, coverage and gates; per target a score
 * bar and pass rate (with the trend against `options.baseline` or the report's own baseline); the
 * distribution of each grader's composites; advisories and judges; and a question table that
 * filters by target, verdict, grader and tag, searches by id, and opens each question to its grades,
 * reasons and trials side by side.
 *
 * @example
 * ```ts
 * writeFileSync('reports/ai-eval.html', renderHtml(parseReport(readFileSync('reports/ai-eval.json', 'utf8'), 'ai-eval.json')));
 * ```
 */
export function renderHtml(report: EvalReport, options: HtmlReportOptions = {}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp()}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ai-eval report · ${esc(report.verdict)} · ${esc(report.timestamp)}</title>
<style>${HTML_STYLE}</style></head>
<body data-verdict="${esc(report.verdict)}" data-ink="${COLOURS.ink}">
${header(report)}
<main>
${overview(report)}
${targetsSection(report, options.baseline)}
${gradersSection(report)}
${advisoriesSection(report)}
${renderJudges(report)}
${questionsSection(report)}
</main>
<script>${HTML_SCRIPT}</script>
</body></html>
`;
}
