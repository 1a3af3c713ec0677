import { jsonKeyCount, jsonShape, scanJson, walkJson } from './json-scan.js';
import { parseYaml } from './parse-yaml.js';
import { LineIndex, type ParsedText } from './positions.js';
import {
  controlCharacter,
  MAX_DEPTH,
  MAX_DOCUMENT_BYTES,
  shownKey,
  tooDeepMessage,
  tooLarge,
} from './text-input.js';
import type { DatasetProblem } from './types.js';

export { MAX_ALIAS_COUNT } from './parse-yaml.js';
export type { ParsedText, Position } from './positions.js';

/** Options of {@link parseText}. */
export interface ParseTextOptions {
  /** Parse as strict JSON (otherwise YAML). */
  json?: boolean;
  /** Every character is below U+0080 (known when the text was decoded from bytes). */
  ascii?: boolean;
  /** The text has no DEL and no C1 character (known when it was decoded from bytes). */
  noDelOrC1?: boolean;
}

/**
 * Parses the YAML or JSON text of a document, once. JSON is read with `JSON.parse` (a byte order
 * mark is allowed); line positions are computed only when there is a problem to report. Refuses
 * a text over {@link MAX_DOCUMENT_BYTES}, nesting deeper than {@link MAX_DEPTH}, raw control
 * characters, repeated keys, YAML tags and directives that change meaning, and alias bombs. Never
 * throws, and nothing in it recurses over the input.
 */
export function parseText(input: string, file: string, options: ParseTextOptions = {}): ParsedText {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  // UTF-8 takes at most three bytes per UTF-16 unit, so only a long text can be over the limit.
  if (text.length > MAX_DOCUMENT_BYTES / 3) {
    const bytes = options.ascii ? text.length : Buffer.byteLength(text);
    if (bytes > MAX_DOCUMENT_BYTES) return failed([tooLarge(file, bytes)]);
  }
  if (options.json) {
    const ascii = options.ascii ?? Buffer.byteLength(text) === text.length;
    return parseJson(text, file, { ascii, noDelOrC1: options.noDelOrC1 === true });
  }
  const control = controlCharacter(text, file);
  if (control) return failed([control]);
  return parseYaml(text, file);
}

function failed(problems: DatasetProblem[]): ParsedText {
  return { value: undefined, problems, locate: () => undefined };
}

function parseJson(text: string, file: string, known: { ascii: boolean; noDelOrC1: boolean }): ParsedText {
  const lines = new LineIndex(text);
  const at = (offset: number, message: string): DatasetProblem => lines.problem(file, offset, message);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const control = controlCharacter(text, file);
    if (control) return failed([control]);
    const message = error instanceof Error ? error.message : String(error);
    const reported = /at position (\d+)/.exec(message);
    const offset = reported ? Number(reported[1]) : scanJson(text).error;
    return failed([
      at(
        Math.max(offset, 0),
        `is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/s, '')}. Fix the syntax at this position (a trailing comma or a missing quote is the usual cause).`,
      ),
    ]);
  }
  const control = controlCharacter(text, file, { afterJson: true, ...known });
  if (control) return failed([control]);
  const walked = walkJson(value, MAX_DEPTH);
  if (walked.tooDeep)
    return failed([at(Math.max(jsonShape(text, MAX_DEPTH).tooDeepAt, 0), tooDeepMessage())]);
  if (walked.keys !== jsonKeyCount(text)) {
    // The text may repeat a key (or has a string the quick count takes for one): the scanner
    // finds each repeated key, if any.
    const { duplicates } = scanJson(text, [], { duplicates: true });
    if (duplicates.length > 0) {
      return failed(
        duplicates.map(({ offset, key }) =>
          at(
            offset,
            `repeats the key ${shownKey(key)} in the same object (JSON.parse would silently keep the last). Fix: remove one.`,
          ),
        ),
      );
    }
  }
  let offsets = new Map<string, number>();
  const prepared = new Set<string>();
  const prepare = (pointers: Iterable<string>) => {
    const fresh = [...pointers].filter((p) => !prepared.has(p));
    if (fresh.length === 0) return;
    for (const p of fresh) prepared.add(p);
    offsets = new Map([...offsets, ...scanJson(text, fresh).offsets]);
  };
  return {
    value,
    problems: [],
    prepare,
    locate(pointer) {
      prepare([pointer]);
      for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
        const offset = offsets.get(p);
        if (offset !== undefined) return lines.at(offset);
        if (p === '') return undefined;
      }
    },
  };
}
