import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getConfig } from '../config.js';
import { own, setOwn } from '../internal/own.js';
import { judgeIdentity } from '../registry/judge-identity.js';
import type { AiEvalRecord } from '../run/record-types.js';
import type { RunIdentity } from './model.js';
import { sha256Hex } from '../internal/sha256.js';

let cachedVersion: string | undefined;

/**
 * The installed ai-eval version, read from the package's own package.json (found by walking up
 * from this module, which works from the source, the ESM build and the CJS build alike).
 *
 * @example
 * ```ts
 * packageVersion(); // '0.2.0'
 * ```
 */
export function packageVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'ai-eval' && typeof pkg.version === 'string') return (cachedVersion = pkg.version);
      } catch {
        // not ours; keep looking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return (cachedVersion = 'unknown');
}

/**
 * The run identity: timestamp, package and Node versions, the judge model (from the records, else
 * the model configured or set in `AI_EVAL_JUDGE_MODEL` for this process; `null` when unknown) and
 * the judges' identity hash when any LLM grader ran, and the prompt and dataset hashes the records
 * carry.
 *
 * @example
 * ```ts
 * const identity = runIdentity(records, new Date());
 * ```
 */
export function runIdentity(all: readonly AiEvalRecord[], now: Date): RunIdentity {
  const promptHashes: Record<string, string> = {};
  const datasetHashes: Record<string, string> = {};
  let judgeModel: string | null = null;
  let llm = false;
  // The records of one suite share their dataset object (as the worker made them and the runner
  // carried them): one already read is skipped, without a lookup by its ref.
  let lastDataset: { ref: string; hash: string } | undefined;
  for (const r of all) {
    if (r.kind !== 'grade') continue;
    if (r.llm) llm = true;
    // Keys come from data (a grader id, a dataset ref): `__proto__` must stay a key. Most records
    // repeat what an earlier one set: only a change is written (the last record still wins).
    if (r.promptHash && own(promptHashes, r.grader) !== r.promptHash)
      setOwn(promptHashes, r.grader, r.promptHash);
    if (r.dataset && r.dataset !== lastDataset) {
      lastDataset = r.dataset;
      if (own(datasetHashes, r.dataset.ref) !== r.dataset.hash)
        setOwn(datasetHashes, r.dataset.ref, r.dataset.hash);
    }
    if (r.judgeModel && judgeModel === null) judgeModel = r.judgeModel;
  }
  let judgeHash: string | null = null;
  if (Object.keys(promptHashes).length > 0 && judgeModel !== null) {
    // What the workers used, as their records say: the model and every judge's prompt hash.
    judgeHash = sha256Hex(JSON.stringify([judgeModel, sortKeys(promptHashes)])).slice(0, 12);
  }
  // Only a model named for this process counts: the default would be a guess, since a configure()
  // in a setup file runs in the workers, not here. Unknown stays null rather than wrong.
  const named = getConfig().judge.model ?? (process.env.AI_EVAL_JUDGE_MODEL || undefined);
  if (llm && (judgeModel !== null || named !== undefined)) {
    try {
      const judges = judgeIdentity();
      judgeModel ??= judges.model;
      if (judges.model === judgeModel) judgeHash ??= judges.hash;
    } catch {
      judgeModel ??= named ?? null;
    }
  }
  return {
    timestamp: now.toISOString(),
    packageVersion: packageVersion(),
    nodeVersion: process.version,
    judgeModel,
    judgeHash,
    promptHashes: sortKeys(promptHashes),
    datasetHashes: sortKeys(datasetHashes),
  };
}

function sortKeys(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
