import { closeSync, fstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RECORD_VERSION, type AiEvalRecord } from '../run/record-types.js';
import { writeAll } from '../internal/atomic-write.js';
import { readTextFile } from '../internal/read-text.js';

/**
 * The side-channel protocol of runners without per-test metadata (Jest, node:test, the standalone
 * `expect`): the reporter names a directory in this environment variable before workers start,
 * each worker process appends one JSON line per record to `records-<pid>.jsonl` in it, and the
 * reporter reads every file back at the end. This module is the whole protocol: writers and readers
 * both import it.
 *
 * @example
 * ```ts
 * process.env[CHANNEL_DIR_ENV] = mkdtempSync(join(tmpdir(), 'ai-eval-channel-'));
 * ```
 */
export const CHANNEL_DIR_ENV = 'AI_EVAL_CHANNEL_DIR';

/**
 * The side-channel file of a worker process inside the channel directory.
 *
 * @example
 * ```ts
 * channelFile('/tmp/ai-eval-channel-x', 4242); // '/tmp/ai-eval-channel-x/records-4242.jsonl'
 * ```
 */
export function channelFile(dir: string, pid: number = process.pid): string {
  return join(dir, `records-${pid}.jsonl`);
}

/** Channel directories this process has made (or found) already. */
const made = new Set<string>();

/** This process's channel files it holds open for appending, by path. */
const open = new Map<string, number>();

/** The lines of `records`, one JSON line each. */
function recordLines(records: readonly AiEvalRecord[]): string {
  let lines = '';
  for (const record of records) lines += `${JSON.stringify(record)}\n`;
  return lines;
}

/** Opens this process's channel file in `dir` for appending, making the directory when missing. */
function openChannel(dir: string): number {
  const file = channelFile(dir);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  try {
    return openSync(file, 'a');
  } catch (error) {
    // The reporter empties the directory when a run starts (watch mode): make it again, once.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
    return openSync(file, 'a');
  }
}

/**
 * Appends records to this process's channel file, one line each, in one write (it lands whole,
 * whatever other workers write meanwhile): a generated test sends its question's records at once.
 * The file stays open between writes; when the reporter has emptied the directory meanwhile (a new
 * run in watch mode), the file is made again. Returns false, writing nothing, when no channel
 * directory is set (no ai-eval reporter is listening). For a process that loads one copy of
 * ai-eval (node:test runs each test file in its own process, a script); where every test file
 * loads its own copy (Jest), {@link ChannelWriter} holds nothing open.
 *
 * @example
 * ```ts
 * appendRecords(records); // in a worker, while the ai-eval reporter runs
 * ```
 */
export function appendRecords(records: readonly AiEvalRecord[], dir = process.env[CHANNEL_DIR_ENV]): boolean {
  if (!dir) return false;
  if (records.length === 0) return true;
  const file = channelFile(dir);
  const bytes = Buffer.from(recordLines(records));
  let fd = open.get(file);
  // A file unlinked since it was opened (nlink 0) would swallow the records: open the path again.
  if (fd !== undefined && fstatSync(fd).nlink === 0) {
    closeSync(fd);
    open.delete(file);
    fd = undefined;
  }
  if (fd === undefined) {
    fd = openChannel(dir);
    open.set(file, fd);
  }
  writeAll(fd, bytes);
  return true;
}

/** Held lines past this many characters (about a megabyte of records) are written at once. */
const HOLD_LIMIT = 1 << 20;

/**
 * Records on their way to this process's channel file, held in memory and appended in one write
 * when {@link ChannelWriter.flush} is called, or as soon as they pass about a megabyte. Each write
 * opens the file, appends and closes it: nothing stays open between writes, so a runner that loads
 * a fresh copy of ai-eval for every test file (Jest's module registry) does not leak a descriptor
 * per file, and a file the reporter removed meanwhile (a new run in watch mode) is made again.
 *
 * The Jest entry holds a generated suite's records and writes them when the suite's `afterAll`
 * runs (two system calls per test cost more than grading it); a matcher's records are written at
 * once. Held records are lost if the worker dies first, and then Jest fails the test file.
 *
 * @example
 * ```ts
 * const writer = new ChannelWriter();
 * writer.add(records); // held
 * writer.flush(); // written, in one append
 * ```
 */
export class ChannelWriter {
  #dir: string | undefined;
  #lines = '';

  /**
   * Holds `records` for the channel directory `dir`; returns false, holding nothing, when no
   * directory is set (no ai-eval reporter is listening). Records held for another directory are
   * written first.
   */
  add(records: readonly AiEvalRecord[], dir = process.env[CHANNEL_DIR_ENV]): boolean {
    if (!dir) return false;
    if (records.length === 0) return true;
    if (this.#dir !== dir) this.flush();
    this.#dir = dir;
    this.#lines += recordLines(records);
    if (this.#lines.length >= HOLD_LIMIT) this.flush();
    return true;
  }

  /** How many characters of records are held. */
  get held(): number {
    return this.#lines.length;
  }

  /** Writes every held record, in one append to the channel file. */
  flush(): void {
    const dir = this.#dir;
    const lines = this.#lines;
    this.#lines = '';
    if (dir === undefined || lines === '') return;
    const fd = openChannel(dir);
    try {
      writeAll(fd, Buffer.from(lines));
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * Reads every channel file of a directory (in name order); bad lines become problems naming the
 * file and line. A missing directory reads as no records.
 *
 * @example
 * ```ts
 * const { records, problems } = readChannelDir(dir);
 * ```
 */
export function readChannelDir(dir: string): ReadRecords {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
  } catch {
    return { records: [], problems: [] };
  }
  const out: ReadRecords = { records: [], problems: [] };
  for (const name of names) {
    const file = join(dir, name);
    const read = parseJsonLines(readTextFile(file), file);
    // One by one: spreading a list of 150,000 or more into push() overflows the stack.
    for (const record of read.records) out.records.push(record);
    for (const problem of read.problems) out.problems.push(problem);
  }
  return out;
}

/**
 * Why a value is not an {@link AiEvalRecord} (the first problem, with its JSON path), or `null`
 * when it is one. The reporters skip a bad record with this message instead of failing the whole
 * run.
 *
 * @example
 * ```ts
 * recordProblem({ v: 1 }); // '$.v: expected 2, got 1 (a record from another ai-eval version)'
 * ```
 */
export function recordProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '$: expected an object';
  const r = value as Record<string, unknown>;
  if (r.v !== RECORD_VERSION)
    return `$.v: expected ${RECORD_VERSION}, got ${JSON.stringify(r.v)} (a record from another ai-eval version)`;
  const test = r.test as Record<string, unknown> | null | undefined;
  if (typeof test !== 'object' || test === null) return '$.test: expected { file, name }';
  if (typeof test.file !== 'string') return '$.test.file: expected a string';
  if (typeof test.name !== 'string') return '$.test.name: expected a string';
  if (r.kind === 'load-failure' || r.kind === 'filter-skip' || r.kind === 'disabled')
    return suiteRecordProblem(r);
  if (r.kind !== 'grade') return `$.kind: expected 'grade', 'load-failure', 'filter-skip' or 'disabled'`;
  if (r.target !== null) {
    const problem = targetProblem(r.target);
    if (problem) return problem;
  }
  // Each field by name (a loop over key names reads every record's fields the slow way).
  const g = r as Partial<Record<GradeField, unknown>>;
  if (typeof g.question !== 'string') return '$.question: expected a string';
  if (typeof g.grader !== 'string') return '$.grader: expected a string';
  if (typeof g.label !== 'string') return '$.label: expected a string';
  if (typeof g.reason !== 'string') return '$.reason: expected a string';
  if (!finite(g.trial)) return '$.trial: expected a number';
  if (!finite(g.min)) return '$.min: expected a number';
  if (!finite(g.max)) return '$.max: expected a number';
  if (!finite(g.passThreshold)) return '$.passThreshold: expected a number';
  if (!finite(g.at)) return '$.at: expected a number';
  if (g.score !== null && !finite(g.score)) return '$.score: expected a number or null';
  if (g.composite !== null && !finite(g.composite)) return '$.composite: expected a number or null';
  if (typeof g.error !== 'boolean') return '$.error: expected true or false';
  if (typeof g.skipped !== 'boolean') return '$.skipped: expected true or false';
  if (typeof g.llm !== 'boolean') return '$.llm: expected true or false';
  if (typeof g.observesActions !== 'boolean') return '$.observesActions: expected true or false';
  if (typeof g.toolCallRecord !== 'boolean') return '$.toolCallRecord: expected true or false';
  return null;
}

type GradeField =
  | 'question'
  | 'grader'
  | 'label'
  | 'reason'
  | 'trial'
  | 'min'
  | 'max'
  | 'passThreshold'
  | 'at'
  | 'score'
  | 'composite'
  | 'error'
  | 'skipped'
  | 'llm'
  | 'observesActions'
  | 'toolCallRecord';

const finite = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);

function targetProblem(value: unknown): string | null {
  const t = value as Record<string, unknown> | null | undefined;
  if (typeof t !== 'object' || t === null || typeof t.name !== 'string')
    return '$.target: expected null or { name, mode, graders, ... }';
  if (t.mode !== 'agent' && t.mode !== 'chat') return `$.target.mode: expected 'agent' or 'chat'`;
  if (!Array.isArray(t.graders)) return '$.target.graders: expected an array';
  if (!Array.isArray(t.actionObserving)) return '$.target.actionObserving: expected an array';
  return null;
}

function suiteRecordProblem(r: Record<string, unknown>): string | null {
  const problem = targetProblem(r.target);
  if (problem) return problem.replace('expected null or', 'expected');
  if (typeof r.suite !== 'string') return '$.suite: expected a string';
  const dataset = r.dataset as Record<string, unknown> | null | undefined;
  if (typeof dataset !== 'object' || dataset === null || typeof dataset.ref !== 'string')
    return '$.dataset: expected { ref }';
  if (typeof r.at !== 'number' || !Number.isFinite(r.at)) return '$.at: expected a number';
  if (r.kind === 'load-failure') {
    if (!Array.isArray(r.problems) || !r.problems.every((p) => typeof p === 'string'))
      return '$.problems: expected an array of strings';
  } else if (r.kind === 'disabled') {
    if (typeof r.question !== 'string') return '$.question: expected a string';
  } else if (typeof r.filters !== 'object' || r.filters === null || Array.isArray(r.filters))
    return '$.filters: expected { split?, tags?, ids? }';
  return null;
}

/** Records read from somewhere, and the problems with those that were skipped. */
export interface ReadRecords {
  records: AiEvalRecord[];
  problems: string[];
}

/**
 * Keeps the values that are records; each other value becomes a problem naming `where` and its
 * index.
 *
 * @example
 * ```ts
 * const { records, problems } = checkRecords(testCase.meta().aiEval, 'src/a.test.ts > q1');
 * ```
 */
export function checkRecords(values: unknown, where: string): ReadRecords {
  if (values === undefined) return { records: [], problems: [] };
  if (!Array.isArray(values))
    return { records: [], problems: [`${where}: meta.aiEval is not an array of records; skipped`] };
  const out: ReadRecords = { records: [], problems: [] };
  values.forEach((value, i) => {
    const problem = recordProblem(value);
    if (problem) out.problems.push(`${where}: record ${i} skipped, ${problem.replace('$', `$[${i}]`)}`);
    else out.records.push(value as AiEvalRecord);
  });
  return out;
}

/**
 * Parses a JSON Lines channel file: one record per line. A bad line is skipped with a problem
 * naming the file and line; blank lines are ignored.
 *
 * @example
 * ```ts
 * const { records, problems } = parseJsonLines(readFileSync(file, 'utf8'), file);
 * ```
 */
export function parseJsonLines(text: string, file: string): ReadRecords {
  const out: ReadRecords = { records: [], problems: [] };
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      out.problems.push(`${file}:${i + 1}: not JSON (${(error as Error).message}); line skipped`);
      return;
    }
    const problem = recordProblem(value);
    if (problem) out.problems.push(`${file}:${i + 1}: ${problem}; line skipped`);
    else out.records.push(value as AiEvalRecord);
  });
  return out;
}
