/**
 * What replaces a secret ({@link REDACTED}, {@link quoted}), and how a value is read: whether a
 * bare value looks like a credential ({@link credentialPart}) or is a plain word
 * ({@link isPlainWord}). Shared by the rules of the other redaction modules.
 */

/**
 * What replaces a secret.
 *
 * @example
 * ```ts
 * redactText('token=abc'); // `token=${REDACTED}`
 * ```
 */
export const REDACTED = '[redacted]';

/** `[redacted]` in the quotes `value` opens with (`"`, `'` or an escaped `\\"`), or bare. */
export function quoted(value: string): string {
  if (value.startsWith('\\"')) return `\\"${REDACTED}\\"`;
  if (value.startsWith('"')) return `"${REDACTED}"`;
  if (value.startsWith("'")) return `'${REDACTED}'`;
  return REDACTED;
}

/** The replacement of a match of a flag (1) and its value (2): the flag kept, the value redacted. */
export const redactFlagValue = (_match: string, head: string, value: string): string =>
  `${head}${quoted(value)}`;

/**
 * A bare word after `password is` that looks like a credential, not the sentence going on: it has
 * a letter and a digit, a symbol other than `-` (`hunter2`, `abc123`, `Pg_pa55word`, `x#y!`), or a
 * capital right after a small letter (`HunTer`; {@link LETTER} is the test for a letter). `valid`,
 * `missing`, `read-only`, `case-sensitive`, `JWT` and `8` are words.
 */
const CREDENTIAL_WORD = /[0-9_#$%@!*^&+=~/\\]|[a-z][A-Z]/;
/** A letter, in either case. */
export const LETTER = /[A-Za-z]/;
/**
 * A bare value without its closing punctuation (`hunter2` of `hunter2.`) when that looks like a
 * credential ({@link CREDENTIAL_WORD}), else `undefined`.
 */
export function credentialPart(value: string): string | undefined {
  const bare = value.replace(TRAILING_PUNCTUATION, '');
  return bare !== REDACTED && LETTER.test(bare) && CREDENTIAL_WORD.test(bare) ? bare : undefined;
}
/** Punctuation that ends a sentence or clause after a bare value: not part of it. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]]{1,8}$/;

/**
 * A bare value that is one plain word, letters only, a capital at most at its start (`set`,
 * `missing`, `Invalid`): after a key written as prose it is the sentence going on (`no judge API
 * key: set OPENAI_API_KEY`), not a credential, which has a digit, a symbol or mixed case. (After a
 * key written as code, `api_key=hunter`, it is still redacted.)
 */
const PLAIN_WORD = /^[A-Za-z][a-z]{0,15}$/;
export const isPlainWord = (value: string): boolean => PLAIN_WORD.test(value);
