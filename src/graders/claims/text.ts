/**
 * The text the claim extraction reads: the response without code blocks and someone else's quoted
 * words, its tables as lines, emphasis dropped; then its sentences and clauses.
 */

/**
 * Markdown emphasis and code marks ("**deleted**", "_draft_", "`staging`"), dropped before reading
 * so they split no phrase: a single `*` or `_` only at a word's edge (not a bullet, not snake_case).
 */
export const EMPHASIS = /\*\*|__|`|(?<![\p{L}\d])[*_](?=[\p{L}\d])|(?<=[\p{L}\d.!?:])[*_](?![\p{L}\d])/gu;
/**
 * "I can confirm" and "we can verify" report, as "I confirm" does ("I can confirm that your order
 * has been cancelled" claims the cancellation): the "can" is no hedge there. Read as "I confirm";
 * "I can confirm whether ...", "I cannot confirm ..." and "Can I confirm ...?" keep their readings.
 */
export const CAN_CONFIRM =
  /\b(i|we)\s+can\s+(?:(?:now|also|happily|gladly|definitely|certainly)\s+)?(confirm|verify)\b/giu;
/**
 * Words someone else said, quoted after a verb of saying ("You said \"I already deleted the
 * draft\"", "You wrote: “I have cancelled my order.”"): not the agent's statements; the quote is
 * dropped before reading. The agent's own ("As I said: \"...\"") and a quoted title ("the post
 * titled \"Summer Sale\"") stay.
 */
export const QUOTED_SPEECH =
  /\b(?<!\b(?:i|we)(?:\s{1,5}(?:just|already|also))?\s{1,5})(said|says|wrote|writes|asked|mentioned|told\s+(?:me|us)|replied|stated|claimed|reported|noted)(\s{0,5}[:,]?\s{0,5})["“][^"”\n]{1,400}["”]/giu;
/**
 * The end of a line that introduces someone else's words ("You wrote:", "Ana said this:", "Your
 * message:"): a blockquote right after it quotes them. Not the agent's own ("As I said:").
 */
const QUOTE_INTRO =
  /(?:(?<!\b(?:i|we)(?:\s{1,5}(?:just|already|also))?\s{1,5})\b(?:said|says|wrote|writes|asked|mentioned|told\s+(?:me|us)|replied|stated|claimed|reported|noted)(?:\s+(?:this|that|the\s+following))?|\b(?:your|their|his|her|the\s+(?:customer|user)['’]s)\s+(?:message|request|email|note|reply))\s*:\s*$/iu;
/** A blockquote line: "> ...". */
const QUOTE_LINE = /^[ \t]{0,3}>/;

/**
 * The response without each blockquote that follows a line introducing someone else's words
 * ("You wrote:" then "> I already deleted the draft", a blank line between or not): quoted, not the
 * agent's statements. Each
 * dropped line leaves a line break. A blockquote with no such line stays: it may be the agent's.
 */
export function withoutQuotedBlocks(response: string): string {
  if (!response.includes('>')) return response;
  const lines = response.split('\n');
  let quoted = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!QUOTE_LINE.test(line)) quoted = false;
    else if (quoted || introduced(lines, i)) {
      quoted = true;
      lines[i] = '';
    }
  }
  return lines.join('\n');
}

/** The line before line `i`, or the one before a blank line there, introduces someone else's words. */
const introduced = (lines: readonly string[], i: number): boolean => {
  const before = lines[i - 1]?.trim() === '' ? lines[i - 2] : lines[i - 1];
  return before !== undefined && QUOTE_INTRO.test(before);
};
/** A markdown table row: a line between pipes. */
const TABLE_ROW = /^\s*\|.*\|\s*$/;
/** The separator row under a table's header: pipes, dashes, colons ("|---|:---:|"). */
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;

const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

/**
 * The response with each markdown table (a header row, a separator row, then rows) read as lines: a
 * row's first cell on a line of its own ("| Deleted the draft | ✅ |": "Deleted the draft"), and
 * each other cell after the first column's name and the first cell, as a label ("| Order | Status
 * |" over "| #1234 | Cancelled |": "Order #1234: Cancelled"). The header row says nothing.
 */
export function tablesAsLines(response: string): string {
  if (!response.includes('|')) return response;
  const lines = response.split('\n');
  const out: string[] = [];
  let header: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (TABLE_ROW.test(line) && TABLE_SEPARATOR.test(lines[i + 1] ?? '')) {
      header = cells(line);
      out.push('', '');
      i++;
    } else if (header !== undefined && TABLE_ROW.test(line)) {
      const [first = '', ...rest] = cells(line);
      const label = `${header[0] ?? ''} ${first}`.trim();
      out.push([first, ...rest.filter((c) => c !== '').map((c) => `${label}: ${c}`)].join('\n'));
    } else {
      header = undefined;
      out.push(line);
    }
  }
  return out.join('\n');
}

/** A line that opens a fenced code block: three or more backticks or tildes, then an info string. */
const FENCE_OPEN = /^[ \t]{0,3}(`{3,}|~{3,})/;
/** A line that may close one: nothing but the fence. */
const FENCE_CLOSE = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*$/;

/**
 * The response without its fenced code blocks (from a fence line to the next fence line of the same
 * character, at least as long): code and command output, not statements of the response ("//
 * draft deleted", "Deleted branch feature/x"). Each block leaves a line break; an unclosed fence
 * drops nothing. Linear: each line is looked at a bounded number of times.
 */
export function withoutCode(response: string): string {
  if (!response.includes('```') && !response.includes('~~~')) return response;
  const lines = response.split('\n');
  // For each line, the closing-fence lines after it, nearest first, per fence character: a list
  // shared from the line on, so the whole table is linear.
  const closers: Array<Record<string, Closer | undefined>> = new Array<Record<string, Closer | undefined>>(
    lines.length,
  );
  let after: Record<string, Closer | undefined> = {};
  for (let i = lines.length - 1; i >= 0; i--) {
    closers[i] = after;
    const close = FENCE_CLOSE.exec(lines[i]!);
    if (close)
      after = {
        ...after,
        [close[1]![0]!]: { line: i, length: close[1]!.length, next: after[close[1]![0]!] },
      };
  }
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE_OPEN.exec(lines[i]!)?.[1];
    let close = fence === undefined ? undefined : closers[i]![fence[0]!];
    // A shorter fence inside the block does not close it.
    for (let tries = 0; close !== undefined && close.length < fence!.length && tries < 20; tries++)
      close = close.next;
    if (close !== undefined && close.length >= fence!.length) {
      kept.push('');
      i = close.line;
    } else {
      kept.push(lines[i]!);
    }
  }
  return kept.join('\n');
}

/** A closing-fence line, and the next one of the same character after it. */
interface Closer {
  line: number;
  length: number;
  next: Closer | undefined;
}
/**
 * Where a sentence ends: . ! or ? and a space, but not after an abbreviation that goes on ("Order
 * No. 1234", "Dr. Ana", "St. Mary's", "e.g. the draft"), and at ; and line breaks. "No." before a
 * word that is not an id still ends one ("No. I deleted the homepage").
 */
const SENTENCE_END = new RegExp(
  String.raw`(?<=[.!?])(?<!(?<![\p{L}\d])(?:[Ee]\.g|[Ii]\.e|[Cc]f|[Vv]iz)\.)(?!(?<=(?<![\p{L}\d])(?:[Nn][Oo]|[Nn][Rr]|[Nn]os|[Nn]um)\.)\s+[#№]?\p{Lu}{0,3}-?\d)(?!(?<=(?<![\p{L}\d])(?:Dr|St|Mr|Mrs|Ms|Prof|Mt)\.)\s+[\p{Lu}\d])\s+|[;\n]+`,
  'u',
);
/** A comma that ends a clause: not one inside a number ("$1,000") or between ids ("1234, 1235"). */
const CLAUSE_COMMA = /(?<!\d),\s*|,(?!\s*[#№$€£]?\d)\s*/;

/**
 * Sentences split at . ! ? ; and line breaks (not at abbreviations), then at commas; questions
 * dropped. Each clause comes with its index among the clauses of its sentence, and those clauses.
 * A clause longer than {@link MAX_CLAUSE_CHARS} is cut at spaces into pieces of at most that
 * many characters, each read as a clause.
 */
export function clauses(response: string): Array<[number, string, string[]]> {
  return response
    .split(SENTENCE_END)
    .filter((sentence) => !sentence.trim().endsWith('?'))
    .flatMap((sentence) => {
      const parts = sentence
        .split(CLAUSE_COMMA)
        .flatMap((clause) => pieces(clause.trim()))
        .filter((clause) => clause !== '');
      return parts.map((clause, index): [number, string, string[]] => [index, clause, parts]);
    });
}

/**
 * The longest clause read whole. Each verb of a clause is read against the words before it, so a
 * clause of n characters with a verb every few words costs n squared: a model stuck repeating
 * itself ("created node 1 and created node 2 and ...", 160 KB without a comma) took half a minute
 * to grade. A real clause is a few hundred characters at most; a claim that straddles a cut of
 * such a run is the price of grading it in linear time.
 */
const MAX_CLAUSE_CHARS = 1000;

/** A clause, cut at the last space before every {@link MAX_CLAUSE_CHARS} characters when longer. */
function pieces(clause: string): string[] {
  if (clause.length <= MAX_CLAUSE_CHARS) return [clause];
  const out: string[] = [];
  let from = 0;
  while (clause.length - from > MAX_CLAUSE_CHARS) {
    const space = clause.lastIndexOf(' ', from + MAX_CLAUSE_CHARS);
    const to = space > from ? space : from + MAX_CLAUSE_CHARS;
    out.push(clause.slice(from, to).trim());
    from = to;
  }
  out.push(clause.slice(from).trim());
  return out;
}
