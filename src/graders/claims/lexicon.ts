/**
 * The word lists and word regexes of the claim extraction: stop words, determiners, hedges,
 * negations, numbers and ids, the words of a phrase, the joining words of a list.
 */

/** Label words that name no thing: "Status: closed" claims a close, of no object. */
export const FIELDS = new Set('status state result outcome action update summary note done'.split(' '));
/**
 * Words that make the words after a clause-initial participle a clause of its own, the participle
 * describing its subject ("Deleted items stay in the trash", "Archived posts are read-only").
 */
export const FINITE =
  /^(?:is|are|was|were|remain|remains|stay|stays|has|have|had|can|cannot|can['’]t|will|won['’]t|would|may|might|must|should|do|does|don['’]t|doesn['’]t|take|takes|get|gets|go|goes|show|shows|appear|appears|need|needs|expire|expires|look|looks)$/i;
/** The words that join a verb or an object to the one before it: "and", "&", "plus", "as well as". */
export const AND_WORDS = String.raw`(?:and|&|plus|as\s+well\s+as)`;
/**
 * What follows "No", "Nr." or "No." when it is the number sign, not a negation: a number or an id
 * ("Order No. 1234", "No 42", "No. W1").
 */
const ID_AHEAD = String.raw`\.?\s*[#№]?[a-z]{0,3}-?\d`;
/** An object that negates the verb: "I changed nothing", "sent no email" (not "cancelled No. 1234"). */
export const NONE = new RegExp(String.raw`^\s+(?:nothing|none|neither|no(?!${ID_AHEAD}))\b`, 'i');
/**
 * The end of the words before a noun phrase that make it none of the things ("None of the orders",
 * "nothing else"), or its first word when it is such a word ("Nothing was deleted", "Neither draft
 * was published", "Nobody was refunded"): a passive or noun-verb claim about it claims nothing.
 */
const NEGATED_BEFORE =
  /(?:^|[^\p{L}])(?:none|neither|nobody)(?:\s+of)?(?:\s+(?:the|your|my|our|their|these|those|this|that|its))?\s*$/iu;
const NEGATED_FIRST = /^(?:nothing|none|neither|nobody)\b/i;
/** The noun phrase at `start` in `head` is none of the things: {@link NEGATED_FIRST}, {@link NEGATED_BEFORE}. */
export const negatedNoun = (head: string, start: number): boolean =>
  NEGATED_FIRST.test(head.slice(start)) || NEGATED_BEFORE.test(head.slice(0, start));
/** Words that open a clause of their own, so a verb after them need not share the subject before. */
export const SUBORDINATE = new Set(
  'that which who whom whose where when while if because since unless until once so but or nor although though whether after before'.split(
    ' ',
  ),
);
/**
 * Words in the clause before the verb that make it no claim: negation, condition, future (with
 * "'ll": "you'll keep getting charged"), modality (not the month: "from May 3", "in May").
 */
export const HEDGE = new RegExp(
  String.raw`\b(?:not|never|no(?!${ID_AHEAD})|cannot|unable|if|whether|would|could|should|will|can|may(?!\s+\d)(?<!\b(?:from|in|on|of|for|since|until|before|after|by|last|this|next|early|late|mid)\s+may)|might|unless|once|until|probably|likely|possibly|maybe|perhaps|supposedly)\b|n['’]t\b|['’]ll\b`,
  'i',
);
/**
 * A future or modal word before a verb of seeing, finding, knowing or hearing, that verb, and "that"
 * after it: "you'll see that ", "you will find ", "you'll be glad to hear ", "you may notice ", "you'll
 * be able to see ". Read from the first hedge of a text (sticky).
 */
const PERCEIVING = new RegExp(
  String.raw`(?:will|would|could|should|can|may|might|shall|['’]ll)\s+(?:(?:also|now|soon|then|quickly|easily|clearly)\s+)?(?:be\s+(?:(?:so|very|really)\s+)?(?:glad|happy|pleased|relieved|delighted|thrilled|able)\s+to\s+)?(?:see|find|notice|know|hear|learn|discover|spot)(?:\s+that)?(?![\p{L}\d'’-])\s*`,
  'iuy',
);
/** A word of a noun phrase: "draft", "order's", "#1234", "$20". */
const PHRASE_WORD = String.raw`[\p{L}\d#$€£][\p{L}\d#$€£.,'’/-]*`;
/**
 * The start of a clause with a subject of its own and a past or perfect verb: "I cancelled", "I've
 * deleted", "we were able to", "the draft has been", "your refund was", "the order's been", or a
 * noun phrase and a relative clause of the agent's ("the drafts I deleted"; not "I am", "your
 * order is").
 */
const PAST_CLAUSE = new RegExp(
  String.raw`^(?:(?:(?:the|your|my|our|all|these|those)\s+(?:${PHRASE_WORD}\s+){1,3}?(?:(?:that|which)\s+)?)?(?:i|we)(?:['’](?:ve|d))?(?![\p{L}\d'’-])(?!\s+(?:am|are|is)\b)|(?:${PHRASE_WORD}\s+){0,4}(?:${PHRASE_WORD}\s+(?:has|have|had|was|were)|${PHRASE_WORD}['’](?:s|ve|d)\s+been)(?![\p{L}\d'’-]))`,
  'iu',
);
/**
 * A {@link HEDGE} in `text`, the words before a verb (or a whole clause): a future or modal word
 * before a verb of seeing or knowing hedges the seeing, not the clause it introduces when that
 * clause has its own subject and a past or perfect verb ("You'll see that I cancelled your order",
 * "You'll find the draft has been deleted", "You'll be glad to hear I deleted the spam pages":
 * read as that clause alone). A negation or condition before it, or any hedge inside that clause,
 * still reaches ("You won't find that I deleted anything", "You'll see if I cancelled it", "You'll
 * see that I will cancel it").
 */
export function hedged(text: string): boolean {
  const hedge = HEDGE.exec(text);
  if (hedge === null) return false;
  PERCEIVING.lastIndex = hedge.index;
  const lead = PERCEIVING.exec(text);
  if (lead === null) return true;
  const clause = text.slice(lead.index + lead[0].length);
  return !PAST_CLAUSE.test(clause) || HEDGE.test(clause);
}
/** "you" (or "we", "they") before a future or modal word and a verb of seeing or knowing. */
const PERCEIVER = /^\s*(?:you|we|they)\s*/iy;

/**
 * Where the clause introduced by "you'll know", "you'll be glad to hear (that)" and the like starts,
 * when `head` is nothing but that lead ("You'll know " the cancellation went through); 0 otherwise.
 */
export function perceivedFrom(head: string): number {
  PERCEIVER.lastIndex = 0;
  const who = PERCEIVER.exec(head);
  if (who === null) return 0;
  PERCEIVING.lastIndex = who[0].length;
  const lead = PERCEIVING.exec(head);
  return lead !== null && lead.index + lead[0].length === head.length ? head.length : 0;
}

/** Words that end the object phrase after a verb, or the noun phrase before one. */
export const STOP = new Set(
  'for to on in at with and or but from by so because as which who using via into of onto than then since while per before after until till unless once when whenever if'.split(
    ' ',
  ),
);
/** Determiners and the like before a noun ("the", "your", "all", "new", "requested"): they name no thing. */
export const DETERMINERS = new Set(
  'the a an your my our their his its this that these those all both each every some any new old requested following existing selected same'.split(
    ' ',
  ),
);
/** A number, #id or amount without letters: "1234", "#42", "7", "$20", "2024-05-01". */
export const NUMBER = /^[#№$€£]?\d[\d.,:\-/%]*$/;
/** Object words that name nothing a tool name could match: the claim then names no object. */
export const GENERIC = new Set(
  'it them that this those these they everything all you me us something anything one ones'.split(' '),
);
/** Object words that name the work, not a thing a call would mention ("Changes saved", "your edits"). */
export const WORK_WORDS = new Set(['change', 'changes', 'edit', 'edits']);
/**
 * Words that cannot end the noun phrase of a claim about a thing: people and auxiliaries ("being":
 * "Your refund is being processed" is work in progress, no claim).
 */
export const NOT_THINGS = new Set(
  'i we you he she me us him her has have had was were is are been be being'.split(' '),
);
/** Words after "I" or "we" that are no verb of their own ("I am", "we did"), so nothing is joined to them. */
export const NO_VERB = new Set([...NOT_THINGS, 'am', 'do', 'does', 'did', 'and', 'or', 'nor', 'but']);
/** Currency words: with an amount they name money, which no tool name or argument needs to mention. */
export const CURRENCY = new Set(
  'dollar dollars euro euros pound pounds cent cents usd eur gbp bucks'.split(' '),
);
/** An amount of money or a share: "$20", "€15.50", "20€", "50%". */
export const AMOUNT = /^[$€£¥₹]\d[\d.,]*$|^\d[\d.,]*[$€£¥₹%]$/;
/** "No", "Nr" or "Nos" before a number: the number sign, part of the id ("Order No. 1234"). */
export const NUMBER_SIGNS = new Set(['no', 'nr', 'nos', 'num']);
/** Titles before a name ("Dr. Ana"): part of no object. */
export const TITLES = new Set(['dr', 'st', 'mr', 'mrs', 'ms', 'prof', 'mt']);
/** Right after "No." or "No": the number or id it introduces. */
export const ID_NEXT = new RegExp(`^${ID_AHEAD}`, 'i');
/**
 * The words of a phrase: anything but spaces and punctuation, with a number's "." or "," ("€15.50")
 * and a dot between letters or digits ("john@acme.com", "config.yaml").
 */
export const WORDS = /(?:[^\s.,;:!?()]|(?<=\d),(?=\d)|(?<=[\p{L}\d])\.(?=[\p{L}\d]))+/gu;
/** The same, one at a time from `lastIndex`, past the spaces before. */
export const WORD = /\s*((?:[^\s.,;:!?()]|(?<=\d),(?=\d)|(?<=[\p{L}\d])\.(?=[\p{L}\d]))+)/uy;
/** "and", "&", "plus" or "as well as" before another object of the same verb. */
export const AND_OBJECT = new RegExp(String.raw`^\s*${AND_WORDS}\s+`, 'i');
/** An "and" in a list item after a comma: it is the last item. */
export const AND_ITEM = new RegExp(String.raw`(?:^|\s)${AND_WORDS}\s`, 'i');
/** The start of an item of a list after a comma: nothing, or "and" (then it is the last item). */
export const LIST_ITEM = new RegExp(String.raw`^\s*(?:${AND_WORDS}\s+)?`, 'i');
/** Adverbs that may end a clause after its last object ("... and the homepage too."). */
export const LAST_ADVERBS = 'too also again instead now already immediately today'.split(' ');
/** What may follow the last object of a verb: the end of the clause, a stop word ("to Ana"), an adverb. */
export const PHRASE_END = new RegExp(
  String.raw`^\s*(?:(?:${LAST_ADVERBS.join('|')}|as\s+well|right\s+away)\s*(?=$|[.!?)])|$|[.!?)]|(?:${[...STOP].join('|')})\b)`,
  'i',
);
/** Pronouns that are a whole object: what follows them is not part of it ("deleted it right away"). */
export const PRONOUNS = new Set(['it', 'them', 'everything', 'something', 'anything']);

/** A clause that opens with a determiner: the way a list item of things is written. */
export const DETERMINED = /^(?:the|your|my|our|their|all|both|each|every|this|that|these|those)\s/i;
/** An object after a verb that opens with a determiner, a pronoun or a number ("the page", "it", "3 files"). */
export const DETERMINED_OBJECT =
  /^\s+(?:(?:the|a|an|your|my|our|their|this|that|these|those|its|it|them|all|both|each|every)\b|[#\d])/i;
