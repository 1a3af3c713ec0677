import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * Serves `files` (path to body, as YAML) on 127.0.0.1 for the tests of the calling `describe`, 404
 * for any other path; `base()` is its URL with a trailing slash once `beforeAll` has run.
 *
 * @example
 * ```ts
 * const server = serveFiles({ '/bad.yaml': 'questions: 1\n' });
 * it('pulls', async () => { await cli(['pull', 'http', `${server.base()}bad.yaml`], dir); });
 * ```
 */
export function serveFiles(files: Record<string, string>): { base: () => string } {
  let server: Server | undefined;
  let base = '';
  beforeAll(async () => {
    const started = createServer((req, res) => {
      const body = Object.hasOwn(files, req.url ?? '') ? files[req.url ?? ''] : undefined;
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/yaml' });
      res.end(body ?? 'not found');
    });
    server = started;
    await new Promise<void>((done) => started.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(started.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));
  return {
    base: () => {
      if (base === '') throw new Error('serveFiles: base() read before beforeAll ran');
      return base;
    },
  };
}
