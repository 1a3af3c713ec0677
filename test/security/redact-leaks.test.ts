import { describe, expect, it } from 'vitest';
import { redactText, REDACTED } from '../../src/internal/redact.js';

// Leaks that reached a judge provider unredacted. Each case is redacted, and redacting it again
// changes nothing; the texts beside them that hold no secret are kept as they are.

describe('redactText, HTTP auth objects (Python requests, httpx, aiohttp)', () => {
  it.each([
    [
      "requests.get(url, auth=HTTPBasicAuth('admin', 's3cret'))",
      `requests.get(url, auth=HTTPBasicAuth('admin', '${REDACTED}'))`,
    ],
    ['auth = HTTPDigestAuth("admin", "s3cret")', `auth = HTTPDigestAuth("admin", "${REDACTED}")`],
    [
      "r = get(u, auth=requests.auth.HTTPBasicAuth('admin', 's3cret'))",
      `r = get(u, auth=requests.auth.HTTPBasicAuth('admin', '${REDACTED}'))`,
    ],
    ["basic = HTTPBasicAuth('admin', 's3cret')", `basic = HTTPBasicAuth('admin', '${REDACTED}')`],
    ["HTTPProxyAuth(user, 's3cret')", `HTTPProxyAuth(user, '${REDACTED}')`],
    ["httpx.BasicAuth('admin', 's3cret')", `httpx.BasicAuth('admin', '${REDACTED}')`],
    [
      "aiohttp.BasicAuth('admin', 's3cret', encoding='utf-8')",
      `aiohttp.BasicAuth('admin', '${REDACTED}', encoding='utf-8')`,
    ],
    // inside JSON: a tool call's code argument
    [
      '{"code": "requests.get(u, auth=HTTPBasicAuth(\\"admin\\", \\"s3cret\\"))"}',
      `{"code": "requests.get(u, auth=HTTPBasicAuth(\\"admin\\", \\"${REDACTED}\\"))"}`,
    ],
    [
      "HTTPBasicAuth(username='admin', password='s3cret')",
      `HTTPBasicAuth(username='admin', password='${REDACTED}')`,
    ],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it.each([
    // a password read from a variable or the environment is a reference, not the secret
    'auth=HTTPBasicAuth(user, password)',
    "auth=HTTPBasicAuth('admin', os.environ['ADMIN_PASSWORD'])",
    'from requests.auth import HTTPBasicAuth, HTTPDigestAuth',
    'HTTPBasicAuth() takes a user and a password',
  ])('keeps %s', (text) => {
    expect(redactText(text)).toBe(text);
  });
});
