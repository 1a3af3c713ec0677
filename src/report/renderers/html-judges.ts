import type { JudgeReport } from '../judge-report-types.js';
import type { EvalReport } from '../model.js';
import { escapeHtml, percent, score } from './html-escape.js';

/** A value of unknown shape as a small definition list (depth-limited), every string escaped. */
function generic(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return '<span class="muted">—</span>';
  if (typeof value !== 'object') return escapeHtml(value);
  if (depth >= 3) return `<code>${escapeHtml(JSON.stringify(value))}</code>`;
  if (Array.isArray(value))
    return value.length === 0
      ? '<span class="muted">none</span>'
      : `<ul>${value.map((v) => `<li>${generic(v, depth + 1)}</li>`).join('')}</ul>`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '<span class="muted">none</span>';
  return `<dl class="kv">${entries.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${generic(v, depth + 1)}</dd>`).join('')}</dl>`;
}

/** Keys of the report that describe the judges beyond the run identity, shown as they are. */
const JUDGE_KEYS = ['judgeTrust', 'judgeHealth'];

/** A judge's pass rate: raw, and for a trusted judge the corrected one with its interval. */
function passRateCell(judge: JudgeReport): string {
  const rate = judge.passRate;
  const raw = `${percent(rate.raw)} <span class="small">(${rate.passed} of ${rate.scored})</span>`;
  if (rate.corrected === null) return raw;
  return `${raw}<div class="small">corrected ${percent(rate.corrected)} [${percent(rate.low)}, ${percent(rate.high)}]</div>`;
}

/** One row per LLM judge of the run: trust state, scores, pass rates and health. */
function judgeTable(judges: readonly JudgeReport[]): string {
  if (judges.length === 0) return '';
  const rows = judges.map((j) => {
    const h = j.health;
    const validated = j.validated
      ? `<code>#${escapeHtml(j.validated.promptHash)}</code> on ${escapeHtml(j.validated.model)}, n ${j.validated.n}`
      : '<span class="muted">never</span>';
    return `<tr><td><code>${escapeHtml(j.id)}</code></td><td><span class="trust trust-${escapeHtml(j.trust)}">${escapeHtml(j.trust)}</span></td>
<td>${score(j.averageScore)}</td><td>${passRateCell(j)}</td>
<td>${h.calls} calls, ${h.cacheHits} cached, ${h.errors} errors, ${h.refusals} refused, ${h.unparseable} unparseable, ${h.clamped} clamped${h.errorRate === null ? '' : ` <span class="small">(error rate ${percent(h.errorRate)})</span>`}</td>
<td>${validated}</td></tr>`;
  });
  return `<table class="judges"><thead><tr><th>judge</th><th>trust</th><th>average</th><th>pass rate</th><th>health</th><th>validated on</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

/**
 * The judges section: the model, identity hash and prompt hashes of the run, the tokens used, and
 * a table of the LLM judges: trust state, average, pass rate (corrected for a trusted judge) and
 * health.
 *
 * @example
 * ```ts
 * const section = renderJudges(report); // '' when no LLM judge ran
 * ```
 */
export function renderJudges(report: EvalReport): string {
  const extra = JUDGE_KEYS.flatMap((key) => {
    const value = (report as unknown as Record<string, unknown>)[key];
    return value === undefined || value === null ? [] : [[key, value] as const];
  });
  const judges = Array.isArray(report.judges) ? report.judges : [];
  if (
    report.judgeModel === null &&
    report.judgeTokens.total === 0 &&
    extra.length === 0 &&
    judges.length === 0
  )
    return '';
  const hashes = Object.entries(report.promptHashes);
  return `<section id="judges"><h2>Judges</h2><dl class="kv">
<dt>model</dt><dd>${escapeHtml(report.judgeModel ?? '—')}</dd>
<dt>identity</dt><dd><code>${escapeHtml(report.judgeHash ?? '—')}</code></dd>
<dt>tokens</dt><dd>${report.judgeTokens.total} (prompt ${report.judgeTokens.prompt}, completion ${report.judgeTokens.completion})</dd>
${hashes.length > 0 ? `<dt>prompts</dt><dd>${hashes.map(([id, h]) => `${escapeHtml(id)} <code>#${escapeHtml(h)}</code>`).join(', ')}</dd>` : ''}
${extra.map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${generic(value)}</dd>`).join('\n')}
</dl>${judgeTable(judges)}</section>`;
}
