/**
 * The HTML report's only style sheet, inlined and allowed by its hash in the page's CSP.
 *
 * @example
 * ```ts
 * `<style>${HTML_STYLE}</style>`;
 * ```
 */
export const HTML_STYLE = `
:root { color-scheme: light; --ink: #1a202c; --muted: #718096; --line: #e2e8f0; --pass: #2f855a; --fail: #c53030; --warn: #b7791f; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0; padding: 24px 32px; background: #f7fafc; }
h1 { margin: 0 0 4px; font-size: 22px; } h2 { font-size: 17px; margin: 28px 0 10px; } h3 { font-size: 14px; margin: 14px 0 6px; } h4 { margin: 12px 0 4px; font-size: 13px; }
.meta, .small, .muted { color: var(--muted); } .small { font-size: 12px; } .warn { color: var(--warn); }
.verdict { font-size: 15px; margin: 8px 0 0; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; background: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
.badge.passed { background: var(--pass); } .badge.failed, .badge.errored { background: var(--fail); } .badge.incomplete, .badge.unscored, .badge.partial, .badge.deferred { background: var(--warn); }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; min-width: 170px; }
.big { font-size: 24px; font-weight: 700; }
table { border-collapse: collapse; background: #fff; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid var(--line); }
thead th { font-size: 12px; color: var(--muted); font-weight: 600; }
.trend.up { color: var(--pass); } .trend.down { color: var(--fail); } .trend.same { color: var(--muted); }
ul.gates { list-style: none; padding: 0; } ul.gates li { margin: 4px 0; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-bottom: 10px; }
select, input { font: inherit; padding: 3px 6px; }
details.q { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; }
details.q > summary { cursor: pointer; padding: 8px 12px; list-style: revert; }
details.q .body { padding: 0 12px 12px; }
.qid { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 600; }
.tag { font-size: 11px; background: #edf2f7; border-radius: 4px; padding: 0 6px; }
.flag { font-size: 11px; border-radius: 4px; padding: 0 5px; background: #edf2f7; }
.flag.error { background: #fed7d7; color: var(--fail); } .flag.unverified { background: #fefcbf; color: var(--warn); }
.reason { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; margin-top: 2px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font-size: 12px; background: #f7fafc; padding: 6px; border-radius: 4px; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; } dl.kv dt { color: var(--muted); } dl.kv dd { margin: 0; }
svg.chart { display: block; margin: 4px 0; }
[hidden] { display: none !important; }
`;

/**
 * The HTML report's only script, inlined and allowed by its hash in the page's CSP: the question
 * filters. It reads the rows' data attributes and toggles `hidden`; it never writes markup.
 *
 * @example
 * ```ts
 * `<script>${HTML_SCRIPT}</script>`;
 * ```
 */
export const HTML_SCRIPT = `
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('details.q'));
  var byId = function (id) { return document.getElementById(id); };
  var target = byId('f-target'), verdict = byId('f-verdict'), grader = byId('f-grader'), tag = byId('f-tag');
  var search = byId('f-search'), count = byId('f-count'), none = byId('f-none');
  if (!target || !verdict || !grader || !tag || !search || !count || !none) return;
  var list = function (el, key) { try { return JSON.parse(el.getAttribute(key) || '[]'); } catch (e) { return []; } };
  function apply() {
    var needle = search.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var ok = (!target.value || row.getAttribute('data-target') === target.value) &&
        (!verdict.value || (verdict.value === 'degraded' ? row.getAttribute('data-degraded') === 'true' : row.getAttribute('data-verdict') === verdict.value)) &&
        (!grader.value || list(row, 'data-graders').indexOf(grader.value) >= 0) &&
        (!tag.value || list(row, 'data-tags').indexOf(tag.value) >= 0) &&
        (!needle || (row.getAttribute('data-id') || '').toLowerCase().indexOf(needle) >= 0);
      row.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + ' of ' + rows.length + ' questions';
    none.hidden = shown !== 0;
  }
  [target, verdict, grader, tag].forEach(function (el) { el.addEventListener('change', apply); });
  search.addEventListener('input', apply);
  apply();
})();
`;
