/**
 * Secrets named in prose and their values: `my password is hunter2`, `the API key was abc123`.
 */

import { isSecretKey } from './secret-keys.js';
import { credentialPart, REDACTED } from './values.js';

/**
 * A secret named in prose and its value: `my password is hunter2`, `the API key was abc123`, `the
 * token has been changed to "x9"`. The key (1) is a word, or two ending in `key` or `id` (as in
 * KEY in secret-keys.ts); the value (2) is quoted or one word (see {@link redactProse}). Each
 * quantifier is bounded and the key starts a word, so a long text costs linear time.
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

/** What every match of {@link PROSE_VALUE} contains: its verb, `is`, `was` or `to`. */
export const PROSE_VERB = /[ \t](?:is|was|to)[ \t]/i;

/**
 * Text with the value of each secret named in prose redacted (`my password is hunter2` becomes `my
 * password is [redacted]`): a quoted value, or a bare one that looks like a credential (see
 * CREDENTIAL_WORD in values.ts), the punctuation after it kept (`the token is valid` is kept).
 */
export function redactProse(text: string): string {
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
