/**
 * The key-name lexicon of the redaction: the secret words and pairs of words, the words that make
 * a key describe a secret rather than hold it, {@link isSecretKey} (and its memo of keys read),
 * the regex source of a key in text ({@link KEY}), and {@link SECRET_KEY_WORD}, the trie of every
 * secret key word, which tells whether a text names a secret key at all.
 */

import { literalTrie } from './literal-trie.js';

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
export const KEY = [
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
 * SESSION_COOKIE in session-cookies.ts).
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
 * What every key {@link isSecretKey} accepts contains (a word of SECRET_WORDS, the two words of a
 * pair of SECRET_PAIRS joined as a key joins them: directly, or by `_`, `.`, `-` or spaces, or the
 * end of a PASSWORD_SUFFIX key, or of a bare `PWD`), in any case: a text without any of these has no
 * `key=value` pair to redact, and skips that pattern. Made from the two lists, so a word added to
 * them is in it too (the words are plain letters); a word written together with a secret word
 * (COMPOUND_SECRET) contains that word.
 */
export const SECRET_KEY_WORD = new RegExp(
  literalTrie([...SECRET_WORDS, ...SECRET_PAIRS, '_pass', 'pwd'], String.raw`[ \t_.-]*`),
  'i',
);
