import { describe, expect, it } from 'vitest';
import {
  isSecretKey,
  MIN_LITERAL_SECRET_CHARS,
  redactText,
  redactValue,
  REDACTED,
  SECRET_PAIRS,
  SECRET_WORDS,
} from '../../src/internal/redact.js';
import { capReason, REASON_CHAR_LIMIT, safeReason, TRUNCATED_MARKER } from '../../src/internal/reason.js';
import { redactSecrets } from '../../src/judge/http-errors.js';
import { redactArguments, redactText as reportRedactText } from '../../src/report/redact.js';

describe('secret keys', () => {
  it.each([
    'api_key',
    'apiKey',
    'API_KEY',
    'OPENAI_API_KEY',
    'x-api-key',
    'X-Api-Key',
    'apikey',
    'token',
    'access_token',
    'refreshToken',
    'password',
    'Password',
    'passwd',
    'authorization',
    'Authorization',
    'secret',
    'client_secret',
    'clientSecret',
    'cookie',
    'set-cookie',
    'Set-Cookie',
    'private_key',
    'privateKey',
    'aws_secret_access_key',
    'session_id',
    'credentials',
  ])('%s is secret', (key) => {
    expect(isSecretKey(key)).toBe(true);
  });

  it.each([
    'max_tokens',
    'total_tokens',
    'token_count',
    'user',
    'query',
    'key',
    'primary_key_column',
    'pass',
  ])('%s is not', (key) => {
    expect(isSecretKey(key)).toBe(false);
  });
});

describe('redactText', () => {
  it.each([
    ['Authorization: Bearer TOKEN-abc.def-123', 'Authorization: [redacted]'],
    ['authorization: Basic dXNlcjpodW50ZXIy', 'authorization: [redacted]'],
    ['sent Bearer abcdefghijk to it', 'sent Bearer [redacted] to it'],
    ['header Basic dXNlcjpodW50ZXIy here', 'header Basic [redacted] here'],
    ['login {"password":"hunter2","user":"a"}', 'login {"password":"[redacted]","user":"a"}'],
    ['{\\"api_key\\":\\"k-123\\",\\"q\\":\\"x\\"}', '{\\"api_key\\":\\"[redacted]\\",\\"q\\":\\"x\\"}'],
    ['api_key=XYZ token: t0k3n', 'api_key=[redacted] token: [redacted]'],
    ['GET /x?access_token=abc&page=2', 'GET /x?access_token=[redacted]&page=2'],
    ["{'client_secret': 'cs'}", "{'client_secret': '[redacted]'}"],
    ['Cookie: session=abc123', 'Cookie: [redacted]'],
    ['key sk-proj-abcdefghijklmnop1234 leaked', 'key [redacted] leaked'],
    ['sk-abcdefghijklmnopqrstu', '[redacted]'],
    ['my key is sk-abcdefghijklmnop1234.', 'my key is [redacted].'],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', '[redacted]'],
    ['AKIAABCDEFGHIJKLMNOP', '[redacted]'],
    ['https://bob:hunter2@example.com/datasets/', 'https://[redacted]@example.com/datasets/'],
    ['see http://token123@host.test/a', 'see http://[redacted]@host.test/a'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----', '[redacted]'],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
  });

  it('leaves ordinary text alone', () => {
    for (const text of [
      'Basic settings are fine; the bearer of news',
      'max_tokens: 200, total_tokens=300',
      'mail bob@example.com or see https://example.com/a?b=c@d',
      'a risk-assessment-matrix and a task-list',
      '{"score": 4, "reason": "covers both points"}',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });

  it('removes a literal secret wherever it is, and is idempotent', () => {
    const once = redactText('my key is plainkey42-0123456 (plainkey42-0123456)', ['plainkey42-0123456']);
    expect(once).toBe('my key is [redacted] ([redacted])');
    const text = 'Authorization: Bearer abcdefgh12 {"token":"x"} https://u:p@h.test';
    expect(redactText(redactText(text))).toBe(redactText(text));
  });

  it('costs linear time on a long text without separators', () => {
    const long = `${'a'.repeat(2_000_000)}: ${'b'.repeat(100)}`;
    expect(redactText(long)).toBe(long);
  });

  // About 200 KB of the shape that costs each pattern added for a leak (redact-leaks.test.ts) the
  // most, none of it a secret: like the test above, they rely on the test's timeout.
  it.each([
    ['HTTP auth objects whose password never closes', `HTTPBasicAuth(a, '${'b'.repeat(600)}`.repeat(320)],
    ['HTTP auth objects whose first argument never ends', `HTTPDigestAuth(${'u'.repeat(300)}`.repeat(650)],
    ['auth= before auth objects', 'auth=requests.auth.HTTPBasicAuth(user, pw) '.repeat(4_700)],
    ['session cookies too long, each before a (', `session=${'a1'.repeat(2_100)}(`.repeat(48)],
    ['session cookie names without a value', ' x_session sid PHPSESSID=x'.repeat(7_500)],
    ['a session word and an = in every word', 'session=a;sid=1;'.repeat(12_500)],
    ['one-time code words before no code', 'your verification code is: "x '.repeat(6_700)],
    ['use code and digits, for no sign-in', 'use code 482913 for 10% off '.repeat(7_200)],
    ['auth-flow URLs with empty codes', '/oauth/callback?state=x&code= '.repeat(6_500)],
    ['long paths with code= and no query', `${'p/'.repeat(1_100)}code=x `.repeat(90)],
    ['a query start in every word', '(a?code=&(b?state '.repeat(11_000)],
    ['codes too long to be one-time codes', `verification code ${'1'.repeat(11)}; `.repeat(6_700)],
  ])('costs linear time on a long text: %s', (_shape, long) => {
    expect(long.length).toBeGreaterThan(190_000);
    expect(redactText(long)).toBe(long);
  });

  it('is what the judge and the report use', () => {
    expect(redactSecrets('Incorrect API key provided: my-own-key-0123456', 'my-own-key-0123456')).toBe(
      `Incorrect API key provided: ${REDACTED}`,
    );
    expect(reportRedactText).toBe(redactText);
    expect(redactArguments).toBe(redactValue);
  });
});

describe('redactValue', () => {
  it('redacts values under secret keys at any depth, keeping the names', () => {
    expect(
      redactValue({
        user: 'a',
        api_key: 'k',
        apiKey: { nested: 'x' },
        empty: { password: '' },
        list: [{ token: 't', note: 'Bearer abcdefghijk' }],
        n: 3,
      }),
    ).toEqual({
      user: 'a',
      api_key: REDACTED,
      apiKey: REDACTED,
      empty: { password: '' },
      list: [{ token: REDACTED, note: `Bearer ${REDACTED}` }],
      n: 3,
    });
  });

  it('keeps a __proto__ key as data', () => {
    const value = redactValue(JSON.parse('{"__proto__": {"token": "t"}}')) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"token":"[redacted]"}}');
  });
});

describe('reasons', () => {
  it('are capped with a marker, the marker included, and capping twice changes nothing', () => {
    const capped = capReason('x'.repeat(10_000_000));
    expect(capped).toHaveLength(REASON_CHAR_LIMIT);
    expect(capped.endsWith(TRUNCATED_MARKER)).toBe(true);
    expect(capReason(capped)).toBe(capped);
    expect(capReason('short')).toBe('short');
  });

  it('are redacted before they are capped', () => {
    const reason = `${'y'.repeat(REASON_CHAR_LIMIT - 30)} token=abcdefghijklmnopqrstuvwxyz0123456789`;
    const safe = safeReason(reason);
    expect(safe).not.toContain('abcdefghijklmnop');
    expect(safe.length).toBeLessThanOrEqual(REASON_CHAR_LIMIT);
  });
});

describe('redactText, again', () => {
  it('gives the same answer for a text it redacted before, and still takes extra secrets', () => {
    const text = 'called login {"password":"hunter2"} with sk-abcdefghijklmnop1234 at https://bob:pw@x.io/';
    const first = redactText(text);
    expect(first).toBe('called login {"password":"[redacted]"} with [redacted] at https://[redacted]@x.io/');
    expect(redactText(text)).toBe(first);
    // A text remembered without extra secrets is redacted afresh when they are given.
    expect(redactText('plain words and hunter42hunter42', [])).toBe('plain words and hunter42hunter42');
    expect(redactText('plain words and hunter42hunter42', ['hunter42hunter42'])).toBe(
      `plain words and ${REDACTED}`,
    );
  });

  it('answers a text without the configured key as it would without a key, patterns and all', () => {
    const key = 'sk-live-0123456789abcdefXYZ';
    const text = 'the judge said: relevant; password=hunter2 was in the log';
    const alone = redactText(text);
    expect(alone).toBe(`the judge said: relevant; password=${REDACTED} was in the log`);
    // A key the text does not hold changes nothing, remembered answer or not.
    expect(redactText(text, [key])).toBe(alone);
    expect(redactText(`${text} (${key})`, [key])).toBe(
      `the judge said: relevant; password=${REDACTED} was in the log (${REDACTED})`,
    );
    // A text first redacted with a key it holds is remembered for no one.
    const echoed = `Incorrect API key provided: ${key}`;
    expect(redactText(echoed, [key])).toBe(`Incorrect API key provided: ${REDACTED}`);
    expect(redactText(echoed, [key])).toBe(`Incorrect API key provided: ${REDACTED}`);
  });
});

describe('redactText, the quick test before the key=value pattern', () => {
  // A text skips the key=value pattern unless it contains what every secret key contains: every
  // word and pair that makes a key secret must get through that test, in every way keys are written.
  const camel = (parts: string[]) =>
    parts.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
  const forms = (parts: string[]) => [
    parts.join('_'),
    parts.join('-'),
    parts.join('.'),
    parts.join(''),
    camel(parts),
    parts.join('_').toUpperCase(),
    `x_${parts.join('_')}_value`,
  ];
  const keys = [
    ...[...SECRET_WORDS].flatMap((word) => forms([word])),
    ...[...SECRET_PAIRS].flatMap((pair) => forms(pair.split(' '))),
  ].filter((key) => isSecretKey(key));

  it('lets every secret key through, so its value is still redacted', () => {
    expect(keys.length).toBeGreaterThan(80);
    for (const key of keys) {
      expect(redactText(`sent ${key}=hunter2x9 once`), key).toBe(`sent ${key}=${REDACTED} once`);
      expect(redactText(`{"${key}": "hunter2x9"}`), key).toBe(`{"${key}": "${REDACTED}"}`);
    }
  });

  it('leaves a text without a secret key as it was, colons and all', () => {
    const reason = '1/2 expected tools met among 3 recorded calls: missed: search with {"q":"topic 50"}';
    expect(redactText(reason)).toBe(reason);
  });
});

describe('redactText, auth schemes in any case', () => {
  it.each([
    ['authorization: bearer LEAKTOKEN1234567', 'authorization: [redacted]'],
    ['Authorization: BEARER LEAKTOKEN1234567', 'Authorization: [redacted]'],
    ['auth: bearer LEAKTOKEN1234567', 'auth: [redacted]'],
    ['token: bearer LEAKTOKEN1234567', 'token: [redacted]'],
    ['authorization: basic dXNlcjpodW50ZXIy', 'authorization: [redacted]'],
    ['authorization=token LEAKTOKEN1234567 next', 'authorization=[redacted] next'],
    ['proxy-authorization: digest LEAKTOKEN1234567', 'proxy-authorization: [redacted]'],
    ['{"auth": "bearer LEAKTOKEN1234567"}', '{"auth": "[redacted]"}'],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(text)).not.toContain('LEAKTOKEN');
  });
});

describe('redactText, file positions', () => {
  it.each([
    'evals/cookie-policy.yaml:3:12: /questions/0/input: must be a string',
    'evals/password-reset.yaml:3:12: /questions/0/input: must be a string',
    'evals/auth.yaml:10:1: bad indentation',
    'evals/secret-santa.json:1:2: unexpected token',
    'fixtures/api-key-rotation.yaml:7:3: duplicate key',
    'fixtures/credentials.yaml:7:3: duplicate key',
    'fixtures/session-id.json:1:1: not JSON',
    'datasets/token-budget.yaml:12:5: must be a number',
    '/etc/passwd:3:1: no such user',
    'at evals/cookie-policy.yaml:3:12',
  ])('keeps %s', (text) => {
    expect(redactText(text)).toBe(text);
  });

  it.each([
    ['password: hunter2', 'password: [redacted]'],
    ['password:hunter2', 'password:[redacted]'],
    ['token=abcdef123456', 'token=[redacted]'],
    ['password: 1234', 'password: [redacted]'],
    ['password:1234', 'password:[redacted]'],
    ['pin and password=3:12x', 'pin and password=[redacted]'],
    // a value that begins its line takes the plain words after it (a passphrase)
    ['secret: 3:12 later', 'secret: [redacted]'],
    ['note, secret: 3:12 later', 'note, secret: [redacted] later'],
    ['evals/auth.yaml:3:12: password: hunter2', 'evals/auth.yaml:3:12: password: [redacted]'],
  ])('still redacts %s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
  });
});

describe('redactText, a configured key too short to be a secret', () => {
  it('is kept as it is: a placeholder such as ollama is a word, not a key', () => {
    expect(redactText('How do I pull a model with ollama?', ['ollama'])).toBe(
      'How do I pull a model with ollama?',
    );
    expect(redactText('the key-of-15chars here', ['key-of-15chars!'])).toBe('the key-of-15chars here');
    expect(redactText('a 15 char key: abcdefghijklmno.', ['abcdefghijklmno'])).toBe(
      'a 15 char key: abcdefghijklmno.',
    );
  });

  it('is redacted however short when it says it is a key (sk-), as a 401 message echoes it', () => {
    expect(redactText('Incorrect API key provided: sk-Zx81kQ7a9b.', ['sk-Zx81kQ7a9b'])).toBe(
      `Incorrect API key provided: ${REDACTED}.`,
    );
  });

  it('is redacted from 16 characters on, wherever it is', () => {
    expect(redactText('a 16 char key: abcdefghijklmnop.', ['abcdefghijklmnop'])).toBe(
      `a 16 char key: ${REDACTED}.`,
    );
    expect(MIN_LITERAL_SECRET_CHARS).toBe(16);
  });
});

describe('redactText, keys written as two words', () => {
  it.each([
    ['api key: abc123def456ghi789', 'api key: [redacted]'],
    ['API Key = abc123def456ghi789', 'API Key = [redacted]'],
    ['my OpenAI API key: abc123def456ghi789, thanks', 'my OpenAI API key: [redacted], thanks'],
    ['access token: abc123def456ghi789', 'access token: [redacted]'],
    ['client secret: abc123def456ghi789', 'client secret: [redacted]'],
    ['private key: abc123def456ghi789', 'private key: [redacted]'],
    ['Session ID=abc123def456ghi789; path=/', 'Session ID=[redacted]; path=/'],
    ['secret key: abc123def456ghi789', 'secret key: [redacted]'],
    ['{"api key": "abc123def456ghi789"}', '{"api key": "[redacted]"}'],
    ['api key: hunter2', 'api key: [redacted]'],
    ['api key: HunterTwo', 'api key: [redacted]'],
    ['api key: "set"', 'api key: "[redacted]"'],
    ['api_key: set', 'api_key: [redacted]'],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
  });

  it('leaves prose and keys that name no secret alone', () => {
    for (const text of [
      'the secret to good soup is salt',
      'token count: 42',
      'password reset: enabled',
      'primary key: id',
      'sort key: name',
      'the api is key: use it',
      'fixtures/api-key-rotation.yaml:7:3: duplicate key',
      // A sentence going on after a key written as prose: the judge's own error message.
      'no judge API key: set OPENAI_API_KEY (or judge.apiKey)',
      'Invalid API key: check the dashboard',
      'Session ID: Missing from the request',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('redactText, YAML values below their key', () => {
  it.each(['>-', '|', '|-', '>', '|+', '>2'])('redacts every line of a %s block scalar', (indicator) => {
    const text = `name: demo\nsecret: ${indicator}\n  s3cr3t-value-line-one\n  more\n\n  s3cr3t-value-line-three\nnext: 1`;
    expect(redactText(text)).toBe(`name: demo\nsecret: ${indicator}\n  ${REDACTED}\nnext: 1`);
  });

  it.each([
    [
      'password:\n  s3cr3t-value-line-one\n  s3cr3t-value-line-two\nuser: bob',
      `password:\n  ${REDACTED}\nuser: bob`,
    ],
    ['token:\n            s3cr3t-value-deep\nuser: bob', `token:\n            ${REDACTED}\nuser: bob`],
    ['api key:\n  s3cr3t-value-line-one\n  two', `api key:\n  ${REDACTED}`],
    ['API Key:\n  s3cr3t-value-line-one\nnext: 1', `API Key:\n  ${REDACTED}\nnext: 1`],
    ['token:\n  - s3cr3t-value-one\n  - s3cr3t-value-two\nnext: 1', `token:\n  ${REDACTED}\nnext: 1`],
    ['"client_secret":\n  "s3cr3t value"\nregion: eu', `"client_secret":\n  ${REDACTED}\nregion: eu`],
    [
      'config:\n  client_secret: |\n    s3cr3t-value-line-one\n    two\n  region: eu',
      `config:\n  client_secret: |\n    ${REDACTED}\n  region: eu`,
    ],
    [
      '- password: >\n    s3cr3t-value-line-one\n    two\n  user: bob',
      `- password: >\n    ${REDACTED}\n  user: bob`,
    ],
    [
      'credentials:\n- s3cr3t-value-one\n- s3cr3t-value-two\nuser: bob',
      `credentials:\n${REDACTED}\nuser: bob`,
    ],
    ['secret: |\r\n  s3cr3t-value-line-one\r\n  two\r\nnext: 1', `secret: |\r\n  ${REDACTED}\r\nnext: 1`],
  ])('%j', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it('leaves a block under a key that names no secret alone', () => {
    for (const text of [
      'description: |\n  the secret to good soup is salt\n  and time\nnext: 1',
      'token_count:\n  42\nnext: 1',
      'evals/secret.yaml:3:12:\n  bad indentation',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('redactText, short sk- keys in text', () => {
  it.each([
    ['use sk-ABCDEFGHIJ here', 'use [redacted] here'],
    ['key sk-Zx81kQ7a9b.', 'key [redacted].'],
    ['sk-proj-Ab3dEf7h', '[redacted]'],
    ['sk-ant-api03-Xy9', '[redacted]'],
    ['sk-abcdefghijkl', '[redacted]'],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
  });

  it('leaves words that start sk- alone', () => {
    for (const text of [
      'pip install sk-learn',
      'we used sk-learn and scikit-learn',
      'sk-learn-docs',
      'the sk-image filter',
      'sk-v2 model',
      'a risk-assessment matrix',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('redactText, a secret key right after another key', () => {
  it.each([
    ['Error: token: abc123def', `Error: token: ${REDACTED}`],
    ['note: password: hunter2', `note: password: ${REDACTED}`],
    ['x=api_key=abc123def', `x=api_key=${REDACTED}`],
    ['{"note": "token: abc123def"}', `{"note": "token: ${REDACTED}"}`],
    ['a: b: c: d: password=x1', `a: b: c: d: password=${REDACTED}`],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
  });

  it('does not take a path that ends in a secret word for a key', () => {
    for (const text of [
      'http:../etc/passwd: refusing dataset ref',
      'cannot read /etc/passwd: permission denied',
      'file: fixtures/token: not found',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('redactText, a value on the next line', () => {
  it('is redacted, unless that line is a key of its own', () => {
    expect(redactText('Here is the password:\nhunter2')).toBe(`Here is the password:\n${REDACTED}`);
    expect(redactText('password:\nuser: bob')).toBe('password:\nuser: bob');
    expect(redactText('password: \r\nuser: bob')).toBe('password: \r\nuser: bob');
    expect(redactText('token:\n\nnext: 1')).toBe('token:\n\nnext: 1');
    expect(redactText('password:\n  hunter2\nuser: bob')).toBe(`password:\n  ${REDACTED}\nuser: bob`);
  });
});

describe('redactText, more key shapes', () => {
  it.each([
    ['NPM_TOKEN=x npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', `NPM_TOKEN=${REDACTED} ${REDACTED}`],
    ['//registry.npmjs.org/ npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', `//registry.npmjs.org/ ${REDACTED}`],
    ['git push with glpat-AbCdEf0123456789xYzW', `git push with ${REDACTED}`],
    ['hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567 in the cell', `${REDACTED} in the cell`],
    ['webhook whsec_AbCdEf0123456789AbCdEf0123456789', `webhook ${REDACTED}`],
    ['SG.AbCdEfGhIjKlMnOpQrStUv.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG', REDACTED],
    ['ya29.a0AfH6SMBAbCdEf0123456789AbCdEf0123456789', REDACTED],
    ['Twilio key SK0123456789abcdef0123456789abcdef', `Twilio key ${REDACTED}`],
    [
      'POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX ok',
      `POST https://hooks.slack.com/services/${REDACTED} ok`,
    ],
    [
      'https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123',
      `https://discord.com/api/webhooks/${REDACTED}`,
    ],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it('leaves words that share a prefix alone', () => {
    for (const text of [
      'hf_hub_download(repo_id="gpt2")',
      'npm_config_cache is set',
      'the glpat- prefix',
      'SKU-0123456789 and ASK0123456789abcdef0123456789abcdef',
      'see https://hooks.slack.com/services/ for the docs',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('redactText, private key blocks', () => {
  it.each([
    ['-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF0AbCdEf\n-----END PGP PRIVATE KEY BLOCK-----', REDACTED],
    [
      'found:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3\nabcdEFGH+/==\n\nThat is all.',
      `found:\n${REDACTED}\n\nThat is all.`,
    ],
    ['{"k": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADAN\\nBgkqhk"}', `{"k": "${REDACTED}"}`],
  ])('%j', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
  });

  // Linear time is held by the test's timeout: in quadratic time this 1.5 MB text takes hours.
  it('costs linear time on many BEGIN lines without an END', () => {
    const text = '-----BEGIN PRIVATE KEY-----\nx '.repeat(50_000);
    expect(redactText(text)).toBe(`${REDACTED}\nx `.repeat(50_000));
  });
});

describe('redactText, credentials in URLs and connection strings', () => {
  it.each([
    ['mysql://root:p@ssw0rd@localhost:3306/app', `mysql://${REDACTED}@localhost:3306/app`],
    ['see redis://:R3d@s@cache:6379/0 now', `see redis://${REDACTED}@cache:6379/0 now`],
    [
      'https://x.blob.core.windows.net/c/f.txt?sv=2021-08-06&sr=b&sp=r&sig=AbC%2Bdef123456789XyZ%3D',
      `https://x.blob.core.windows.net/c/f.txt?sv=2021-08-06&sr=b&sp=r&sig=${REDACTED}`,
    ],
    [
      'https://b.s3.amazonaws.com/k?X-Amz-Date=20240101&X-Amz-Signature=abcdef0123456789abcdef&x=1',
      `https://b.s3.amazonaws.com/k?X-Amz-Date=20240101&X-Amz-Signature=${REDACTED}&x=1`,
    ],
    [
      'GET https://maps.example.com/api?key=Zq81kd93jdk2AAx&q=paris',
      `GET https://maps.example.com/api?key=${REDACTED}&q=paris`,
    ],
    [
      'AccountName=acct;AccountKey=AbCdEf0123456789+/==;EndpointSuffix=core.windows.net',
      `AccountName=acct;AccountKey=${REDACTED};EndpointSuffix=core.windows.net`,
    ],
    ['PGPASSWORD=Pg_pa55word psql -h db', `PGPASSWORD=${REDACTED} psql -h db`],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it('leaves URLs and prose without credentials alone', () => {
    for (const text of [
      'https://example.com/docs?page=2&lang=en',
      'mail bob@example.com or see https://example.com/a?b=c@d',
      'the sort key=name, and signature=John Doe on the form',
      'https://example.com/search?keyword=x&q=signature',
      'account key: missing',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('redactText, cookies, command-line flags and curl -u', () => {
  it.each([
    [
      'Cookie: theme=dark; sessionid=Zq81kd93jdk2AAx; csrftoken=Yy71kd93jdk2BBx\nHost: x',
      `Cookie: ${REDACTED}\nHost: x`,
    ],
    ['set-cookie: a=1; _session=Zq81kd93jdk2AAx; Path=/\r\nX: y', `set-cookie: ${REDACTED}\r\nX: y`],
    ['wget --password=Pg_pa55word https://x.test/f', `wget --password=${REDACTED} https://x.test/f`],
    ['npx tool --api-key=Zq81kd93jdk2AAx run', `npx tool --api-key=${REDACTED} run`],
    ['npx tool --api-key Zq81kd93jdk2AAx run', `npx tool --api-key ${REDACTED} run`],
    ['gh auth login --with-token ghx_Zq81kd93', `gh auth login --with-token ${REDACTED}`],
    ['psql --password "Pg pa55 word"', `psql --password "${REDACTED}"`],
    ['curl -u admin:S3cretPa55 https://j.test/api', `curl -u admin:${REDACTED} https://j.test/api`],
    ["curl --user 'admin:S3cretPa55' https://j.test", `curl --user 'admin:${REDACTED}' https://j.test`],
  ])('%j', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it('leaves flags that name no secret value alone', () => {
    for (const text of [
      'pass the --token flag to the CLI',
      'docker login --password-stdin registry.example.com',
      'use --api-key $OPENAI_API_KEY',
      'run --token-file /run/secrets/t',
      'docker run -u 1000:1000 img',
      'Set-Cookie headers are stripped by the proxy.',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('redactText, a secret named in prose', () => {
  it.each([
    ['my password is hunter2', `my password is ${REDACTED}`],
    ['the token is abc123, keep it', `the token is ${REDACTED}, keep it`],
    ['Your new password is "Xk9#mP2$"', `Your new password is "${REDACTED}"`],
    ['The admin password was changed to Pg_pa55word.', `The admin password was changed to ${REDACTED}.`],
    [
      'The password has been reset to Temp#2024, please',
      `The password has been reset to ${REDACTED}, please`,
    ],
    ['the API key is now Zq81kd93jdk2AAx!', `the API key is now ${REDACTED}!`],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it('leaves a sentence that gives no value alone', () => {
    for (const text of [
      'the token is valid',
      'The API key is missing.',
      'the password is case-sensitive',
      'The token is JWT-encoded',
      'the password is 8 characters long',
      'The session ID is shown in the header.',
      'the tokenizer is cl100k_base',
      'The auth flow is OAuth2.',
      'token count is 42',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });

  // Linear time is held by the test's timeout: in quadratic time this 1.8 MB text takes hours.
  it('costs linear time on a long text', () => {
    const long = `${'the password is a '.repeat(100_000)}x`;
    expect(redactText(long)).toBe(long);
  });
});

describe('redactText, secrets assigned in code', () => {
  it.each([
    ['os.environ["OPENAI_API_KEY"] = "abcDEF123456ghiJKL"', `os.environ["OPENAI_API_KEY"] = "${REDACTED}"`],
    ["ENV['API_TOKEN'] = 'abcDEF123456'", `ENV['API_TOKEN'] = '${REDACTED}'`],
    ['config[:api_key] = "abcDEF123456"', `config[:api_key] = "${REDACTED}"`],
    ['token := "Zq81kd93jdk2AAx"', `token := "${REDACTED}"`],
    ['{ secret => "Zq81kd93jdk2AAx" }', `{ secret => "${REDACTED}" }`],
    ['if password == "Pg_pa55word":', `if password == "${REDACTED}":`],
  ])('%s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it('leaves a comparison with a name or a literal alone', () => {
    for (const text of [
      'if (password == null) return',
      'token === undefined',
      'x := 5',
      'password == input',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });

  it('redacts a bare value compared with a secret key when it looks like a credential', () => {
    expect(redactText('password==abc123')).toBe(`password==${REDACTED}`);
    expect(redactText('token === Hunter2')).toBe(`token === ${REDACTED}`);
  });
});

describe('name/value pairs whose name is a secret key (Kubernetes and CI env lists, tags)', () => {
  it('redacts the value in objects, and keeps the pairs that name no secret', () => {
    expect(
      redactValue({
        env: [
          { name: 'DB_PASSWORD', value: 'hunter2' },
          { name: 'LOG_LEVEL', value: 'debug' },
        ],
        tags: [{ Key: 'api_token', Value: 'abc' }],
      }),
    ).toEqual({
      env: [
        { name: 'DB_PASSWORD', value: REDACTED },
        { name: 'LOG_LEVEL', value: 'debug' },
      ],
      tags: [{ Key: 'api_token', Value: REDACTED }],
    });
  });

  it.each([
    ['{"name": "DB_PASSWORD", "value": "hunter2"}', `{"name": "DB_PASSWORD", "value": "${REDACTED}"}`],
    ["{name: 'SECRET_KEY', value: 's3cr3t'}", `{name: 'SECRET_KEY', value: '${REDACTED}'}`],
    [
      'env:\n  - name: API_TOKEN\n    value: abc123\n  - name: LOG_LEVEL\n    value: debug',
      `env:\n  - name: API_TOKEN\n    value: ${REDACTED}\n  - name: LOG_LEVEL\n    value: debug`,
    ],
  ])('redacts the value in text: %s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it('keeps pairs and prose that name no secret', () => {
    for (const text of ['{"name": "LOG_LEVEL", "value": "debug"}', 'The name: token field has value: 3']) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('keys that describe a secret rather than hold it', () => {
  it.each([
    'password_min_length',
    'secret_name',
    'auth_method',
    'auth_enabled',
    'api_key_name',
    'apiKeyName',
    'private_key_path',
    'tokenUrl',
    'signing_key_file',
  ])('%s is not secret, and its value is kept', (key) => {
    expect(isSecretKey(key)).toBe(false);
    expect(redactValue({ [key]: 'prod-db' })).toEqual({ [key]: 'prod-db' });
    expect(redactText(`${key}: prod-db`)).toBe(`${key}: prod-db`);
  });

  it.each(['password_hash', 'password_reset_token', 'secret_key', 'refresh_token', 'session_id'])(
    '%s still is',
    (key) => {
      expect(isSecretKey(key)).toBe(true);
      expect(redactText(`${key}: abc123def`)).toBe(`${key}: ${REDACTED}`);
    },
  );
});

describe('environment variables ending in PASS or PWD (DB_PASS, MYSQL_PWD)', () => {
  it.each(['DB_PASS', 'SMTP_PASS', 'REDIS_PASS', 'MYSQL_PWD', 'db_pwd', 'dbPwd', 'AWS_RDS_MASTER_PASS'])(
    '%s is secret, and its value is redacted',
    (key) => {
      expect(isSecretKey(key)).toBe(true);
      expect(redactText(`${key}=hunter2`)).toBe(`${key}=${REDACTED}`);
      expect(redactText(`export ${key}="hunter2"`)).toBe(`export ${key}="${REDACTED}"`);
      expect(redactValue({ [key]: 'hunter2' })).toEqual({ [key]: REDACTED });
    },
  );

  // `pass` alone, and in lower or mixed case, is pass/fail (`pass`, `all_pass`, `passRate` in our own
  // reports); PWD alone, and OLDPWD, are the shell's working directories.
  it.each([
    'pass',
    'PASS',
    'all_pass',
    'tests_pass',
    'passRate',
    'PASS_RATE',
    'CACHE_BYPASS',
    'PWD',
    'OLDPWD',
  ])('%s is not', (key) => {
    expect(isSecretKey(key)).toBe(false);
    expect(redactText(`${key}=/home/ana`)).toBe(`${key}=/home/ana`);
  });
});

describe('redactText, tuples, keys as values and references', () => {
  it.each([
    // Python requests' auth tuple: the password leaked, and the tuple was cut at its first quote.
    ["requests.get(url, auth=('admin', 'pw'))", `requests.get(url, auth=${REDACTED})`],
    ['session.auth = ("admin", "s3cret")', `session.auth = ${REDACTED}`],
  ])('redacts a tuple of strings under a secret key: %s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it.each([
    // A key right after a secret key is a key, not the secret's value.
    ['auth: enabled: true', 'auth: enabled: true'],
    ['auth: token: abc123', `auth: token: ${REDACTED}`],
    // A reference to where the secret lives is not the secret, and a judge reading code needs it.
    ['const apiKey = process.env.OPENAI_API_KEY;', 'const apiKey = process.env.OPENAI_API_KEY;'],
    ['apiKey: import.meta.env.VITE_API_KEY,', 'apiKey: import.meta.env.VITE_API_KEY,'],
    ['password: ${DB_PASSWORD}', 'password: ${DB_PASSWORD}'],
    ['token: ${{ secrets.GITHUB_TOKEN }}', 'token: ${{ secrets.GITHUB_TOKEN }}'],
    // An arrow function under a secret key is code, as before.
    ['auth: (req) => check(req)', `auth: ${REDACTED} => check(req)`],
  ])('keeps %s', (text, kept) => {
    expect(redactText(text)).toBe(kept);
  });

  it.each([
    ['password: process.env.X_hunter2', `password: ${REDACTED}`],
    ['password: ${hunter2', `password: ${REDACTED}`],
    ['token: $ecret1', `token: ${REDACTED}`],
  ])('still redacts what only looks like a reference: %s', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
  });
});

describe('redactText, short password flags of login and database clients', () => {
  it.each([
    [
      'docker login -u ana -p hunter2pass registry.example.com',
      `docker login -u ana -p ${REDACTED} registry.example.com`,
    ],
    ['podman login -p "Pa55 w0rd" -u ana quay.io', `podman login -p "${REDACTED}" -u ana quay.io`],
    [
      'az login --service-principal -u app -p Pa55w0rd --tenant t',
      `az login --service-principal -u app -p ${REDACTED} --tenant t`,
    ],
    ['mysql -u root -phunter2 shop', `mysql -u root -p${REDACTED} shop`],
    ['mysqldump -uroot -pS3cret shop > dump.sql', `mysqldump -uroot -p${REDACTED} shop > dump.sql`],
    ['redis-cli -h cache -a hunter2x9 ping', `redis-cli -h cache -a ${REDACTED} ping`],
    ['sqlcmd -S db -U sa -P Pa55w0rd!', `sqlcmd -S db -U sa -P ${REDACTED}`],
  ])('%j', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it.each([
    // `mysql -p` with a space prompts for the password: the next word is the database.
    'mysql -u root -p shop',
    'docker run -u 1000 -p 8080:80 img',
    'ssh -p 2222 ana@host',
    'mkdir -p build/out',
    'docker login -u ana --password-stdin registry.example.com',
    'redis-cli -h cache ping',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactText, one-time codes and a password named for someone', () => {
  it.each([
    ['OTP: 123456', `OTP: ${REDACTED}`],
    ['passcode=1234', `passcode=${REDACTED}`],
    ['{"otp_code": "834512"}', `{"otp_code": "${REDACTED}"}`],
    ['The new password for ana is Tr0ub4dor&3', `The new password for ana is ${REDACTED}`],
    ['The password for ana@example.com was "x y z"', `The password for ana@example.com was "${REDACTED}"`],
  ])('%j', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it.each([
    'otp_enabled: true',
    'The password for ana is valid',
    'The password for the admin account is stored in Vault',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactText, netrc, secrets set from the command line, passphrases', () => {
  it.each([
    [
      'machine api.heroku.com login ana@x.com password 0123abcd-ef',
      `machine api.heroku.com login ana@x.com password ${REDACTED}`,
    ],
    [
      'machine github.com\n  login ana\n  password ghx_0123abcd\n',
      `machine github.com\n  login ana\n  password ${REDACTED}\n`,
    ],
    ['default login anonymous password ana@x.com', `default login anonymous password ${REDACTED}`],
    ['gh secret set NPM_TOKEN --body npm_abc123def456', `gh secret set NPM_TOKEN --body ${REDACTED}`],
    ['gh secret set DEPLOY_KEY -b "x y z"', `gh secret set DEPLOY_KEY -b "${REDACTED}"`],
    [
      'fly secrets set DATABASE_URL=postgres://db STRIPE=sk_x1',
      `fly secrets set DATABASE_URL=${REDACTED} STRIPE=${REDACTED}`,
    ],
    [
      'kubectl create secret generic db --from-literal=username=app --from-literal=pw=S3cret',
      `kubectl create secret generic db --from-literal=username=${REDACTED} --from-literal=pw=${REDACTED}`,
    ],
    // A passphrase of several words after `key:` goes whole, to the end of its line, when the
    // key begins its line; in a sentence the words after are the sentence going on.
    ['wifi password: correct horse battery staple', `wifi password: ${REDACTED}`],
    ['  - password: correct horse battery staple', `  - password: ${REDACTED}`],
    ['I sent password: hunter2 and got 3 users', `I sent password: ${REDACTED} and got 3 users`],
    [
      'Done. I sent Authorization: Bearer abc123 and got 3 users',
      `Done. I sent Authorization: ${REDACTED} and got 3 users`,
    ],
    ['password: Pg pa55 word\nuser: bob', `password: ${REDACTED}\nuser: bob`],
  ])('%j', (text, redacted) => {
    expect(redactText(text)).toBe(redacted);
    expect(redactText(redacted)).toBe(redacted);
  });

  it.each([
    'the machine password policy is strict',
    'The machine learning model password field is empty',
    'default password is admin',
    'password: hunter2 user: bob'.replace('hunter2', REDACTED),
    'DB_PASS=x node app.js'.replace('x', REDACTED),
    'gh secret list',
    'token: abc123 (expires 10:00)'.replace('abc123', REDACTED),
  ])('keeps what is not the secret in %j', (text) => {
    expect(redactText(text)).toBe(text);
  });
});
