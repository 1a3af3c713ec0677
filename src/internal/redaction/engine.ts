/**
 * The engine of the redaction: {@link redactText}, which runs the rules of the other redaction
 * modules in their order, each behind a cheap test for what every match of it contains, and keeps a
 * memo of the texts it redacted; {@link redactValue}, which walks a JSON-like value; and the
 * literal secrets passed in (the configured API key).
 */

import { setOwn } from '../own.js';
import { redactClientPasswords, redactConfigSets, redactCurlUsers, redactFlags } from './command-line.js';
import { redactAuthObjects, redactPairs } from './key-values.js';
import { namesSecretValue, redactNamedValues, VALUE_KEYS, VALUE_WORD } from './named-values.js';
import { isOneTimeSetting, ONE_TIME_WORD, redactOneTimeCodes } from './one-time-codes.js';
import { PUTTY_WORD, redactBase64PrivateKeys, redactPrivateKeys, redactPuttyKeys } from './private-keys.js';
import { PROSE_VERB, redactProse } from './prose.js';
import { isSecretKey, SECRET_KEY_WORD } from './secret-keys.js';
import { redactSessionCookies, SESSION_WORD } from './session-cookies.js';
import {
  BASIC_WORD,
  BEARER_WORD,
  redactBasic,
  redactBearer,
  redactKeyShapes,
  redactSignatures,
  redactSigV2Headers,
  SIGNATURE_WORD,
  SIGV2_WORD,
} from './token-shapes.js';
import { redactAuthFlowCodes, redactQueryCredentials, redactUserinfo } from './urls.js';
import { REDACTED } from './values.js';
import { redactBlocks } from './yaml-blocks.js';

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
  if (out.includes(PUTTY_WORD)) out = redactPuttyKeys(out);
  if (out.includes('://') && out.includes('@')) out = redactUserinfo(out);
  if (out.includes('=') && (out.includes('?') || out.includes('&'))) out = redactQueryCredentials(out);
  if (out.includes('code=')) out = redactAuthFlowCodes(out);
  if (out.includes('Auth(')) out = redactAuthObjects(out);
  if (ONE_TIME_WORD.test(out)) out = redactOneTimeCodes(out);
  if (out.includes('=') && SESSION_WORD.test(out)) out = redactSessionCookies(out);
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
  if (out.includes('curl')) out = redactCurlUsers(out);
  if (BEARER_WORD.test(out)) out = redactBearer(out);
  if (BASIC_WORD.test(out)) out = redactBasic(out);
  if (out.includes('LS0tLS1CRUdJTi')) out = redactBase64PrivateKeys(out);
  if (out.includes(SIGNATURE_WORD)) out = redactSignatures(out);
  if (out.includes(SIGV2_WORD)) out = redactSigV2Headers(out);
  out = redactKeyShapes(out);
  if (!extra && text.length <= CACHED_TEXT_CHARS) {
    if (REDACTED_TEXTS.size >= CACHED_TEXTS) REDACTED_TEXTS.clear();
    REDACTED_TEXTS.set(text, out);
  }
  return out;
}

/** No extra secrets (one list for every call that gives none). */
const NO_SECRETS: ReadonlyArray<string | undefined> = [];

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
    // a duration under a one-time key is a setting (`{ otp: '1000 ms' }`), not a code
    const duration = typeof inner === 'string' && isOneTimeSetting(key, inner);
    setOwn(out, key, secret && !empty && !duration ? REDACTED : redactValue(inner, depth + 1));
  }
  return out;
}
