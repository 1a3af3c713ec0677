import { writeFileAtomic } from '../internal/atomic-write.js';
import { setOwn } from '../internal/own.js';
import {
  readTrustFile,
  TRUST_FILE_VERSION,
  type JudgeTrustEntry,
  type TrustFile,
} from '../report/judge-trust.js';
import type { JudgeValidation } from './validate-judges.js';

/**
 * The trust entry a validation earns.
 *
 * @example
 * ```ts
 * const entry = trustEntryOf(result, { file: 'gold.yaml', hash }, new Date());
 * ```
 */
export function trustEntryOf(
  result: JudgeValidation,
  gold: { file: string; hash: string },
  now: Date,
): JudgeTrustEntry {
  return {
    state: result.state,
    promptHash: result.promptHash,
    model: result.model,
    validatedAt: now.toISOString(),
    gold: { ...gold },
    minimums: { ...result.minimums },
    metrics: result.metrics,
  };
}

/**
 * Writes the validations into the trust file, atomically: each validated judge's entry is
 * replaced, every other entry is kept, judges in id order. A file that cannot be read as a trust
 * file is refused (an error naming it) rather than overwritten.
 *
 * @example
 * ```ts
 * updateTrustFile('ai-eval.judges.json', judges, { file: 'gold.yaml', hash }, new Date());
 * ```
 */
export function updateTrustFile(
  path: string,
  results: readonly JudgeValidation[],
  gold: { file: string; hash: string },
  now: Date,
): TrustFile {
  const read = readTrustFile(path);
  if (read.problem) throw new Error(`${read.problem} Not overwriting it.`);
  const entries = { ...read.trust.judges };
  for (const result of results) setOwn(entries, result.judge, trustEntryOf(result, gold, now));
  const judges: Record<string, JudgeTrustEntry> = {};
  for (const id of Object.keys(entries).sort()) setOwn(judges, id, entries[id]!);
  const trust: TrustFile = { version: TRUST_FILE_VERSION, judges };
  writeFileAtomic(path, `${JSON.stringify(trust, null, 2)}\n`);
  return trust;
}
