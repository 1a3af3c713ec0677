import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactText, redactValue, REDACTED } from '../../src/internal/redact.js';

// The well-known secret formats that secret scanners detect (gitleaks' default rules,
// detect-secrets' plugins, GitHub's secret scanning partner patterns), each with a fake value
// (invented: FAKE, fake, 0123456789abcdef) in the contexts it turns up in before it reaches a judge
// or a report: prose, JSON tool arguments, a curl command, an env dump, a stack trace. Each case is
// redacted to exactly the text around the secret, and redacting it again changes nothing; the
// ordinary texts beside them (ids, hashes, dates, base64 data) are kept as they are.

/** The contexts a secret is written in, as functions of the secret. */
const CONTEXTS: ReadonlyArray<readonly [string, (secret: string) => string]> = [
  ['prose', (s) => `Sure, here it is: ${s}. Keep it somewhere safe.`],
  [
    'JSON tool arguments',
    (s) => JSON.stringify({ url: 'https://api.example.com/v1/items', body: { note: `use ${s}` }, page: 2 }),
  ],
  ['a curl command', (s) => `curl -s "https://api.example.com/v1/items?page=2" -d 'value=${s}' | jq .`],
  ['an env dump', (s) => `HOME=/home/ana\nVENDOR_VALUE=${s}\nLOG_LEVEL=debug`],
  [
    'a stack trace',
    (s) => `Error: request rejected for ${s}\n    at Client.send (node_modules/vendor/lib/client.js:112:19)`,
  ],
];

/** Redacts `text`, expects `redacted`, and expects redacting that again to change nothing. */
function expectRedacted(text: string, redacted: string): void {
  expect(redactText(text)).toBe(redacted);
  expect(redactText(redacted)).toBe(redacted);
}

describe('redactText, tokens known by their shape, in every context', () => {
  const hex32 = '0123456789abcdef0123456789abcdef';
  it.each([
    ['a Slack app-level token', `xapp-1-A0FAKE0123-1234567890123-${hex32}${hex32}`],
    ['a Slack refresh token', 'xoxe-1-FAKEfakeFAKEfake0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'],
    ['a Stripe prod key', 'sk_prod_51FAKEfakeFAKEfake0123456789abcdef'],
    ['a GitLab routable PAT', 'glpat-FAKEfake0123456789abcdefFAKEfake0.01.0abcdefgh'],
    ['a GitLab feed token', 'glft-FAKEfake0123456789ab'],
    ['a GitLab agent token', 'glagent-FAKEfake0123456789abcdefFAKEfake0123456789abcdefFAKE'],
    [
      'a PyPI upload token',
      'pypi-AgEIcHlwaS5vcmcCJGZha2UtZmFrZS1mYWtlLWZha2UtZmFrZWZha2VmYWtlAAIqWzMsImZha2UiXQAABiBGQUtFZmFrZQ',
    ],
    ['a Google OAuth client secret', 'GOCSPX-FAKEfakeFAKEfake0123456789ab'],
    ['a Google OAuth refresh token', '1//0gFAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123456789'],
    ['a Groq key', 'gsk_FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123'],
    ['an xAI key', `xai-FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123456789abcdefFAKEfake0123`],
    ['a Perplexity key', 'pplx-FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake'],
    ['a Replicate token', 'r8_FAKEfakeFAKEfake0123456789abcdefFAKE'],
    ['a Hugging Face organization token', 'api_org_FAKEfakeFAKEfakeFAKEfakeFAKEfakeAB'],
    ['a Tavily key', 'tvly-dev-FAKEfakeFAKEfake0123456789abcdef'],
    ['a LangSmith key', `lsv2_pt_${hex32}_0123456789`],
    ['a Pinecone key', 'pcsk_FAKEf_FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123456789'],
    ['a Shopify access token', `shpat_${hex32}`],
    ['a Shopify shared secret', `shpss_${hex32}`],
    ['a Mailgun key', `key-${hex32}`],
    ['a Telegram bot token', '123456789:AAFAKEfakeFAKEfake0123456789abcdefA'],
    ['an Azure AD client secret', 'abc8Q~FAKEfakeFAKEfake0123456789abcd.~_-'],
    ['a DigitalOcean token', `dop_v1_${hex32}${hex32}`],
    ['a Vault token', `hvs.CAESI${'FAKEfakeFAKEfake0123456789abcdef'.repeat(3)}`],
    ['an Atlassian API token', `ATATT3xFfGF0${'FAKEfakeFAKEfake0123456789abcdef'.repeat(5)}=0A1B2C3D`],
    ['an age secret key', 'AGE-SECRET-KEY-1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE'],
    ['a Linear key', 'lin_api_FAKEfakeFAKEfake0123456789abcdefFAKEfake'],
    ['a Sentry user token', `sntryu_${hex32}${hex32}`],
    ['a Databricks token', `dapi${hex32}`],
    ['a Notion token', 'ntn_FAKEfakeFAKEfake0123456789abcdefFAKEfake0123'],
    ['a Postman key', `PMAK-0123456789abcdef01234567-${hex32}01`],
    [
      'a private key in base64 (Kubernetes client-key-data)',
      'LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBRkFLRUZBS0VGQUtFRkFLRQo=',
    ],
  ])('%s', (_format, secret) => {
    for (const [where, context] of CONTEXTS) {
      expect(redactText(context(secret)), where).toBe(context(REDACTED));
      expect(redactText(context(REDACTED)), where).toBe(context(REDACTED));
    }
  });
});

describe('redactText, tokens known by their shape, where they are written', () => {
  it.each([
    [
      'SLACK_APP_TOKEN=xapp-1-A0FAKE0123-1234567890123-0123456789abcdef0123456789abcdef\nSLACK_CHANNEL=C0FAKE',
      `SLACK_APP_TOKEN=${REDACTED}\nSLACK_CHANNEL=C0FAKE`,
    ],
    [
      'Socket Mode needs xapp-1-A0FAKE0123-1234567890123-0123456789abcdef0123456789abcdef too',
      `Socket Mode needs ${REDACTED} too`,
    ],
    [
      'twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcCJGZha2UtZmFrZS1mYWtlLWZha2UtZmFrZWZha2VmYWtlAAIq dist/*',
      `twine upload -u __token__ -p ${REDACTED} dist/*`,
    ],
    [
      'curl -H "X-Shopify-Access-Token: shpat_0123456789abcdef0123456789abcdef" https://fake.myshopify.com/admin/api/2024-01/shop.json',
      `curl -H "X-Shopify-Access-Token: ${REDACTED}" https://fake.myshopify.com/admin/api/2024-01/shop.json`,
    ],
    [
      "const mg = mailgun.client({ username: 'api', key: 'key-0123456789abcdef0123456789abcdef' });",
      `const mg = mailgun.client({ username: 'api', key: '${REDACTED}' });`,
    ],
    [
      'GET https://api.telegram.org/bot123456789:AAFAKEfakeFAKEfake0123456789abcdefA/sendMessage?chat_id=42',
      `GET https://api.telegram.org/bot${REDACTED}/sendMessage?chat_id=42`,
    ],
    [
      '{"installed":{"client_id":"0123-fake.apps.googleusercontent.com","client_secret":"GOCSPX-FAKEfakeFAKEfake0123456789ab"}}',
      `{"installed":{"client_id":"0123-fake.apps.googleusercontent.com","client_secret":"${REDACTED}"}}`,
    ],
    [
      "client = Groq(api='gsk_FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123')",
      `client = Groq(api='${REDACTED}')`,
    ],
    [
      'users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=\n    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBRkFLRQo=',
      `users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=\n    client-key-data: ${REDACTED}`,
    ],
    [
      'apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.key: LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSUZBS0UK',
      `apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.key: ${REDACTED}`,
    ],
    [
      'AZURE_CLIENT_ID=00000000-0000-0000-0000-000000000000\nAZURE_CLIENT_SECRET_VALUE=abc8Q~FAKEfakeFAKEfake0123456789abcd.~_-',
      `AZURE_CLIENT_ID=00000000-0000-0000-0000-000000000000\nAZURE_CLIENT_SECRET_VALUE=${REDACTED}`,
    ],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it('redacts a base64 private key under a key that names no secret in tool arguments', () => {
    const key =
      'LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0KYjNCbGJuTnphQzFyWlhrdGRqRUFBQUFBQkc1dmJtVUFBQUFFCg==';
    expect(redactValue({ kubeconfig: { 'client-key-data': key, server: 'https://10.0.0.1:6443' } })).toEqual({
      kubeconfig: { 'client-key-data': REDACTED, server: 'https://10.0.0.1:6443' },
    });
  });
});

/** A deterministic string of `n` base64 characters (standard, or URL-safe), random-looking. */
function base64Noise(n: number, urlSafe = false): string {
  let out = '';
  for (let i = 0; out.length < n; i += 1) {
    out += createHash('sha256')
      .update(String(i))
      .digest(urlSafe ? 'base64url' : 'base64')
      .replace(/=+$/, '');
  }
  return out.slice(0, n);
}

describe('redactText, ordinary text beside secret shapes', () => {
  it.each([
    // hashes, ids, dates and numbers
    'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD -> main), short 9fceb02',
    'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'request 7c9e6679-7425-40de-944b-e07fc1f90ae7 and trace 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    'order ORD-2024-000123, invoice INV/2024/0042, ticket #482913, shipped 2024-05-01T12:30:00Z',
    'refund re_3PqX2bLkdIwHu7ix0a1b2c3d and payment pay_8f14e45fceea167a5a36dedd4bea2543',
    'UPS 1Z999AA10123456784, IBAN-like DE89 3704 0044 0532 0130 00, phone +1 415 555 0100',
    'at 12:30:45, IPv6 2001:db8::ff00:42:8329, user 123456789:Active, port 5432:5432',
    // words and names that share a prefix with a token
    'pip install xai-sdk pplx-api; npm i xapp-config tvly-helpers',
    'the gsk_ and pcsk_ prefixes, r8_ models, api_org_id column, shp_ files',
    'lin_api_version=2, secret_santa_2024, ntn_ prefix, sntry_ prefix, do_v1_ route',
    'a key-value store, the key-0 slot, PMAK- prefix, dapi endpoint, vs. the hvs. prefix',
    'GOCSPX- prefix, AIza prefix, 1//0 in a path, pypi-simple index, AgE of empire',
    'the ATATT3 prefix, AGE-SECRET-KEY-1 prefix, Q~ and 8Q~ in text, glpat-v1.2 docs',
    'xoxe-1 and xapp-1 are prefixes; glft- and glagent- too',
    // a certificate in base64 is no secret
    'client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUMvekNDQWVlZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZB',
    // base64 data that is not a key: an image, and URL-safe base64
    `![chart](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${base64Noise(20_000)}=)`,
    `blob ${base64Noise(20_000, true)} end`,
  ])('keeps %s', (text) => {
    expect(redactText(text)).toBe(text);
  });

  // Linear time is held by the test's timeout: each shape's pattern on ~200 KB of near misses.
  it.each([
    ['underscore prefixes without a token', 'r8_ gsk_ api_org_ lsv2_pt_ shpat_ dop_v1_ '.repeat(4_800)],
    ['Telegram ids without a token', '123456789:A '.repeat(17_000)],
    ['Azure secret starts without an end', `abc8Q~${'a'.repeat(30)} `.repeat(5_500)],
    ['base64 PEM starts of certificates', `LS0tLS1CRUdJTiBDRVJU${'A'.repeat(60)} `.repeat(2_500)],
    ['refresh token starts too short', '1//0abc '.repeat(25_000)],
  ])('costs linear time on a long text: %s', (_shape, long) => {
    expect(long.length).toBeGreaterThan(190_000);
    expect(redactText(long)).toBe(long);
  });
});

describe('redactText, auth schemes other than Bearer and Basic', () => {
  const discordBot = 'MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GFAKEf.FAKEfakeFAKEfake0123456789abcdefFAKE';
  it.each([
    [
      `curl -H "Authorization: Bot ${discordBot}" https://discord.com/api/v10/users/@me`,
      `curl -H "Authorization: ${REDACTED}" https://discord.com/api/v10/users/@me`,
    ],
    [
      `Authorization: Bot ${discordBot}\nUser-Agent: DiscordBot`,
      `Authorization: ${REDACTED}\nUser-Agent: DiscordBot`,
    ],
    [
      'curl -H "Authorization: SSWS 00FAKEfakeFAKEfake0123456789abcdefFAKEfake" https://fake.okta.com/api/v1/users',
      `curl -H "Authorization: ${REDACTED}" https://fake.okta.com/api/v1/users`,
    ],
    ['authorization: ApiKey RkFLRWZha2U6RkFLRWZha2UwMTIz', `authorization: ${REDACTED}`],
    [
      'curl -H "Authorization: ApiKey RkFLRWZha2U6RkFLRWZha2UwMTIz" "https://es.example.com:9200/_search?q=x"',
      `curl -H "Authorization: ${REDACTED}" "https://es.example.com:9200/_search?q=x"`,
    ],
    [
      'Authorization: Key 0fake000-0000-0000-0000-000000000000:0123456789abcdef',
      `Authorization: ${REDACTED}`,
    ],
    ['Authorization: GenieKey 0fake000-0000-0000-0000-000000000000', `Authorization: ${REDACTED}`],
    ['Authorization: Splunk 0fake000-0000-0000-0000-000000000000', `Authorization: ${REDACTED}`],
    ['Authorization: DeepL-Auth-Key 0fake000-0000-0000-0000-000000000000:fx', `Authorization: ${REDACTED}`],
    ['Authorization: OAuth y0_FAKEfakeFAKEfake0123456789', `Authorization: ${REDACTED}`],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
  });
});

describe('redactText and redactValue, keys that name a secret', () => {
  const hex32 = '0123456789abcdef0123456789abcdef';
  it.each([
    // Azure API Management and Azure AI services take their key in this header
    [
      `curl -X POST "https://fake.cognitiveservices.azure.com/text/analytics/v3.1/languages" -H "Ocp-Apim-Subscription-Key: ${hex32}" -d @body.json`,
      `curl -X POST "https://fake.cognitiveservices.azure.com/text/analytics/v3.1/languages" -H "Ocp-Apim-Subscription-Key: ${REDACTED}" -d @body.json`,
    ],
    [
      `RAILS_ENV=production\nRAILS_MASTER_KEY=${hex32}\nNEW_RELIC_LICENSE_KEY=${hex32}0123abcd\nENCRYPTION_KEY=${hex32}\nAPP_KEY=base64:RkFLRWZha2VGQUtFZmFrZTAxMjM0NTY3ODlhYmNkZWY=\nDD_APP_KEY=${hex32}01234567\nALGOLIA_ADMIN_KEY=${hex32}\nPORT=3000`,
      `RAILS_ENV=production\nRAILS_MASTER_KEY=${REDACTED}\nNEW_RELIC_LICENSE_KEY=${REDACTED}\nENCRYPTION_KEY=${REDACTED}\nAPP_KEY=${REDACTED}\nDD_APP_KEY=${REDACTED}\nALGOLIA_ADMIN_KEY=${REDACTED}\nPORT=3000`,
    ],
    // keys written in one word, in lower case: Docker's config.json, ngrok's config, MinIO's
    [
      '{"auths":{"fake.azurecr.io":{"auth":"ZmFrZTpGQUtF","identitytoken":"FAKEfake.identity-token-0123456789"}}}',
      `{"auths":{"fake.azurecr.io":{"auth":"${REDACTED}","identitytoken":"${REDACTED}"}}}`,
    ],
    [
      'version: "2"\nauthtoken: 2FAKEfake0123_4567FAKEfake89abcdef\nregion: eu',
      `version: "2"\nauthtoken: ${REDACTED}\nregion: eu`,
    ],
    [
      'mc alias set local http://localhost:9000 --accesskey admin --secretkey FAKEfake0123',
      `mc alias set local http://localhost:9000 --accesskey admin --secretkey ${REDACTED}`,
    ],
    // the password of an ODBC or ADO connection string
    [
      'Driver={ODBC Driver 18 for SQL Server};Server=tcp:db.fake.net,1433;UID=sa;PWD=Odbc_FAKE_pa55;Encrypt=yes',
      `Driver={ODBC Driver 18 for SQL Server};Server=tcp:db.fake.net,1433;UID=sa;PWD=${REDACTED};Encrypt=yes`,
    ],
    [
      "pyodbc.connect('DSN=shop;Uid=app;Pwd=Odbc_FAKE_pa55')",
      `pyodbc.connect('DSN=shop;Uid=app;Pwd=${REDACTED}')`,
    ],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it('redacts them in tool arguments', () => {
    expect(
      redactValue({
        headers: { 'Ocp-Apim-Subscription-Key': hex32, 'Content-Type': 'application/json' },
        registry: { identitytoken: 'FAKEfake', authtoken: 'FAKEfake', secretkey: 'FAKEfake' },
        env: { RAILS_MASTER_KEY: hex32, LICENSE_KEY: hex32, RAILS_ENV: 'production' },
      }),
    ).toEqual({
      headers: { 'Ocp-Apim-Subscription-Key': REDACTED, 'Content-Type': 'application/json' },
      registry: { identitytoken: REDACTED, authtoken: REDACTED, secretkey: REDACTED },
      env: { RAILS_MASTER_KEY: REDACTED, LICENSE_KEY: REDACTED, RAILS_ENV: 'production' },
    });
  });

  it.each([
    // the shell's working directory is no password
    'PWD=/home/ana\nOLDPWD=/home\nSHLVL=1',
    'PWD="/srv/app" npm start',
    'PWD=~/src; PWD=C:\\Users\\ana; PWD=$(pwd); PWD=.',
    // keys that hold no secret, in one word or as words
    'maxtokens: 200, max_tokens: 200, total_tokens=300, tokenizer: cl100k_base',
    'primary_key: id, sort_key: name, partition key: tenant, idempotency_key: 42',
    'public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFAKE, cache_key=v2',
    'app_id: com.example.shop, app_name: Shop, license: MIT, license_key_path: /etc/nr.key',
    'no app key: set DD_APP_KEY first',
    // a session cookie's name is no secret key: its value goes when it looks like a session id
    "a URL's `;jsessionid=...` or `?sid=...`, and JSESSIONID=none",
    'The master key is stored in Vault.',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactText, secrets set through a command-line tool by name and value', () => {
  it.each([
    [
      'aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY01 --profile dev',
      `aws configure set aws_secret_access_key ${REDACTED} --profile dev`,
    ],
    [
      'aws configure set --profile dev aws_session_token FwoGZXIvYXdzEFAKEfake0123',
      `aws configure set --profile dev aws_session_token ${REDACTED}`,
    ],
    [
      'npm config set //registry.npmjs.org/:_authToken 0fake000-0000-0000-0000-000000000000',
      `npm config set //registry.npmjs.org/:_authToken ${REDACTED}`,
    ],
    ['yarn config set npmAuthToken FAKEfake0123', `yarn config set npmAuthToken ${REDACTED}`],
    ['git config --global github.token FAKEfake0123', `git config --global github.token ${REDACTED}`],
    ['poetry config pypi-token.testpypi FAKEfake0123', `poetry config pypi-token.testpypi ${REDACTED}`],
    [
      'dotnet user-secrets set --project Shop.Api "Stripe:SecretKey" "FAKE fake 0123"',
      `dotnet user-secrets set --project Shop.Api "Stripe:SecretKey" "${REDACTED}"`,
    ],
    [
      '{"command": "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY01"}',
      `{"command": "aws configure set aws_secret_access_key ${REDACTED}"}`,
    ],
    [
      'Run `aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY01`, then retry; or `git config github.token FAKEfake0123; git push`.',
      `Run \`aws configure set aws_secret_access_key ${REDACTED}\`, then retry; or \`git config github.token ${REDACTED}; git push\`.`,
    ],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it.each([
    'git config --global credential.helper store',
    'git config --global user.name "Ana Lima" && git config --get credential.helper',
    'aws configure set region eu-west-1 && aws configure set default.s3.max_concurrent_requests 20',
    'npm config set registry https://registry.npmjs.org/ && poetry config --list',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });

  it('costs linear time on a long text of commands without a secret', () => {
    const long = 'aws configure set --profile dev --x --y region eu-west-1 ; '.repeat(3_500);
    expect(long.length).toBeGreaterThan(190_000);
    expect(redactText(`token ${long}`)).toBe(`token ${long}`);
  });
});

describe('redactText, private key blocks cut short, however their lines are written', () => {
  const lines = [
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDFAKEfakeFAKEfake0',
    'FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123456789abcdefAB',
    'c2VjcmV0',
  ];
  it.each([
    [
      'JSON-escaped CRLF line breaks',
      `{"key":"-----BEGIN EC PRIVATE KEY-----\\r\\n${lines.join('\\r\\n')}`,
      `{"key":"${REDACTED}`,
    ],
    [
      'JSON inside a JSON string, cut short (a capped tool output holding a service account file)',
      JSON.stringify({
        output: JSON.stringify({
          type: 'service_account',
          private_key: `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}`,
        }),
      }).slice(0, -5),
      `{"output":"{\\"type\\":\\"service_account\\",\\"private_key\\":\\"${REDACTED}`,
    ],
    [
      'one line, its lines joined by spaces',
      `the tool printed: -----BEGIN OPENSSH PRIVATE KEY----- ${lines[0]} ${lines[1]} [output truncated]`,
      `the tool printed: ${REDACTED} [output truncated]`,
    ],
  ])('%s', (_how, text, redacted) => {
    expectRedacted(text, redacted);
    expect(redactText(text)).not.toContain('FAKEfake');
  });

  // Linear time is held by the test's timeout.
  it('costs linear time on many BEGIN lines followed by runs just too short to be key lines', () => {
    const near = ` ${'A'.repeat(39)} \\\\r\\x `;
    const text = `-----BEGIN PRIVATE KEY-----${near}`.repeat(3_000);
    expect(text.length).toBeGreaterThan(190_000);
    expect(redactText(text)).toBe(`${REDACTED}${near}`.repeat(3_000));
  });

  it('keeps the prose after a BEGIN line printed on one line', () => {
    expect(redactText('Never paste -----BEGIN PRIVATE KEY----- blocks into a chat, they said.')).toBe(
      `Never paste ${REDACTED} blocks into a chat, they said.`,
    );
  });
});

describe('redactText, one-time codes: after 2FA alone, with letters, and before the words', () => {
  it.each([
    ['2FA: 482913', `2FA: ${REDACTED}`],
    ['MFA: 482 913', `MFA: ${REDACTED}`],
    ['Your 2FA is 48291367.', `Your 2FA is ${REDACTED}.`],
    ['verification code: X7K9QP', `verification code: ${REDACTED}`],
    ['Your login code is X7K9QP.', `Your login code is ${REDACTED}.`],
    [
      'Your verification code: x7k9qp (expires in 10 minutes)',
      `Your verification code: ${REDACTED} (expires in 10 minutes)`,
    ],
    ['security code ABC123', `security code ${REDACTED}`],
    ['{"verification_code":"X7K9QP"}', `{"verification_code":"${REDACTED}"}`],
    ['verification code: G-482913', `verification code: ${REDACTED}`],
    [
      'I signed in for you; the text said "G-482913 is your Google verification code." and it worked.',
      `I signed in for you; the text said "${REDACTED} is your Google verification code." and it worked.`,
    ],
    ['482913 is your Microsoft account security code', `${REDACTED} is your Microsoft account security code`],
    ['482 913 is your one-time password', `${REDACTED} is your one-time password`],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it.each([
    // a second factor named, with no code after it
    '2FA: enabled, MFA: 2 devices, MFA: 1000 users enrolled',
    '2FA: 2024-05-01 rollout; 2FA, MFA and SSO: 3 of 4 enabled',
    // words with letters and digits that are no code
    'the verification code is base64 encoded and sha256-hashed',
    'TOTP: RFC6238; the verification code is UTF8; verification code: E2E',
    'the verification code is SMS-only',
    // numbers before "is your" that are no one-time code
    '94107 is your zip code, 404 is your error code, 1234 is your order code',
    // a code with no word that says it is a one-time code (left alone: see the docs)
    'Your code is 1234',
    'use code SAVE20 for 10% off',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });

  // Linear time is held by the test's timeout.
  it.each([
    ['codes before "is your" and no one-time word', '482913 is your Acme Shop order number; '.repeat(5_200)],
    ['2FA alone before words', '2FA: X7K9QPX7K9QPX7K9QP '.repeat(8_400)],
    ['letters and digits too long for a code', `verification code: ${'A1'.repeat(6)} `.repeat(6_300)],
  ])('costs linear time on a long text: %s', (_shape, long) => {
    expect(long.length).toBeGreaterThan(190_000);
    expect(redactText(long)).toBe(long);
  });
});

describe('redactText, formats redacted before, pinned where they are written', () => {
  const hex32 = '0123456789abcdef0123456789abcdef';
  it.each([
    ['a Slack bot token', 'xoxb-1234567890123-1234567890123-FAKEfakeFAKEfake0123abcd'],
    ['a Slack user token', `xoxp-1234567890123-1234567890123-1234567890123-${hex32}`],
    ['a Stripe live key', 'sk_live_51FAKEfakeFAKEfake0123456789abcdefABCDEF'],
    ['a Stripe test key', 'sk_test_51FAKEfakeFAKEfake0123456789abcdefABCDEF'],
    ['a Stripe restricted key', 'rk_live_51FAKEfakeFAKEfake0123456789abcdefABCDEF'],
    ['a GitHub classic token', 'ghp_FAKEfakeFAKEfake0123456789abcdefABCD'],
    [
      'a GitHub fine-grained token',
      'github_pat_11FAKE0123456789abcdef_FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123456789ab',
    ],
    ['a GitHub app token', 'ghs_FAKEfakeFAKEfake0123456789abcdefABCD'],
    ['a GitHub OAuth token', 'gho_FAKEfakeFAKEfake0123456789abcdefABCD'],
    ['a GitLab PAT', 'glpat-FAKEfake0123456789ab'],
    ['an npm token', 'npm_FAKEfakeFAKEfake0123456789abcdefABCD'],
    ['an AWS access key id', 'AKIAFAKEFAKEFAKE0123'],
    ['a Google API key', 'AIzaSyFAKEfakeFAKEfake0123456789abcdefA'],
    ['an OpenAI key', 'sk-proj-FAKEfakeFAKEfake0123456789abcdefT3BlbkFJFAKEfake0123'],
    ['an Anthropic key', 'sk-ant-api03-FAKEfakeFAKEfake0123456789abcdef-FAKEfakeAA'],
    ['a Hugging Face token', 'hf_FAKEfakeFAKEfakeFAKEfakeFAKEfakeAB'],
    ['a SendGrid key', 'SG.FAKEfakeFAKEfake012345.FAKEfakeFAKEfake0123456789abcdefFAKEfake012'],
    ['a Twilio API key', `SK${hex32}`],
    [
      'a JWT',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkZha2UifQ.FAKEfakeFAKEfake0123456789abcdefFAKEfake01',
    ],
  ])('%s, in every context', (_format, secret) => {
    for (const [where, context] of CONTEXTS) {
      expect(redactText(context(secret)), where).toBe(context(REDACTED));
    }
  });

  const awsSecret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY01';
  const pem = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDFAKEfakeFAKEfake0';
  it.each([
    // AWS: the secret access key has no shape of its own, but always a key that names it
    [
      `AWS_ACCESS_KEY_ID=AKIAFAKEFAKEFAKE0123\nAWS_SECRET_ACCESS_KEY=${awsSecret}\nAWS_DEFAULT_REGION=us-east-1`,
      `AWS_ACCESS_KEY_ID=${REDACTED}\nAWS_SECRET_ACCESS_KEY=${REDACTED}\nAWS_DEFAULT_REGION=us-east-1`,
    ],
    [
      `[default]\naws_access_key_id = AKIAFAKEFAKEFAKE0123\naws_secret_access_key = ${awsSecret}\nregion = eu-west-1`,
      `[default]\naws_access_key_id = ${REDACTED}\naws_secret_access_key = ${REDACTED}\nregion = eu-west-1`,
    ],
    [
      `{"Credentials":{"AccessKeyId":"ASIAFAKEFAKEFAKE0123","SecretAccessKey":"${awsSecret}","SessionToken":"FwoGZXIvYXdzEFAKE","Expiration":"2030-01-01T00:00:00Z"}}`,
      `{"Credentials":{"AccessKeyId":"${REDACTED}","SecretAccessKey":"${REDACTED}","SessionToken":"${REDACTED}","Expiration":"2030-01-01T00:00:00Z"}}`,
    ],
    [
      `s3 = boto3.client("s3", aws_access_key_id="AKIAFAKEFAKEFAKE0123", aws_secret_access_key="${awsSecret}")`,
      `s3 = boto3.client("s3", aws_access_key_id="${REDACTED}", aws_secret_access_key="${REDACTED}")`,
    ],
    // a GCP service account file as a tool argument
    [
      JSON.stringify({
        type: 'service_account',
        project_id: 'fake-project',
        private_key_id: `${hex32}01234567`,
        private_key: `-----BEGIN PRIVATE KEY-----\n${pem}\n-----END PRIVATE KEY-----\n`,
        client_email: 'agent@fake-project.iam.gserviceaccount.com',
      }),
      JSON.stringify({
        type: 'service_account',
        project_id: 'fake-project',
        private_key_id: REDACTED,
        private_key: REDACTED,
        client_email: 'agent@fake-project.iam.gserviceaccount.com',
      }),
    ],
    // PEM and OpenSSH private keys, whole
    [
      `cat ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQFAKE\n-----END OPENSSH PRIVATE KEY-----\n$ exit`,
      `cat ~/.ssh/id_ed25519\n${REDACTED}\n$ exit`,
    ],
    // Azure: a storage connection string, a SAS URL
    [
      `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=fakeacct;AccountKey=FAKEfake0123456789abcdef+/FAKEfake==;EndpointSuffix=core.windows.net"`,
      `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=fakeacct;AccountKey=${REDACTED};EndpointSuffix=core.windows.net"`,
    ],
    [
      'curl -o f.txt "https://fakeacct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=FAKEfake0123456789%2Babcdef%3D"',
      `curl -o f.txt "https://fakeacct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=${REDACTED}"`,
    ],
    // database URLs, and basic auth in URLs
    [
      'DATABASE_URL=postgres://app:Pg_FAKE_pa55@db.internal:5432/shop\nREDIS_URL=redis://:R3dis_FAKE@cache:6379/0',
      `DATABASE_URL=postgres://${REDACTED}@db.internal:5432/shop\nREDIS_URL=redis://${REDACTED}@cache:6379/0`,
    ],
    [
      'MongoServerSelectionError: connect ECONNREFUSED (mongodb+srv://admin:M0ngo_FAKE@cluster0.fake.mongodb.net/test?retryWrites=true)\n    at Timeout._onTimeout (node_modules/mongodb/lib/sdam/topology.js:278:38)',
      `MongoServerSelectionError: connect ECONNREFUSED (mongodb+srv://${REDACTED}@cluster0.fake.mongodb.net/test?retryWrites=true)\n    at Timeout._onTimeout (node_modules/mongodb/lib/sdam/topology.js:278:38)`,
    ],
    [
      'git clone https://ana:ghx_FAKEfake0123@git.example.com/acme/app.git',
      `git clone https://${REDACTED}@git.example.com/acme/app.git`,
    ],
    // Authorization headers and API key headers
    [
      "curl -H 'Authorization: Bearer FAKEfakeFAKEfake0123456789' -H 'X-API-Key: FAKEfakeFAKEfake0123' https://api.example.com/v1/me",
      `curl -H 'Authorization: ${REDACTED}' -H 'X-API-Key: ${REDACTED}' https://api.example.com/v1/me`,
    ],
    [
      'GET /v1/me HTTP/1.1\nHost: api.example.com\nAuthorization: Basic YWRtaW46RkFLRXBhNTU=\nAccept: */*',
      `GET /v1/me HTTP/1.1\nHost: api.example.com\nAuthorization: ${REDACTED}\nAccept: */*`,
    ],
    // .env files and YAML
    [
      'SECRET_KEY=FAKE-s3cr3t-value-0123\nAPI_TOKEN: FAKE-s3cr3t-value-4567\nDEBUG=false',
      `SECRET_KEY=${REDACTED}\nAPI_TOKEN: ${REDACTED}\nDEBUG=false`,
    ],
    // Docker and Kubernetes credentials
    [
      '{"auths":{"https://index.docker.io/v1/":{"auth":"ZmFrZXVzZXI6RkFLRXBhc3N3b3Jk"}}}',
      `{"auths":{"https://index.docker.io/v1/":{"auth":"${REDACTED}"}}}`,
    ],
    [
      'users:\n- name: ci\n  user:\n    token: FAKEfake0123.FAKEfake0123456789abcdef\ncontexts: []',
      `users:\n- name: ci\n  user:\n    token: ${REDACTED}\ncontexts: []`,
    ],
    // webhooks: the secret path goes, the host stays
    [
      '{"url":"https://hooks.slack.com/services/T0FAKE000/B0FAKE000/FAKEfakeFAKEfake01234567","text":"deployed"}',
      `{"url":"https://hooks.slack.com/services/${REDACTED}","text":"deployed"}`,
    ],
    [
      'curl -H "Content-Type: application/json" -d \'{"content":"hi"}\' https://discord.com/api/webhooks/123456789012345678/FAKEfakeFAKEfake0123456789abcdefFAKE',
      `curl -H "Content-Type: application/json" -d '{"content":"hi"}' https://discord.com/api/webhooks/${REDACTED}`,
    ],
    // Twilio's account SID is an id; its auth token goes
    [
      `curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC${hex32}/Messages.json -u AC${hex32}:${hex32}`,
      `curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC${hex32}/Messages.json -u AC${hex32}:${REDACTED}`,
    ],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it('redacts an x-api-key header in tool arguments', () => {
    expect(redactValue({ headers: { 'x-api-key': 'FAKEfake0123', accept: 'application/json' } })).toEqual({
      headers: { 'x-api-key': REDACTED, accept: 'application/json' },
    });
  });
});

describe('redactText, Discord bot tokens outside any key', () => {
  // <base64 of the bot's user id>.<base64 timestamp>.<HMAC>: 18 and 19 digit ids, a 27 character
  // HMAC (older tokens) and a 38 character one (newer)
  it.each([
    ['an 18 digit id, a 27 character HMAC', 'MTEyMjMzNDQ1NTY2Nzc4ODk5.GFAKEf.FAKEfakeFAKEfake0123456789a'],
    [
      'a 19 digit id, a 38 character HMAC',
      'MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GFAKEf.FAKEfakeFAKEfake0123456789abcdef-_FAKE',
    ],
    ['a 32 character HMAC with - and _', 'OTg3NjU0MzIxMDk4NzY1NDMy.Yf_Ak3.FAKE-fake_FAKEfake0123456789abcd'],
  ])('%s, in every context', (_format, secret) => {
    for (const [where, context] of CONTEXTS) {
      expect(redactText(context(secret)), where).toBe(context(REDACTED));
      expect(redactText(context(REDACTED)), where).toBe(context(REDACTED));
    }
  });

  it.each([
    [
      "client.login('MTEyMjMzNDQ1NTY2Nzc4ODk5.GFAKEf.FAKEfakeFAKEfake0123456789a');",
      `client.login('${REDACTED}');`,
    ],
    ['bot.run("MTEyMjMzNDQ1NTY2Nzc4ODk5.GFAKEf.FAKEfakeFAKEfake0123456789a")', `bot.run("${REDACTED}")`],
    // a JWT is still redacted as one
    [
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkZha2UifQ.FAKEfakeFAKEfake0123456789abcdefFAKEfake01',
      REDACTED,
    ],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it.each([
    // the shape, but the first part is no base64 of a user id: a method chain, a package name
    'await ModelContextProtocolServer.client.listResourceTemplatesRequest(x)',
    'import NotificationServiceProvider.config.ExtendedConfigurationHandler',
    'OrderFulfillmentWorkflowSvc.handle.processIncomingShipmentEventBatch',
    // versions, dotted numbers, hosts
    'upgraded to v1.2.3 (build 2024.01.15.1234567890), see https://cdn.discordapp.com/a/b.png',
    'Microsoft.Extensions.DependencyInjection.Abstractions 8.0.0',
    // a user id part with a middle part that is not 6 long, or an HMAC too short or too long
    'MTEyMjMzNDQ1NTY2Nzc4ODk5.GFAKE.FAKEfakeFAKEfake0123456789a',
    'MTEyMjMzNDQ1NTY2Nzc4ODk5.GFAKEfa.FAKEfakeFAKEfake0123456789a',
    'MTEyMjMzNDQ1NTY2Nzc4ODk5.GFAKEf.FAKEfakeFAKEfake012345678',
    'MTEyMjMzNDQ1NTY2Nzc4ODk5.GFAKEf.FAKEfakeFAKEfake0123456789abcdefFAKEfake0',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });

  // Linear time is held by the test's timeout.
  it.each([
    ['user id parts with short HMACs', 'MTEyMjMzNDQ1NTY2Nzc4ODk5.GFAKEf.short '.repeat(5_200)],
    ['dots seven apart', 'a.bcdefg.h '.repeat(18_000)],
  ])('costs linear time on a long text: %s', (_shape, long) => {
    expect(long.length).toBeGreaterThan(190_000);
    expect(redactText(long)).toBe(long);
  });
});

describe('redactText, AWS Signature Version 4', () => {
  const hex64 = '0123456789abcdef'.repeat(4);
  const credential = 'AKIAFAKEFAKEFAKE0123/20240101/us-east-1/s3/aws4_request';
  const header = `AWS4-HMAC-SHA256 Credential=${credential}, SignedHeaders=host;x-amz-date, Signature=${hex64}`;
  const masked = `AWS4-HMAC-SHA256 Credential=${REDACTED}, SignedHeaders=host;x-amz-date, Signature=${REDACTED}`;
  it.each([
    // a header line, in a request dump and in curl
    [`Authorization: ${header}`, `Authorization: ${masked}`],
    [
      `PUT /photo.jpg HTTP/1.1\nHost: b.s3.amazonaws.com\nX-Amz-Date: 20240101T000000Z\nAuthorization: ${header}\nContent-Length: 42`,
      `PUT /photo.jpg HTTP/1.1\nHost: b.s3.amazonaws.com\nX-Amz-Date: 20240101T000000Z\nAuthorization: ${masked}\nContent-Length: 42`,
    ],
    [
      `curl -X PUT -H "x-amz-date: 20240101T000000Z" -H "Authorization: ${header}" https://b.s3.amazonaws.com/k`,
      `curl -X PUT -H "x-amz-date: 20240101T000000Z" -H "Authorization: ${masked}" https://b.s3.amazonaws.com/k`,
    ],
    // prose, and a log line, with no Authorization key before it
    [`The signed header was ${header}.`, `The signed header was ${masked}.`],
    [
      `botocore.exceptions.ClientError: SignatureDoesNotMatch (request ${header})\n    at send (lib/s3.js:12:3)`,
      `botocore.exceptions.ClientError: SignatureDoesNotMatch (request ${masked})\n    at send (lib/s3.js:12:3)`,
    ],
    // JSON tool arguments: the header's value goes whole; outside a secret key, its parts
    [
      JSON.stringify({ headers: { Authorization: header, Host: 'b.s3.amazonaws.com' } }),
      JSON.stringify({ headers: { Authorization: REDACTED, Host: 'b.s3.amazonaws.com' } }),
    ],
    [JSON.stringify({ note: `sent ${header}` }), JSON.stringify({ note: `sent ${masked}` })],
    // a temporary key (ASIA) and a signature in upper case
    [
      `Authorization: AWS4-HMAC-SHA256 Credential=ASIAFAKEFAKEFAKE0123/20240101/eu-west-1/sts/aws4_request,SignedHeaders=host,Signature=${hex64.toUpperCase()}`,
      `Authorization: AWS4-HMAC-SHA256 Credential=${REDACTED},SignedHeaders=host,Signature=${REDACTED}`,
    ],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
    expect(redactText(text)).not.toContain('0123456789abcdef');
    expect(redactText(text)).not.toContain('AKIAFAKE');
  });

  it.each([
    'SignedHeaders=host;x-amz-content-sha256;x-amz-date',
    'The Signature= part of the header is 64 hex digits',
    'Signature=invalid, and Signature=0123456789abcdef (too short)',
    'x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'AWS4-HMAC-SHA256 is the algorithm; see aws4_request scopes',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactText, AWS Signature Version 2', () => {
  const keyId = 'AKIAIOSFODNN7EXAMPLE';
  const sig = 'frJIUN8DYpKDtOLCwo//yllqDzg=';
  const header = `AWS ${keyId}:${sig}`;
  const masked = `AWS ${REDACTED}:${REDACTED}`;
  const query = (amp: string, signature: string) =>
    `https://b.s3.amazonaws.com/photo.jpg?AWSAccessKeyId=${keyId}${amp}Expires=1141889120${amp}Signature=${signature}`;
  const encoded = 'vjbyPxybdZaNmGa%2ByT272YEAiv4%3D';
  it.each([
    // a header line, in a request dump and in curl: the value goes whole
    [`Authorization: ${header}`, `Authorization: ${REDACTED}`],
    [
      `GET /photo.jpg HTTP/1.1\nHost: b.s3.amazonaws.com\nDate: Tue, 27 Mar 2007 19:36:42 +0000\nAuthorization: ${header}\n`,
      `GET /photo.jpg HTTP/1.1\nHost: b.s3.amazonaws.com\nDate: Tue, 27 Mar 2007 19:36:42 +0000\nAuthorization: ${REDACTED}\n`,
    ],
    [
      `curl -H "Date: Tue, 27 Mar 2007" -H "Authorization: ${header}" https://b.s3.amazonaws.com/photo.jpg`,
      `curl -H "Date: Tue, 27 Mar 2007" -H "Authorization: ${REDACTED}" https://b.s3.amazonaws.com/photo.jpg`,
    ],
    // prose, a log line and JSON with no Authorization key before it: the scheme is kept
    [
      `The signed header was ${header}, and S3 said 403.`,
      `The signed header was ${masked}, and S3 said 403.`,
    ],
    [
      `2024-05-01T10:00:00Z DEBUG s3 request signed: ${header}\n    at sign (lib/s3.js:40:7)`,
      `2024-05-01T10:00:00Z DEBUG s3 request signed: ${masked}\n    at sign (lib/s3.js:40:7)`,
    ],
    [JSON.stringify({ note: `sent ${header}` }), JSON.stringify({ note: `sent ${masked}` })],
    // a key id of no AWS shape (an S3-compatible store's): the signature still goes
    ['sent AWS GOOG1EFAKEKEYID0123:frJIUN8DYpKDtOLCwo//yllqDzg=', `sent AWS GOOG1EFAKEKEYID0123:${REDACTED}`],
    // HMAC-SHA256 (44 characters)
    [`sent AWS ${keyId}:frJIUN8DYpKDtOLCwo//yllqDzgfrJIUN8DYpKDtOLC=`, `sent AWS ${REDACTED}:${REDACTED}`],
    // the query-string form, also HTML-escaped and as Go's JSON escapes `&`
    [query('&', encoded), query('&', REDACTED).replace(keyId, REDACTED)],
    [
      `<a href="${query('&amp;', encoded)}">photo</a>`,
      `<a href="${query('&amp;', REDACTED).replace(keyId, REDACTED)}">photo</a>`,
    ],
    [
      `{"url":"${query('\\u0026', encoded)}"}`,
      `{"url":"${query('\\u0026', REDACTED).replace(keyId, REDACTED)}"}`,
    ],
    // `Signature=` of a form or a log line, not after `?` or `&`
    [
      `POST / Action=ListUsers AWSAccessKeyId=${keyId} SignatureVersion=2 Signature=${encoded}`,
      `POST / Action=ListUsers AWSAccessKeyId=${REDACTED} SignatureVersion=2 Signature=${REDACTED}`,
    ],
    [
      `signing failed, Signature=vjbyPxybdZaNmGa+yT272YEAiv4= rejected`,
      `signing failed, Signature=${REDACTED} rejected`,
    ],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
    expect(redactText(text)).not.toContain('frJIUN8');
    expect(redactText(text)).not.toContain('vjbyPxy');
  });

  it.each([
    'AWS Lambda: 3 functions, AWS S3:GetObject denied, AWS region: us-east-1',
    'AWS arn:aws:iam::123456789012:user/ana',
    'Signature=invalid; SignatureVersion=2; SignatureMethod=HmacSHA1',
    'the checksum is sha1=frJIUN8DYpKDtOLCwo//yllqDzg= (base64)',
    'https://example.com/search?q=Signature&page=2',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });

  // Linear time is held by the test's timeout.
  it.each([
    ['long key ids and no signature', `AWS ${'k'.repeat(120)}:${'A'.repeat(35)}= `.repeat(1_200)],
    ['base64 too long for a signature', `Signature=${'A%2B'.repeat(12)}%3D `.repeat(3_300)],
  ])('costs linear time on a long text: %s', (_shape, long) => {
    expect(long.length).toBeGreaterThan(190_000);
    expect(redactText(long)).toBe(long);
  });
});

describe('redactText, PuTTY private key files (.ppk)', () => {
  const publicLines = [
    'AAAAB3NzaC1yc2EAAAADAQABAAABAQDFAKEfakeFAKEfake0123456789abcdefFAKEfake',
    'FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123456789abcdef0123==',
  ];
  const privateLines = [
    'AAABAQCFAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123456789abcdef',
    'FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123456789abcdefABCDEF',
    'c2VjcmV0PQ==',
  ];
  const mac = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b';
  const v2 = [
    'PuTTY-User-Key-File-2: ssh-rsa',
    'Encryption: none',
    'Comment: rsa-key-20240101',
    'Public-Lines: 2',
    ...publicLines,
    'Private-Lines: 3',
    ...privateLines,
    `Private-MAC: ${mac}`,
  ];
  const v2Masked = [...v2.slice(0, 7), REDACTED, `Private-MAC: ${REDACTED}`];
  const v3 = [
    'PuTTY-User-Key-File-3: ssh-ed25519',
    'Encryption: aes256-cbc',
    'Comment: ed25519-key-20240101',
    'Public-Lines: 1',
    'AAAAC3NzaC1lZDI1NTE5AAAAIFAKEfakeFAKEfake0123456789abcdefFAKEfake0123',
    'Key-Derivation: Argon2id',
    'Argon2-Memory: 8192',
    'Argon2-Passes: 13',
    'Argon2-Parallelism: 1',
    'Argon2-Salt: 0123456789abcdef0123456789abcdef',
    'Private-Lines: 1',
    'FAKEfakeFAKEfake0123456789abcdefFAKEfakeFAKEfake0123456789abcdef0123',
    `Private-MAC: ${mac}${mac.slice(0, 24)}`,
  ];
  const v3Masked = [...v3.slice(0, 11), REDACTED, `Private-MAC: ${REDACTED}`];
  it.each([
    ['a version 2 file', v2.join('\n'), v2Masked.join('\n')],
    ['a version 3 file', v3.join('\n'), v3Masked.join('\n')],
    ['a file with CRLF line breaks', `${v2.join('\r\n')}\r\n`, `${v2Masked.join('\r\n')}\r\n`],
    [
      'a file printed by a tool',
      `$ cat ~/.ssh/id.ppk\n${v2.join('\n')}\n$ exit`,
      `$ cat ~/.ssh/id.ppk\n${v2Masked.join('\n')}\n$ exit`,
    ],
    [
      'a file inside a JSON string',
      JSON.stringify({ path: 'id.ppk', content: `${v3.join('\n')}\n` }),
      JSON.stringify({ path: 'id.ppk', content: `${v3Masked.join('\n')}\n` }),
    ],
    [
      'a file in JSON inside a JSON string',
      JSON.stringify({ output: JSON.stringify({ content: v2.join('\r\n') }) }),
      JSON.stringify({ output: JSON.stringify({ content: v2Masked.join('\r\n') }) }),
    ],
    ['a file cut short (no MAC line)', v2.slice(0, 9).join('\n'), [...v2.slice(0, 7), REDACTED].join('\n')],
  ])('%s', (_how, text, redacted) => {
    expectRedacted(text, redacted);
    for (const line of privateLines) expect(redactText(text)).not.toContain(line);
    expect(redactText(text)).not.toContain(mac);
  });

  it.each([
    'the header says Private-Lines: 14 and Private-MAC: missing',
    `Public-Lines: 2\n${publicLines.join('\n')}\nComment: rsa-key-20240101`,
    'PuTTY-User-Key-File-3: ssh-ed25519 is the first line of a .ppk file',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });

  // Linear time is held by the test's timeout.
  it('costs linear time on many private line counts followed by lines that are no base64', () => {
    const long = `Private-Lines: 3\n${'A'.repeat(900)}-\nPrivate-MAC: xyz\n`.repeat(210);
    expect(long.length).toBeGreaterThan(190_000);
    expect(redactText(long)).toBe(long);
  });
});

describe('redactText, one-time codes before "is your <brand> code"', () => {
  it.each([
    ['482913 is your Instagram code', `${REDACTED} is your Instagram code`],
    ['123456 is your verification code', `${REDACTED} is your verification code`],
    [
      '123-456 is your WhatsApp code. Do not share it.',
      `${REDACTED} is your WhatsApp code. Do not share it.`,
    ],
    [
      '4829 is your Uber code. Reply STOP ASAP to cancel',
      `${REDACTED} is your Uber code. Reply STOP ASAP to cancel`,
    ],
    ['G-482913 is your Google code', `${REDACTED} is your Google code`],
    ['123456 is your Google 2-step verification code', `${REDACTED} is your Google 2-step verification code`],
    [
      '{"messages":[{"from":"32665","body":"482913 is your Instagram code. Don\'t share it."}]}',
      `{"messages":[{"from":"32665","body":"${REDACTED} is your Instagram code. Don't share it."}]}`,
    ],
    [
      'Error: sms assertion failed: "482913 is your Instagram code"\n    at check (test/sms.js:4:9)',
      `Error: sms assertion failed: "${REDACTED} is your Instagram code"\n    at check (test/sms.js:4:9)`,
    ],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it.each([
    '3 is your limit, 2024 is your year, 42 is your answer',
    '2024 is your year code',
    '94107 is your ZIP code, 415 is your Area code, 1234 is your Order code',
    '5551 is your Promo code and 7788 is your Discount code; 20240101 is your Booking code',
    '482913 is your Acme Shop order number',
    '482913 is your code',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactText, one-time codes before "is your <Brand> <word> code" and "as your"', () => {
  it.each([
    ['123456 is your Facebook confirmation code', `${REDACTED} is your Facebook confirmation code`],
    ['482913 is your Instagram login code', `${REDACTED} is your Instagram login code`],
    ['G-482913 is your Google verification code', `${REDACTED} is your Google verification code`],
    ['482913 is your Acme sign-in code', `${REDACTED} is your Acme sign-in code`],
    ['482913 is your Acme 2FA code', `${REDACTED} is your Acme 2FA code`],
    ['Use 482913 as your Slack confirmation code', `Use ${REDACTED} as your Slack confirmation code`],
    [
      'Please enter 482 913 as your verification code.',
      `Please enter ${REDACTED} as your verification code.`,
    ],
    [
      'Sure: the SMS says "123456 is your Facebook confirmation code. Don\'t share it."',
      `Sure: the SMS says "${REDACTED} is your Facebook confirmation code. Don't share it."`,
    ],
    [
      JSON.stringify({ to: '+15550100', body: 'Use 482913 as your Slack confirmation code' }),
      JSON.stringify({ to: '+15550100', body: `Use ${REDACTED} as your Slack confirmation code` }),
    ],
    [
      '2024-05-01T10:00:00Z INFO sms received: 123456 is your Facebook confirmation code',
      `2024-05-01T10:00:00Z INFO sms received: ${REDACTED} is your Facebook confirmation code`,
    ],
  ])('%j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it.each([
    '94107 is your ZIP code',
    '3 is your limit',
    '2024 is your year',
    '1234 is your order number',
    'A1 is your seat',
    // a confirmation code without a brand, or of a booking or an order, is a reference
    '1234 is your confirmation code, 5678 is your booking confirmation code',
    '20240101 is your Booking confirmation code and 4821 is your Order confirmation code',
    // `as your` without `use` or `enter` before it
    'I filed 2024 as your access code year',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe('redactText, a duration under an otp or code key', () => {
  it.each([
    'otp: 1000 ms',
    'otp: 100 ms',
    'otp=1000ms',
    'OTP: 5 minutes',
    'otp_timeout: 30 s',
    'passcode: 300 seconds',
    'verification code: 1000 ms',
    '{"otp": "1000 ms", "retries": 3}',
    'auth-cli --otp-timeout 30s --otp 1000ms',
    'settings:\n  otp: 30s\n  retries: 3',
  ])('keeps %j', (text) => {
    expect(redactText(text)).toBe(text);
  });

  it.each([
    ['otp: 482913 (expires in 5 minutes)', `otp: ${REDACTED} (expires in 5 minutes)`],
    ['Your OTP is 482913, valid for 10 minutes', `Your OTP is ${REDACTED}, valid for 10 minutes`],
    ['otp: 482913 sms', `otp: ${REDACTED} sms`],
    ['{"otp": "482913", "ttl": "300 s"}', `{"otp": "${REDACTED}", "ttl": "300 s"}`],
    ['auth-cli --otp 482913 --timeout 30s', `auth-cli --otp ${REDACTED} --timeout 30s`],
    [
      'verification code: 4829 then 30 s later a new one',
      `verification code: ${REDACTED} then 30 s later a new one`,
    ],
  ])('still redacts %j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it.each([
    'otp:\n  1000 ms',
    'otp: |\n  30s',
    'passcode: >-\n  5 minutes\nretries: 3',
    'settings:\n  otp:\n    "30s"\n  retries: 3',
    'mfa:\r\n  otp_timeout: |\r\n    300 seconds\r\n  issuer: acme',
    'WARN config.yaml reloaded:\notp: |\n  30s\nretries: 3',
  ])('keeps a duration in a YAML block under an otp key: %j', (text) => {
    expect(redactText(text)).toBe(text);
  });

  it.each([
    ['otp:\n  482913', `otp:\n  ${REDACTED}`],
    ['otp: |\n  482913', `otp: |\n  ${REDACTED}`],
    ['passcode:\n  9021 ms later', `passcode:\n  ${REDACTED}`],
    // a duration and more lines: no setting of one value
    ['otp: |\n  30s\n  482913\nretries: 3', `otp: |\n  ${REDACTED}\nretries: 3`],
  ])('still redacts a code in a YAML block: %j', (text, redacted) => {
    expectRedacted(text, redacted);
  });

  it('keeps a duration in a YAML block in tool arguments, and redacts a code', () => {
    const args = (otp: string) => ({
      path: 'config.yaml',
      content: `mfa:\n  otp:\n    ${otp}\n  window: 1\n`,
    });
    expect(redactValue(args('1000 ms'))).toEqual(args('1000 ms'));
    expect(redactValue(args('482913'))).toEqual(args(REDACTED));
  });

  it('keeps a duration under an otp key in tool arguments, and redacts a code', () => {
    expect(redactValue({ otp: '1000 ms', otp_ttl: '30s' })).toEqual({ otp: '1000 ms', otp_ttl: '30s' });
    expect(redactValue({ otp: '482913', otp_code: 123456 })).toEqual({ otp: REDACTED, otp_code: REDACTED });
  });
});
