import { linkSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { writeFileAtomic } from '../../internal/atomic-write.js';
import { acquireFileLock } from '../../internal/file-lock.js';
import { extname, join } from 'node:path';
import { yamlModule } from '../../internal/lazy-modules.js';
import { AiEvalError } from '../../errors.js';
import type { Question } from '../../grading/types.js';
import { logger } from '../../logger.js';
import { translateErrors, validators } from '../schema.js';
import { formatProblem, validateDataset } from '../validate.js';
import { DATASET_EXTENSIONS, displayPath, readText } from './file-resolve.js';

/**
 * How long an append waits for the dataset's lock without it changing hands (or the queue moving)
 * before it gives up, telling the caller nothing was written.
 */
const LOCK_STUCK_MS = 120_000;

function checkRef(ref: string, id: string): void {
  if (typeof ref !== 'string' || ref.trim() === '' || /[/\\]/.test(ref) || ref.includes('..')) {
    throw new AiEvalError(
      'DATASET_SOURCE',
      `${id}: refusing dataset ref ${JSON.stringify(ref)}: a ref must be a bare file name (no path separator, no '..').`,
    );
  }
}

function existing(ref: string, dirs: string[]): string | undefined {
  const ext = extname(ref).toLowerCase();
  const names = (DATASET_EXTENSIONS as readonly string[]).includes(ext)
    ? [ref]
    : DATASET_EXTENSIONS.map((e) => `${ref}${e}`);
  for (const dir of dirs) {
    for (const name of names) {
      const path = join(dir, name);
      try {
        readText(path);
        return path;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** Validates each new question on its own (a missing id is allowed: one is allocated). */
function checkBatch(questions: ReadonlyArray<Partial<Question>>, label: string): void {
  if (!Array.isArray(questions) || questions.length === 0) {
    throw new AiEvalError(
      'INVALID_DATASET',
      `${label}: appendQuestions needs a non-empty list of questions.`,
    );
  }
  const validate = validators().question;
  const problems: string[] = [];
  (questions as readonly unknown[]).forEach((question, index) => {
    const row: unknown =
      question && typeof question === 'object' && (question as { id?: unknown }).id === undefined
        ? { ...question, id: 'pending' }
        : question;
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      problems.push(`${label}: new question ${index}: must be an object, got ${JSON.stringify(row)}.`);
    } else if (!validate(row)) {
      for (const issue of translateErrors(validate.errors ?? [])) {
        problems.push(
          `${label}: new question ${index}${issue.path === '' ? '' : ` at ${issue.path}`}: ${issue.message}`,
        );
      }
    }
  });
  if (problems.length > 0) {
    throw new AiEvalError(
      'INVALID_DATASET',
      `Nothing was written: ${problems.length} problem(s) in the new questions.\n${problems.join('\n')}`,
    );
  }
}

/**
 * Gives each new question an id that collides with nothing, in input order.
 *
 * @example
 * ```ts
 * allocateIds(['a', 'q-1'], ['a', undefined, 'b']); // ['a-2', 'q-2', 'b']
 * ```
 */
export function allocateIds(taken: Iterable<string>, wanted: ReadonlyArray<string | undefined>): string[] {
  const used = new Set(taken);
  return wanted.map((id) => {
    const base = id ?? 'q';
    let candidate = id !== undefined && !used.has(id) ? id : '';
    for (let n = id === undefined ? 1 : 2; candidate === ''; n++) {
      if (!used.has(`${base}-${n}`)) candidate = `${base}-${n}`;
    }
    used.add(candidate);
    return candidate;
  });
}

function render(path: string, text: string, rows: Question[]): string {
  if (extname(path).toLowerCase() === '.json') {
    const value = JSON.parse(text) as { questions: unknown[] };
    for (const row of rows) value.questions.push(row);
    return `${JSON.stringify(value, null, 2)}\n`;
  }
  const { isSeq, parseDocument } = yamlModule();
  const doc = parseDocument(text);
  const seq = doc.get('questions', true);
  if (!isSeq(seq))
    throw new AiEvalError('INVALID_DATASET', `${displayPath(path)}: 'questions' is not a list.`);
  if (seq.items.length === 0) seq.flow = false;
  for (const row of rows) seq.add(doc.createNode(row));
  return doc.toString();
}

/**
 * Appends questions to a dataset file: validates every one first, then under a cross-process lock
 * re-reads the file, allocates free ids, checks the whole result and writes it through a temporary
 * file and a rename. All or none: an append that cannot get the lock (its holder stuck for
 * `lock.stuckMs`, default 120 s) throws an {@link AiEvalError} saying nothing was written.
 *
 * The lock (src/internal/file-lock.ts) is `<file>.lock` beside the dataset: appenders take turns in
 * arrival order, and a lock left by a process that died (`kill -9`) is taken over at once.
 */
export async function appendToFile(
  ref: string,
  questions: ReadonlyArray<Partial<Question>>,
  dirs: string[],
  id: string,
  lock: { stuckMs?: number } = {},
): Promise<string[]> {
  checkRef(ref, id);
  const label = `${id}:${ref}`;
  checkBatch(questions, label);
  const path = existing(ref, dirs);
  if (path === undefined) {
    throw new AiEvalError(
      'DATASET_SOURCE',
      `${label}: no such dataset. Create it first with createDataset('${ref}').`,
    );
  }
  const release = await acquireFileLock(realpathSync(path), {
    label,
    code: 'DATASET_SOURCE',
    consequence: `Nothing was written: the ${questions.length} new question(s) were not appended.`,
    fair: true,
    stuckMs: lock.stuckMs ?? LOCK_STUCK_MS,
    onTakeover: (holder, dir) =>
      logger.warn(
        `${label}: took over the lock ${dir} left by ${holder ? `process ${holder.pid}, which is no longer running` : 'a holder that is gone'}.`,
        `dataset:${id}`,
      ),
  });
  try {
    const text = readText(path);
    const current = validateDataset(text, { file: displayPath(path) });
    if (!current.valid || !current.document) {
      throw new AiEvalError(
        'INVALID_DATASET',
        `${label}: the dataset is invalid, so nothing was appended. Fix it first:\n${current.problems.map(formatProblem).join('\n')}`,
      );
    }
    const ids = allocateIds(
      current.document.questions.map((q) => q.id),
      questions.map((q) => q.id),
    );
    const rows = questions.map(({ id: _given, ...rest }, i) => ({ id: ids[i], ...rest }) as Question);
    const next = render(path, text, rows);
    const check = validateDataset(next, { file: displayPath(path) });
    if (!check.valid) {
      throw new AiEvalError(
        'INVALID_DATASET',
        `${label}: nothing was written:\n${check.problems.map(formatProblem).join('\n')}`,
      );
    }
    writeFileAtomic(path, next);
    logger.info(`${label}: appended ${rows.length} question(s): ${ids.join(', ')}.`, `dataset:${id}`);
    return ids;
  } finally {
    await release();
  }
}

/** Creates an empty dataset file in the first directory; refuses when the name exists anywhere. */
export function createDatasetFile(
  ref: string,
  meta: { name?: string; label?: string; description?: string },
  dirs: string[],
  id: string,
): Promise<string> {
  checkRef(ref, id);
  const name = (DATASET_EXTENSIONS as readonly string[]).includes(extname(ref).toLowerCase())
    ? ref
    : `${ref}.yaml`;
  const clash = existing(ref, dirs) ?? existing(name, dirs);
  if (clash !== undefined) {
    return Promise.reject(
      new AiEvalError('DATASET_SOURCE', `${id}:${ref}: a dataset already exists at ${displayPath(clash)}.`),
    );
  }
  const dir = dirs[0] ?? join(process.cwd(), 'datasets');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  const document = { name: meta.name ?? name.replace(/\.(ya?ml|json)$/i, ''), ...meta, questions: [] };
  const text =
    extname(name).toLowerCase() === '.json'
      ? `${JSON.stringify(document, null, 2)}\n`
      : yamlModule().stringify(document);
  const temp = join(dir, `.${name}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, text);
    linkSync(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return Promise.reject(
      new AiEvalError(
        'DATASET_SOURCE',
        `${id}:${ref}: could not create ${displayPath(path)}${code === 'EEXIST' ? ': it already exists' : ''}.`,
        {
          cause: error,
        },
      ),
    );
  } finally {
    rmSync(temp, { force: true });
  }
  return Promise.resolve(name);
}
