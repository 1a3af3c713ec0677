/**
 * The one redaction of ai-eval: everything that leaves the process (judge prompts and cache
 * entries, grade reasons and so records, reports, failure messages and annotations, log lines,
 * error messages) goes through {@link redactText} or {@link redactValue} first.
 *
 * What is redacted:
 * - values under secret-looking keys ({@link isSecretKey}: `api_key`, `apiKey`, `x-api-key`,
 *   `token`, `access_token`, `password`, `passwd`, `passphrase`, `secret`, `client_secret`,
 *   `private_key`, `authorization`, `auth`, `cookie`, `set-cookie`, `credential(s)`, `session_id`,
 *   `AccountKey`, `PGPASSWORD`, `jwt`, `Ocp-Apim-Subscription-Key`, `RAILS_MASTER_KEY`,
 *   `LICENSE_KEY`, `ENCRYPTION_KEY`, `APP_KEY`, `ADMIN_KEY`, any case and any of `snake_case`,
 *   `camelCase`, `kebab-case`, a secret word written together with another in lower case,
 *   `identitytoken`, `authtoken`, `secretkey`, and in text also two words with a space, `api key`,
 *   `Session ID`, `secret key`; and in text `PWD` whose value is no path, an ODBC password),
 *   in objects and in text (`key=value`,
 *   `key: value`, `"key": "value"`, header lines, an auth scheme in any case taken with its value:
 *   `authorization: bearer abc` loses `bearer abc`; a YAML key whose value is on the lines below,
 *   a block scalar `secret: |` or `>-` or an indented value, loses all those lines); a file
 *   position `name:<line>:<col>` (`evals/cookie-policy.yaml:3:12`) is not a `key: value`; a
 *   `Cookie:` header loses its whole line, and a session cookie (`PHPSESSID`, `JSESSIONID`,
 *   `connect.sid`, `sid`, `<app>_session`) its value elsewhere (`curl -b 'sid=…'`); in code,
 *   `env["API_KEY"] = "…"`, `:=`, `=>` and `password == "…"`; Python's `auth=('admin', 'pw')`
 *   tuple, and the password of an HTTP auth object (`HTTPBasicAuth('admin', 'pw')`,
 *   `HTTPDigestAuth`, `BasicAuth`); command-line flags are keys (`--password=…`, `--api-key …`),
 *   and curl's `-u user:password` loses the password, and so does a setting a CLI sets by name
 *   (`aws configure set aws_secret_access_key …`, `npm config set …:_authToken …`, `git config`,
 *   `poetry config`, `dotnet user-secrets set`); in prose, `my password is hunter2` loses a
 *   value that looks like a credential, and `Your OTP is 482913`, `verification code: X7K9QP`,
 *   `2FA: 482913` or `G-482913 is your Google verification code` a one-time code;
 * - `Bearer <token>` and `Basic <base64 user:pass>` credentials, whole;
 * - key-shaped strings: `sk-…` / `rk-…` / `pk-…` (OpenAI, Anthropic; an `sk-` key from 10
 *   characters on when it has a capital, a digit or a `*`, `sk-learn` being a word), `sk_live_…`
 *   (Stripe), `ghp_…` / `github_pat_…` (GitHub), `xox?-…` / `xapp-…` (Slack), `AKIA…` (AWS),
 *   `AIza…`, `GOCSPX-…`, `ya29.…`, `1//0…` (Google), `npm_…`, `pypi-AgE…`, `glpat-…` and GitLab's
 *   other tokens, `hf_…`, `whsec_…`, `SG.…`, Twilio `SK…`, Mailgun `key-…`, Shopify `shpat_…`,
 *   Telegram bot tokens, Azure AD client secrets (`…8Q~…`), the AI providers' `gsk_…`, `xai-…`,
 *   `pplx-…`, `r8_…`, `tvly-…`, `lsv2_…`, `pcsk_…`, and DigitalOcean, Vault, Atlassian, age,
 *   Linear, Sentry, Databricks, Notion and Postman tokens; Slack and Discord webhook paths, JWTs,
 *   PEM and PGP private key blocks (cut short too), and a private key block in base64
 *   (Kubernetes' `client-key-data: LS0tLS1CRUdJTi…`);
 * - URL userinfo: `https://user:pass@host` becomes `https://[redacted]@host` (to the last `@`), and
 *   query parameters that are credentials by name (`?sig=`, `&X-Amz-Signature=`, `?key=`), and
 *   `code=` in the URL of an auth flow (`/oauth/callback?code=…`, `/verify?code=…`, or beside
 *   `state=`; `?code=US` is kept);
 * - any literal secret passed in (the configured API key) that is at least
 *   {@link MIN_LITERAL_SECRET_CHARS} characters long: a shorter one is a placeholder (Ollama's
 *   `ollama`), and redacting it would blank ordinary words and make judge cache keys depend on it.
 */

import { setOwn } from './own.js';

/**
 * What replaces a secret.
 *
 * @example
 * ```ts
 * redactText('token=abc'); // `token=${REDACTED}`
 * ```
 */
export const REDACTED = '[redacted]';

/**
 * The shortest literal secret (the configured API key) that is redacted as such. Real keys are far
 * longer; a shorter one is a placeholder a local server ignores (`ollama`, `not-needed`), and
 * redacting it would turn ordinary words into `[redacted]` in prompts (so cache keys would depend on
 * the key). A short key of a known shape (`sk-…`) is still redacted by its shape.
 *
 * @example
 * ```ts
 * redactText('pull with ollama', ['ollama']); // 'pull with ollama'
 * ```
 */
export const MIN_LITERAL_SECRET_CHARS = 16;

/**
 * A configured key redacted as a literal: one of {@link MIN_LITERAL_SECRET_CHARS} characters or
 * more, or a shorter one that says it is a key (`sk-...`, as OpenAI and Anthropic keys start), which
 * an error message may echo (`Incorrect API key provided: sk-...`).
 */
const isLiteralSecret = (secret: string | undefined): secret is string =>
  secret !== undefined &&
  (secret.length >= MIN_LITERAL_SECRET_CHARS || (secret.length >= 6 && secret.startsWith('sk-')));

/** Words that make a key secret wherever they appear in it (exported for the tests only). */
export const SECRET_WORDS: ReadonlySet<string> = new Set([
  'token',
  'password',
  'pgpassword', // PostgreSQL's environment variable, one word
  'passwd',
  'passphrase',
  'secret',
  'authorization',
  'auth',
  'cookie',
  'apikey',
  'credential',
  'credentials',
  'jwt',
  'bearer',
  'sessionid',
  'passcode',
  'otp', // a one-time password (`OTP: 123456`, `otp_code`)
]);

/** Pairs of consecutive words that make a key secret (`api_key`, `private-key`, `sessionId`). */
export const SECRET_PAIRS: ReadonlySet<string> = new Set([
  'api key',
  'private key',
  'access key',
  'session id',
  'signing key',
  'account key',
  'subscription key', // Azure API Management's `Ocp-Apim-Subscription-Key`
  'master key', // `RAILS_MASTER_KEY`, Cosmos DB, Meilisearch
  'license key', // New Relic, MaxMind
  'encryption key',
  'app key', // Laravel's `APP_KEY`, Datadog's `DD_APP_KEY`
  'application key',
  'admin key', // Algolia
]);

/**
 * Words that, right after a secret word, make the key describe the secret rather than hold it:
 * `token_count` and `token_limit` count tokens, `password_min_length` is a policy, `secret_name`
 * names a secret, `auth_method` and `auth_enabled` are settings, `token_url` and `private_key_path`
 * say where one is. Their values are still passed through the text patterns.
 */
const DESCRIBING = new Set(
  'count counts limit limits usage type types budget length min max policy name names method methods enabled required url uri endpoint path file expiry expires expiration ttl rotation strength'.split(
    ' ',
  ),
);

/**
 * A key in text: a word as keys are written (`api_key`, `X-Api-Key`), and, after a space, a last
 * word that ends a pair of SECRET_PAIRS, `key` or `id`, so that a key written as two words (`api
 * key`, `API Key`, `Session ID`, `secret key`) is read whole and is as secret as `api_key` (a key
 * whose last word is secret itself, `access token`, is read from that word). No other word takes a
 * space: `password reset: enabled` and `token count: 42` are not read as `password` or `token`.
 * (One optional suffix, not an alternative of every pair: the key=value pattern runs on long texts.)
 */
const KEY = [
  String.raw`[A-Za-z_][\w.-]{0,63}(?:[ \t]{1,4}(?:`,
  [...new Set([...SECRET_PAIRS].map((pair) => pair.split(' ')[1]))].join('|'),
  '))?',
].join('');

function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/**
 * True when a key names a secret: `api_key`, `apiKey`, `X-Api-Key`, `access_token`, `password`,
 * `client_secret`, `private_key`, `Authorization`, `set-cookie` and the like (the words are read in
 * any case and any of snake, camel and kebab case). `max_tokens` or `token_count` are not.
 *
 * @example
 * ```ts
 * isSecretKey('x-api-key'); // true
 * isSecretKey('max_tokens'); // false
 * ```
 */
export function isSecretKey(key: string): boolean {
  let known = SECRET_KEYS.get(key);
  if (known === undefined) {
    known = secretWords(key);
    // The same few argument names come back on every call: remember them (a bounded number).
    if (SECRET_KEYS.size >= CACHED_KEYS) SECRET_KEYS.clear();
    SECRET_KEYS.set(key, known);
  }
  return known;
}

/** Keys already read by {@link isSecretKey}, and whether each is secret. */
const SECRET_KEYS = new Map<string, boolean>();
const CACHED_KEYS = 1024;

/**
 * A key whose last word abbreviates a password, as environment variables write it: `DB_PASS`,
 * `SMTP_PASS` (upper case only: `pass` in lower or mixed case is pass/fail, as in `all_pass`), and
 * `MYSQL_PWD`, `db_pwd`, `dbPwd` (any case, after another word: `PWD` and `OLDPWD` alone are the
 * shell's working directories).
 */
const PASSWORD_SUFFIX =
  /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_PASS$|^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*(?:_(?:pwd|PWD|Pwd)|[a-z0-9]Pwd)$/;

/**
 * A word written together with the secret word it ends in, as lower-case keys are (Docker's
 * `identitytoken`, ngrok's `authtoken`, `accesstoken`, `clientsecret`, MinIO's `secretkey`): as
 * secret as the two words apart (`identity_token`). `tokens` (`maxtokens`) ends in no secret word,
 * and `jsessionid` and `phpsessid` are session cookies, whose values are read as such (see
 * {@link SESSION_COOKIE}).
 */
const COMPOUND_SECRET =
  /^[a-z0-9]{0,32}(?:token|password|passwd|passphrase|passcode|secret|credentials?|apikey|secretkey|privatekey|accesskey)$/;

function secretWords(key: string): boolean {
  if (PASSWORD_SUFFIX.test(key)) return true;
  const parts = words(key);
  return parts.some(
    (word, i) =>
      ((SECRET_WORDS.has(word) || COMPOUND_SECRET.test(word)) && !DESCRIBING.has(parts[i + 1] ?? '')) ||
      (SECRET_PAIRS.has(`${word} ${parts[i + 1] ?? ''}`) && !DESCRIBING.has(parts[i + 2] ?? '')),
  );
}

/**
 * The first line of a PEM private key block (`-----BEGIN RSA PRIVATE KEY-----`, OpenSSH, encrypted)
 * or a PGP one (`-----BEGIN PGP PRIVATE KEY BLOCK-----`), and its last line (see
 * {@link redactPrivateKeys}).
 */
const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_END = /-----END [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * The lines of a block cut short (a capped tool output: no END line) after its BEGIN line: lines of
 * base64 alone, each after a line break: a real one, or an escaped one in a JSON string (`\n`,
 * `\r\n`, and `\\n` in JSON inside a JSON string); or, in a block printed on one line, runs of 40
 * base64 characters or more after a space (a word of prose is shorter). Prose after them is kept.
 */
const PRIVATE_KEY_LINES =
  /(?:(?:\r?\n|(?:\\{1,3}r)?\\{1,3}n)[A-Za-z0-9+/=]{1,1024}(?=[\r\n"'\\]|$)|[ \t][A-Za-z0-9+/=]{40,1024}(?=[\s"'\\]|$)){0,4096}/y;

/**
 * A URL's userinfo, `user:pass@`, up to the last `@` before the host: a password may hold an `@`
 * itself (`mysql://root:p@ssw0rd@localhost`), and the first `@` would leave the rest of it.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,20}:\/\/)[^\s/?#'"<>\\]{1,512}@/gi;
/**
 * A query parameter that is a credential by its name alone, though the name holds no secret word:
 * a signature (`sig=` of an Azure SAS URL, `X-Amz-Signature=`, `X-Goog-Signature=`, `signature=`)
 * or a bare `key=` (Google and many other APIs take their key so). Only after `?` or `&`, as in a
 * URL: `sort key=name` or `signature=John` in prose is kept. The name (1) is kept.
 */
const QUERY_CREDENTIAL =
  /([?&](?:sig|signature|x-amz-signature|x-goog-signature|key)=)[^&#\s'"<>\\]{1,8192}/gi;

/**
 * A URL or a path with a query, as a word of a text (after a space, a quote, `(`, `[` or `<`, or at
 * the text's start): its path, host included (1), and its query (2). A path holds no `?`, space or
 * quote, so each start is read once: linear time. (See {@link redactAuthFlowCodes}.)
 */
const URL_WITH_QUERY = /(?<![^\s'"`<>([])([^\s'"`<>\\?#()]{1,2048})\?([^\s'"`<>\\#]{1,8192})/g;
/** A `code=` parameter of a query (also after an HTML-escaped `&amp;`), and its value. */
const CODE_PARAM = /((?:^|&(?:amp;)?)code=)[^&#)]{1,8192}/g;
/** A `state=` parameter, which an OAuth redirect carries beside its `code=`. */
const STATE_PARAM = /(?:^|&(?:amp;)?)state=/;
/**
 * A path (or host) of an auth flow, a word of it: an OAuth callback, an email verification, a
 * password reset, a magic link, a sign-in (`/oauth/callback`, `/verify-email`, `/reset-password`,
 * `/magic-link`, `login.example.com`); `authors` and `reviews` are not.
 */
const AUTH_FLOW_PATH =
  /(?<![a-z])(?:o?auth2?|authori[sz]e|authenticate|callback|verify|verification|reset|confirm|confirmation|magic|login|log-in|signin|sign-in|sso|activate|2fa|mfa|otp)(?![a-z])/i;

/**
 * Text whose URLs of auth flows lose their `code=` value: an OAuth authorization code
 * (`/oauth/callback?code=4/0AX...&state=xyz`), a verification or reset code (`/verify?code=...`).
 * A URL is an auth flow when its path says so ({@link AUTH_FLOW_PATH}) or a `state=` is beside the
 * code; elsewhere `code=` is data (`?code=US`, `?code=404`, `/products?code=SAVE20`) and is kept.
 */
function redactAuthFlowCodes(text: string): string {
  return text.replace(URL_WITH_QUERY, (match, path: string, query: string) => {
    if (!query.includes('code=') || !(AUTH_FLOW_PATH.test(path) || STATE_PARAM.test(query))) return match;
    const redacted = query.replace(CODE_PARAM, (_m, name: string) => `${name}${REDACTED}`);
    return redacted === query ? match : `${path}?${redacted}`;
  });
}

/**
 * `key` `sep` `value`, where the key may be quoted (also with escaped quotes, as inside JSON in a
 * string) and the value is a quoted string or a bare word, a bare value taking an auth scheme with
 * it, in any case (`Authorization: Bearer abc`, `authorization: bearer abc`, `Authorization: Bot
 * abc`). Quantifiers are
 * bounded so a long text costs linear time. Case-insensitive: only the scheme names have letters
 * of their own (the key's classes already take both cases).
 */
const KEY_VALUE = new RegExp(
  [
    // starts where a key can start (not inside a word or a path: linear time on a long word), or
    // after the `-` or `--` of a command-line flag (`--password=...`)
    String.raw`(?:(?<![\w./-])|(?<=(?:^|\s)--?))`,
    String.raw`(\\?["']?)`, // 1: the key's opening quote
    `(${KEY})`, // 2: the key
    // 3: its closing quote, and the `]` of an index (`os.environ["API_KEY"] = ...`, `cfg[:token] =`)
    String.raw`(\1\]?)`,
    // 4: the separator (`:`, `=`, and code's `:=`, `=>`, `==`, `===`); the value may be on the
    // next line unless that line is a key of its own (`password:` then `user: bob` leaves `user` alone)
    String.raw`(\s{0,8}(?::=|=>|={2,3}|[:=])(?:[ \t]{0,8}|[ \t]{0,8}\r?\n[ \t\r\n]{0,8}(?![\w.-]{1,64}[ \t]*[:=](?:\s|$))))`,
    '(',
    String.raw`\\"(?:(?!\\")[^\n]){0,8192}\\"`, // an escaped-quote string
    String.raw`|"(?:[^"\\\n]|\\.){0,8192}"`,
    String.raw`|'(?:[^'\\\n]|\\.){0,8192}'`,
    // a tuple that starts with a string (Python's `auth=('admin', 'pw')`), and a `${...}` reference
    String.raw`|\(\s{0,8}(?:"(?:[^"\\\n]|\\.){0,1024}"|'(?:[^'\\\n]|\\.){0,1024}')\s{0,8},[^()\n]{0,1024}\)`,
    String.raw`|\$\{\{[^}\n]{0,256}\}\}|\$\{[^\s}]{0,256}\}?`,
    // a bare word, not one that starts with `=` (`password == ...` is read with `==` as separator),
    // after an auth scheme: HTTP's, Discord's `Bot`, Okta's `SSWS`, Elastic's `ApiKey`, fal's
    // `Key`, `OAuth`, `JWT`, Opsgenie's `GenieKey`, Splunk's, DeepL's `DeepL-Auth-Key`
    String.raw`|(?:(?:Bearer|Basic|Digest|Token|Negotiate|Bot|SSWS|ApiKey|Api-Key|Key|OAuth|JWT|GenieKey|Splunk|DeepL-Auth-Key)\s{1,8})?(?!=)[^\s,;&{}\[\]'"<>\\]{1,8192}`,
    ')', // 5: the value
  ].join(''),
  'gi',
);

/**
 * A command-line flag and its value after a space (`--api-key abc`, `--token "abc"`): the flag (1)
 * is read as a key (see {@link redactFlags}), the value (2) is a quoted string or a word that does
 * not start a flag of its own. (`--password=abc` is a `key=value` pair.)
 */
const FLAG_VALUE =
  /(?<![\w-])--([A-Za-z][\w-]{0,63})[ \t]{1,8}("(?:[^"\\\n]|\\.){0,8192}"|'(?:[^'\\\n]|\\.){0,8192}'|[^\s'"<>|;&`$-][^\s'"<>|;&`]{0,8191})/g;
/**
 * The last word of a flag that names where a secret is read from, not the secret
 * (`--password-stdin`, `--token-file /run/secrets/t`, `--api-key-env NAME`).
 */
const FLAG_SOURCE = /[-_](?:stdin|file|path|env|cmd|command|prompt)$/i;
/**
 * curl's `-u user:password` (`--user`, `--proxy-user`, `-U`), quoted or not: the user (4) is kept.
 * Only where the text says `curl` (`docker run -u 1000:1000` is a user and group).
 */
const CURL_USER =
  /(?<![\w-])(-u|-U|--user|--proxy-user)([ \t]{1,8}|=)(["']?)([^\s:'"]{0,256}):[^\s'"]{1,512}\3/g;

/**
 * An HTTP auth object built with a user and a password written in (Python requests'
 * `HTTPBasicAuth('admin', 's3cret')`, `HTTPDigestAuth`, `HTTPProxyAuth`; httpx's and aiohttp's
 * `BasicAuth`, `DigestAuth`): the call and its first argument (1) are kept, the password (2), a
 * quoted string (also with escaped quotes, in JSON inside a string), goes. A password read from a
 * variable or a call (`HTTPBasicAuth(user, password)`) is a reference and is kept, and a keyword
 * argument (`password='...'`) is a `key=value` pair. The first argument holds no `,` or parenthesis,
 * so each match costs bounded time.
 */
const AUTH_OBJECT = new RegExp(
  [
    String.raw`(\b(?:HTTP)?(?:Basic|Digest|Proxy)Auth\([ \t]{0,8}[^,()\n]{1,256},[ \t]{0,8})`,
    String.raw`(\\"(?:(?!\\")[^\n]){1,512}\\"|"(?:[^"\\\n]|\\.){1,512}"|'(?:[^'\\\n]|\\.){1,512}')`,
  ].join(''),
  'g',
);
/**
 * A bare value that starts an {@link AUTH_OBJECT} (`auth=HTTPBasicAuth(` or
 * `auth=requests.auth.HTTPBasicAuth(user`): not the secret, whose password that pattern redacts.
 */
const AUTH_OBJECT_VALUE = /^(?:[A-Za-z_]\w{0,63}\.){0,4}(?:HTTP)?(?:Basic|Digest|Proxy)Auth\(/;

/**
 * A session cookie outside a `Cookie:` header (which loses its whole line): curl's `-b 'sid=...'`,
 * a URL's `;jsessionid=...` or `?sid=...`, a log line. The names are those of common session
 * cookies (`PHPSESSID`, `JSESSIONID`, Express's `connect.sid`, `sid`, Flask's `session`, Rails'
 * and Laravel's `<app>_session`), in any case, each starting a word (`ORACLE_SID=` is a database);
 * `sessionid` and `session_id` are secret keys already. The name (1) is kept; the value (2) goes
 * when it looks like a session id (see {@link isSessionValue}) and is not followed by `(` (a call:
 * `session=requests.Session()`).
 */
const SESSION_COOKIE =
  /(?<![\w.-])((?:phpsessid|jsessionid|connect\.sid|sid|session|[\w-]{0,64}_session)=)([^\s;,&'"`<>\\()?#]{8,4096})(?=$|[\s;,&'"`<>\\)?#])/gi;
/** What every match of {@link SESSION_COOKIE} contains. */
const SESSION_WORD = /sid=|session/i;
/**
 * A session cookie's value: eight characters or more (the pattern's), with a letter and a digit,
 * as a random id has (`sid=42`, `SID=orcl` and `session=default` are kept).
 */
const isSessionValue = (value: string): boolean => /\d/.test(value) && LETTER.test(value);

/**
 * A one-time code in prose, right after a word that says it is one: `Your OTP is 482913`,
 * `verification code: 482913`, `2FA code 482 913`, `the passcode is 9021`,
 * `"verification_code": "482913"`, `2FA: 482913` (`2FA` or `MFA` alone, then `:`, `=` or `is`),
 * and `use code 482913` or `enter code ...` when `to sign in` (or `log in`, `verify`, `confirm`,
 * ...) follows (see {@link ONE_TIME_PURPOSE}). A credential needs a letter elsewhere, so that ids
 * and counts are kept; here a number is the secret, and only here (`order 482913`, `error code
 * 500`, `status code 200`, `zip code 94107` are kept). The words and separators (1) and a quote or
 * `**` (2) are kept; the code (3) goes: 4 to 10 digits or `482 913`, maybe after a letter and a
 * dash (Google's `G-482913`), when no digit or word goes on after it (`2024-05-01`, `1234.5`), or
 * 4 to 10 letters and digits, with both (`X7K9QP`), when no word or dash goes on after it (see
 * {@link isOneTimeCode}).
 */
const ONE_TIME_CODE = new RegExp(
  [
    '(',
    String.raw`\b(?:(?:one[- ]time|verification|security|2fa|mfa|t?otp|login|sign[- ]?in|authentication|access)[ \t_-]{1,4}(?:pass)?code|t?otp|passcode|one[- ]time[ \t]{1,4}(?:password|pin))`,
    // the key's closing quote, and `is`, `was`, `:` or `=` before the code
    String.raw`["']?[ \t]{0,4}(?:(?:is|was)(?:[ \t]{1,4}(?:now|still))?[ \t]{1,4}|[:=#][ \t]{0,4})?`,
    // `2FA` or `MFA` alone, and then a separator
    String.raw`|\b(?:2fa|mfa)["']?[ \t]{0,4}(?:(?:is|was)[ \t]{1,4}|[:=#][ \t]{0,4})`,
    String.raw`|\b(?:use|enter|type)[ \t]{1,4}(?:(?:the|this|your)[ \t]{1,4})?code[ \t]{1,4}`,
    String.raw`)(["'\x60*]{0,2})(`,
    String.raw`(?:[A-Z]-)?(?:\d{3}[ -]\d{3}(?!\d)|\d{4,10})(?!\w|[.,:/-]\d)`,
    String.raw`|(?=[A-Z]{0,9}\d)(?=\d{0,9}[A-Z])[A-Z0-9]{4,10}(?![\w-]|[.,:/]\w)`,
    ')',
  ].join(''),
  'gi',
);
/**
 * A one-time code the other way round, as text messages write it: `482913 is your verification
 * code`, `G-482913 is your Google verification code` (up to three words, a brand's, before the
 * words that say what it is). The code (1) goes.
 */
const ONE_TIME_CODE_FIRST = new RegExp(
  [
    String.raw`\b((?:[A-Z]-)?(?:\d{3}[ -]\d{3}|\d{4,10}))(?=[ \t]{1,4}is[ \t]{1,4}your[ \t]{1,4}(?:[A-Za-z][\w.&'-]{0,24}[ \t]{1,4}){0,3}`,
    String.raw`(?:(?:verification|security|login|sign[- ]?in|one[- ]time|authentication|2fa|mfa|access)[ \t_-]{1,4}(?:pass)?code|t?otp|passcode|one[- ]time[ \t]{1,4}(?:password|pin))\b)`,
  ].join(''),
  'gi',
);
/** What every match of {@link ONE_TIME_CODE} and {@link ONE_TIME_CODE_FIRST} contains. */
const ONE_TIME_WORD = /code|otp|one[- ]time|2fa|mfa/i;
/** What every match of {@link ONE_TIME_CODE_FIRST} contains. */
const IS_YOUR = /is[ \t]{1,4}your/i;
/** Where `use code 482913` goes on to say what the code is for: signing in, not a discount. */
const ONE_TIME_PURPOSE =
  /^[ \t]{1,4}to[ \t]{1,4}(?:sign|log|verify|confirm|complete|finish|reset|authenticate|access|continue|activate|unlock)/i;
/** The start of the `use code` or `enter code` form of {@link ONE_TIME_CODE}. */
const USE_CODE = /^(?:use|enter|type)\b/i;
/** The start of the `2FA: 482913` form of {@link ONE_TIME_CODE}: `2FA` or `MFA` without `code`. */
const FACTOR_ALONE = /^(?:2fa|mfa)(?![ \t_-]{1,4}(?:pass)?code)/i;
/** A code of 6 to 8 digits (`482913`, `482 913`): what a second factor sends. */
const FACTOR_CODE = /^(?:\d{3}[ -]\d{3}|\d{6,8})$/;
/**
 * A word of letters then digits that names a standard or an encoding (`base64`, `sha256`, `UTF8`,
 * `RFC6238`, `HS256`, `IPv6`, `v2`): not a code, though it has both (`X7K9QP` and `ABC123` are).
 */
const TECHNICAL_WORD =
  /^(?:sha|rfc|utf|aes|rsa|hs|rs|es|ps|md|base|iso|ipv|tls|ssl|oauth|crc|fips|http|ecdsa|ed|x|v|h|mp|ec|s|t|p)\d+$/i;

/** True when `code`, after `head`, is a one-time code that goes (see {@link ONE_TIME_CODE}). */
function isOneTimeCode(head: string, code: string): boolean {
  if (FACTOR_ALONE.test(head)) return FACTOR_CODE.test(code);
  return !(LETTER.test(code) && /\d/.test(code) && !code.includes('-') && TECHNICAL_WORD.test(code));
}

/** The text with each one-time code of {@link ONE_TIME_CODE} and {@link ONE_TIME_CODE_FIRST} redacted. */
function redactOneTimeCodes(text: string): string {
  const out = text.replace(
    ONE_TIME_CODE,
    (match, head: string, mark: string, code: string, offset: number) =>
      (USE_CODE.test(head) &&
        !ONE_TIME_PURPOSE.test(text.slice(offset + match.length, offset + match.length + 64))) ||
      !isOneTimeCode(head, code)
        ? match
        : `${head}${mark}${REDACTED}`,
  );
  return IS_YOUR.test(out) ? out.replace(ONE_TIME_CODE_FIRST, REDACTED) : out;
}

/** A quoted string after a flag, in double or single quotes. */
const QUOTED_FLAG_VALUE = String.raw`"(?:[^"\\\n]|\\.){0,512}"|'(?:[^'\\\n]|\\.){0,512}'`;
/** A value after a short flag: a quoted string, or a word. */
const FLAG_WORD = String.raw`(${QUOTED_FLAG_VALUE}|[^\s'"]{1,512})`;
/** A value written right after its flag (mysql's `-pVALUE`): as {@link FLAG_WORD}, not starting with `-`. */
const ATTACHED_WORD = String.raw`(${QUOTED_FLAG_VALUE}|[^\s'"-][^\s'"]{0,511})`;
/** The rest of a command up to a short flag, on the same line and in the same command. */
const UP_TO_FLAG = String.raw`\b[^\n|;&]{0,256}?[ \t]`;

/**
 * The password flags of login and database clients, each only after its command's name: `-p
 * VALUE` of `docker login` (also podman, nerdctl, oras, buildah, skopeo, `helm registry login`)
 * and `az login`; mysql's `-pVALUE` (written together: `mysql -p shop` prompts, and `shop` is the
 * database); redis-cli's `-a VALUE`; sqlcmd's and bcp's `-P VALUE`. Elsewhere `-p` is a port, a
 * path or a parent (`ssh -p 2222`, `docker run -p 8080:80`, `mkdir -p`). The command and flag
 * (1) are kept, the value (2) goes. Each pattern runs only where the text has one of its literals
 * (words every match of it contains; not its flag, whose leading space is the most common
 * character of a text and made the search for it slow).
 */
const CLIENT_PASSWORDS: ReadonlyArray<readonly [readonly string[], RegExp]> = [
  [
    ['login'],
    new RegExp(
      String.raw`(\b(?:(?:docker|podman|nerdctl|oras|buildah|skopeo|helm(?:[ \t]+registry)?)[ \t]+login|az[ \t]+login)${UP_TO_FLAG}-p[ \t]{1,8})${FLAG_WORD}`,
      'g',
    ),
  ],
  [
    ['mysql', 'mariadb'],
    new RegExp(
      String.raw`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb(?:-dump)?)${UP_TO_FLAG}-p)${ATTACHED_WORD}`,
      'g',
    ),
  ],
  [['redis-cli'], new RegExp(String.raw`(\bredis-cli${UP_TO_FLAG}-a[ \t]{1,8})${FLAG_WORD}`, 'g')],
  [['sqlcmd', 'bcp'], new RegExp(String.raw`(\b(?:sqlcmd|bcp)${UP_TO_FLAG}-P[ \t]{1,8})${FLAG_WORD}`, 'g')],
  // GitHub's `gh secret set NAME --body VALUE`, and kubectl's `--from-literal=key=VALUE`
  [
    ['secret'],
    new RegExp(
      String.raw`(\bgh[ \t]+secret[ \t]+set${UP_TO_FLAG}(?:--body|-b)(?:[ \t]{1,8}|=))${FLAG_WORD}`,
      'g',
    ),
  ],
  [['--from-literal'], new RegExp(String.raw`(--from-literal[= ][\w.-]{1,253}=)${FLAG_WORD}`, 'g')],
  // a .netrc entry (`machine HOST login NAME password VALUE`, or `default ...`), on one line or on
  // the lines of its `machine`: `password` takes no separator
  [
    ['password'],
    new RegExp(
      String.raw`((?:\bmachine[ \t]+\S{1,256}|\bdefault(?=[ \t]+(?:login|account)\b))(?:[ \t]+(?:login|account)[ \t]+\S{1,256}){0,2}[ \t]+password[ \t]{1,8}|^[ \t]*machine[ \t]+\S{1,256}[ \t]*\r?\n(?:[ \t]*(?:login|account)[ \t]+\S{1,256}[ \t]*\r?\n){0,4}[ \t]*password[ \t]{1,8})(\S{1,512})`,
      'gm',
    ),
  ],
];

/** `fly secrets set` (also `flyctl`, `import`): every `NAME=VALUE` after it is a secret. */
const FLY_SECRETS = /\b(?:fly|flyctl)[ \t]+secrets[ \t]+(?:set|import)\b[^\n|;&]{0,1024}/g;
const ASSIGNMENT = new RegExp(String.raw`([ \t][A-Za-z_]\w{0,127}=)${FLAG_WORD}`, 'g');

/**
 * Whether a text may hold a match of {@link CLIENT_PASSWORDS}: it has one of their commands, or
 * (`namesSecret`) a secret word, as `password` of a .netrc entry and `secret` of `gh secret set`
 * and `fly secrets set` are. One scan for the commands: most texts have none of them.
 */
const CLIENT_COMMAND = /login|mysql|mariadb|redis-cli|sqlcmd|bcp|--from-literal/;

/**
 * Text with the password flags of {@link CLIENT_PASSWORDS} redacted. `namesSecret` says whether
 * the text has a secret word (asked once per text by the caller).
 */
function redactClientPasswords(text: string, namesSecret: () => boolean): string {
  if (!CLIENT_COMMAND.test(text) && !namesSecret()) return text;
  let out = text;
  for (const [literals, pattern] of CLIENT_PASSWORDS) {
    if (!literals.some((literal) => out.includes(literal))) continue;
    out = out.replace(pattern, redactFlagValue);
  }
  if (out.includes('secrets'))
    out = out.replace(FLY_SECRETS, (command) => command.replace(ASSIGNMENT, redactFlagValue));
  return out;
}

/**
 * A CLI's command that sets a setting, named and then valued after a space: `aws configure set
 * aws_secret_access_key …`, `npm config set //registry.npmjs.org/:_authToken …` (also yarn and
 * pnpm), `git config --global github.token …`, `poetry config pypi-token.pypi …`, `dotnet
 * user-secrets set "Stripe:SecretKey" "…"`. The command and the name (1) are kept; the name (3),
 * maybe quoted (2), is read as a key, and the value (4), a quoted string or a word, goes when that
 * key is secret (see {@link redactConfigSets}).
 */
const CONFIG_SET = new RegExp(
  [
    String.raw`(\b(?:(?:aws[ \t]+configure|(?:npm|yarn|pnpm)[ \t]+config|dotnet[ \t]+user-secrets)[ \t]+set`,
    String.raw`|git[ \t]+config|poetry[ \t]+config)[ \t]+`,
    // options before the name: `--global`, `--profile dev`, `--project Shop.Api`
    String.raw`(?:--(?:profile|location|project|id)(?:[ \t]+|=)[^\s-]\S{0,63}[ \t]+|--?[\w-]{1,32}[ \t]+){0,3}`,
    String.raw`(["']?)([^\s"'-][^\s"']{0,255})\2[ \t]+)`,
    // as a flag's value (see FLAG_VALUE), a bare one ends before a backtick, `;`, `&`, `|`, `<`, `>`
    String.raw`("(?:[^"\\\n]|\\.){0,512}"|'(?:[^'\\\n]|\\.){0,512}'|[^\s'"<>|;&\x60]{1,512})`,
  ].join(''),
  'g',
);
/** git's `credential.helper`: how credentials are stored (`store`, `cache`), not one. */
const CREDENTIAL_HELPER = /(?:^|\.)helper$/i;

/** Text with the value set by each {@link CONFIG_SET} command under a secret name redacted. */
function redactConfigSets(text: string): string {
  return text.replace(CONFIG_SET, (match, head: string, _quote: string, name: string, value: string) =>
    isSecretKey(name) && !CREDENTIAL_HELPER.test(name) && value !== REDACTED && value !== `"${REDACTED}"`
      ? `${head}${quoted(value)}`
      : match,
  );
}

/** The replacement of a match of a flag (1) and its value (2): the flag kept, the value redacted. */
const redactFlagValue = (_match: string, head: string, value: string): string => `${head}${quoted(value)}`;

/**
 * A secret named in prose and its value: `my password is hunter2`, `the API key was abc123`, `the
 * token has been changed to "x9"`. The key (1) is a word, or two ending in `key` or `id` (as in
 * {@link KEY}); the value (2) is quoted or one word (see {@link redactProse}). Each quantifier is
 * bounded and the key starts a word, so a long text costs linear time.
 */
const PROSE_VALUE = new RegExp(
  [
    String.raw`(?<![\w./-])([A-Za-z][\w-]{0,63}(?:[ \t]{1,4}(?:key|id))?)[ \t]{1,4}`,
    // whose it is, one word (`the password for ana is ...`, `for ana@example.com`)
    String.raw`(?:for[ \t]{1,4}[^\s"'\`<>]{1,128}[ \t]{1,4})?`,
    // `was changed to` before `was`, which would take `changed` for the value
    String.raw`(?:(?:(?:is|was|has[ \t]{1,4}been)[ \t]{1,4})?(?:set|changed|reset|updated)[ \t]{1,4}to|(?:is|was)(?:[ \t]{1,4}(?:now|still))?)`,
    String.raw`[ \t]{1,4}("[^"\n]{1,512}"|'[^'\n]{1,512}'|\`[^\`\n]{1,512}\`|[^\s"'\`<>]{1,512})`,
  ].join(''),
  'gi',
);
/**
 * A bare word after `password is` that looks like a credential, not the sentence going on: it has
 * a letter and a digit, a symbol other than `-` (`hunter2`, `abc123`, `Pg_pa55word`, `x#y!`), or a
 * capital right after a small letter (`HunTer`; {@link LETTER} is the test for a letter). `valid`,
 * `missing`, `read-only`, `case-sensitive`, `JWT` and `8` are words.
 */
const CREDENTIAL_WORD = /[0-9_#$%@!*^&+=~/\\]|[a-z][A-Z]/;
const LETTER = /[A-Za-z]/;
/**
 * A bare value without its closing punctuation (`hunter2` of `hunter2.`) when that looks like a
 * credential ({@link CREDENTIAL_WORD}), else `undefined`.
 */
function credentialPart(value: string): string | undefined {
  const bare = value.replace(TRAILING_PUNCTUATION, '');
  return bare !== REDACTED && LETTER.test(bare) && CREDENTIAL_WORD.test(bare) ? bare : undefined;
}
/** Punctuation that ends a sentence or clause after a bare value: not part of it. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]]{1,8}$/;

/**
 * A bare value that is the rest of a file position, `<line>:<col>` (a trailing colon included), as
 * in `evals/cookie-policy.yaml:3:12: must be a string` or `/etc/passwd:3:1`: read as `key: value`,
 * it would take a file name holding a secret word for a key. A position is never a secret.
 */
const POSITION = /^\d{1,9}:\d{1,9}:?$/;

/** What may stand before a key that begins its line: an indent, a list mark, one word (`wifi`). */
const LINE_HEAD = /^[ \t]{0,64}(?:[-*][ \t]{1,4})?(?:[A-Za-z][\w-]{0,31}[ \t]{1,4})?$/;
/**
 * The rest of a line after a bare value that is only more plain words (letters and digits; at
 * most 12, and maybe a full stop): the words of a passphrase (`correct horse battery staple`).
 */
const PASSPHRASE_REST = /^(?:[ \t]{1,4}[A-Za-z0-9]{1,64}){1,12}[.!]?[ \t]*(?=\r?\n|$)/;

/**
 * A bare value that is a key itself (`enabled:` of `auth: enabled: true`): the search goes on
 * after the first key's separator, as after a key that is not secret.
 */
const KEY_AS_VALUE = /^[A-Za-z_][\w.-]{0,63}:$/;

/**
 * A value that says where a secret lives, not the secret: `process.env.OPENAI_API_KEY`,
 * `import.meta.env.VITE_KEY`, `${DB_PASSWORD}`, `${{ secrets.GITHUB_TOKEN }}`. A judge reading code
 * needs these to tell a key read from the environment from one written in. Only upper-case names
 * are read as references, so `process.env.X_hunter2` and `${hunter2` are still redacted.
 */
const REFERENCE =
  /^(?:(?:process\.env|import\.meta\.env)\.[A-Z_][A-Z0-9_]{0,127}|\$\{[A-Z_][A-Z0-9_]{0,127}\}|\$\{\{[ \t]{0,8}(?:secrets|vars|env)\.[A-Za-z_][\w-]{0,127}[ \t]{0,8}\}\})[,;.)]?$/;

/**
 * A line up to a colon that ends it (maybe before a YAML block scalar indicator: `|`, `>`, `|-`,
 * `>+`, `|2`) when it is a key whose value is on the lines below (see {@link redactBlocks}): its
 * indentation and a list item's `- ` (1), the key's quote (2), the key (3).
 */
const LINE_KEY = new RegExp(String.raw`^([ \t]*(?:-[ \t]+)?)(["']?)(${KEY})\2[ \t]*$`, 'i');
/** A key written as words with a space (`API key`, `Session ID`): a key as prose writes it. */
const isProseKey = (key: string): boolean => key.includes(' ') || key.includes('\t');
/**
 * A bare value that is one plain word, letters only, a capital at most at its start (`set`,
 * `missing`, `Invalid`): after a key written as prose it is the sentence going on (`no judge API
 * key: set OPENAI_API_KEY`), not a credential, which has a digit, a symbol or mixed case. (After a
 * key written as code, `api_key=hunter`, it is still redacted.)
 */
const PLAIN_WORD = /^[A-Za-z][a-z]{0,15}$/;
const isPlainWord = (value: string): boolean => PLAIN_WORD.test(value);
/** A block scalar indicator, which the key=value pattern takes for a bare value: not a secret. */
const BLOCK_INDICATOR = /^[|>][1-9+-]{0,2}$/;

const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/-]{8,8192}=*/gi;
const BASIC = /\b(Basic)\s+([A-Za-z0-9+/]{8,8192}={0,2})/gi;

/**
 * Key-shaped secrets, each with the literal texts one of which every match contains (a cheap test
 * first). The test costs more the more often the literal's first character is in a text, so each
 * literal is the part of the prefix whose first character is rarest in prose (`yJ` of a JWT's
 * `eyJ`, `m_` of `npm_`, `k.com/` of `hooks.slack.com/`), and tokens whose prefix ends in `_` share
 * one test.
 */
const KEY_SHAPED: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  // An `sk-` key from 10 characters on when it has a capital, a digit or a `*` (a masked key) in
  // its first 12, as every real key does (`sk-learn` and `sk-learn-docs` are words); any from 12.
  [
    /\bsk-(?=[A-Za-z0-9_*.-]{0,11}[A-Z0-9*])[A-Za-z0-9_*.-]{9,511}[A-Za-z0-9*]|\b(?:sk|rk|pk)-[A-Za-z0-9_*.-]{11,511}[A-Za-z0-9*]/g,
    ['k-'],
  ],
  // Stripe (`sk_live_`, `rk_test_`, ...), Groq (`gsk_` and 52), Pinecone (`pcsk_`).
  [
    /\b(?:(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,512}|gsk_[A-Za-z0-9]{40,255}|pcsk_[A-Za-z0-9_]{40,255})/g,
    ['k_'],
  ],
  [/\bgh[pousr]_[A-Za-z0-9]{20,255}/g, ['gh']],
  [/\bgithub_pat_[A-Za-z0-9_]{20,255}/g, ['_pat_']],
  // Slack bot, user, legacy, configuration (`xoxe.xoxp-`) and refresh (`xoxe-`) tokens, and
  // app-level tokens (`xapp-1-...`).
  [/\b(?:xox[abeposr]|xapp-\d)-[A-Za-z0-9-]{10,255}/g, ['xox', 'xapp-']],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, ['AKIA', 'ASIA']],
  [/\bAIza[0-9A-Za-z_-]{35}/g, ['AIza']],
  [/\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{0,4096}/g, ['yJ']],
  // npm (`npm_` and 36 characters), GitLab (`glpat-`, routable ones with their `.01.abc` tail,
  // deploy, trigger, runner, CI job, feed, mail, agent, SCIM and feature flag tokens, OAuth app
  // secrets), Hugging Face (`hf_` and 30 or more letters and digits: `hf_hub_download` is a word),
  // Stripe webhook secrets (`whsec_`), SendGrid (`SG.<id>.<secret>`), Google OAuth access tokens
  // (`ya29.`), Twilio API key SIDs (`SK` and 32 hex digits).
  [/\bnpm_[A-Za-z0-9]{36}\b/g, ['m_']],
  [
    /\bgl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,300}(?:\.[A-Za-z0-9]{1,16}){0,2}/g,
    ['gl'],
  ],
  [/\bhf_[A-Za-z0-9]{30,255}\b/g, ['f_']],
  [/\bwhsec_[A-Za-z0-9+/=]{20,255}/g, ['whsec_']],
  [/\bSG\.[A-Za-z0-9_-]{16,64}\.[A-Za-z0-9_-]{16,128}/g, ['SG.']],
  [/\bya29\.[A-Za-z0-9_-]{20,4096}/g, ['ya29.']],
  [/\bSK[0-9a-fA-F]{32}\b/g, ['SK']],
  // The secret path of a Slack or Discord webhook URL (anyone holding it can post): the host and
  // the kind of hook are kept.
  [/(?<=hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]{20,255}/g, ['k.com/']],
  [/(?<=discord(?:app)?\.com\/api\/webhooks\/)[0-9]{5,32}\/[A-Za-z0-9_-]{20,255}/g, ['/api/webhooks/']],
  // Tokens whose prefix ends in `_`, one pattern behind one test (`_` is rare in prose): Replicate
  // (`r8_`), Hugging Face organization tokens (`api_org_`), LangSmith (`lsv2_pt_`, `lsv2_sk_`),
  // Shopify (`shpat_`, `shpca_`, `shppa_`, `shpss_` and 32 hex digits), DigitalOcean (`dop_v1_`,
  // `doo_v1_`, `dor_v1_`), Linear (`lin_api_`), Sentry (`sntrys_`, `sntryu_`), Notion (`ntn_`,
  // and `secret_` and 43 letters and digits).
  [
    /\b(?:r8_[A-Za-z0-9]{30,255}|api_org_[A-Za-z0-9]{30,255}|lsv2_(?:pt|sk)_[A-Za-z0-9]{32,255}(?:_[A-Za-z0-9]{6,64})?|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b|do[opr]_v1_[a-f0-9]{64}\b|lin_api_[A-Za-z0-9]{40,64}\b|sntry[su]_[A-Za-z0-9+/=_]{40,512}|ntn_[A-Za-z0-9]{40,255}|secret_[A-Za-z0-9]{43}\b)/g,
    ['_'],
  ],
  // PyPI upload tokens (`pypi-AgE...`: a macaroon, whose base64 always starts so), xAI (`xai-`),
  // Perplexity (`pplx-`), Tavily (`tvly-`), Google OAuth client secrets (`GOCSPX-`) and refresh
  // tokens (`1//0...`), Atlassian API tokens (`ATATT3`), age secret keys, Postman (`PMAK-`),
  // Databricks (`dapi` and 32 hex digits), Vault service and batch tokens (`hvs.`, `hvb.`),
  // Mailgun's private keys (`key-` and 32 hex digits).
  [/\bpypi-AgE[A-Za-z0-9_-]{50,4096}/g, ['AgE']],
  [/\b(?:xai|pplx)-[A-Za-z0-9]{40,255}/g, ['xai-', 'x-']],
  [/\btvly-(?:dev-|prod-)?[A-Za-z0-9]{24,255}/g, ['vly-']],
  [/\bGOCSPX-[A-Za-z0-9_-]{20,64}/g, ['GOCSPX-']],
  [/(?<![\w+/])1\/\/0[A-Za-z0-9_-]{40,1024}(?![\w+/=-])/g, ['1//']],
  [/\bATATT3[A-Za-z0-9_=-]{100,400}/g, ['ATATT3']],
  [/\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g, ['AGE-SECRET-KEY-1']],
  [/\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g, ['PMAK-']],
  [/\bdapi[a-f0-9]{32}(?:-\d)?\b/g, ['dapi']],
  [/\bhv[sb]\.[A-Za-z0-9_-]{90,512}/g, ['vs.', 'vb.']],
  [/\bkey-[a-f0-9]{32}\b/g, ['key-']],
  // An Azure AD (Entra ID) client secret: three characters, a digit, `Q~`, and 31 to 34 more (a
  // full stop after them ends a sentence).
  [/(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~-])/g, ['Q~']],
  // A Telegram bot token, `<bot id>:AA...` (35 characters after the colon), also in the API's
  // URLs (`https://api.telegram.org/bot<token>/sendMessage`).
  [/(?:(?<![\w:])|(?<=\bbot))\d{5,16}:A[A-Za-z0-9_-]{32,40}(?![\w-])/g, [':A']],
];

/**
 * A private key in base64, as Kubernetes writes one (`client-key-data: LS0tLS1CRUdJTi...`, a
 * Secret's `tls.key`): the base64 of a PEM block starts `LS0tLS1CRUdJTi` (`-----BEGIN`), and it is
 * redacted when the block is a private key (a certificate, `client-certificate-data`, is kept).
 */
const BASE64_PEM = /\bLS0tLS1CRUdJTi[A-Za-z0-9+/]{16,65536}={0,2}/g;
/** True when base64 text decodes to the start of a private key block. */
const isBase64PrivateKey = (base64: string): boolean =>
  PRIVATE_KEY_NAME.test(Buffer.from(base64.slice(0, 96), 'base64').toString('latin1'));
/** What the BEGIN line of a private key block says (PEM, OpenSSH, encrypted, PGP). */
const PRIVATE_KEY_NAME = /^-----BEGIN [A-Z ]{0,40}PRIVATE KEY/;

function isUserPass(base64: string): boolean {
  try {
    return Buffer.from(base64, 'base64').toString('utf8').includes(':');
  } catch {
    return false;
  }
}

/**
 * Text whose YAML values under secret keys that are on the lines below the key (a block scalar,
 * `secret: |`, or an indented value) are replaced by one line, `[redacted]` at the first line's
 * indentation: every line indented deeper than the key, blank lines between them included, and
 * (with no block indicator) a `- ` sequence at the key's own indentation.
 */
function redactBlocks(text: string): string {
  let out = '';
  let copied = 0;
  // Lines are read back from their ends: most end in anything but a colon, and are passed over at
  // once (a regex looking for such colons costs more, as it reads every character).
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    const keyEnd = text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl; // the key line's \r\n or \n
    let at = lastNonBlank(text, keyEnd - 1);
    let mark = at;
    while (mark > at - 2 && isIndicatorTail(text.charCodeAt(mark))) mark -= 1;
    const indicator = text.charCodeAt(mark) === 124 || text.charCodeAt(mark) === 62; // | or >
    if (indicator) at = lastNonBlank(text, mark - 1);
    if (text.charCodeAt(at) !== 58) continue; // :
    const key = LINE_KEY.exec(text.slice(text.lastIndexOf('\n', at) + 1, at));
    if (key === null || !isSecretKey(key[3] ?? '')) continue;
    const column = (key[1] ?? '').length;
    let cursor = keyEnd;
    let blockEnd = -1;
    let indent = '';
    while (cursor < text.length) {
      const start = text.indexOf('\n', cursor) + 1;
      if (start === 0) break;
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (text.charCodeAt(end - 1) === 13) end -= 1; // \r
      const first = firstNonBlank(text, start, end);
      cursor = end;
      if (first === end) continue; // blank: in the block when a deeper line follows
      const depth = first - start;
      const after = text.charCodeAt(first + 1);
      const item =
        !indicator &&
        depth === column &&
        text[first] === '-' &&
        (first + 1 === end || after === 32 || after === 9);
      if (depth <= column && !item) break;
      if (blockEnd === -1) indent = text.slice(start, first);
      blockEnd = end;
    }
    if (blockEnd === -1) continue;
    const newline = keyEnd === nl ? '\n' : '\r\n';
    out += `${text.slice(copied, keyEnd)}${newline}${indent}${REDACTED}`;
    copied = blockEnd;
    nl = text.charCodeAt(blockEnd) === 13 ? blockEnd + 1 : blockEnd; // the block's last line end
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Text with each private key block replaced by `[redacted]`, from its BEGIN line to its END line,
 * or, cut short, to where its base64 lines stop. Linear time: once no END line follows a BEGIN line,
 * none follows a later one, and it is not looked for again.
 */
function redactPrivateKeys(text: string): string {
  let out = '';
  let copied = 0;
  let ends = true;
  PRIVATE_KEY_BEGIN.lastIndex = 0;
  for (let m = PRIVATE_KEY_BEGIN.exec(text); m !== null; m = PRIVATE_KEY_BEGIN.exec(text)) {
    let end = -1;
    if (ends) {
      PRIVATE_KEY_END.lastIndex = m.index + m[0].length;
      const last = PRIVATE_KEY_END.exec(text);
      if (last === null) ends = false;
      else end = last.index + last[0].length;
    }
    if (end === -1) {
      PRIVATE_KEY_LINES.lastIndex = m.index + m[0].length;
      PRIVATE_KEY_LINES.test(text);
      end = PRIVATE_KEY_LINES.lastIndex;
    }
    out += `${text.slice(copied, m.index)}${REDACTED}`;
    copied = end;
    PRIVATE_KEY_BEGIN.lastIndex = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Text with the value of each `key=value` pair under a secret key redacted. After a pair whose key
 * is not secret, the search goes on right after its separator, not after its value: that value may
 * be a key itself (`Error: token: abc`, `x=api_key=abc`).
 */
function redactPairs(text: string): string {
  KEY_VALUE.lastIndex = 0;
  let out = '';
  let copied = 0;
  for (let m = KEY_VALUE.exec(text); m !== null; m = KEY_VALUE.exec(text)) {
    const [match, quote = '', key = '', close = '', sep = '', value = ''] = m;
    if (
      (isSecretKey(key) || (BARE_PWD.test(key) && !PATH_VALUE.test(value))) &&
      value !== REDACTED &&
      !(isProseKey(key) && isPlainWord(value)) &&
      !(sep === ':' && POSITION.test(value)) &&
      !KEY_AS_VALUE.test(value) &&
      !REFERENCE.test(value) &&
      !AUTH_OBJECT_VALUE.test(value) &&
      !BLOCK_INDICATOR.test(value) &&
      !(COMPARISON.test(sep) && !QUOTED.test(value) && credentialPart(value) === undefined)
    ) {
      out += `${text.slice(copied, m.index)}${quote}${key}${close}${sep}${quoted(value)}`;
      copied = m.index + match.length;
      // `wifi password: correct horse battery staple`: a bare value after a colon that only plain
      // words follow to the end of its line is a passphrase, and goes whole, when the key begins
      // its line (after an indent, a list mark or one word): in a sentence (`I sent
      // Authorization: Bearer x and got 3 users`) the words after are the sentence going on.
      if (sep.trim() === ':' && !QUOTED.test(value) && !value.includes(' ')) {
        const lineStart = text.lastIndexOf('\n', m.index) + 1;
        const rest = LINE_HEAD.test(text.slice(lineStart, m.index))
          ? PASSPHRASE_REST.exec(text.slice(copied, copied + 1024))
          : null;
        if (rest !== null) {
          copied += rest[0].length;
          KEY_VALUE.lastIndex = copied;
        }
      }
      if (COOKIE_HEADER.test(key) && sep.includes(':') && !QUOTED.test(value)) {
        // A Cookie header holds many cookies, any of them a session: the rest of its line goes.
        copied = lineEnd(text, copied);
        KEY_VALUE.lastIndex = copied;
      }
    } else {
      KEY_VALUE.lastIndex = m.index + quote.length + key.length + close.length + sep.length;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Text with the value of each secret named in prose redacted (`my password is hunter2` becomes `my
 * password is [redacted]`): a quoted value, or a bare one that looks like a credential (see
 * {@link CREDENTIAL_WORD}), the punctuation after it kept (`the token is valid` is kept).
 */
function redactProse(text: string): string {
  return text.replace(PROSE_VALUE, (match, key: string, value: string) => {
    if (!isSecretKey(key)) return match;
    const head = match.slice(0, match.length - value.length);
    if (/^["'`]/.test(value))
      return value === `${value[0]}${REDACTED}${value[0]}`
        ? match
        : `${head}${value[0]}${REDACTED}${value[0]}`;
    const bare = credentialPart(value);
    return bare === undefined ? match : `${head}${REDACTED}${value.slice(bare.length)}`;
  });
}

/**
 * `PWD` alone: the password of an ODBC or ADO connection string (`UID=sa;PWD=…;`), and the shell's
 * working directory in an env dump (`PWD=/home/ana`), which {@link PATH_VALUE} tells apart.
 */
const BARE_PWD = /^pwd$/i;
/** A value that is a path or a reference to one: `/home/ana`, `~/src`, `C:\\Users`, `$(pwd)`, `.`. */
const PATH_VALUE = /^["']?(?:[/~.$%\\]|[A-Za-z]:(?:[\\/]|$))/;

/**
 * A comparison (`password == null`, `token === undefined`): a quoted string compared with a secret
 * key is a secret, and so is a bare value that looks like a credential (`password==abc123`), not a
 * name or a literal such as `null`.
 */
const COMPARISON = /==/;
/** A value that is a quoted string (also with an escaped quote, in JSON inside a string). */
const QUOTED = /^\\?["']/;

/** A `Cookie` or `Set-Cookie` header's name, whose value is the rest of its line. */
const COOKIE_HEADER = /^(?:set-)?cookie$/i;

/** The index of the end of the line `from` is on (before its `\r\n` or `\n`, or the text's end). */
function lineEnd(text: string, from: number): number {
  let end = text.indexOf('\n', from);
  if (end === -1) return text.length;
  if (text.charCodeAt(end - 1) === 13 && end - 1 >= from) end -= 1;
  return end;
}

/**
 * Text with the value after each command-line flag that names a secret redacted (`--token abc`,
 * `--api-key "abc"`). A plain word after it is prose going on (`pass the --token flag`), and a flag
 * that names where the secret is read from (`--password-stdin`) has no secret after it.
 */
function redactFlags(text: string): string {
  return text.replace(FLAG_VALUE, (match, flag: string, value: string) =>
    isSecretKey(flag) && !FLAG_SOURCE.test(flag) && !isPlainWord(value) && value !== REDACTED
      ? `--${flag}${match.slice(2 + flag.length, match.length - value.length)}${quoted(value)}`
      : match,
  );
}

/** The index of the last character at or before `at` that is not a space or tab (-1: none). */
function lastNonBlank(text: string, at: number): number {
  let i = at;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i -= 1;
  return i;
}

/** The index of the first character from `from` on, before `to`, that is not a space or tab. */
function firstNonBlank(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isBlank(text.charCodeAt(i))) i += 1;
  return i;
}

const isBlank = (code: number): boolean => code === 32 || code === 9;
/** `1`-`9`, `+` and `-`: what may follow `|` or `>` in a block scalar indicator. */
const isIndicatorTail = (code: number): boolean => (code >= 49 && code <= 57) || code === 43 || code === 45;

function quoted(value: string): string {
  if (value.startsWith('\\"')) return `\\"${REDACTED}\\"`;
  if (value.startsWith('"')) return `"${REDACTED}"`;
  if (value.startsWith("'")) return `'${REDACTED}'`;
  return REDACTED;
}

/**
 * Text with its secrets replaced by `[redacted]`: values under secret-looking keys, `Bearer` and
 * `Basic` credentials whole, key-shaped strings, URL userinfo, and every string in `secrets` (the
 * configured API key) at least {@link MIN_LITERAL_SECRET_CHARS} characters long, or shorter when it
 * starts `sk-`.
 *
 * @example
 * ```ts
 * redactText('Authorization: Bearer abc.def.ghi'); // 'Authorization: [redacted]'
 * redactText('login {"password":"hunter2","user":"a"}'); // 'login {"password":"[redacted]","user":"a"}'
 * redactText('GET https://bob:pw@example.com/x'); // 'GET https://[redacted]@example.com/x'
 * ```
 */
export function redactText(text: string, secrets: ReadonlyArray<string | undefined> = NO_SECRETS): string {
  let extra = false;
  for (const secret of secrets) {
    if (!isLiteralSecret(secret) || !text.includes(secret)) continue;
    extra = true;
    break;
  }
  // The same text is often redacted again (a grade's reason in the grader, the channel and the
  // report): without an extra secret in it (a configured key it does not hold changes nothing) the
  // answer depends on the text alone.
  if (!extra) {
    const known = REDACTED_TEXTS.get(text);
    if (known !== undefined) return known;
  }
  let out = text;
  if (extra) {
    for (const secret of secrets) {
      if (isLiteralSecret(secret)) out = out.split(secret).join(REDACTED);
    }
  }
  // Each pattern runs only where the text has what every match of it contains.
  if (out.includes('-----BEGIN ')) out = redactPrivateKeys(out);
  if (out.includes('://') && out.includes('@'))
    out = out.replace(URL_USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`);
  if (out.includes('=') && (out.includes('?') || out.includes('&')))
    out = out.replace(QUERY_CREDENTIAL, (_m, name: string) => `${name}${REDACTED}`);
  if (out.includes('code=')) out = redactAuthFlowCodes(out);
  if (out.includes('Auth(')) out = out.replace(AUTH_OBJECT, redactFlagValue);
  if (ONE_TIME_WORD.test(out)) out = redactOneTimeCodes(out);
  if (out.includes('=') && SESSION_WORD.test(out))
    out = out.replace(SESSION_COOKIE, (match, name: string, value: string) =>
      isSessionValue(value) ? `${name}${REDACTED}` : match,
    );
  // Whether the text names a secret key at all, asked once: what the patterns before wrote in
  // (`[redacted]`) names none, and the scan of a long text is most of what it costs.
  let named: boolean | undefined;
  const namesSecret = (): boolean => (named ??= SECRET_KEY_WORD.test(out));
  if ((out.includes(':') || out.includes('=')) && namesSecret()) {
    if (out.includes('\n')) out = redactBlocks(out);
    out = redactPairs(out);
  }
  if (out.includes('--') && namesSecret()) out = redactFlags(out);
  if (VALUE_WORD.test(out) && namesSecret()) out = redactNamedValues(out);
  if (PROSE_VERB.test(out) && namesSecret()) out = redactProse(out);
  out = redactClientPasswords(out, namesSecret);
  if ((out.includes('config') || out.includes('user-secrets')) && namesSecret()) out = redactConfigSets(out);
  if (out.includes('curl'))
    out = out.replace(
      CURL_USER,
      (_m, flag: string, sep: string, quote: string, user: string) =>
        `${flag}${sep}${quote}${user}:${REDACTED}${quote}`,
    );
  if (BEARER_WORD.test(out)) out = out.replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  if (BASIC_WORD.test(out))
    out = out.replace(BASIC, (match, scheme: string, credential: string) =>
      isUserPass(credential) ? `${scheme} ${REDACTED}` : match,
    );
  if (out.includes('LS0tLS1CRUdJTi'))
    out = out.replace(BASE64_PEM, (match) => (isBase64PrivateKey(match) ? REDACTED : match));
  for (const [pattern, literals] of KEY_SHAPED) {
    for (const literal of literals) {
      if (!out.includes(literal)) continue;
      out = out.replace(pattern, REDACTED);
      break;
    }
  }
  if (!extra && text.length <= CACHED_TEXT_CHARS) {
    if (REDACTED_TEXTS.size >= CACHED_TEXTS) REDACTED_TEXTS.clear();
    REDACTED_TEXTS.set(text, out);
  }
  return out;
}

/**
 * What every key {@link isSecretKey} accepts contains (a word of SECRET_WORDS, the two words of a
 * pair of SECRET_PAIRS joined as a key joins them: directly, or by `_`, `.`, `-` or spaces, or the
 * end of a PASSWORD_SUFFIX key, or of a bare `PWD`), in any case: a text without any of these has no
 * `key=value` pair to redact, and skips that pattern. Made from the two lists, so a word added to
 * them is in it too (the words are plain letters); a word written together with a secret word
 * (COMPOUND_SECRET) contains that word.
 */
const SECRET_KEY_WORD = new RegExp(
  literalTrie([...SECRET_WORDS, ...SECRET_PAIRS, '_pass', 'pwd'], String.raw`[ \t_.-]*`),
  'i',
);

/**
 * A regex source that matches any of `alternatives` (plain text, a space standing for
 * `separator`), written as a trie: alternatives that start alike share their first letters in it
 * (`p(?:ass(?:word|wd)|rivate…)`), which the regex engine reads once at each position of a text
 * rather than once per alternative. This is a test for any of them in a text, so an alternative
 * that starts with a shorter one (`credentials`, after `credential`) is left out.
 */
function literalTrie(alternatives: Iterable<string>, separator: string): string {
  type TrieNode = Map<string, TrieNode>;
  const END = '';
  const root: TrieNode = new Map();
  for (const alternative of alternatives) {
    let node = root;
    for (const char of alternative) {
      if (node.has(END)) break; // a shorter alternative ends here: it matches wherever this one does
      let next = node.get(char);
      if (next === undefined) {
        next = new Map();
        node.set(char, next);
      }
      node = next;
    }
    node.clear();
    node.set(END, new Map());
  }
  const source = (node: TrieNode): string => {
    if (node.has(END)) return '';
    const branches = [...node].map(
      ([char, next]) =>
        (char === ' ' ? separator : char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')) + source(next),
    );
    return branches.length === 1 ? (branches[0] ?? '') : `(?:${branches.join('|')})`;
  };
  return source(root);
}
/** No extra secrets (one list for every call that gives none). */
const NO_SECRETS: ReadonlyArray<string | undefined> = [];
/** What every match of {@link PROSE_VALUE} contains: its verb, `is`, `was` or `to`. */
const PROSE_VERB = /[ \t](?:is|was|to)[ \t]/i;
const BEARER_WORD = /bearer/i;
const BASIC_WORD = /basic/i;
/** Texts redacted without extra secrets, and what they became (at most this many, this long). */
const REDACTED_TEXTS = new Map<string, string>();
const CACHED_TEXTS = 2048;
const CACHED_TEXT_CHARS = 512;

/**
 * A copy of a JSON-like value (tool-call arguments) with every value under a secret-looking key
 * replaced by `[redacted]` (the key is kept, so a judge still sees which argument was passed; an
 * empty, `null` or absent value is kept as it is) and every other string passed through
 * {@link redactText}, at any depth.
 *
 * @example
 * ```ts
 * redactValue({ user: 'a', api_key: 'k', nested: [{ token: 't' }] });
 * // { user: 'a', api_key: '[redacted]', nested: [{ token: '[redacted]' }] }
 * ```
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 64) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  // `{ name: 'API_TOKEN', value: '...' }` (Kubernetes and CI env lists, tags): the value is as secret
  // as the key its name names.
  const named = namesSecretValue(value as Record<string, unknown>);
  for (const [key, inner] of Object.entries(value)) {
    const empty = inner === null || inner === undefined || inner === '';
    const secret = isSecretKey(key) || (named && VALUE_KEYS.has(key));
    setOwn(out, key, secret && !empty ? REDACTED : redactValue(inner, depth + 1));
  }
  return out;
}

/** The keys that name the entry of a name/value pair, and those that hold its value. */
const NAME_KEYS = ['name', 'Name', 'key', 'Key'];
const VALUE_KEYS = new Set(['value', 'Value']);

/** True when the object is a name/value pair whose name is a secret key (`{ name: 'DB_PASSWORD', value }`). */
function namesSecretValue(value: Record<string, unknown>): boolean {
  for (const key of NAME_KEYS) {
    const name = Object.hasOwn(value, key) ? value[key] : undefined;
    if (typeof name === 'string' && name.length <= 128 && isSecretKey(name)) return true;
  }
  return false;
}

/**
 * A name/value pair in text whose name is a secret key: in JSON or a flow map (`"name":
 * "DB_PASSWORD", "value": "x"`) or as two lines of YAML (`- name: API_TOKEN` then `value: x` on the
 * next line). 1 the name's key and the name, up to the value's key and separator; 2 the name; 3
 * the value.
 */
const NAMED_VALUE = new RegExp(
  [
    String.raw`((?<![\w.-])["']?(?:name|key)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?`,
    String.raw`([A-Za-z_][\w.-]{0,127})`,
    String.raw`["']?[ \t]{0,8}(?:,[ \t]{0,8}|\r?\n[ \t]{0,64}(?:-[ \t]+)?)["']?value["']?[ \t]{0,8}[:=][ \t]{0,8})`,
    String.raw`("(?:[^"\\\n]|\\.){0,8192}"|'(?:[^'\\\n]|\\.){0,8192}'|[^\s,;&{}\[\]'"<>\\]{1,8192})`,
  ].join(''),
  'gi',
);
/** What every match of {@link NAMED_VALUE} contains. */
const VALUE_WORD = /value/i;

/** Text with the value of each name/value pair whose name is a secret key redacted. */
function redactNamedValues(text: string): string {
  return text.replace(NAMED_VALUE, (match, head: string, name: string, value: string) =>
    isSecretKey(name) && value !== REDACTED && value !== `"${REDACTED}"` ? `${head}${quoted(value)}` : match,
  );
}
