/**
 * Values under secret keys in `key=value` form ({@link redactPairs}): `key: value`, `"key":
 * "value"`, header lines and auth schemes, code's `:=`, `=>` and `==`, command-line
 * `--flag=value`, and the cases that are kept (references, file positions, block indicators, a
 * plain word after a key written as prose). Also the password of an HTTP auth object
 * (`HTTPBasicAuth('admin', 'pw')`), which a `key=value` pair must not take for a value.
 */

import { isOneTimeSetting } from './one-time-codes.js';
import { isSecretKey, KEY } from './secret-keys.js';
import { credentialPart, isPlainWord, quoted, REDACTED, redactFlagValue } from './values.js';

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
    // `Key`, `OAuth`, `JWT`, Opsgenie's `GenieKey`, Splunk's, DeepL's `DeepL-Auth-Key`, and AWS
    // Signature Version 2's `AWS` before `<access key id>:<signature>`
    String.raw`|(?:(?:Bearer|Basic|Digest|Token|Negotiate|Bot|SSWS|ApiKey|Api-Key|Key|OAuth|JWT|GenieKey|Splunk|DeepL-Auth-Key|AWS(?=\s{1,8}[\w.~+-]{1,128}:))\s{1,8})?(?!=)[^\s,;&{}\[\]'"<>\\]{1,8192}`,
    ')', // 5: the value
  ].join(''),
  'gi',
);

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

/** Text with the password of each HTTP auth object of {@link AUTH_OBJECT} redacted. */
export function redactAuthObjects(text: string): string {
  return text.replace(AUTH_OBJECT, redactFlagValue);
}

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

/** A key written as words with a space (`API key`, `Session ID`): a key as prose writes it. */
const isProseKey = (key: string): boolean => key.includes(' ') || key.includes('\t');

/**
 * The scheme of an AWS Signature Version 4 `Authorization` header, a bare value on its own: not a
 * secret. The search goes on after it, to the `Credential=` pair (a secret key); the signature
 * goes by its own pattern (SIGV4_SIGNATURE in token-shapes.ts).
 */
const SIGV4_SCHEME = /^AWS4-HMAC-SHA256$/i;

/** A block scalar indicator, which the key=value pattern takes for a bare value: not a secret. */
const BLOCK_INDICATOR = /^[|>][1-9+-]{0,2}$/;

/**
 * Text with the value of each `key=value` pair under a secret key redacted. After a pair whose key
 * is not secret, the search goes on right after its separator, not after its value: that value may
 * be a key itself (`Error: token: abc`, `x=api_key=abc`).
 */
export function redactPairs(text: string): string {
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
      !SIGV4_SCHEME.test(value) &&
      // a duration under a one-time key is a setting (`otp: 1000 ms`, `otp_timeout: 30s`)
      !isOneTimeSetting(key, value, text, m.index + match.length) &&
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
