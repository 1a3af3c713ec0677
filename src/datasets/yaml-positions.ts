import { isNode, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { DatasetProblem } from './types.js';

/**
 * Most alias expansions a document may make; more is refused as a resource-exhaustion attack.
 *
 * @example
 * ```ts
 * MAX_ALIAS_COUNT; // 100: a document whose aliases expand more often is refused
 * ```
 */
export const MAX_ALIAS_COUNT = 100;

/** A line and column, both 1-based. */
export interface Position {
  line: number;
  column: number;
}

/** A parsed YAML or JSON text: its value, the problems found and a map from JSON path to position. */
export interface ParsedText {
  /** The document's value; `undefined` when it could not be parsed. */
  value: unknown;
  problems: DatasetProblem[];
  /** The position of the node at a JSON Pointer, or of its nearest existing ancestor. */
  locate(pointer: string): Position | undefined;
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

function positionFinder(doc: Document, counter: LineCounter): (pointer: string) => Position | undefined {
  return (pointer) => {
    const keys = pointerKeys(pointer);
    for (let depth = keys.length; depth >= 0; depth--) {
      const node: unknown =
        keys.length === 0 && depth === 0 ? doc.contents : doc.getIn(keys.slice(0, depth), true);
      if (isNode(node) && node.range) {
        const { line, col } = counter.linePos(node.range[0]);
        return { line, column: col };
      }
    }
    return undefined;
  };
}

function firstAlias(doc: Document, counter: LineCounter): Position {
  let offset = 0;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  const { line, col } = counter.linePos(offset);
  return { line, column: col };
}

function jsonSyntaxProblem(text: string, file: string, error: unknown): DatasetProblem {
  const message = error instanceof Error ? error.message : String(error);
  const match = /position (\d+)/.exec(message);
  const offset = match ? Number(match[1]) : 0;
  const before = text.slice(0, offset).split('\n');
  return {
    file,
    line: before.length,
    column: (before[before.length - 1]?.length ?? 0) + 1,
    path: '',
    message: `is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}. Fix the syntax at this position (a trailing comma or a missing quote is the usual cause).`,
  };
}

/**
 * Parses YAML or JSON text with source positions. JSON files are parsed strictly with `JSON.parse`
 * and mapped to positions through the YAML parser (JSON is YAML). Never throws: parse failures,
 * duplicate keys and alias bombs (more than {@link MAX_ALIAS_COUNT} alias expansions) become
 * problems with their line and column.
 */
export function parseText(text: string, file: string, options: { json?: boolean } = {}): ParsedText {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const locate = positionFinder(doc, counter);
  const problems: DatasetProblem[] = [];
  if (options.json) {
    try {
      const value: unknown = JSON.parse(text);
      for (const error of doc.errors.filter((e) => e.code === 'DUPLICATE_KEY')) {
        problems.push(
          problemAt(
            file,
            counter,
            error.pos[0],
            'repeats a key in the same object (JSON.parse would silently keep the last). Fix: remove one.',
          ),
        );
      }
      if (problems.length > 0) return { value: undefined, problems, locate };
      return { value, problems, locate: doc.errors.length === 0 ? locate : () => undefined };
    } catch (error) {
      return { value: undefined, problems: [jsonSyntaxProblem(text, file, error)], locate };
    }
  }
  for (const error of doc.errors) {
    const what = error.message.replace(/ at line \d+, column \d+.*$/s, '');
    problems.push(problemAt(file, counter, error.pos[0], `is not valid YAML: ${what}. Fix the syntax here.`));
  }
  if (problems.length > 0) return { value: undefined, problems, locate };
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), problems, locate };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const aliasBomb = /alias/i.test(message);
    return {
      value: undefined,
      problems: [
        {
          file,
          ...(aliasBomb ? firstAlias(doc, counter) : {}),
          path: '',
          message: aliasBomb
            ? `uses YAML aliases that expand more than ${MAX_ALIAS_COUNT} times; refused, not expanded (a possible resource-exhaustion attack). Fix: write the repeated values out or use fewer aliases.`
            : `could not be read: ${message}.`,
        },
      ],
      locate,
    };
  }
}

/** A document-level problem (no JSON path) at a source offset. */
function problemAt(file: string, counter: LineCounter, offset: number, message: string): DatasetProblem {
  const at = counter.linePos(offset);
  return { file, line: at.line, column: at.col, path: '', message };
}
