import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReporterOptions } from '../../src/report/options.js';
import { HTML_SCRIPT, HTML_STYLE } from '../../src/report/renderers/html-assets.js';
import { escapeHtml } from '../../src/report/renderers/html-escape.js';
import { renderHtml } from '../../src/report/renderers/html.js';
import { finishRun } from '../../src/report/write.js';
import { fixtureRecords, fixtureReport, HOSTILE } from '../helpers/html-fixtures.js';
import { tempDir } from '../helpers/temp.js';

/** An opening tag whose attribute values are double-quoted (how the renderer writes every one). */
const TAG = /<[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9:-]*(?:="[^"]*")?)*\s*\/?>/gi;

/** The names of every attribute of every tag of the page. */
function attributes(html: string): string[] {
  return [...html.matchAll(TAG)].flatMap((m) =>
    [...m[0].replace(/^<[a-z0-9-]+/i, '').matchAll(/\s([a-z][a-z0-9:-]*)(?:="[^"]*")?/gi)].map((a) =>
      (a[1] ?? '').toLowerCase(),
    ),
  );
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64');

describe('the HTML report', () => {
  it('is one self-contained page: a strict CSP that allows only its own inline script and style, by hash', () => {
    const html = renderHtml(fixtureReport());
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain(`script-src 'sha256-${hash(HTML_SCRIPT)}'`);
    expect(policy).toContain(`style-src 'sha256-${hash(HTML_STYLE)}'`);
    expect(html).toContain(`<script>${HTML_SCRIPT}</script>`);
    expect(html).toContain(`<style>${HTML_STYLE}</style>`);
    expect(html.match(/<script/g)).toHaveLength(1);
    // Nothing is loaded from anywhere: no src or href attribute, no url().
    expect(attributes(html).filter((name) => name === 'src' || name === 'href')).toEqual([]);
    expect(HTML_STYLE).not.toMatch(/url\(/i);
  });

  it('escapes every report string: hostile responses, reasons, ids and arguments stay text', () => {
    const html = renderHtml(fixtureReport());
    expect(html).not.toContain(HOSTILE.script);
    expect(html).not.toContain('<img');
    expect(attributes(html).filter((name) => name.startsWith('on'))).toEqual([]);
    // Every '<' left after removing the page's own tags would be markup from the report.
    const rest = html
      .replace(/<script>[\s\S]*?<\/script>/, '')
      .replace(/<style>[\s\S]*?<\/style>/, '')
      .replace(TAG, '')
      .replace(/<\/[a-z0-9]+>/gi, '')
      .replace(/<!doctype html>/i, '');
    expect(rest).not.toContain('<');
    expect(html).toContain(escapeHtml(HOSTILE.script));
    expect(html).toContain(`data-id="${escapeHtml(`odd-id-${HOSTILE.attr}`)}"`);
    expect(escapeHtml(`<a href="x" title='y'>&\``)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;',
    );
  });

  it('shows each target with its trend against a baseline, and judge fields the model may gain, generically', () => {
    const head = fixtureReport('head');
    const withTrend = renderHtml(head, { baseline: fixtureReport('base') });
    expect(withTrend).toContain('▼ -0.25');
    expect(renderHtml(head)).not.toContain('▼ -0.25');
    const trusted = Object.assign(fixtureReport('head'), {
      judges: [{ id: 'accuracy_grader', trust: 'trusted', agreement: 0.92, note: HOSTILE.onerror }],
    });
    const html = renderHtml(trusted);
    expect(html).toMatch(/<section id="judges">[\s\S]*<dt>judges<\/dt>[\s\S]*trusted[\s\S]*0\.92/);
    expect(html).not.toContain('<img');
  });

  it('is written by the reporters when htmlFile is set', () => {
    const dir = tempDir('ai-eval-html-');
    const options = checkReporterOptions({ htmlFile: 'out/report.html', summary: false });
    const result = finishRun(fixtureRecords(), options, {
      root: dir,
      print: () => {},
      isTTY: false,
      env: {},
    });
    expect(result.failed).toBe(false);
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('data-id="cancel-order"');
    expect(() => checkReporterOptions({ htmlFile: '' })).toThrow(/htmlFile/);
  });
});
