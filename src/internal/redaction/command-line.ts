/**
 * Secrets on command lines: the values of flags that name a secret (`--token abc`), curl's `-u
 * user:password`, the password flags of login and database clients (`docker login -p`, mysql's
 * `-pVALUE`, a .netrc entry, `fly secrets set`), and a CLI's command that sets a secret setting
 * (`aws configure set aws_secret_access_key …`, `npm config set …:_authToken …`).
 */

import { isOneTimeSetting } from './one-time-codes.js';
import { isSecretKey } from './secret-keys.js';
import { isPlainWord, quoted, REDACTED, redactFlagValue } from './values.js';

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

/** Text with the password of each curl `-u user:password` of {@link CURL_USER} redacted, the user kept. */
export function redactCurlUsers(text: string): string {
  return text.replace(
    CURL_USER,
    (_m, flag: string, sep: string, quote: string, user: string) =>
      `${flag}${sep}${quote}${user}:${REDACTED}${quote}`,
  );
}

/**
 * Text with the value after each command-line flag that names a secret redacted (`--token abc`,
 * `--api-key "abc"`). A plain word after it is prose going on (`pass the --token flag`), and a flag
 * that names where the secret is read from (`--password-stdin`) has no secret after it.
 */
export function redactFlags(text: string): string {
  return text.replace(FLAG_VALUE, (match, flag: string, value: string, offset: number) =>
    isSecretKey(flag) &&
    !FLAG_SOURCE.test(flag) &&
    !isPlainWord(value) &&
    value !== REDACTED &&
    // a duration after a one-time flag is a setting (`--otp-timeout 30s`)
    !isOneTimeSetting(flag, value, text, offset + match.length)
      ? `--${flag}${match.slice(2 + flag.length, match.length - value.length)}${quoted(value)}`
      : match,
  );
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
export function redactClientPasswords(text: string, namesSecret: () => boolean): string {
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
export function redactConfigSets(text: string): string {
  return text.replace(CONFIG_SET, (match, head: string, _quote: string, name: string, value: string) =>
    isSecretKey(name) && !CREDENTIAL_HELPER.test(name) && value !== REDACTED && value !== `"${REDACTED}"`
      ? `${head}${quoted(value)}`
      : match,
  );
}
