import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { captureLogsAsync, logger } from '../../src/logger.js';
import {
  clearHttpDatasetCache,
  httpSource,
  loadDataset,
  loadDatasetWithWarnings,
} from '../../src/datasets/index.js';

const DOCS: Record<string, string> = {
  'support.yaml':
    'splits:\n  smoke: [a]\nquestions:\n  - { id: a, input: x, tags: [t] }\n  - { id: b, input: y }\n',
  'support.json': JSON.stringify({ questions: [{ id: 'j', input: 'x' }] }),
  'invalid.yaml': 'questions:\n  - id: a\n    input: 5\n',
  'index.json': JSON.stringify(['support.yaml', 'support.json']),
};

let server: Server;
let base: string;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const name = decodeURIComponent((req.url ?? '').replace(/^\/registry\//, ''));
    if (name === 'huge.yaml') {
      // Announces more than a document may hold, and would take long to send it.
      res.writeHead(200, { 'content-length': String(64 * 1024 * 1024 + 1) });
      res.write('questions: []\n');
      return;
    }
    if (name === 'slow.yaml') {
      setTimeout(() => res.end(DOCS['support.yaml']), 30_000).unref();
      return;
    }
    const body = DOCS[name];
    if (body === undefined) {
      res.statusCode = 404;
      res.statusMessage = 'Not Found';
      res.end('no such document');
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/registry`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  logger.setEchoLevel('silent');
  clearHttpDatasetCache();
  requests.length = 0;
  configure({ datasets: { httpBaseUrl: base, httpTimeoutMs: 20_000 } });
});
afterEach(() => resetConfig());

describe('the http source', () => {
  it('does not read a document announced as larger than 64 MiB', async () => {
    const { questions, warnings } = await loadDatasetWithWarnings({ source: 'http', ref: 'huge.yaml' });
    expect(questions).toEqual([]);
    expect(warnings[0]).toBe(
      `http:huge.yaml: GET ${base}/huge.yaml announced 67108865 bytes, over the limit of 67108864 for one document; not read.`,
    );
  });

  it('fetches, validates and filters a document, and caches it for the run', async () => {
    const first = await loadDatasetWithWarnings({ source: 'http', ref: 'support.yaml' });
    expect(first.warnings).toEqual([]);
    expect(first.questions.map((q) => q.id)).toEqual(['a', 'b']);
    expect(
      (await loadDataset({ source: 'http', ref: 'support.yaml', split: 'smoke' })).map((q) => q.id),
    ).toEqual(['a']);
    expect(
      (await loadDataset({ source: 'http', ref: 'support.yaml', tags: ['t'] })).map((q) => q.id),
    ).toEqual(['a']);
    expect(await httpSource.load('support.yaml', 'b')).toEqual([{ id: 'b', input: 'y' }]);
    expect(requests).toEqual(['/registry/support.yaml']);
    expect((await loadDataset({ source: 'http', ref: 'support.json' })).map((q) => q.id)).toEqual(['j']);
    expect(requests).toEqual(['/registry/support.yaml', '/registry/support.json']);
  });

  it('logs and returns [] on 404', async () => {
    const result = await loadDatasetWithWarnings({ source: 'http', ref: 'missing.yaml' });
    expect(result.questions).toEqual([]);
    expect(result.warnings).toEqual([
      `http:missing.yaml: GET ${base}/missing.yaml answered 404 Not Found; nothing loaded.`,
    ]);
  });

  it('logs the warnings of a cached failure again on every load', async () => {
    const expected = [`http:missing.yaml: GET ${base}/missing.yaml answered 404 Not Found; nothing loaded.`];
    const first = await loadDatasetWithWarnings({ source: 'http', ref: 'missing.yaml' });
    const second = await loadDatasetWithWarnings({ source: 'http', ref: 'missing.yaml' });
    expect(first.warnings).toEqual(expected);
    expect(second.warnings).toEqual(expected);
    const invalid = [
      'http:invalid.yaml failed dataset validation and was refused whole (1 problem(s)).',
      "http:invalid.yaml:3:12: /questions/0/input: must be a string, got number 5. Fix the value of 'input'.",
    ];
    expect((await loadDatasetWithWarnings({ source: 'http', ref: 'invalid.yaml' })).warnings).toEqual(
      invalid,
    );
    expect((await loadDatasetWithWarnings({ source: 'http', ref: 'invalid.yaml' })).warnings).toEqual(
      invalid,
    );
    // Cached: one request each.
    expect(requests).toEqual(['/registry/missing.yaml', '/registry/invalid.yaml']);
  });

  it('gives up after the timeout', async () => {
    configure({ datasets: { httpTimeoutMs: 500 } });
    const result = await loadDatasetWithWarnings({ source: 'http', ref: 'slow.yaml' });
    expect(result.questions).toEqual([]);
    expect(result.warnings).toEqual([
      `http:slow.yaml: GET ${base}/slow.yaml failed: timed out after 500 ms. Fix: check datasets.httpBaseUrl, or raise datasets.httpTimeoutMs.`,
    ]);
  });

  it('refuses an invalid document whole, with its lines', async () => {
    const result = await loadDatasetWithWarnings({ source: 'http', ref: 'invalid.yaml' });
    expect(result.questions).toEqual([]);
    expect(result.warnings).toEqual([
      'http:invalid.yaml failed dataset validation and was refused whole (1 problem(s)).',
      "http:invalid.yaml:3:12: /questions/0/input: must be a string, got number 5. Fix the value of 'input'.",
    ]);
  });

  it('sends no request for a non-bare ref, and needs a valid base URL', async () => {
    const { value, logs } = await captureLogsAsync(
      () => httpSource.load('../etc/passwd') as Promise<unknown>,
    );
    expect(value).toEqual([]);
    expect(logs.map((l) => l.message)).toEqual([
      'http:../etc/passwd: refusing dataset ref "../etc/passwd": the http source takes bare document names only.',
    ]);
    configure({ datasets: { httpBaseUrl: 'file:///etc/' } });
    const bad = await loadDatasetWithWarnings({ source: 'http', ref: 'support.yaml' });
    expect(bad.warnings[0]).toBe(
      'http:support.yaml: datasets.httpBaseUrl "file:///etc/" is not an http(s) URL (unsupported protocol file:).',
    );
    resetConfig();
    const none = await loadDatasetWithWarnings({ source: 'http', ref: 'support.yaml' });
    expect(none.warnings[0]).toMatch(/^http:support\.yaml: no base URL configured\. Fix: configure/);
    expect(requests).toEqual([]);
  });

  it('lists the documents of the registry index', async () => {
    expect(await httpSource.listDatasets()).toEqual(['support.yaml', 'support.json']);
  });
});
