import type { EvalReport } from '../model.js';
import { escapeHtml } from './html-escape.js';

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

/** Keys of the report that describe the judges (trust, health) beyond the run identity. */
const JUDGE_KEYS = ['judges', 'judgeTrust', 'judgeHealth'];

/**
 * The judges section: the model, identity hash and prompt hashes of the run, the tokens used, and
 * whatever the report says about judge trust and health (rendered generically, so a report model
 * that gains such fields shows them without a change here).
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
  if (report.judgeModel === null && report.judgeTokens.total === 0 && extra.length === 0) return '';
  const hashes = Object.entries(report.promptHashes);
  return `<section id="judges"><h2>Judges</h2><dl class="kv">
<dt>model</dt><dd>${escapeHtml(report.judgeModel ?? '—')}</dd>
<dt>identity</dt><dd><code>${escapeHtml(report.judgeHash ?? '—')}</code></dd>
<dt>tokens</dt><dd>${report.judgeTokens.total} (prompt ${report.judgeTokens.prompt}, completion ${report.judgeTokens.completion})</dd>
${hashes.length > 0 ? `<dt>prompts</dt><dd>${hashes.map(([id, h]) => `${escapeHtml(id)} <code>#${escapeHtml(h)}</code>`).join(', ')}</dd>` : ''}
${extra.map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${generic(value)}</dd>`).join('\n')}
</dl></section>`;
}
