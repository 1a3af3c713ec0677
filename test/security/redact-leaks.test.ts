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

describe('redactText, session cookies outside a Cookie header', () => {
  it.each([
    // a Cookie or Set-Cookie header already loses its whole line
    ['Cookie: sid=abc123def456; theme=dark', `Cookie: ${REDACTED}`],
    ['Set-Cookie: sessionid=abc123def456; Path=/', `Set-Cookie: ${REDACTED}`],
    ["curl -b 'sid=abc123def456' https://x.test", `curl -b 'sid=${REDACTED}' https://x.test`],
    [
      'curl -b "theme=dark; connect.sid=s%3AZq81kd93jdk2.AAx9bC" https://x.test',
      `curl -b "theme=dark; connect.sid=${REDACTED}" https://x.test`,
    ],
    ['PHPSESSID=el4ukv0kqbvoirg7nkp4dncpk3', `PHPSESSID=${REDACTED}`],
    ['GET /app;jsessionid=8C3F1A2B4D5E6F708192A3B4C5D6E7F8?x=1', `GET /app;jsessionid=${REDACTED}?x=1`],
    ['JSESSIONID=8C3F1A2B4D5E6F708192A3B4C5D6E7F8; Path=/', `JSESSIONID=${REDACTED}; Path=/`],
    ['document.cookie = "sid=abc123def456"', `document.cookie = "${REDACTED}"`],
    [
      "fetch(u, { headers: { 'X-Session': 'laravel_session=eyJpdiI6Ik1x0' } })",
      `fetch(u, { headers: { 'X-Session': 'laravel_session=${REDACTED}' } })`,
    ],
    [
      'the browser sent _shop_session=QmFzZTY0LWVuY29kZWQ2 along',
      `the browser sent _shop_session=${REDACTED} along`,
    ],
    ['https://x.test/page?sid=abc123def456&lang=en', `https://x.test/page?sid=${REDACTED}&lang=en`],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it.each([
    "curl -b 'theme=dark; lang=en' https://x.test",
    'ORACLE_SID=orcl19c',
    '(CONNECT_DATA=(SID=orcl))',
    's = requests.Session(); s.get(u, session=s)',
    'session=requests.Session()',
    'sid=42',
  ])('keeps %s', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactText, one-time codes in prose (digits only)', () => {
  it.each([
    ['Your OTP is 482913', `Your OTP is ${REDACTED}`],
    ['verification code: 482913', `verification code: ${REDACTED}`],
    ['Your verification code is 482913.', `Your verification code is ${REDACTED}.`],
    ['use code 482913 to sign in', `use code ${REDACTED} to sign in`],
    ['Enter code 482913 to verify your email', `Enter code ${REDACTED} to verify your email`],
    ['2FA code 482913', `2FA code ${REDACTED}`],
    ['MFA code: 482 913', `MFA code: ${REDACTED}`],
    ['your one-time code is 4829', `your one-time code is ${REDACTED}`],
    ['One-time password: 48291367', `One-time password: ${REDACTED}`],
    ['the passcode is 9021', `the passcode is ${REDACTED}`],
    ['security code 482913', `security code ${REDACTED}`],
    ['login code: **482913**', `login code: **${REDACTED}**`],
    ['{"verification_code": "482913"}', `{"verification_code": "${REDACTED}"}`],
    ['TOTP 482913 accepted', `TOTP ${REDACTED} accepted`],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it.each([
    'order 482913',
    'code 404 error',
    'error code 500',
    'status code 200',
    'zip code 94107',
    'area code 415',
    'code 3 lines long',
    'use code 4000 for 10% off',
    'the verification code expires in 10 minutes',
    'MFA code length: 6',
    'OTP valid for 300 seconds',
    'exit code 1, see the verification code section',
    'the verification code is sent; order 482913 shipped',
    'security code review on 2024-05-01',
  ])('keeps %s', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactText, codes in the URLs of auth flows', () => {
  it.each([
    [
      'https://app.example.com/oauth/callback?code=4/0AX4XfWhAbC&state=xyz',
      `https://app.example.com/oauth/callback?code=${REDACTED}&state=xyz`,
    ],
    [
      'GET /auth/google/callback?code=4/0AX4XfWh&scope=email 302',
      `GET /auth/google/callback?code=${REDACTED}&scope=email 302`,
    ],
    [
      'open https://app.example.com/verify?code=482913 now',
      `open https://app.example.com/verify?code=${REDACTED} now`,
    ],
    [
      'https://app.example.com/reset-password?email=a%40b.c&code=Zq81kd93',
      `https://app.example.com/reset-password?email=a%40b.c&code=${REDACTED}`,
    ],
    ['/confirm-email?code=abc123def', `/confirm-email?code=${REDACTED}`],
    ['https://x.test/magic?code=abc123def', `https://x.test/magic?code=${REDACTED}`],
    ['https://x.test/login?code=abc123def', `https://x.test/login?code=${REDACTED}`],
    // no auth word in the path, but a state parameter beside the code: an OAuth redirect
    [
      'https://app.example.com/cb?state=xyz&code=ghoAbc123',
      `https://app.example.com/cb?state=xyz&code=${REDACTED}`,
    ],
    [
      '[back](https://app.test/oauth/callback?code=abc123def)',
      `[back](https://app.test/oauth/callback?code=${REDACTED})`,
    ],
    // already handled: a token, or a key, in a reset or magic link
    ['https://app.example.com/reset?token=abcdef123456', `https://app.example.com/reset?token=${REDACTED}`],
    ['https://app.example.com/magic-link?key=abc123', `https://app.example.com/magic-link?key=${REDACTED}`],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it.each([
    'https://x.com/shop?code=US',
    'https://x.com/err?code=404',
    'https://restcountries.example/v3/alpha?code=US&fields=name',
    '/products?code=SAVE20&qty=2',
    'https://x.test/verify?zipcode=94107',
    'https://x.test/oauth/callback?error=access_denied&state=xyz',
    'see /docs/oauth.md, then GET /api?code=US',
  ])('keeps %s', (text) => {
    expect(redactText(text)).toBe(text);
  });
});
