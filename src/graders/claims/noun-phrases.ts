/**
 * The phrases around a verb: the claim made of a verb and its objects (`made`), the object phrase
 * after a verb and the further objects after "and", the noun phrase before a verb (a passive's
 * subject), a relative clause's noun, a person.
 */

import type { ClaimPattern } from '../../grading/types.js';
import type { Claim } from './claim.js';
import {
  AMOUNT,
  CURRENCY,
  DETERMINERS,
  GENERIC,
  ID_NEXT,
  LAST_ADVERBS,
  NOT_THINGS,
  NUMBER,
  NUMBER_SIGNS,
  PHRASE_END,
  PRONOUNS,
  STOP,
  TITLES,
  WORD,
  WORDS,
  WORK_WORDS,
} from './lexicon.js';

/**
 * The claim of `pattern` quoted from `start` to `end` in the clause, about `objects` (an owner's
 * "'s" dropped; words that name nothing a call would mention left out).
 */
export function made(
  clause: string,
  pattern: ClaimPattern,
  start: number,
  objects: string[],
  end: number,
): Claim {
  return {
    quote: clause.slice(start, end).trim(),
    action: pattern.action,
    pattern,
    // "the order's status": the owner is named by its word ("order"), not "order's".
    objects: objects
      .map((w) => w.replace(/['’]s$/, ''))
      .filter((w) => w !== '' && !GENERIC.has(w) && !WORK_WORDS.has(w)),
  };
}

/**
 * The word of `text` that starts at `WORD.lastIndex`, lowercased, past a number sign's or a title's
 * period ("No. 1234", "Dr. Ana"); `part` says it is a number sign or a title, which names nothing.
 */
export function nextWord(text: string): { word: string; part: boolean } | undefined {
  const m = WORD.exec(text);
  if (m === null) return undefined;
  const word = m[1]!.toLowerCase().replace(/^['"“]|['"”]$/g, '');
  const rest = text.slice(WORD.lastIndex);
  if (NUMBER_SIGNS.has(word) && ID_NEXT.test(rest)) {
    if (rest.startsWith('.')) WORD.lastIndex += 1;
    return { word, part: true };
  }
  if (TITLES.has(word)) {
    if (/^\.\s+\p{Lu}/u.test(rest)) WORD.lastIndex += 1;
    return { word, part: true };
  }
  return { word, part: false };
}

/** The object phrase right after the verb: up to three content words, up to a stop word or punctuation. */
export function objectAfter(after: string): { words: string[]; consumed: number } {
  const words: string[] = [];
  let consumed = 0;
  WORD.lastIndex = 0;
  for (let w = nextWord(after); w && words.length < 3; w = nextWord(after)) {
    const { word, part } = w;
    if (STOP.has(word) || (word === 'that' && words.length > 0)) break;
    // "The drafts I deleted are in the trash", "the pages I deleted yesterday": no object.
    if (words.length === 0 && NO_OBJECT_FIRST.has(word)) break;
    // "When I cancelled the order the refund was issued": a clause of its own opens after the object.
    if (words.length > 0 && DETERMINERS.has(word) && OWN_CLAUSE.test(after.slice(consumed))) break;
    consumed = WORD.lastIndex;
    if (
      part ||
      DETERMINERS.has(word) ||
      CURRENCY.has(word) ||
      /[\d#$€£%]/.test(word) ||
      !/\p{L}/u.test(word)
    ) {
      continue;
    }
    words.push(word);
    if (words.length === 1 && PRONOUNS.has(word)) break;
  }
  return { words, consumed };
}

/** Words that open no object after a verb: a verb of the clause's own subject, or a time. */
const NO_OBJECT_FIRST = new Set(
  'is are was were has have had yesterday today tonight earlier recently lately afterwards already'.split(
    ' ',
  ),
);

/**
 * A determiner, a noun phrase of up to three words and a verb of its own: the subject of a clause
 * that follows an object with no comma ("the order the refund was issued": the refund).
 */
const OWN_CLAUSE =
  /^\s*(?:the|a|an|your|my|our|their|this|these|those|its)\s+(?:[\p{L}\d#'’-]+\s+){0,2}[\p{L}\d#-]+(?:\s+(?:is|are|was|were|has|have|had)\b|['’](?:s|re|ve)\s+been\b)/iu;

/**
 * Words that are no object alone after "and" ("I cancelled the order and left", "... and nothing
 * else", "... and done"), nor a word of a bare item of two ("..., good luck and take care"): past
 * verbs without "-ed", quantities, pronouns, replies and sign-offs.
 */
const NOT_BARE_OBJECTS = new Set(
  `left went came did made ran found took got saw told gave kept sent paid set put built wrote read
  met sat stood held brought bought thought felt meant spent lost won began knew drew threw grew
  spoke broke chose drove fell forgot understood done nothing none more less else other others yes
  no sorry thanks please good luck take care regards cheers best enjoy hope bye welcome hi hello hey
  dear sure ok okay yep yeah great alright
  ${[...LAST_ADVERBS, ...GENERIC, ...PRONOUNS].join(' ')}`.split(/\s+/),
);

/**
 * Another object of the same verb, after "and": determiners and at most two words ("the
 * homepage"), or at most one word and a number or id ("order #W2", "1235"), or up to `bare` words
 * alone ("the draft and homepage", and in a list after commas "the draft, landing page and FAQ";
 * not a past verb, "and left"), then the end of the clause or a stop word. Undefined when the words
 * after "and" are no such phrase ("the homepage is unchanged", "checked the homepage"). No words:
 * more numbers of the thing before.
 */
export function furtherObject(
  text: string,
  bare: 0 | 1 | 2,
): { words: string[]; consumed: number } | undefined {
  const words: string[] = [];
  let consumed = 0;
  let determined = false;
  let numbered = false;
  WORD.lastIndex = 0;
  for (let w = nextWord(text); w; w = nextWord(text)) {
    const { word, part } = w;
    if (STOP.has(word) || (LAST_ADVERBS.includes(word) && words.length > 0)) break;
    if (DETERMINERS.has(word)) {
      if (words.length > 0 || numbered) return undefined;
      determined = true;
    } else if (part || /[\d#$€£%]/.test(word)) {
      // A number names one thing of one word ("order 1234"), or of two after a determiner.
      if (!determined && words.length > 1) return undefined;
      numbered = true;
    } else if (/\p{L}/u.test(word)) {
      if (numbered || words.length === (determined ? 2 : Math.max(bare, 1)) || NOT_THINGS.has(word))
        return undefined;
      words.push(word);
    } else {
      return undefined;
    }
    consumed = WORD.lastIndex;
  }
  const alone = !numbered && words.length > 0 && words.length <= bare && words.every(isBareObject);
  if (!(determined ? words.length > 0 : numbered || alone)) return undefined;
  // "and your refund of $20 was successful": the phrase is the subject of a clause of its own.
  if (OWN_PREDICATE.test(text.slice(consumed))) return undefined;
  return PHRASE_END.test(text.slice(consumed)) ? { words, consumed } : undefined;
}

/**
 * After a noun phrase (and a short phrase of "of", "for", "on" ... : "of $20", "for your
 * account"), a verb of its own: "is pending", "was successful", "went through", "'s gone".
 */
const OWN_PREDICATE = new RegExp(
  String.raw`^(?:\s+(?:of|for|from|on|to|with|in|at)\s+[^\s,;.!?]+(?:\s+[^\s,;.!?]+){0,3}?)?\s*(?:\s(?:is|are|was|were|has|have|had|will|would|should|can|could|may|might|must|remains?|stays?|looks?|seems?|appears?|went|goes|got|gets|came|comes|succeeded|failed)\b|['’](?:s|re|ll)\b)`,
  'iu',
);

const isBareObject = (word: string): boolean =>
  !NOT_BARE_OBJECTS.has(word) && !/(?:ed|ly)$/.test(word) && /^[\p{L}][\p{L}'’-]*$/u.test(word);

/**
 * The noun phrase that ends right where `before` ends ("the ticket", "Order #W1", "Order 1234",
 * "Orders 1234 and 1235", "Order No. 1234", "Your $20", "A refund of $20", "it"): up to four tokens back, to a
 * determiner, a stop word, punctuation or a person; numbers, ids and amounts count toward the
 * phrase but are not among its words. Undefined when the words before are a person or an auxiliary
 * ("I was", "you"), so the verb is no claim about a thing, or only bare numbers ("2"); an id alone
 * ("#1234", "No. 1234") names a thing, with no words.
 */
export function nounBefore(text: string): { words: string[]; start: number } | undefined {
  // A short bracket after the noun qualifies it ("The draft (v2)", "Order 1234 (the blue mug)").
  const bracket = BRACKET_AFTER_NOUN.exec(text);
  const before = bracket === null ? text : text.slice(0, bracket.index);
  const tokens = [...before.matchAll(WORDS)];
  const last = tokens[tokens.length - 1];
  if (last === undefined || before.slice(last.index + last[0].length).trim() !== '') return undefined;
  const words: string[] = [];
  let start = -1;
  let noun = false;
  let amount = false;
  // An id ("#1234", "No. 1234") names a thing, as a noun does; a bare number says how many.
  let id = false;
  let counted = 0;
  for (let i = tokens.length - 1; i >= 0 && counted < 4; i--) {
    const token = tokens[i]!;
    const word = token[0].toLowerCase();
    const next = tokens[i + 1];
    const gap = next ? before.slice(token.index + token[0].length, next.index) : '';
    // Only numbers so far: a list of them goes on ("Orders 1234, 1235 and 1236").
    const numbers = start >= 0 && !noun;
    // "No." before the number it introduces is part of the id ("Order No. 1234").
    if (next?.index === start && NUMBER_SIGNS.has(word) && /\d/.test(next[0]) && /^\.?\s*$/.test(gap)) {
      start = token.index;
      id = true;
      continue;
    }
    // Punctuation between two words ends the phrase: "Done: order 42", "question(s) (1".
    if (/[.,;:!?()]/.test(gap) && !(numbers && NUMBER.test(word) && /^\s*,\s*$/.test(gap))) break;
    if ((word === 'and' || word === '&') && numbers && i > 0 && NUMBER.test(tokens[i - 1]![0])) continue;
    if (DETERMINERS.has(word) && start >= 0) {
      start = token.index;
      break;
    }
    if (STOP.has(word) || NOT_THINGS.has(word) || DETERMINERS.has(word)) break;
    // A number or #id names which one ("Order 1234", "Ticket #42"); other symbols end the phrase.
    const named = /\p{L}/u.test(word);
    if (!named && !NUMBER.test(word) && !AMOUNT.test(word)) break;
    if (!(numbers && !named)) counted++;
    start = token.index;
    if (CURRENCY.has(word) || AMOUNT.test(word)) amount = true;
    else if (named) noun = true;
    else if (/^[#№]/.test(word)) id = true;
    if (named && !CURRENCY.has(word) && !/[\d#$€£%]/.test(word)) words.unshift(word);
    if (GENERIC.has(word)) break;
  }
  // Numbers alone ("2 have been closed") say how many, not what; an amount ("$20") is money.
  if (start < 0 || !(noun || amount || id)) return undefined;
  // "A refund of $20": the amount is of the thing named before it, which is the object.
  const of = noun ? null : /\sof\s*$/i.exec(before.slice(0, start));
  const owner = of ? nounBefore(before.slice(0, of.index)) : undefined;
  return owner !== undefined && owner.words.length > 0 ? owner : { words, start };
}

/**
 * A relative clause at the end of the words before a passive: "that" or "which" and its subject, or
 * a person ("you", "she"), then a verb and a few words that open no phrase of their own ("you
 * placed on Monday", "that Ana wrote last week").
 */
const RELATIVE =
  /\s+(?:(?:that|which|whom)\s+[\p{L}'’-]+|you|he|she|they|we|i|someone)\s+\p{L}+(?:\s+(?!(?:and|or|but|the|a|an|your|my|our|their)\b)[\p{L}\d'’#-]+){0,5}$/iu;

/**
 * The noun phrase before a relative clause that ends where `head` ends ("The ticket you created
 * yesterday" has been updated: the ticket), when it opens with a determiner; undefined otherwise.
 */
export function relativeNoun(head: string): { words: string[]; start: number } | undefined {
  const relative = RELATIVE.exec(head);
  if (relative === null) return undefined;
  const noun = nounBefore(head.slice(0, relative.index));
  if (noun === undefined || noun.words.length === 0) return undefined;
  const first = /^\S+/.exec(head.slice(noun.start))?.[0].toLowerCase() ?? '';
  return DETERMINERS.has(first) ? noun : undefined;
}

/** A bracket or dashes around a few words at the end of a noun phrase: "(v2)", "(the blue mug)", "— #A123 —". */
const BRACKET_AFTER_NOUN = /(?<=[\p{L}\d])\s*(?:\([^()\n]{1,40}\)|[—–][^—–()\n]{1,40}[—–])\s*$/u;

/** A person ("you", "we", "they") at the end of the words before a passive: a claim with no object ("You have been refunded"). */
export function personBefore(before: string): { words: string[]; start: number } | undefined {
  const person = /\b(?:you|he|she|they|we)\s*$/i.exec(before);
  return person ? { words: [], start: person.index } : undefined;
}
