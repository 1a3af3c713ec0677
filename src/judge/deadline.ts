/** The longest delay `setTimeout` takes; longer ones fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A time budget whose clock can stand still (while a judge call queues for a limiter slot), with a
 * signal that aborts when the budget runs out or when `parent` aborts.
 *
 * @example
 * ```ts
 * const deadline = new Deadline(60_000, request.signal);
 * deadline.pause(); // queueing
 * deadline.resume();
 * await fetch(url, { signal: deadline.signal });
 * deadline.dispose();
 * ```
 */
export class Deadline {
  /** Aborts when the budget runs out or the parent signal aborts. */
  readonly signal: AbortSignal;
  readonly #own = new AbortController();
  readonly #onExpire: (() => void) | undefined;
  #left: number;
  #since: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pauses = 0;

  constructor(ms: number, parent?: AbortSignal, onExpire?: () => void) {
    this.#left = ms;
    this.#onExpire = onExpire;
    this.signal = parent ? AbortSignal.any([parent, this.#own.signal]) : this.#own.signal;
    this.#start();
  }

  /** True once the budget ran out (not when only the parent aborted). */
  get expired(): boolean {
    return this.#own.signal.aborted;
  }

  /** Milliseconds left. */
  remaining(): number {
    if (this.#since === undefined) return this.#left;
    return Math.max(0, this.#left - (Date.now() - this.#since));
  }

  /** Stops the clock until the matching {@link resume}. */
  pause(): void {
    this.#pauses += 1;
    if (this.#pauses > 1 || this.expired) return;
    this.#left = this.remaining();
    this.#since = undefined;
    clearTimeout(this.#timer);
  }

  /** Starts the clock again after {@link pause}. */
  resume(): void {
    this.#pauses = Math.max(0, this.#pauses - 1);
    if (this.#pauses === 0 && !this.expired) this.#start();
  }

  /** Stops the clock for good (the call is over). */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#since = undefined;
  }

  #start(): void {
    this.#since = Date.now();
    this.#timer = setTimeout(
      () => {
        this.#onExpire?.();
        this.#own.abort(new Error('the judge call ran out of time'));
      },
      Math.min(this.#left, MAX_TIMER_MS),
    );
  }
}
