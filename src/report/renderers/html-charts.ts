import type { Coverage } from '../model.js';
import { escapeHtml, score } from './html-escape.js';

/** Colours of the charts (SVG presentation attributes: no style attribute, so the CSP holds). */
export const COLOURS = {
  pass: '#2f855a',
  fail: '#c53030',
  warn: '#b7791f',
  muted: '#a0aec0',
  track: '#e2e8f0',
  ink: '#1a202c',
} as const;

const round = (n: number): string => String(Math.round(n * 10) / 10);

/**
 * A horizontal bar of a composite on 0 to 5 with the pass threshold marked.
 *
 * @example
 * ```ts
 * scoreBar(4.2, 3.5); // '<svg class="chart score-bar" ...>'
 * ```
 */
export function scoreBar(value: number | null, threshold: number, width = 220): string {
  const w = value === null ? 0 : (Math.max(0, Math.min(5, value)) / 5) * width;
  const t = (Math.max(0, Math.min(5, threshold)) / 5) * width;
  const fill = value === null ? COLOURS.muted : value >= threshold ? COLOURS.pass : COLOURS.fail;
  return (
    `<svg class="chart score-bar" role="img" width="${width}" height="16" viewBox="0 0 ${width} 16">` +
    `<title>${escapeHtml(`average ${score(value)} of 5, pass threshold ${score(threshold)}`)}</title>` +
    `<rect x="0" y="2" width="${width}" height="12" rx="3" fill="${COLOURS.track}"/>` +
    `<rect class="bar" x="0" y="2" width="${round(w)}" height="12" rx="3" fill="${fill}"/>` +
    `<line x1="${round(t)}" x2="${round(t)}" y1="0" y2="16" stroke="${COLOURS.ink}" stroke-width="2"/>` +
    `</svg>`
  );
}

/**
 * One stacked bar of what was planned: scored, unscored, errored, not loaded.
 *
 * @example
 * ```ts
 * coverageBar(report.coverage);
 * ```
 */
export function coverageBar(coverage: Coverage, width = 320): string {
  const parts: Array<[string, number, string]> = [
    ['scored', coverage.scored, COLOURS.pass],
    ['unscored', coverage.unscored, COLOURS.warn],
    ['errored', coverage.errored, COLOURS.fail],
    ['not loaded', coverage.notLoaded, COLOURS.muted],
  ];
  const total = Math.max(1, coverage.planned);
  let x = 0;
  const rects = parts
    .filter(([, n]) => n > 0)
    .map(([name, n, fill]) => {
      const w = (n / total) * width;
      const rect = `<rect class="bar" x="${round(x)}" y="0" width="${round(w)}" height="18" fill="${fill}"><title>${escapeHtml(`${name}: ${n}`)}</title></rect>`;
      x += w;
      return rect;
    })
    .join('');
  return (
    `<svg class="chart coverage-bar" role="img" width="${width}" height="18" viewBox="0 0 ${width} 18">` +
    `<title>${escapeHtml(`${coverage.scored} of ${coverage.planned} planned questions scored`)}</title>` +
    `<rect x="0" y="0" width="${width}" height="18" fill="${COLOURS.track}"/>${rects}</svg>`
  );
}

/**
 * A histogram of composites (0 to 5, ten bins of 0.5; 5 falls in the last), bars labelled with
 * their count.
 *
 * @example
 * ```ts
 * histogram([5, 5, 4.5, 1], 3.5);
 * ```
 */
export function histogram(
  composites: readonly number[],
  threshold: number,
  width = 240,
  height = 70,
): string {
  const bins = new Array<number>(10).fill(0);
  for (const c of composites) {
    if (!Number.isFinite(c)) continue;
    const i = Math.min(9, Math.max(0, Math.floor(c * 2)));
    bins[i] = (bins[i] ?? 0) + 1;
  }
  const max = Math.max(1, ...bins);
  const bw = width / 10;
  const plot = height - 14;
  const bars = bins
    .map((n, i) => {
      const h = (n / max) * plot;
      const fill = i / 2 >= threshold ? COLOURS.pass : (i + 1) / 2 <= threshold ? COLOURS.fail : COLOURS.warn;
      const range = `${i / 2}–${(i + 1) / 2}`;
      return `<rect class="${n > 0 ? 'bar' : 'bar empty'}" x="${round(i * bw + 1)}" y="${round(plot - h)}" width="${round(bw - 2)}" height="${round(h)}" fill="${fill}"><title>${escapeHtml(`${range}: ${n}`)}</title></rect>`;
    })
    .join('');
  const axis = [0, 1, 2, 3, 4, 5]
    .map(
      (v) =>
        `<text x="${round(Math.min(width - 4, Math.max(4, (v / 5) * width)))}" y="${height - 2}" font-size="10" text-anchor="middle" fill="${COLOURS.ink}">${v}</text>`,
    )
    .join('');
  return (
    `<svg class="chart histogram" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<title>${escapeHtml(`${composites.length} composites`)}</title>` +
    `<line x1="0" x2="${width}" y1="${plot}" y2="${plot}" stroke="${COLOURS.muted}"/>${bars}${axis}</svg>`
  );
}
