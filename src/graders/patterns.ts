// The timers module's own functions: a test's fake timers replace the global ones, and must not
// stop the budget from running out.
import { clearTimeout, setTimeout } from 'node:timers';
import { Worker } from 'node:worker_threads';
import { catastrophicPart } from './pattern-shape.js';

/**
 * How long one pattern may take on one response, in milliseconds. A pattern over the budget is
 * stopped (its worker thread is terminated) and the grade is an error naming it.
 *
 * @example
 * ```ts
 * PATTERN_TIME_BUDGET_MS; // 1000
 * ```
 */
export const PATTERN_TIME_BUDGET_MS = 1000;

/** The longest pattern accepted, in characters. */
export const MAX_PATTERN_LENGTH = 10_000;

/**
 * Why a pattern from a dataset or rubric cannot run, or undefined when it can: not a non-empty
 * string, flags other than `i`, `m`, `s`, `u`, longer than {@link MAX_PATTERN_LENGTH}, not valid
 * JavaScript regex syntax, or a repeated ambiguous group (the shape that backtracks
 * exponentially). `what` names it in the message (`expected.pattern`).
 *
 * @example
 * ```ts
 * patternProblem('^(\\w+\\s?)*$', undefined); // '... repeats a group that can match the same text in more than one way ...'
 * patternProblem('ticket #\\d+', 'i'); // undefined
 * ```
 */
export function patternProblem(
  pattern: unknown,
  flags: unknown,
  what = 'expected.pattern',
): string | undefined {
  if (typeof pattern !== 'string' || (flags !== undefined && typeof flags !== 'string')) {
    return findPatternProblem(pattern, flags, what);
  }
  const group = flags === undefined ? what : `${what}\u0000${flags}`;
  let answers = checked.get(group);
  if (answers?.has(pattern)) return answers.get(pattern);
  const problem = findPatternProblem(pattern, flags, what);
  if (!answers || answers.size >= 1024) checked.set(group, (answers = new Map<string, string | undefined>()));
  answers.set(pattern, problem);
  return problem;
}

/** Patterns already checked (a dataset repeats them): by what and flags, then by pattern. */
const checked = new Map<string, Map<string, string | undefined>>();

function findPatternProblem(pattern: unknown, flags: unknown, what: string): string | undefined {
  if (typeof pattern !== 'string' || pattern === '') {
    return `${what} must be a non-empty regular expression string`;
  }
  if (flags !== undefined && (typeof flags !== 'string' || !/^[imsu]*$/.test(flags))) {
    return `expected.flags ${JSON.stringify(flags)} may only hold the regex flags i, m, s, u`;
  }
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return `${what} is ${pattern.length} characters long, over the limit of ${MAX_PATTERN_LENGTH}`;
  }
  try {
    new RegExp(pattern, flags ?? '');
  } catch (error) {
    return `${what} ${JSON.stringify(pattern)} is not a valid regular expression: ${(error as Error).message}`;
  }
  const part = catastrophicPart(pattern);
  if (part !== undefined) {
    return `${what} ${JSON.stringify(pattern)} repeats a group that can match the same text in more than one way (${part}): on a response that almost matches, a backtracking regex engine takes exponential time. Fix: make each repetition match unambiguously, e.g. (\\w+\\s)* instead of (\\w+\\s?)*`;
  }
  return undefined;
}

/** What running a pattern gave. */
export type PatternOutcome =
  | { kind: 'matched'; matched: boolean }
  | { kind: 'timeout'; budgetMs: number }
  | { kind: 'error'; message: string };

// The worker: compiles each pattern once (a bounded cache) and answers one job at a time.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const cache = new Map();
parentPort.on('message', (job) => {
  let reply;
  try {
    const key = job.flags + '/' + job.pattern;
    let re = cache.get(key);
    if (re === undefined) {
      re = new RegExp(job.pattern, job.flags);
      if (cache.size >= 256) cache.clear();
      cache.set(key, re);
    }
    reply = { id: job.id, matched: re.test(job.text) };
  } catch (error) {
    reply = { id: job.id, error: String((error && error.message) || error) };
  }
  parentPort.postMessage(reply);
});
parentPort.postMessage({ ready: true });
`;

interface Job {
  id: number;
  pattern: string;
  flags: string;
  text: string;
  budgetMs: number;
  resolve(outcome: PatternOutcome): void;
}

/**
 * Runs patterns on a worker thread, one at a time, each with a time budget counted from when the
 * worker starts on it. Over the budget, the worker is terminated (a synchronous regex cannot be
 * interrupted any other way) and the next job gets a fresh one. The worker does not keep the
 * process alive when idle.
 */
class PatternRunner {
  private worker: Worker | undefined;
  private ready = false;
  private queue: Job[] = [];
  private busy: Job | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextId = 1;

  run(pattern: string, flags: string, text: string, budgetMs: number): Promise<PatternOutcome> {
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, pattern, flags, text, budgetMs, resolve });
      this.pump();
    });
  }

  private pump(): void {
    if (this.busy || this.queue.length === 0) return;
    const worker = this.start();
    worker.ref();
    if (!this.ready) return; // dispatched once the worker says it is ready
    const job = this.queue.shift()!;
    this.busy = job;
    this.timer = setTimeout(() => {
      this.finish(job, { kind: 'timeout', budgetMs: job.budgetMs });
      this.stop();
      this.pump();
    }, job.budgetMs);
    worker.postMessage({ id: job.id, pattern: job.pattern, flags: job.flags, text: job.text });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    this.worker = worker;
    this.ready = false;
    worker.on('message', (message: { ready?: true; id?: number; matched?: boolean; error?: string }) => {
      if (worker !== this.worker) return;
      if (message.ready) {
        this.ready = true;
      } else if (this.busy && message.id === this.busy.id) {
        this.finish(
          this.busy,
          message.error !== undefined
            ? { kind: 'error', message: message.error }
            : { kind: 'matched', matched: message.matched === true },
        );
      }
      if (!this.busy && this.queue.length === 0) worker.unref();
      this.pump();
    });
    const lost = (reason: string) => {
      if (worker !== this.worker) return;
      this.worker = undefined;
      if (this.busy) this.finish(this.busy, { kind: 'error', message: reason });
      this.pump();
    };
    worker.on('error', (error: Error) => lost(`the pattern worker failed: ${error.message}`));
    worker.on('exit', (code) => lost(`the pattern worker exited (code ${code})`));
    return worker;
  }

  private finish(job: Job, outcome: PatternOutcome): void {
    if (this.busy !== job) return;
    clearTimeout(this.timer);
    this.busy = undefined;
    job.resolve(outcome);
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
  }
}

let runner: PatternRunner | undefined;

/**
 * Tests a regular expression from a dataset or rubric against a text, on a worker thread with a
 * time budget, so that no pattern can hang a run: a pattern that backtracks catastrophically is
 * stopped after `budgetMs` and reported as `{ kind: 'timeout' }`. Check the pattern first with
 * {@link patternProblem}.
 *
 * @example
 * ```ts
 * await testPattern('ticket #\\d+', 'i', 'Opened Ticket #42'); // { kind: 'matched', matched: true }
 * await testPattern('^(\\w+\\s?)*$', '', 'a'.repeat(40) + '!'); // { kind: 'timeout', budgetMs: 1000 }
 * ```
 */
export function testPattern(
  pattern: string,
  flags: string,
  text: string,
  budgetMs: number = PATTERN_TIME_BUDGET_MS,
): Promise<PatternOutcome> {
  runner ??= new PatternRunner();
  return runner.run(pattern, flags, text, budgetMs);
}
