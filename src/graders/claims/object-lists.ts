/**
 * The objects of one verb: a claim about each object after it ("I deleted the draft and the
 * homepage"), and the lists that go on in the clauses after it or began in the clauses before a
 * plural passive ("The draft, the homepage and the FAQ have been deleted").
 */

import type { ClaimPattern } from '../../grading/types.js';
import type { Claim, Found } from './claim.js';
import { AND_ITEM, AND_OBJECT, DETERMINED, LAST_ADVERBS, LIST_ITEM, PHRASE_END } from './lexicon.js';
import { furtherObject, made, nounBefore, objectAfter } from './noun-phrases.js';
import { LEAD } from './verb-lexicon.js';

/**
 * The claim of a verb whose subject did it to the objects after it, quoted from `start`: one claim
 * about the first object and one about each further object joined by "and" ("I deleted the draft
 * and the homepage"); more numbers of the same thing stay in its claim ("order 1234 and 1235").
 */
export function agent(clause: string, pattern: ClaimPattern, start: number, verbEnd: number): Found {
  const { words, consumed } = objectAfter(clause.slice(verbEnd));
  const claims = [made(clause, pattern, start, words, verbEnd + consumed)];
  const end = furtherObjects(clause, pattern, claims, start, verbEnd + consumed, AND_OBJECT);
  return { claim: claims[0]!, claims, kind: 'agent', verbEnd, objectsEnd: end };
}

/**
 * Adds to `claims` a claim about each further object of the same verb from `end` on, each after
 * `join` ("and the homepage"); more numbers of the thing before go into its claim ("and 1235").
 * Returns where the last object ends.
 */
function furtherObjects(
  clause: string,
  pattern: ClaimPattern,
  claims: Claim[],
  start: number,
  end: number,
  join: RegExp,
  bare: 0 | 1 | 2 = join === AND_OBJECT ? 1 : 0,
): number {
  let from = start;
  let at = end;
  for (;;) {
    const joined = join.exec(clause.slice(at));
    if (joined === null) return at;
    const objectStart = at + joined[0].length;
    // One word alone only after a verb's own object ("and homepage"), or one or two in a list that
    // ends in an item joined by "and" (`bare`: "landing page"); a clause after a comma ("..., Ana")
    // is none.
    const next = furtherObject(clause.slice(objectStart), bare);
    if (next === undefined) return at;
    at = objectStart + next.consumed;
    if (next.words.length === 0 && claims.length > 0) {
      claims[claims.length - 1] = made(clause, pattern, from, claims[claims.length - 1]!.objects, at);
    } else if (next.words.length > 0) {
      from = objectStart;
      claims.push(made(clause, pattern, from, next.words, at));
    }
  }
}

/**
 * The objects of a list the clauses of `sentence` from `from` on (after a verb's last object) go on
 * with, up to the one joined by "and" ("I deleted the draft, the homepage and the FAQ": the homepage
 * and the FAQ), each a claim of the same verb. A clause that is not only objects ends the list ("I
 * deleted the draft, the homepage is unchanged"). Items of one or two words with no determiner ("I
 * deleted the draft, homepage and FAQ", "..., landing page and FAQ") are read only when every clause
 * up to the one joined by "and" is nothing but such items: alone after a comma, a word may be a name
 * or a reply ("..., Ana", "..., thanks").
 */
export function listedAfter(sentence: readonly string[], from: number, pattern: ClaimPattern): Listed {
  return (
    bareList(sentence, from, pattern) ??
    commaList(sentence, from, pattern) ??
    determinedList(sentence, from, pattern)
  );
}

/**
 * The items of a list after a verb's objects, and where the last one ends: the index of its clause
 * in the sentence and the place in that clause (none when the list is empty).
 */
export interface Listed {
  claims: Claim[];
  end?: { index: number; at: number };
}

/** The list items with a determiner ("the homepage", "the FAQ"), up to the first clause that has none. */
function determinedList(sentence: readonly string[], from: number, pattern: ClaimPattern): Listed {
  const claims: Claim[] = [];
  let end: Listed['end'];
  for (let i = from; i < sentence.length; i++) {
    const clause = sentence[i]!;
    const before = claims.length;
    const at = furtherObjects(clause, pattern, claims, 0, 0, LIST_ITEM);
    // Not a list item (a clause of its own, or "the one from May", which names nothing new): the
    // list ends; so it does after its last item, joined by "and".
    if (claims.length === before || claims.slice(before).some((c) => c.objects.length === 0)) {
      claims.length = before;
      break;
    }
    end = { index: i, at };
    if (AND_ITEM.test(clause)) break;
  }
  return { claims, end };
}

/** After a list's items, what says the clause held more than items: another "and" or "or". */
const MORE_AFTER_ITEMS = /^\s*(?:and|&|plus|or|as\s+well\s+as)\b/i;

/**
 * The list items, bare ones of one or two words too ("homepage and FAQ", "landing page and FAQ"),
 * when each clause up to one joined by "and" is wholly such items (after the last, only what may end
 * an object: "for you", "too"); undefined when the clauses are no such list.
 */
function bareList(sentence: readonly string[], from: number, pattern: ClaimPattern): Listed | undefined {
  const claims: Claim[] = [];
  for (let i = from; i < sentence.length; i++) {
    const clause = sentence[i]!;
    const before = claims.length;
    const end = furtherObjects(clause, pattern, claims, 0, 0, LIST_ITEM, 2);
    const rest = clause.slice(end);
    if (
      claims.length === before ||
      claims.slice(before).some((c) => c.objects.length === 0) ||
      MORE_AFTER_ITEMS.test(rest) ||
      !PHRASE_END.test(rest)
    ) {
      return undefined;
    }
    if (AND_ITEM.test(clause)) return { claims, end: { index: i, at: end } };
  }
  return undefined;
}

/**
 * After the last item of a list of commas: nothing but an adverb that may end it ("too") or a short
 * "for" phrase ("for you", "for deletion"), and the sentence's end.
 */
const LIST_END = new RegExp(
  String.raw`^\s*(?:(?:${LAST_ADVERBS.join('|')}|as\s+well)\s*|for(?:\s+[\p{L}'’-]+){1,2}\s*)?[.!?)]*\s*$`,
  'iu',
);

/**
 * The items of a list of commas with no "and" ("I deleted the draft, homepage, FAQ."), when the
 * sentence ends in them: two clauses or more, each nothing but one item, bare of one or two words
 * or with a determiner; undefined otherwise. One clause alone after a comma may be a name or a
 * reply ("I deleted the draft, Ana"), and a clause that says more ends no such list ("..., homepage
 * is unchanged", "..., homepage, thanks").
 */
function commaList(sentence: readonly string[], from: number, pattern: ClaimPattern): Listed | undefined {
  if (sentence.length - from < 2) return undefined;
  const claims: Claim[] = [];
  let at = 0;
  for (let i = from; i < sentence.length; i++) {
    const clause = sentence[i]!;
    if (AND_ITEM.test(clause)) return undefined;
    const before = claims.length;
    at = furtherObjects(clause, pattern, claims, 0, 0, LIST_ITEM, 2);
    if (claims.length !== before + 1 || claims[before]!.objects.length === 0) return undefined;
    if (!(i === sentence.length - 1 ? LIST_END : /^\s*$/).test(clause.slice(at))) return undefined;
  }
  return { claims, end: { index: sentence.length - 1, at } };
}

/**
 * Before the noun phrase of a plural passive, another one joined by "and" at the start of the
 * clause ("The draft and the homepage have been deleted"): its own claim, quoted alone.
 */
export function listedBefore(clause: string, head: string, pattern: ClaimPattern): Claim | undefined {
  const and = /\s+(?:and|&)\s+$/i.exec(head);
  if (and === null) return undefined;
  const noun = nounBefore(head.slice(0, and.index));
  const atStart = noun !== undefined && noun.words.length > 0 && LEAD.test(head.slice(0, noun.start));
  return atStart ? made(clause, pattern, noun.start, noun.words, and.index) : undefined;
}

/**
 * The items of a list that ends in the clause of a plural passive, in the clauses of `sentence`
 * before that clause (`end`), each a noun phrase with a determiner and nothing else ("The draft,
 * the homepage and the FAQ have been deleted": the draft); walking back, the first clause that is
 * no such item ends the list ("Hi Ana, the draft and the homepage have been deleted" claims nothing
 * about Ana).
 */
export function listedBeforeClauses(
  sentence: readonly string[],
  end: number,
  pattern: ClaimPattern,
): Claim[] {
  const bare = bareListBefore(sentence, end, pattern);
  if (bare !== undefined) return bare;
  const claims: Claim[] = [];
  let i = end - 1;
  for (; i >= 0; i--) {
    const clause = sentence[i]!;
    // "- The draft, the homepage and the FAQ have been deleted": a bullet opens the first item.
    const from = i === 0 ? bulletEnd(clause) : 0;
    if (!DETERMINED.test(clause.slice(from))) break;
    const noun = nounBefore(clause);
    if (noun === undefined || noun.words.length === 0 || noun.start !== from) break;
    claims.unshift(made(clause, pattern, noun.start, noun.words, clause.length));
  }
  // "Draft, the homepage and the FAQ have been deleted": a bare item of one or two words opens the
  // list (not a greeting or a reply: "Hi Ana", "Sure"; nor before items of "your", which address
  // the reader: "Ana, your draft and your homepage have been deleted"). A name alone there reads
  // as an item too ("Ana, the draft and the homepage ..."): a known miss on the side of failing.
  if (i === 0 && !YOUR_ITEM.test(sentence.slice(1, end + 1).join(', '))) {
    const first = bareItem(sentence[0]!, pattern, true);
    if (first !== undefined) claims.unshift(first);
  }
  return claims;
}

/** An item of the list before a passive that is "your" thing: the reader is the one addressed. */
const YOUR_ITEM = /(?:^|,\s|\s(?:and|&)\s)\s*your\s/i;

/**
 * Words that open a sentence before a comma as a reply or a step, no thing ("Perfect, the draft
 * and the homepage have been deleted", "First, ..."); replies and greetings that are no bare
 * object anywhere ("Thanks", "Sure", "Hi Ana") are left out by {@link furtherObject} already.
 */
const OPENERS = new Set(
  `well perfect excellent awesome wonderful fantastic brilliant amazing nice cool right update
  first second third next last lastly finally also additionally otherwise anyway however meanwhile
  besides overall note fyi ps`.split(/\s+/),
);

/**
 * The whole clause as one bare list item of one or two words ("Draft", "pricing table"), else
 * undefined; the sentence's first clause (`opening`) is none when it is a reply or a step ("Perfect").
 */
function bareItem(clause: string, pattern: ClaimPattern, opening = false): Claim | undefined {
  const from = opening ? bulletEnd(clause) : 0;
  const item = furtherObject(clause.slice(from), 2);
  if (item === undefined || item.words.length === 0 || clause.slice(from + item.consumed).trim() !== '')
    return undefined;
  if (opening && item.words.length === 1 && OPENERS.has(item.words[0]!)) return undefined;
  return made(clause, pattern, from, item.words, from + item.consumed);
}

/** A list bullet at the start of a line: "- ", "* ", "• ", "1. ", "2) ". */
const BULLET = /^(?:[-*•]|\d{1,3}[.)])\s+/u;

/** Where the words of a clause start after a bullet (0 when there is none). */
const bulletEnd = (clause: string): number => BULLET.exec(clause)?.[0].length ?? 0;

/**
 * The items of a bare list that opens the sentence and ends in the clause of a plural passive
 * (`end`), whose first item there has no determiner either ("Draft, homepage and FAQ have been
 * deleted": the draft): every clause before is one item of one or two words, or a determined one;
 * undefined otherwise. A list whose items there open with a determiner is read by
 * {@link listedBeforeClauses} alone ("Ana, the draft and the homepage have been deleted" claims
 * nothing about Ana).
 */
function bareListBefore(
  sentence: readonly string[],
  end: number,
  pattern: ClaimPattern,
): Claim[] | undefined {
  if (end === 0 || DETERMINED.test((sentence[end] ?? '').replace(/^(?:and|&)\s+/i, ''))) return undefined;
  const claims: Claim[] = [];
  // Walking back, so a clause that is no item stops the walk right there: linear over a sentence.
  for (let i = end - 1; i >= 0; i--) {
    const item = bareItem(sentence[i]!, pattern, i === 0);
    if (item === undefined) return undefined;
    claims.unshift(item);
  }
  return claims;
}
