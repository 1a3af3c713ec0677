import { isUtf8 } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
import { LineIndex } from './positions.js';
import type { DatasetProblem } from './types.js';
import { decodeUtf8 } from '../internal/read-text.js';

/**
 * The largest dataset, rubric or gold-label document read, in bytes (64 MiB). A larger one is
 * refused before it is parsed.
 *
 * @example
 * ```ts
 * MAX_DOCUMENT_BYTES; // 67108864
 * ```
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * The deepest nesting of lists and maps a document may have (the document itself is level 1, its
 * `questions` list level 2, a question level 3). Deeper is refused before anything recursive
 * reads it.
 *
 * @example
 * ```ts
 * MAX_DEPTH; // 100
 * ```
 */
export const MAX_DEPTH = 100;

const MIB = 1024 * 1024;

/** The problem of a document over {@link MAX_DOCUMENT_BYTES}. */
export function tooLarge(file: string, bytes: number): DatasetProblem {
  return {
    file,
    path: '',
    message: `is ${bytes} bytes (${(bytes / MIB).toFixed(1)} MiB), over the limit of ${MAX_DOCUMENT_BYTES} bytes (${MAX_DOCUMENT_BYTES / MIB} MiB) for one document; refused unread. Fix: split it into several datasets.`,
  };
}

/** The problem of a path that is not a regular file (a directory, a device, a FIFO, a socket). */
function notAFile(file: string, directory: boolean): DatasetProblem {
  return {
    file,
    path: '',
    message: directory
      ? 'is a directory, not a file; refused. Fix: point at the dataset file inside it.'
      : 'is not a regular file (a device, a pipe or a socket, which may never end); refused unread. Fix: point at a dataset file.',
  };
}

/** The message of a document nested deeper than {@link MAX_DEPTH}. */
export function tooDeepMessage(): string {
  return `nests lists and maps more than ${MAX_DEPTH} levels deep here; refused (nesting that deep can exhaust the stack of the tools that read it). Fix: flatten the structure.`;
}

/** The longest key a message shows whole; a longer one is cut, with `...`. */
const SHOWN_KEY_LENGTH = 60;
/** Text a message can show between single quotes: letters, digits, punctuation, symbols, spaces. */
const PLAIN_KEY = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;
/** What JSON.stringify leaves raw but a terminal should not get: other controls, format and separator characters. */
const INVISIBLE = /[\p{C}\p{Z}]/gu;

/**
 * A mapping key as a message names it: `'id'` for plain text; a JSON string with escapes (`"a\u0000b"`)
 * when it holds a quote, a backslash or a control or invisible character; a YAML number, boolean or
 * null key as written (`1`). A key over 60 characters is cut.
 */
export function shownKey(key: unknown): string {
  if (typeof key === 'number' || typeof key === 'boolean' || typeof key === 'bigint') return String(key);
  if (typeof key !== 'string') return key === null || key === undefined ? 'null' : JSON.stringify(key);
  const cut = key.length > SHOWN_KEY_LENGTH ? `${key.slice(0, SHOWN_KEY_LENGTH)}...` : key;
  if (PLAIN_KEY.test(cut) && !/['"\\]/.test(cut)) return `'${cut}'`;
  const escape = (unit: number) => `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`;
  return JSON.stringify(cut).replace(INVISIBLE, (c) =>
    c === ' '
      ? c
      : c.length === 1
        ? escape(c.charCodeAt(0))
        : escape(c.charCodeAt(0)) + escape(c.charCodeAt(1)),
  );
}

/** Raw control characters refused in a document: C0 except tab, line feed and carriage return; DEL; C1. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** The control characters JSON.parse lets through (it refuses raw C0 itself). */
const CONTROL_AFTER_JSON = /[\u007F-\u009F]/;

const CONTROL_NAMES: Record<number, string> = { 0: 'NUL', 0x1b: 'ESC', 0x7f: 'DEL' };

/**
 * The first raw control character of a text, as a problem with its line, or undefined. `afterJson`
 * checks only what `JSON.parse` accepts (DEL and C1); `ascii` says the text has no character above
 * U+007F, so one `indexOf` answers; `noDelOrC1` says the bytes were checked already.
 */
export function controlCharacter(
  text: string,
  file: string,
  options: { afterJson?: boolean; ascii?: boolean; noDelOrC1?: boolean } = {},
): DatasetProblem | undefined {
  let offset: number;
  if (options.afterJson && options.noDelOrC1) return undefined;
  if (options.afterJson && options.ascii) offset = text.indexOf('\u007f');
  else offset = (options.afterJson ? CONTROL_AFTER_JSON : CONTROL).exec(text)?.index ?? -1;
  if (offset === -1) return undefined;
  const code = text.charCodeAt(offset);
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  const name = CONTROL_NAMES[code];
  return {
    file,
    ...new LineIndex(text).at(offset),
    path: '',
    message: `contains the raw control character U+${hex}${name ? ` (${name})` : ''}; refused (an invisible character changes what graders and judges see). Fix: remove it, or if it is meant, write it as an escape (\\u${hex} in JSON or a double-quoted YAML string).`,
  };
}

/** The text of a document and what its bytes already tell about it. */
export interface DecodedText {
  text: string;
  /** Every byte is below 0x80. */
  ascii: boolean;
  /** No DEL (0x7F) and no C1 character (U+0080 to U+009F: 0xC2 0x80 to 0xC2 0x9F). */
  noDelOrC1: boolean;
}

function hasDelOrC1(bytes: Buffer): boolean {
  if (bytes.indexOf(0x7f) !== -1) return true;
  // 0xC2 is never a continuation byte, so each one found begins a character.
  for (let i = bytes.indexOf(0xc2); i !== -1; i = bytes.indexOf(0xc2, i + 1)) {
    const next = bytes[i + 1] ?? 0;
    if (next >= 0x80 && next <= 0x9f) return true;
  }
  return false;
}

/**
 * Decodes the bytes of a document as UTF-8, strictly: a size over {@link MAX_DOCUMENT_BYTES},
 * UTF-16 and invalid UTF-8 are problems (never U+FFFD in the text). A UTF-8 byte order mark is
 * dropped.
 */
export function decodeDocument(bytes: Buffer, file: string): DecodedText | { problem: DatasetProblem } {
  if (bytes.length > MAX_DOCUMENT_BYTES) return { problem: tooLarge(file, bytes.length) };
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return {
      problem: {
        file,
        line: 1,
        column: 1,
        path: '',
        message:
          'is UTF-16 encoded (it starts with a UTF-16 byte order mark); only UTF-8 is read. Fix: save it as UTF-8.',
      },
    };
  }
  if (!isUtf8(bytes)) {
    const offset = firstInvalidUtf8(bytes);
    const before = bytes.toString('utf8', 0, offset);
    return {
      problem: {
        file,
        ...new LineIndex(before).at(before.length),
        path: '',
        message: `is not valid UTF-8: the byte 0x${(bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0')} here does not begin or continue a UTF-8 character (the file was probably saved in another encoding, such as Latin-1 or Windows-1252). Fix: save it as UTF-8.`,
      },
    };
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const text = decodeUtf8(bytes, bom);
  return { text, ascii: text.length === bytes.length - bom, noDelOrC1: !hasDelOrC1(bytes) };
}

/** The offset of the first byte that is not part of a well-formed UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

/**
 * Reads a document file as strict UTF-8 text: a file over {@link MAX_DOCUMENT_BYTES} is refused
 * before it is read; a missing or unreadable file, UTF-16 and invalid UTF-8 are problems naming
 * `label` (`brief` leaves the system's error text out of a missing file's message, as the CLI
 * prints it). `unreadable` marks a problem of the path rather than of the text: it is missing,
 * cannot be read, or is not a regular file (the CLI's input error, exit 2). Never throws.
 */
export function readDocumentText(
  path: string,
  label: string,
  options: { brief?: boolean } = {},
): DecodedText | { problem: DatasetProblem; unreadable?: true } {
  try {
    const stat = statSync(path);
    // A device, a FIFO or a socket reports no true size, and reading one may never end.
    if (!stat.isFile()) return { problem: notAFile(label, stat.isDirectory()), unreadable: true };
    const size = stat.size;
    if (size > MAX_DOCUMENT_BYTES) return { problem: tooLarge(label, size) };
    return decodeDocument(readFileSync(path), label);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const why = (error as Error).message;
    const message = options.brief
      ? missing
        ? 'does not exist. Fix the path.'
        : `could not be read (${why}).`
      : `${missing ? 'does not exist' : 'could not be read'} (${why}). Fix the path.`;
    return { problem: { file: label, path: '', message }, unreadable: true };
  }
}
