/**
 * YAML values under secret keys that are on the lines below the key (a block scalar, `secret: |`,
 * or an indented value): {@link redactBlocks} replaces them by one line.
 */

import { isOneTimeSetting } from './one-time-codes.js';
import { isSecretKey, KEY } from './secret-keys.js';
import { REDACTED } from './values.js';

/**
 * A line up to a colon that ends it (maybe before a YAML block scalar indicator: `|`, `>`, `|-`,
 * `>+`, `|2`) when it is a key whose value is on the lines below (see {@link redactBlocks}): its
 * indentation and a list item's `- ` (1), the key's quote (2), the key (3).
 */
const LINE_KEY = new RegExp(String.raw`^([ \t]*(?:-[ \t]+)?)(["']?)(${KEY})\2[ \t]*$`, 'i');

/**
 * Text whose YAML values under secret keys that are on the lines below the key (a block scalar,
 * `secret: |`, or an indented value) are replaced by one line, `[redacted]` at the first line's
 * indentation: every line indented deeper than the key, blank lines between them included, and
 * (with no block indicator) a `- ` sequence at the key's own indentation. A block of one line that
 * is a duration under a one-time key is a setting, and is kept (`otp:\n  1000 ms`, `otp: |\n  30s`),
 * as on the key's own line (see `isOneTimeSetting`); a code there (`otp:\n  482913`) goes.
 */
export function redactBlocks(text: string): string {
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
    let lines = 0;
    let value = ''; // the block's first line, without its indentation
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
      if (blockEnd === -1) {
        indent = text.slice(start, first);
        value = text.slice(first, lastNonBlank(text, end - 1) + 1);
      }
      lines += 1;
      blockEnd = end;
    }
    if (blockEnd === -1) continue;
    if (lines === 1 && isOneTimeSetting(key[3] ?? '', value)) continue;
    const newline = keyEnd === nl ? '\n' : '\r\n';
    out += `${text.slice(copied, keyEnd)}${newline}${indent}${REDACTED}`;
    copied = blockEnd;
    nl = text.charCodeAt(blockEnd) === 13 ? blockEnd + 1 : blockEnd; // the block's last line end
  }
  return copied === 0 ? text : out + text.slice(copied);
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
