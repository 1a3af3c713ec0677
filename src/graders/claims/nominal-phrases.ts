/**
 * The words around an action noun or gerund: the completion verbs of the agent before it ("I
 * completed"), what says it is done after it ("is complete", "went through"), the modifiers before
 * it ("Order cancellation") and its owner after it ("of your order").
 */

import {
  CURRENCY,
  DETERMINERS,
  FINITE,
  GENERIC,
  HEDGE,
  NOT_THINGS,
  NO_VERB,
  PHRASE_END,
  PRONOUNS,
  STOP,
  WORD,
  WORDS,
  hedged,
} from './lexicon.js';
import { nextWord } from './noun-phrases.js';
import { ABLE, ADVERBS, ADVERBS_ALL, BY_ME, LEAD, NOUN_CLAIM_END, ON_REQUEST } from './verb-lexicon.js';

/** Past verbs that say the agent brought an action to an end: "I completed the cancellation". */
const COMPLETION = String.raw`(?:completed|finished|finali[sz]ed|took\s+care\s+of|taken\s+care\s+of|handled|initiated|processed|executed|carried\s+out|performed|(?:went|gone)\s+through\s+with)`;
/** Their base forms, after "I was able to" or "I managed to": "I was able to complete the cancellation". */
const COMPLETION_BASE = String.raw`(?:complete|finish|finali[sz]e|take\s+care\s+of|handle|initiate|process|execute|carry\s+out|perform|go\s+through\s+with)`;
/**
 * "I", "we" (with "have" and adverbs) and a completion verb, or "I was able to" and its base form,
 * right before an action noun phrase or gerund ("I've just finished", "we took care of").
 */
const COMPLETED_BY_ME = new RegExp(
  String.raw`(?:\b(?:i|we)(?:['’]ve|['’]d|\s+have|\s+had)?(?:\s+${ADVERBS_ALL})*\s+${COMPLETION}|${ABLE.source.slice(0, -1)}${COMPLETION_BASE})\s+$`,
  'iu',
);
/** A completion verb at the end of the words before an action ("Completed the cancellation"): clause-initial when {@link LEAD} is before it. */
const COMPLETED_AT_END = new RegExp(String.raw`(?<![\p{L}\d])${COMPLETION}\s+$`, 'iu');
/**
 * After an action noun (and its "of"/"for" owner), what says it is done: "complete", "is complete",
 * "went through", "has been processed", "was successful", "is confirmed", "has gone through",
 * "succeeded", also after a label's colon or dash ("Cancellation: done"). 1 the auxiliary, 2 the
 * predicate.
 */
export const DONE_AFTER = new RegExp(
  String.raw`^(?:\s*[:–—]|\s+-)?\s*(?:((?:is|are|was|were)|(?:has|have|had)(?:\s+been)?|['’]s(?:\s+been)?|['’]re|['’]ve\s+been)(?:\s+(?:${ADVERBS}|all|fully|officially))*\s+)?(?:successfully\s+)?(complete|completed|successful|a\s+success|succeeded|(?:went|gone)\s+through|through|done|finished|finali[sz]ed|confirmed|processed|initiated|issued)(?![\p{L}\d'’-])`,
  'iu',
);
/** Words that open a report of a result before it ("Good news: your refund went through"). */
export const REPORT =
  /^(?:(?:good|great)\s+news\s*[:,!.\-–—]?\s*(?:that\s+)?|(?:i|we)(?:['’]m|\s+am|['’]re|\s+are)\s+(?:happy|glad|pleased)\s+to\s+(?:confirm|report|say|let\s+you\s+know)\s+(?:that\s+)?|(?:i|we)\s+confirm\s+(?:that\s+)?)$/iu;
/** Words that end an owner after "of"/"for", or the modifiers before an action noun. */
const NOT_OWNER = new Set(['that', 'out', 'through', 'complete', 'completed', 'successful', 'done']);

/** Words that open a clause of time, condition or cause before a noun: "When refunds are processed". */
const OPENS_CLAUSE = new Set(
  'when whenever while if unless until once because since although though whether after before where'.split(
    ' ',
  ),
);

/**
 * The candidate starts of the noun phrase an action noun at `at` ends, nearest first: each of up
 * to two modifier words before it ("Order cancellation", "the order's cancellation"), and a
 * determiner, which ends it. Each with the modifier words from there.
 */
export function nounPhraseStarts(clause: string, at: number): { start: number; words: string[] }[] {
  const from = Math.max(0, at - 80);
  const tokens = [...clause.slice(from, at).matchAll(WORDS)];
  const starts: { start: number; words: string[] }[] = [{ start: at, words: [] }];
  const words: string[] = [];
  let end = at;
  for (let i = tokens.length - 1; i >= 0 && words.length < 2; i--) {
    const token = tokens[i]!;
    const start = from + token.index;
    if (clause.slice(start + token[0].length, end).trim() !== '') break;
    const word = token[0].toLowerCase();
    if (DETERMINERS.has(word)) {
      starts.push({ start, words: [...words] });
      break;
    }
    if (
      STOP.has(word) ||
      NO_VERB.has(word) ||
      NOT_OWNER.has(word) ||
      GENERIC.has(word) ||
      OPENS_CLAUSE.has(word) ||
      HEDGE.test(word) ||
      /(?:ed|ing)$/.test(word) ||
      !/[\p{L}\d]/u.test(word)
    ) {
      break;
    }
    if (/\p{L}/u.test(word) && !/[\d#$€£%]/.test(word)) words.unshift(word);
    starts.push({ start, words: [...words] });
    end = start;
  }
  return starts;
}

/**
 * The owner named after an action noun by "of" or "for" ("the cancellation of your order", "a
 * refund for order #1234"): its words (none for an amount: "a refund of $20") and where it ends.
 */
export function ownerAfter(clause: string, end: number): { words: string[]; end: number } {
  let words: string[] = [];
  let at = end;
  for (let i = 0; i < 2; i++) {
    const of = /^\s+(?:of|for)\s+/i.exec(clause.slice(at, at + 20));
    if (of === null) break;
    const text = clause.slice(at + of[0].length, at + of[0].length + 200);
    const owner: string[] = [];
    let consumed = 0;
    // "for" names an owner only before a determiner or with an id ("for your order", "for order
    // 1234"), not a time or a person ("confirmed for Friday", "for Ana"): those are read past.
    let named = /^\s+of\s/i.test(of[0]);
    WORD.lastIndex = 0;
    // The owner ends where what is said of the action begins ("of $500 went through").
    for (
      let w = DONE_AFTER.test(text) ? undefined : nextWord(text);
      w && owner.length < 2;
      w = DONE_AFTER.test(text.slice(WORD.lastIndex)) ? undefined : nextWord(text)
    ) {
      const { word, part } = w;
      if (STOP.has(word) || NOT_THINGS.has(word) || NOT_OWNER.has(word) || FINITE.test(word)) break;
      consumed = WORD.lastIndex;
      if (part || DETERMINERS.has(word) || CURRENCY.has(word) || /[\d#$€£%]/.test(word)) {
        if (owner.length === 0 || !DETERMINERS.has(word)) named = true;
        continue;
      }
      if (!/\p{L}/u.test(word)) continue;
      owner.push(word);
      if (PRONOUNS.has(word)) break;
    }
    if (consumed === 0) break;
    at += of[0].length + consumed;
    if (words.length === 0 && named) words = owner;
  }
  return { words, end: at };
}

/** What may follow a claim's last words: the end of the clause, "for ...", "to ...", an adverb, "by me", "as requested". */
export const claimEnds = (rest: string): boolean =>
  NOUN_CLAIM_END.test(rest) ||
  PHRASE_END.test(rest) ||
  BY_ME.test(rest) ||
  ON_REQUEST.exec(rest)?.index === 1;

/**
 * Where the completion verb of the agent that ends right at `start` begins ("I completed ", "we've
 * just finished ", "I was able to complete ", or "Completed " opening the clause), unless a
 * negation, condition or hedge comes before.
 */
export function doneBefore(clause: string, start: number): number | undefined {
  const before = clause.slice(0, start);
  if (hedged(before)) return undefined;
  const tail = Math.max(0, start - 200);
  const mine = COMPLETED_BY_ME.exec(before.slice(tail));
  if (mine !== null) return tail + mine.index;
  const opening = COMPLETED_AT_END.exec(before.slice(tail));
  if (opening !== null && LEAD.test(before.slice(0, tail + opening.index))) return tail + opening.index;
  return undefined;
}
