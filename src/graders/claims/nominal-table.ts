/**
 * The action nouns and gerunds of a pattern list ("cancellation", "cancelling"), with one regex that
 * finds any of them, made once per list.
 */

import type { ClaimPattern } from '../../grading/types.js';
import { DEFAULT_CLAIM_NOUNS } from '../claim-patterns.js';
import { escape, gerunds, plural } from './word-forms.js';

/**
 * A word that names a pattern's action: one of its nouns ({@link DEFAULT_CLAIM_NOUNS}: "cancellation",
 * "refund") or the gerund of one of its verbs ("cancelling", "getting rid of"), with the verb it
 * comes from.
 */
export interface Nominal {
  pattern: ClaimPattern;
  noun: boolean;
  verb: string;
}

/** The action nouns and gerunds of a pattern list, and one regex that finds any of them. */
export interface NominalTable {
  re: RegExp;
  forms: Map<string, Nominal>;
}

/** Tables made once per pattern list's words (bounded, as {@link verbRegexes} is). */
const nominalTables = new Map<string, NominalTable>();

/**
 * The action nouns of each pattern (by its action, first pattern first; plurals too) and the
 * gerunds of its verbs ("cancelled": "cancelling", "canceling"; "deleted": "deleting"), a noun
 * winning over a gerund of the same spelling ("booking").
 */
export function nominalTable(patterns: readonly ClaimPattern[]): NominalTable {
  const key = patterns.map((p) => `${p.action}\u0001${p.verbs.join('\u0002')}`).join('\u0003');
  let table = nominalTables.get(key);
  if (table !== undefined) return table;
  const forms = new Map<string, Nominal>();
  for (const pattern of patterns) {
    for (const noun of DEFAULT_CLAIM_NOUNS[pattern.action.trim().toLowerCase()] ?? []) {
      for (const form of [noun, plural(noun)]) {
        if (!forms.has(form)) forms.set(form, { pattern, noun: true, verb: noun });
      }
    }
  }
  for (const pattern of patterns) {
    for (const verb of pattern.verbs) {
      for (const form of gerunds(verb)) if (!forms.has(form)) forms.set(form, { pattern, noun: false, verb });
    }
  }
  const alternatives = [...forms.keys()]
    .sort((a, b) => b.length - a.length)
    .map((form) =>
      form
        .split(' ')
        .map(escape)
        .join(String.raw`\s+`),
    );
  const re =
    alternatives.length === 0
      ? /(?!)/gu
      : new RegExp(String.raw`(?<![\p{L}\d'’-])(?:${alternatives.join('|')})(?![\p{L}\d-])`, 'giu');
  if (nominalTables.size >= 200) nominalTables.clear();
  table = { re, forms };
  nominalTables.set(key, table);
  return table;
}
