/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/renderers/html.js';
import { fixtureReport, HOSTILE } from '../helpers/html-fixtures.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

/** Debian's chromium (.ci/run installs it when absent); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
let file: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.`,
    );
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // The machine has no network: without these Chromium tries to reach its own services.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const dir = tempDir('ai-eval-html-');
  file = join(dir, 'report.html');
  writeFileSync(file, renderHtml(fixtureReport('head'), { baseline: fixtureReport('base') }));
});

afterAll(async () => {
  await browser?.close();
});

interface Opened {
  page: Page;
  consoleErrors: string[];
  pageErrors: string[];
  requests: string[];
}

async function open(): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const opened: Opened = { page, consoleErrors: [], pageErrors: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') opened.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => opened.pageErrors.push(e.message));
  const url = pathToFileURL(file).href;
  page.on('request', (r) => {
    if (r.url() !== url) opened.requests.push(r.url());
  });
  await page.goto(url);
  return opened;
}

const visibleIds = (page: Page) =>
  page.$$eval('details.q', (rows) =>
    rows.filter((r) => !(r as HTMLElement).hidden).map((r) => r.getAttribute('data-id')),
  );

describe('the HTML report in headless Chromium', () => {
  it('opens from disk with no console error and no request leaving the page', async () => {
    const { page, consoleErrors, pageErrors, requests } = await open();
    await page.click('details.q[data-id="cancel-order"] > summary');
    await page.selectOption('#f-target', 'support-bot');
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(requests).toEqual([]);
    const policy = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) =>
      m.getAttribute('content'),
    );
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("default-src 'none'");
    await page.close();
  });

  it('draws the charts: score bars, the coverage bar and a histogram per grader', async () => {
    const { page } = await open();
    const charts = await page.$$eval('svg.chart', (svgs) =>
      svgs.map((svg) => ({
        kind: svg.getAttribute('class'),
        width: svg.getBoundingClientRect().width,
        bars: [...svg.querySelectorAll('rect.bar')].map(
          (r) => (r as SVGRectElement).getBBox().width * (r as SVGRectElement).getBBox().height,
        ),
      })),
    );
    expect(charts.filter((c) => c.kind === 'chart score-bar')).toHaveLength(3);
    expect(charts.filter((c) => c.kind === 'chart coverage-bar')).toHaveLength(1);
    expect(charts.filter((c) => c.kind === 'chart histogram')).toHaveLength(2);
    for (const chart of charts) {
      expect(chart.width).toBeGreaterThan(100);
      expect(
        chart.bars.some((area) => area > 0),
        `${chart.kind} has a visible bar`,
      ).toBe(true);
    }
    const trends = await page.$$eval('#targets .trend', (els) => els.map((e) => e.textContent));
    expect(trends).toContain('▼ -0.25');
    await page.close();
  });

  it('filters the question table by target, verdict, grader and tag, and searches by id', async () => {
    const { page } = await open();
    expect(await visibleIds(page)).toHaveLength(9);
    await page.selectOption('#f-target', 'billing-bot');
    expect(await visibleIds(page)).toEqual(['invoice-copy', 'vat-number']);
    await page.selectOption('#f-verdict', 'failed');
    expect(await visibleIds(page)).toEqual(['vat-number']);
    await page.selectOption('#f-target', '');
    await page.selectOption('#f-verdict', 'degraded');
    expect(await visibleIds(page)).toEqual(['judge-down']);
    await page.selectOption('#f-verdict', '');
    await page.selectOption('#f-grader', 'tool_usage_grader');
    expect(await visibleIds(page)).toHaveLength(6);
    await page.selectOption('#f-tag', 'smoke');
    expect(await visibleIds(page)).toEqual(['new-question', 'refund-order']);
    await page.selectOption('#f-tag', '');
    await page.fill('#f-search', 'ORDER');
    expect(await visibleIds(page)).toEqual(['cancel-order', 'refund-order']);
    expect(await page.textContent('#f-count')).toBe('2 of 9 questions');
    await page.fill('#f-search', 'nothing-like-this');
    expect(await visibleIds(page)).toEqual([]);
    expect(await page.isVisible('#f-none')).toBe(true);
    await page.close();
  });

  it('opens a question to its grades, reasons, tool calls and response, and trials side by side', async () => {
    const { page } = await open();
    const cancel = 'details.q[data-id="cancel-order"]';
    expect(await page.isVisible(`${cancel} .body`)).toBe(false);
    await page.click(`${cancel} > summary`);
    expect(await page.isVisible(`${cancel} .body`)).toBe(true);
    const body = (await page.textContent(`${cancel} .body`)) ?? '';
    expect(body).toContain('cancel_order was never called.');
    expect(body).toContain('find_order');
    expect(body).toContain('"order_id": "1042"');
    expect(body).toContain('error');
    expect(body).toContain('Done! I cancelled order 1042.');
    await page.click('details.q[data-id="track-parcel"] > summary');
    const headers = await page.$$eval('details.q[data-id="track-parcel"] table.grades thead th', (ths) =>
      ths.map((t) => t.textContent),
    );
    expect(headers).toEqual(['Grader', 'Trial 1', 'Trial 2', 'Trial 3']);
    await page.close();
  });

  it('shows hostile report text as text: no script runs, no element or handler is injected', async () => {
    const { page, consoleErrors } = await open();
    await page.click('details.q[data-id="cancel-order"] > summary');
    await page.click(`details.q[data-id^="odd-id-"] > summary`);
    await page.focus('#f-search');
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.evaluate(() => document.images.length)).toBe(0);
    expect(await page.evaluate(() => document.scripts.length)).toBe(1);
    const handlers = await page.evaluate(() =>
      [...document.querySelectorAll('*')].flatMap((el) =>
        [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name),
      ),
    );
    expect(handlers).toEqual([]);
    const text = (await page.textContent('details.q[data-id="cancel-order"] .body')) ?? '';
    expect(text).toContain(HOSTILE.script);
    expect(text).toContain(HOSTILE.onerror);
    expect(await page.getAttribute('details.q[data-id^="odd-id-"]', 'data-id')).toBe(
      `odd-id-${HOSTILE.attr}`,
    );
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('keeps a screenshot of the fixture report for the README (docs/html-report.png)', async () => {
    const { page } = await open();
    await page.click('details.q[data-id="cancel-order"] > summary');
    const png = await page.screenshot({ fullPage: true });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const kept = join(ROOT, 'docs', 'html-report.png');
    // AI_EVAL_UPDATE_SCREENSHOT=1 refreshes the committed one; otherwise it must be there.
    if (process.env.AI_EVAL_UPDATE_SCREENSHOT === '1') writeFileSync(kept, png);
    expect(readFileSync(kept).subarray(1, 4).toString()).toBe('PNG');
    await page.close();
  });
});
