import type { DatasetProblem } from './types.js';

/** A line and column, both 1-based. */
export interface Position {
  line: number;
  column: number;
}

/** Splits a JSON Pointer (`/questions/0/id`) into keys. */
export function pointerKeys(pointer: string): Array<string | number> {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

/** Escapes one key for a JSON Pointer. */
export function pointerKey(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Turns offsets of a text into lines and columns. A line ends at `\n`, `\r\n` or a lone `\r` (so a
 * file saved with old Mac line ends is not one long line). The index of line starts is built on
 * the first question, in one pass, and only for texts that have a problem to report.
 */
export class LineIndex {
  private starts: number[] | undefined;

  constructor(private readonly text: string) {}

  /** The 1-based line and column (in UTF-16 code units) of an offset. */
  at(offset: number): Position {
    const starts = (this.starts ??= lineStarts(this.text));
    const target = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= target) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: target - starts[low]! + 1 };
  }

  /** A problem of the whole document (no JSON path) at an offset of `file`. */
  problem(file: string, offset: number, message: string): DatasetProblem {
    return { file, ...this.at(offset), path: '', message };
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  while (lf !== -1 || cr !== -1) {
    let next: number;
    if (cr !== -1 && (lf === -1 || cr < lf)) next = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
    else next = lf + 1;
    starts.push(next);
    if (lf !== -1 && lf < next) lf = text.indexOf('\n', next);
    if (cr !== -1 && cr < next) cr = text.indexOf('\r', next);
  }
  return starts;
}

/** A parsed YAML or JSON text: its value, the problems found, and where each JSON path is. */
export interface ParsedText {
  /** The document's value; `undefined` when it could not be parsed. */
  value: unknown;
  problems: DatasetProblem[];
  /** The position of the node at a JSON Pointer, or of its nearest existing ancestor. */
  locate(pointer: string): Position | undefined;
  /** Tells the parser every pointer about to be located, so that it finds them all in one pass. */
  prepare?(pointers: Iterable<string>): void;
}
