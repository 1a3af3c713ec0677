/**
 * Credentials in URLs: userinfo (`https://user:pass@host`), query parameters that are credentials
 * by name (`?sig=`, `&X-Amz-Signature=`, `?key=`), and the `code=` of an auth flow's URL.
 */

import { REDACTED } from './values.js';

/**
 * A URL's userinfo, `user:pass@`, up to the last `@` before the host: a password may hold an `@`
 * itself (`mysql://root:p@ssw0rd@localhost`), and the first `@` would leave the rest of it.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,20}:\/\/)[^\s/?#'"<>\\]{1,512}@/gi;
/**
 * A query parameter that is a credential by its name alone, though the name holds no secret word:
 * a signature (`sig=` of an Azure SAS URL, `X-Amz-Signature=`, `X-Goog-Signature=`, `signature=`)
 * or a bare `key=` (Google and many other APIs take their key so). Only after `?` or `&`, as in a
 * URL (also an HTML-escaped `&amp;`, and `\u0026`, as Go's JSON escapes `&`): `sort key=name` or
 * `signature=John` in prose is kept. The name (1) is kept.
 */
const QUERY_CREDENTIAL =
  /((?:[?&](?:amp;)?|\\u0026)(?:sig|signature|x-amz-signature|x-goog-signature|key)=)[^&#\s'"<>\\]{1,8192}/gi;

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
export function redactAuthFlowCodes(text: string): string {
  return text.replace(URL_WITH_QUERY, (match, path: string, query: string) => {
    if (!query.includes('code=') || !(AUTH_FLOW_PATH.test(path) || STATE_PARAM.test(query))) return match;
    const redacted = query.replace(CODE_PARAM, (_m, name: string) => `${name}${REDACTED}`);
    return redacted === query ? match : `${path}?${redacted}`;
  });
}

/** Text with the userinfo of each URL of {@link URL_USERINFO} redacted, its scheme kept. */
export function redactUserinfo(text: string): string {
  return text.replace(URL_USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`);
}

/** Text with the value of each query parameter of {@link QUERY_CREDENTIAL} redacted, its name kept. */
export function redactQueryCredentials(text: string): string {
  return text.replace(QUERY_CREDENTIAL, (_m, name: string) => `${name}${REDACTED}`);
}
