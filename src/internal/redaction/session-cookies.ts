/**
 * Session cookies outside a `Cookie:` header (`curl -b 'sid=…'`, `;jsessionid=…`): their values,
 * when they look like session ids.
 */

import { LETTER, REDACTED } from './values.js';

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
export const SESSION_WORD = /sid=|session/i;
/**
 * A session cookie's value: eight characters or more (the pattern's), with a letter and a digit,
 * as a random id has (`sid=42`, `SID=orcl` and `session=default` are kept).
 */
const isSessionValue = (value: string): boolean => /\d/.test(value) && LETTER.test(value);

/**
 * Text with the value of each session cookie of {@link SESSION_COOKIE} that looks like a session
 * id redacted.
 */
export function redactSessionCookies(text: string): string {
  return text.replace(SESSION_COOKIE, (match, name: string, value: string) =>
    isSessionValue(value) ? `${name}${REDACTED}` : match,
  );
}
