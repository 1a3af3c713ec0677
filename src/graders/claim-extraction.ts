import type { ClaimPattern } from '../grading/types.js';

/**
 * One statement in a response that claims a completed action.
 *
 * @example
 * ```ts
 * const claim: Claim = { quote: "I've deleted the draft", action: 'delete', pattern, objects: ['draft'] };
 * ```
 */
export interface Claim {
  /** The words of the response that make the claim, as written. */
  quote: string;
  /** The claimed action (the pattern's `action`). */
  action: string;
  pattern: ClaimPattern;
  /** The object the claim names ("the ticket" gives `['ticket']`); empty when it names none. */
  objects: string[];
}

const ADVERBS = String.raw`(?:just|now|also|already|successfully|then|finally|gone ahead and|went ahead and)`;
/** "I", "we", optionally "have"/"'ve", then adverbs, right before the verb. */
const SUBJECT = new RegExp(String.raw`\b(?:i|we)(?:['’]ve|['’]d|\s+have|\s+had)?(?:\s+${ADVERBS})*\s+$`, 'i');
/** "has been", "was", "is now" right before the verb: a passive claim about the noun before it. */
const PASSIVE = new RegExp(
  String.raw`\s+(?:(?:has|have|had)(?:\s+${ADVERBS})*\s+been|(?:was|were|is|are)(?:\s+${ADVERBS})*)(?:\s+successfully)?\s+$`,
  'i',
);
/** Nothing but a bullet, a "Done:" or a joining word before a clause-initial verb ("Deleted the draft."). */
const LEAD = new RegExp(
  String.raw`^(?:[\s\-*•>\d.)]|\p{Extended_Pictographic}|\uFE0F)*(?:(?:done|ok|okay|great|success|all set|sure|and|then|also|plus)[\s,:!.\-–—]+)*(?:${ADVERBS}\s+)*$`,
  'iu',
);
/** What may follow a "noun verb" claim ("Refund issued.", "ticket created for you"). */
const NOUN_CLAIM_END = /^\s*(?:[.!,;:)]|$|(?:successfully|for|to|with|and)\b)/i;
/** After a past passive, what makes it a report of history, not a claim ("was created by Ana", "on May 3"). */
const HISTORY =
  /^\s+(?:by\s+(?!me\b|us\b)|on\b|in\s+(?:\d|january|february|march|april|may|june|july|august|september|october|november|december)|yesterday\b|last\b|earlier\b|previously\b|before\b|\d)/i;
/** The joining words between two verbs of one subject, right before the second verb ("and then"). */
const JOIN = new RegExp(String.raw`(?:^|\s)(?:and|&|plus|as\s+well\s+as|then)(?:\s+${ADVERBS})*\s+$`, 'i');
const ONLY_ADVERBS = new RegExp(String.raw`^(?:\s+${ADVERBS})*\s*$`, 'i');
/** An object that negates the verb: "I changed nothing", "sent no email". */
const NONE = /^\s+(?:nothing|none|no|neither)\b/i;
/** Words that open a clause of their own, so a verb after them need not share the subject before. */
const SUBORDINATE = new Set(
  'that which who whom whose where when while if because since unless until once so but or nor although though whether after before'.split(
    ' ',
  ),
);
/** Words in the clause before the verb that make it no claim: negation, condition, future, modality. */
const HEDGE =
  /\b(?:not|never|no|cannot|unable|if|whether|would|could|should|will|can|may|might|unless|once|until)\b|n['’]t\b/i;
/** Words that end the object phrase after a verb, or the noun phrase before one. */
const STOP = new Set(
  'for to on in at with and or but from by so because as which who using via into of onto than then since while per'.split(
    ' ',
  ),
);
const DETERMINERS = new Set(
  'the a an your my our their his its this that these those all both each every some any new old requested following existing selected same'.split(
    ' ',
  ),
);
/** A number, #id or amount without letters: "1234", "#42", "7", "$20", "2024-05-01". */
const NUMBER = /^[#№$€£]?\d[\d.,:\-/%]*$/;
/** Object words that name nothing a tool name could match: the claim then names no object. */
const GENERIC = new Set(
  'it them that this those these they everything all you me us something anything one ones'.split(' '),
);
/** Words that cannot end the noun phrase of a claim about a thing: people and auxiliaries. */
const NOT_THINGS = new Set('i we you he she me us him her has have had was were is are been be'.split(' '));

/**
 * Finds the statements of a response that claim a completed action, by the patterns' verbs in four
 * forms: first person ("I've created the ticket", "we deleted it"), passive ("the ticket has been
 * created", "your refund was issued"), a clause that starts with the verb ("Deleted the draft.",
 * "Done: sent the email") and noun then verb ("Refund issued."). A verb joined to a claim by "and"
 * under the same subject is a claim of its own ("I deleted the draft and updated the homepage").
 * Questions, clauses with a negation, a condition or a future or modal word before the verb ("I
 * haven't deleted", "if I delete", "I will create") and negated objects ("I changed nothing") are
 * not claims. Each claim carries the object it names, if any, in the order of the response.
 *
 * @example
 * ```ts
 * findClaims("I've deleted the draft. Anything else?", DEFAULT_CLAIM_PATTERNS);
 * // [{ quote: "I've deleted the draft", action: 'delete', objects: ['draft'], pattern }]
 * ```
 */
export function findClaims(response: string, patterns: readonly ClaimPattern[]): Claim[] {
  const claims: Claim[] = [];
  for (const clause of clauses(response)) {
    // Every verb of every pattern, in the order of the clause; at one place the first pattern wins.
    const matches = patterns
      .flatMap((pattern) =>
        pattern.verbs.flatMap((verb) =>
          [...clause.matchAll(verbPattern(verb))].map((m) => ({ at: m.index, length: m[0].length, pattern })),
        ),
      )
      .sort((a, b) => a.at - b.at);
    const taken = new Set<number>();
    // The verb met just before, and the claim it made if it made one: a verb joined to a claim by
    // "and" shares its subject ("I deleted the draft and updated the homepage").
    const seen: { at: number; found: Found | undefined }[] = [];
    for (const { at, length, pattern } of matches) {
      if (taken.has(at)) continue;
      const last = seen.findLast((s) => s.at < at);
      const found =
        claimAt(clause, at, length, pattern) ??
        (last?.found ? coordinated(clause, at, length, pattern, last.found) : undefined);
      if (found) {
        taken.add(at);
        claims.push(found.claim);
      }
      seen.push({ at, found });
    }
  }
  return claims;
}

function verbPattern(verb: string): RegExp {
  return new RegExp(
    String.raw`\b${verb
      .trim()
      .split(/\s+/)
      .map(escape)
      .join(String.raw`\s+`)}\b`,
    'gi',
  );
}

/** Sentences split at . ! ? ; and line breaks, then at commas; questions dropped. */
function clauses(response: string): string[] {
  return response
    .split(/(?<=[.!?])\s+|[;\n]+/)
    .filter((sentence) => !sentence.trim().endsWith('?'))
    .flatMap((sentence) => sentence.split(/,\s*/))
    .map((clause) => clause.trim())
    .filter((clause) => clause !== '');
}

/**
 * A claim and how it was made: `agent` when someone did the verb to the object after it ("I
 * deleted the draft", "Deleted the draft"), `patient` when the verb was done to the noun before it
 * ("The ticket has been created", "Refund issued"). `past` marks a "was"/"were" passive, which a
 * date or another actor after it turns into history.
 */
interface Found {
  claim: Claim;
  kind: 'agent' | 'patient';
  past?: boolean;
  /** Where the verb ends in the clause. */
  verbEnd: number;
}

function claimAt(clause: string, at: number, length: number, pattern: ClaimPattern): Found | undefined {
  const before = clause.slice(0, at);
  const after = clause.slice(at + length);
  if (HEDGE.test(before)) return undefined;
  const verbEnd = at + length;
  const subject = SUBJECT.exec(before);
  if ((subject || LEAD.test(before)) && NONE.test(after)) return undefined;
  if (subject) {
    const { words, consumed } = objectAfter(after);
    return { claim: made(clause, pattern, subject.index, words, verbEnd + consumed), kind: 'agent', verbEnd };
  }
  const passive = PASSIVE.exec(before);
  const past = passive !== null && /\b(?:was|were)\b/i.test(passive[0]);
  if (passive && !(past && HISTORY.test(after))) {
    // "The ticket has been created"; "You have been refunded" claims a refund to a person.
    const head = before.slice(0, passive.index);
    const noun = nounBefore(head) ?? personBefore(head);
    return noun
      ? { claim: made(clause, pattern, noun.start, noun.words, verbEnd), kind: 'patient', past, verbEnd }
      : undefined;
  }
  if (LEAD.test(before)) {
    const { words, consumed } = objectAfter(after);
    return { claim: made(clause, pattern, at, words, verbEnd + consumed), kind: 'agent', verbEnd };
  }
  if (!passive && NOUN_CLAIM_END.test(after)) {
    const noun = nounBefore(before);
    return noun
      ? { claim: made(clause, pattern, noun.start, noun.words, verbEnd), kind: 'patient', verbEnd }
      : undefined;
  }
  return undefined;
}

/**
 * The verb at `at` as a second claim of the same subject, joined to the claim just before it by
 * "and", "and then", "as well as" or "plus": "I deleted the draft and updated the homepage" claims
 * an update too, and "Your order has been cancelled and refunded" a refund of the order. An
 * `agent` claim lends its subject and takes its own object; a `patient` claim lends its noun, and
 * only with nothing but the joining words between the two verbs.
 */
function coordinated(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
  previous: Found,
): Found | undefined {
  const between = clause.slice(previous.verbEnd, at);
  const join = JOIN.exec(between);
  if (join === null || HEDGE.test(between)) return undefined;
  const after = clause.slice(at + length);
  const verbEnd = at + length;
  if (previous.kind === 'patient') {
    if (!ONLY_ADVERBS.test(between.slice(0, join.index))) return undefined;
    if (previous.past ? HISTORY.test(after) : !NOUN_CLAIM_END.test(after)) return undefined;
    return { ...previous, claim: made(clause, pattern, at, previous.claim.objects, verbEnd), verbEnd };
  }
  // The words between the first object and "and" continue it ("the draft from the blog"), and
  // must not open a clause of their own ("the draft that you wrote and ...").
  const carried = between.slice(0, join.index).match(/[^\s.,;:!?()]+/g) ?? [];
  if (carried.length > 8 || carried.some((w) => SUBORDINATE.has(w.toLowerCase()))) return undefined;
  if (NONE.test(after)) return undefined;
  const { words, consumed } = objectAfter(after);
  // "and published pages are unchanged": the participle describes a noun, it claims nothing.
  if (/\b(?:is|are|was|were|remain|remains|stay|stays|has|have|had)\b/i.test(after.slice(0, consumed))) {
    return undefined;
  }
  return { claim: made(clause, pattern, at, words, verbEnd + consumed), kind: 'agent', verbEnd };
}

function made(clause: string, pattern: ClaimPattern, start: number, objects: string[], end: number): Claim {
  return {
    quote: clause.slice(start, end).trim(),
    action: pattern.action,
    pattern,
    objects: objects.filter((w) => !GENERIC.has(w)),
  };
}

/** The object phrase right after the verb: up to three content words, up to a stop word or punctuation. */
function objectAfter(after: string): { words: string[]; consumed: number } {
  const words: string[] = [];
  let consumed = 0;
  const re = /\s*([^\s.,;:!?()]+)/y;
  for (let m = re.exec(after); m && words.length < 3; m = re.exec(after)) {
    const word = m[1]!.toLowerCase().replace(/^['"“]|['"”]$/g, '');
    if (STOP.has(word) || (word === 'that' && words.length > 0)) break;
    consumed = re.lastIndex;
    if (DETERMINERS.has(word) || /[\d#$€£%]/.test(word) || !/\p{L}/u.test(word)) continue;
    words.push(word);
  }
  return { words, consumed };
}

/**
 * The noun phrase that ends right where `before` ends ("the ticket", "Order #W1", "Order 1234",
 * "it"): up to four tokens back, to a determiner, a stop word, punctuation or a person; numbers and
 * ids count toward the phrase but are not among its words. Undefined when the words before are
 * a person or an auxiliary ("I was", "you"), so the verb is no claim about a thing.
 */
function nounBefore(before: string): { words: string[]; start: number } | undefined {
  const tokens = [...before.matchAll(/[^\s.,;:!?()]+/g)];
  const last = tokens[tokens.length - 1];
  if (last === undefined || before.slice(last.index + last[0].length).trim() !== '') return undefined;
  const words: string[] = [];
  let start = -1;
  let noun = false;
  for (let i = tokens.length - 1; i >= 0 && i >= tokens.length - 4; i--) {
    const token = tokens[i]!;
    const word = token[0].toLowerCase();
    // Punctuation between two words ends the phrase: "Done: order 42", "question(s) (1".
    const next = tokens[i + 1];
    if (next && /[.,;:!?()]/.test(before.slice(token.index + token[0].length, next.index))) break;
    if (DETERMINERS.has(word) && start >= 0) {
      start = token.index;
      break;
    }
    if (STOP.has(word) || NOT_THINGS.has(word) || DETERMINERS.has(word)) break;
    // A number or #id names which one ("Order 1234", "Ticket #42"); other symbols end the phrase.
    const named = /\p{L}/u.test(word);
    if (!named && !NUMBER.test(word)) break;
    start = token.index;
    if (named) noun = true;
    if (!/[\d#$€£%]/.test(word)) words.unshift(word);
    if (GENERIC.has(word)) break;
  }
  // Numbers alone ("2 have been closed") say how many, not what.
  return start < 0 || !noun ? undefined : { words, start };
}

function personBefore(before: string): { words: string[]; start: number } | undefined {
  const person = /\b(?:you|he|she|they|we)\s*$/i.exec(before);
  return person ? { words: [], start: person.index } : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
