/**
 * A conservative check for the regex shape that backtracks exponentially: a group repeated without
 * a small bound (`*`, `+`, `{n,}`, or a bound of 10 or more) whose body can match a repeated text
 * in more than one way, because one alternative is a repeated element and everything else in it is
 * optional: `(a+)+`, `(\w+\s?)*`, `(?:x*|y)+`. A backtracking engine tries every split of such a
 * text on a response that almost matches. Only this shape is refused at load; any other slow
 * pattern is stopped at run time by the time budget. The scan is iterative (no recursion over the
 * pattern) and reads JavaScript regex syntax.
 */

interface Element {
  /** Can match the empty string. */
  nullable: boolean;
  /** Can match a non-empty string. */
  nonEmpty: boolean;
  /** Matches a repeated non-empty text ambiguously on its own (see the module comment). */
  ambiguous: boolean;
  start: number;
}

interface Group {
  alternatives: Element[][];
  start: number;
}

/** How large a repeat bound counts as "many" for the check. */
const MANY = 10;

function groupElement(group: Group, lookaround: boolean): Element {
  if (lookaround) return { nullable: true, nonEmpty: false, ambiguous: false, start: group.start };
  const alternatives = group.alternatives;
  return {
    nullable: alternatives.some((alt) => alt.every((e) => e.nullable)),
    nonEmpty: alternatives.some((alt) => alt.some((e) => e.nonEmpty)),
    ambiguous: alternatives.some(
      (alt) => alt.some((e) => e.ambiguous) && alt.filter((e) => !e.nullable).length <= 1,
    ),
    start: group.start,
  };
}

/** The offset after the quantifier at `i`, with its bounds, or undefined when none is there. */
function quantifier(pattern: string, i: number): { end: number; min: number; max: number } | undefined {
  const c = pattern[i];
  let end = i + 1;
  let min: number;
  let max: number;
  if (c === '*') [min, max] = [0, Infinity];
  else if (c === '+') [min, max] = [1, Infinity];
  else if (c === '?') [min, max] = [0, 1];
  else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 40));
    if (!m) return undefined;
    min = Number(m[1]);
    max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    end = i + m[0].length;
  } else return undefined;
  if (pattern[end] === '?') end++;
  return { end, min, max };
}

/**
 * The part of `pattern` that is a repeated ambiguous group (for the message), or undefined when
 * the pattern has no such part.
 *
 * @example
 * ```ts
 * catastrophicPart('^(\\w+\\s?)*$'); // '(\\w+\\s?)*'
 * catastrophicPart('^(\\w+\\s)*\\w*$'); // undefined
 * ```
 */
export function catastrophicPart(pattern: string): string | undefined {
  const stack: Array<{ group: Group; lookaround: boolean }> = [];
  let group: Group = { alternatives: [[]], start: 0 };
  let lookaround = false;
  const current = () => group.alternatives[group.alternatives.length - 1]!;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    const start = i;
    let element: Element | undefined;
    if (c === '\\') {
      i += 2;
      element = { nullable: /[bB]/.test(pattern[start + 1] ?? ''), nonEmpty: true, ambiguous: false, start };
      if (element.nullable) element.nonEmpty = false;
    } else if (c === '[') {
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i++;
      element = { nullable: false, nonEmpty: true, ambiguous: false, start };
    } else if (c === '(') {
      stack.push({ group, lookaround });
      lookaround = /^\(\?<?[=!]/.test(pattern.slice(i, i + 4));
      const prefix = /^\((\?(:|<?[=!]|<[^>]*>))?/.exec(pattern.slice(i, i + 200));
      i += prefix?.[0].length ?? 1;
      group = { alternatives: [[]], start };
      continue;
    } else if (c === ')') {
      const parent = stack.pop();
      i++;
      if (!parent) continue; // unbalanced: the regex compiler reports it
      element = groupElement(group, lookaround);
      element.start = group.start;
      group = parent.group;
      lookaround = parent.lookaround;
    } else if (c === '|') {
      group.alternatives.push([]);
      i++;
      continue;
    } else if (c === '^' || c === '$') {
      i++;
      element = { nullable: true, nonEmpty: false, ambiguous: false, start };
    } else {
      i++;
      element = { nullable: false, nonEmpty: true, ambiguous: false, start };
    }
    const q = quantifier(pattern, i);
    if (q) {
      const many = q.max === Infinity || q.max >= MANY;
      if (many && element.ambiguous) return pattern.slice(element.start, q.end);
      element = {
        nullable: element.nullable || q.min === 0,
        nonEmpty: element.nonEmpty && q.max > 0,
        ambiguous: (element.ambiguous && q.max > 0) || (many && element.nonEmpty),
        start: element.start,
      };
      i = q.end;
    }
    current().push(element);
  }
  return undefined;
}
