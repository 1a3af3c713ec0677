/**
 * Private key blocks: PEM and PGP blocks from their BEGIN line to their END line, or cut short to
 * where their base64 lines stop ({@link redactPrivateKeys}), a private key block in base64, as
 * Kubernetes writes one ({@link redactBase64PrivateKeys}), and the private lines and MAC of a PuTTY
 * key file ({@link redactPuttyKeys}).
 */

import { REDACTED } from './values.js';

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

/**
 * The private part of a PuTTY key file (`.ppk`, `PuTTY-User-Key-File-2:` or `-3:`): the
 * `Private-Lines: N` line and the line break after it (1) are kept, the base64 lines after it go as
 * one `[redacted]`, up to the line that is not base64 (`Private-MAC:`) or the text's end (a file cut
 * short). Lines are broken as in {@link PRIVATE_KEY_LINES}: by real line breaks, or by `\n` and
 * `\r\n` escapes in a JSON string (`\\n` in JSON inside one). The public lines are kept.
 */
const PUTTY_PRIVATE_LINES =
  /(Private-Lines:[ \t]{0,8}\d{1,6}(?:\r?\n|(?:\\{1,3}r)?\\{1,3}n))[A-Za-z0-9+/=]{1,1024}(?=[\r\n"'\\]|$)(?:(?:\r?\n|(?:\\{1,3}r)?\\{1,3}n)[A-Za-z0-9+/=]{1,1024}(?=[\r\n"'\\]|$)){0,4096}/g;
/** The MAC of a PuTTY key file (`Private-MAC: <hex>`): the name (1) is kept, the hex digits go. */
const PUTTY_MAC = /(Private-MAC:[ \t]{0,8})[0-9a-fA-F]{20,128}(?![0-9a-zA-Z])/g;
/** What every match of {@link PUTTY_PRIVATE_LINES} and {@link PUTTY_MAC} contains. */
export const PUTTY_WORD = 'Private-';

/** Text with the private lines and the MAC of each PuTTY key file redacted. */
export function redactPuttyKeys(text: string): string {
  return text.replace(PUTTY_PRIVATE_LINES, `$1${REDACTED}`).replace(PUTTY_MAC, `$1${REDACTED}`);
}

/**
 * Text with each private key block replaced by `[redacted]`, from its BEGIN line to its END line,
 * or, cut short, to where its base64 lines stop. Linear time: once no END line follows a BEGIN line,
 * none follows a later one, and it is not looked for again.
 */
export function redactPrivateKeys(text: string): string {
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

/** Text with each base64 private key block of {@link BASE64_PEM} redacted (a certificate is kept). */
export function redactBase64PrivateKeys(text: string): string {
  return text.replace(BASE64_PEM, (match) => (isBase64PrivateKey(match) ? REDACTED : match));
}
