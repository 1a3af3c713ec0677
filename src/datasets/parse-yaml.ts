import type { CST, Document, ParsedNode } from 'yaml';
import { yamlModule } from '../internal/lazy-modules.js';
import { LineIndex, pointerKeys, type ParsedText, type Position } from './positions.js';
import { MAX_DEPTH, shownKey, tooDeepMessage } from './text-input.js';
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

/** The explicit tags that keep a value plain JSON; every other tag is refused. */
const PLAIN_TAGS = new Set(['!!str', '!!int', '!!float', '!!bool', '!!null', '!!map', '!!seq']);

/** Why the tokens cannot be composed safely or faithfully, and where. */
interface TokenProblem {
  offset: number;
  message: string;
}

/**
 * Walks the CST of a stream, without recursion, before anything recursive (the composer, `toJS`)
 * sees it: refuses nesting deeper than {@link MAX_DEPTH}, tags other than the plain JSON ones,
 * directives other than `%YAML 1.2` and lists or maps used as keys.
 */
function checkTokens(tokens: readonly CST.Token[]): TokenProblem | undefined {
  const stack: Array<{ token: CST.Token; depth: number }> = tokens.map((token) => ({ token, depth: 0 }));
  const pushAll = (list: readonly CST.Token[] | undefined, depth: number) => {
    if (list) for (const token of list) stack.push({ token, depth });
  };
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    switch (token.type) {
      case 'directive':
        if (!/^%YAML[ \t]+1\.2(?:[ \t]|$)/.test(token.source)) {
          return {
            offset: token.offset,
            message: `uses the YAML directive ${JSON.stringify(token.source.trim())}, which changes how the rest of the text is read (tag handles, or YAML 1.1 booleans and octals); refused. Fix: remove the directive.`,
          };
        }
        break;
      case 'tag':
        if (!PLAIN_TAGS.has(token.source)) {
          return {
            offset: token.offset,
            message: `uses the YAML tag ${token.source}, which ai-eval does not resolve: the value would silently be read as plain text or a non-JSON type; refused. Fix: remove the tag (only ${[...PLAIN_TAGS].join(', ')} are allowed).`,
          };
        }
        break;
      case 'document':
        pushAll(token.start, depth);
        if (token.value) stack.push({ token: token.value, depth });
        pushAll(token.end, depth);
        break;
      case 'block-scalar':
        pushAll(token.props, depth);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection': {
        const inner = depth + 1;
        if (inner > MAX_DEPTH) return { offset: token.offset, message: tooDeepMessage() };
        if (token.type === 'flow-collection') stack.push({ token: token.start, depth });
        for (const item of token.items) {
          pushAll(item.start, inner);
          if (item.key) {
            if (
              item.key.type === 'block-map' ||
              item.key.type === 'block-seq' ||
              item.key.type === 'flow-collection'
            ) {
              return {
                offset: item.key.offset,
                message:
                  'uses a list or a map as a key, which a JSON object cannot hold (it would become a string); refused. Fix: use a plain text key.',
              };
            }
            stack.push({ token: item.key, depth: inner });
          }
          pushAll(item.sep, inner);
          if (item.value) stack.push({ token: item.value, depth: inner });
        }
        if (token.type === 'flow-collection') pushAll(token.end, depth);
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}

function positionFinder(doc: Document, lines: LineIndex): (pointer: string) => Position | undefined {
  return (pointer) => {
    const keys = pointerKeys(pointer);
    for (let depth = keys.length; depth >= 0; depth--) {
      const node: unknown = depth === 0 ? doc.contents : doc.getIn(keys.slice(0, depth), true);
      if (yamlModule().isNode(node) && node.range) return lines.at(node.range[0]);
    }
    return undefined;
  };
}

function firstAliasOffset(doc: Document): number | undefined {
  let offset: number | undefined;
  const { visit } = yamlModule();
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}

/**
 * The first alias inside the very value its anchor names (`args: &x { self: *x }`): the value would
 * contain itself, which no JSON can hold and which breaks whatever serialises it later.
 */
function selfAlias(doc: Document): { offset: number; message: string } | undefined {
  let found: { offset: number; message: string } | undefined;
  const { visit } = yamlModule();
  visit(doc, {
    Alias(_key, node, path) {
      const target = node.resolve(doc);
      if (target === undefined || !path.includes(target)) return undefined;
      found = {
        offset: node.range?.[0] ?? 0,
        message: `uses the YAML alias *${node.source} inside the value its anchor &${node.source} names, so the value would contain itself; refused (JSON cannot hold it). Fix: write the value out without the alias.`,
      };
      return visit.BREAK;
    },
  });
  return found;
}

/**
 * Parses YAML text once, with the positions of its nodes kept for a problem to report. Lone CR
 * line ends count as line ends (YAML says they are; the parser reads LF and CRLF only). Never
 * throws; never recurses over input deeper than {@link MAX_DEPTH}.
 */
export function parseYaml(text: string, file: string): ParsedText {
  const lines = new LineIndex(text);
  const at = (offset: number, message: string): DatasetProblem => lines.problem(file, offset, message);
  const failed = (problems: DatasetProblem[]): ParsedText => ({
    value: undefined,
    problems,
    locate: () => undefined,
  });
  // Offsets stay the same: one character for one.
  const source = text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
  const tokens = Array.from(new (yamlModule().Parser)().parse(source));
  const refused = checkTokens(tokens);
  if (refused) return failed([at(refused.offset, refused.message)]);

  // The keys found repeated, in the order the composer reports them (each just before its
  // DUPLICATE_KEY error), so the message can name the key.
  const repeated: unknown[] = [];
  const { isScalar } = yamlModule();
  const uniqueKeys = (a: ParsedNode, b: ParsedNode): boolean => {
    // The composer's own test, with the repeat noted.
    const same = a === b || (isScalar(a) && isScalar(b) && a.value === b.value);
    if (same) repeated.push(isScalar(b) ? b.value : b.toString());
    return same;
  };
  const composer = new (yamlModule().Composer)({ uniqueKeys, prettyErrors: false, logLevel: 'error' });
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens, true, source.length)) {
    if (!doc) doc = next;
    else {
      return failed([
        at(
          next.range[0],
          'is not valid YAML: it holds more than one document (a second `---`). Fix: keep one document per file.',
        ),
      ]);
    }
  }
  if (!doc) return failed([{ file, path: '', message: 'could not be read as YAML.' }]);
  const problems: DatasetProblem[] = [];
  for (const error of doc.errors) {
    if (error.code === 'DUPLICATE_KEY') {
      problems.push(
        at(
          error.pos[0],
          `is not valid YAML: the key ${shownKey(repeated.shift())} is repeated in the same mapping (map keys must be unique). Fix: remove one, or rename it.`,
        ),
      );
      continue;
    }
    const what = error.message.replace(/ at line \d+, column \d+.*$/s, '');
    problems.push(at(error.pos[0], `is not valid YAML: ${what}. Fix the syntax here.`));
  }
  for (const warning of doc.warnings) {
    const what = warning.message.replace(/ at line \d+, column \d+.*$/s, '');
    problems.push(
      at(
        warning.pos[0],
        `is refused: the YAML reader warns "${what}", so the text may not mean what it seems to. Fix it here.`,
      ),
    );
  }
  if (problems.length > 0) return failed(problems);
  const cycle = source.includes('*') ? selfAlias(doc) : undefined;
  if (cycle) return failed([at(cycle.offset, cycle.message)]);
  try {
    const value: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return { value, problems, locate: positionFinder(doc, lines) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const aliasBomb = /alias count/i.test(message) || /excessive alias/i.test(message);
    const alias = /alias/i.test(message) ? firstAliasOffset(doc) : undefined;
    return failed([
      {
        file,
        ...(alias !== undefined ? lines.at(alias) : {}),
        path: '',
        message: aliasBomb
          ? `uses YAML aliases that expand more than ${MAX_ALIAS_COUNT} times; refused, not expanded (a possible resource-exhaustion attack). Fix: write the repeated values out or use fewer aliases.`
          : `could not be read: ${message}.`,
      },
    ]);
  }
}
