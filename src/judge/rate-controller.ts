import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeFileAtomic } from '../internal/atomic-write.js';
import { withFileLock } from '../internal/file-lock.js';
import { logger } from '../logger.js';
import { sha256Hex } from '../internal/sha256.js';

/**
 * The adaptive request rate of one provider, shared by every process of a run through a file in
 * the limiter's directory. Requests start no closer together than `1000 / rate` ms, and never
 * before `blockedUntil` (the latest `Retry-After`, across processes). Until the provider first
 * answers 429 the rate grows by one request per second per success (doubling every second), as
 * long as the requests use it. The first 429 sets the ceiling to what the provider was seen to
 * admit (at least half the rate in force) and takes the rate to {@link RATE.decrease} of it;
 * successes then bring it back quickly to {@link RATE.approach} of the ceiling, and above that it
 * probes slowly. A 429 just below the ceiling is noise (requests reach the provider a little
 * later, some closer together, than they start here): the ceiling stays. A probe that finds the
 * same ceiling again halves the probe, so 429s become rare; a 429 well below the ceiling means the
 * limit fell and lowers it a tenth; a rate that outgrows the ceiling by {@link RATE.forget} takes
 * the ceiling with it (the limit rose).
 *
 * @example
 * ```ts
 * const state: RateState = freshRate(Date.now());
 * ```
 */
export interface RateState {
  v: 1;
  /** Requests per second allowed to start, across all processes. */
  rate: number;
  /** The rate the provider admitted when it last answered 429 (`null`: none known). */
  ceiling: number | null;
  /** Requests per second added per second of successes above the approach point. */
  probe: number;
  /**
   * The starts of the last two seconds that the provider did not refuse (epoch ms, oldest first,
   * at most {@link RATE.recent}): what it admitted, or what is still on its way.
   */
  recent: number[];
  /**
   * The starts of the last two seconds whose requests succeeded (epoch ms, in the order their
   * answers came, at most {@link RATE.recent}): what the provider is known to have admitted, none
   * of it still on its way.
   */
  answered: number[];
  /** Epoch ms of the first start this state saw (0: none yet). */
  since: number;
  /** Epoch ms before which the next request may not start (pacing). */
  nextAt: number;
  /** Epoch ms before which no request starts (the latest Retry-After). */
  blockedUntil: number;
  /** Epoch ms of the last decrease: a 429 of a request sent before it is not a new signal. */
  decreasedAt: number;
  /** Epoch ms of the last change. */
  updatedAt: number;
}

/**
 * The controller's constants.
 *
 * @example
 * ```ts
 * RATE.decrease; // 0.9: a 429 takes the rate to 90% of what the provider admitted
 * ```
 */
export const RATE = {
  /** Requests per second at first, when nothing is known about the provider. */
  initial: 10,
  /** The lowest rate: one request every five seconds. */
  min: 0.2,
  /** The highest rate the controller paces at (concurrency limits long before). */
  max: 10_000,
  /** Requests per second added per success, below the approach point. */
  fastStep: 1,
  /**
   * The first probe: the share of the ceiling added to the rate per second of successes above the
   * approach point. A slow start's ceiling tends to come out low; a quarter of it a second finds
   * the rest within a second or two, where a tenth took several.
   */
  probe: 0.25,
  /** The slowest probe. */
  minProbe: 0.002,
  /** A ceiling within this share of the last one is the same limit found again. */
  sameCeiling: 0.1,
  /** The share of the ceiling the rate climbs back to quickly after a decrease. */
  approach: 0.97,
  /** A rate this far above the ceiling without a 429: the limit rose, forget the ceiling. */
  forget: 1.2,
  /** The rate grows only while the starts of the last second are at least this share of it. */
  used: 0.5,
  /** A 429 at this share of the ceiling or above (and below it) leaves the ceiling as it is. */
  noise: 0.9,
  /** What a 429 well below the ceiling takes the ceiling to (a factor of it). */
  ceilingStep: 0.9,
  /**
   * The factor of the admitted rate a 429 takes the rate to: what was admitted is a measurement,
   * so a tenth below it is margin enough (80% cost a run seconds of a fifth less).
   */
  decrease: 0.9,
  /** How many recent starts are kept to see the admitted rate. */
  recent: 200,
  /** State this old is forgotten: the provider's limit may have changed since. */
  idleResetMs: 5 * 60_000,
} as const;

const clampRate = (rate: number): number => Math.min(RATE.max, Math.max(RATE.min, rate));

/**
 * The state of a provider nothing is known about (or whose state is {@link RATE.idleResetMs} old).
 *
 * @example
 * ```ts
 * freshRate(Date.now()).rate; // 10
 * ```
 */
export function freshRate(now: number): RateState {
  return {
    v: 1,
    rate: RATE.initial,
    ceiling: null,
    probe: RATE.probe,
    recent: [],
    answered: [],
    since: 0,
    nextAt: 0,
    blockedUntil: 0,
    decreasedAt: 0,
    updatedAt: now,
  };
}

/**
 * Reserves the start of one request: no earlier than now, the paced next start and the
 * Retry-After floor. Returns the new state (the start among the recent ones) and the start.
 *
 * @example
 * ```ts
 * const { state, start } = reserve(freshRate(0), 1000); // start 1000; the next may start at 1100
 * ```
 */
export function reserve(state: RateState, now: number): { state: RateState; start: number } {
  const start = Math.max(now, state.nextAt, state.blockedUntil);
  const interval = 1000 / clampRate(state.rate);
  const recent = [...state.recent.filter((t) => t > now - 2000), start].slice(-RATE.recent);
  const since = state.since === 0 ? start : state.since;
  return { state: { ...state, nextAt: start + interval, recent, since, updatedAt: now }, start };
}

/**
 * The requests per second the provider admitted up to `at` (when a refused request started): the
 * starts it did not refuse in the two seconds before, per second, or `null` with none. Two seconds,
 * because requests reach the provider a little later than they start here and some closer
 * together: over one second that is an error of one request. Early in a run, over the time since
 * the first start but never under a second: a provider that limits requests per window admits a
 * burst of its limit at once.
 *
 * @example
 * ```ts
 * admittedRate({ ...freshRate(0), since: 100, recent: [200, 400, 600, 800, 1000] }, 1100); // 5
 * ```
 */
export function admittedRate(state: RateState, at: number): number | null {
  const count = state.recent.filter((t) => t > at - 2000 && t < at).length;
  if (count === 0 || state.since === 0) return null;
  return count / Math.min(2, Math.max(1, (at - state.since) / 1000));
}

/**
 * A request started at `sentAt` succeeded: the rate grows (fast below the approach point, by the
 * probe above it); a ceiling the rate outgrew is forgotten.
 *
 * @example
 * ```ts
 * afterSuccess(freshRate(0), 10, 20).rate; // 11
 * ```
 */
export function afterSuccess(state: RateState, sentAt: number, now: number): RateState {
  const answered = [...state.answered.filter((t) => t > now - 2000), sentAt].slice(-RATE.recent);
  return grown({ ...state, answered }, sentAt, now);
}

function grown(state: RateState, sentAt: number, now: number): RateState {
  // A request sent before the last decrease says nothing about the rate in force now.
  if (sentAt < state.decreasedAt) return { ...state, updatedAt: now };
  // A rate the requests do not use (they are fewer: the run sends no faster) does not grow, so a
  // 429 later finds the rate in force close to what was sent.
  const used = state.recent.filter((t) => t > now - 1000 && t <= now).length;
  if (used < state.rate * RATE.used) return { ...state, updatedAt: now };
  const { ceiling } = state;
  let rate: number;
  if (ceiling === null) rate = state.rate + RATE.fastStep;
  else if (state.rate < ceiling * RATE.approach)
    rate = Math.min(ceiling * RATE.approach, state.rate + RATE.fastStep);
  // Above it, by `probe` of the ceiling per second (each of the rate's successes in a second adds its share).
  else rate = state.rate + (state.probe * ceiling) / state.rate;
  rate = clampRate(rate);
  // A rate this far above the ceiling without a 429: the limit rose, and the ceiling follows (it
  // is not forgotten: a slow start from here would overshoot by as much again).
  if (ceiling !== null && rate > ceiling * RATE.forget)
    return { ...state, rate, ceiling: rate, probe: RATE.probe, updatedAt: now };
  return { ...state, rate, updatedAt: now };
}

/**
 * A request sent at `sentAt` got a 429: nothing starts before its Retry-After (or one interval at
 * the new rate, without one). When it was sent after the last decrease, the rate the provider
 * admitted (or the rate in force, when too few starts show it) becomes the ceiling, the rate
 * drops to {@link RATE.decrease} of it (if it is not lower already), and when the rate was probing
 * above the last ceiling and found that same ceiling again, the probe halves.
 *
 * @example
 * ```ts
 * after429(freshRate(0), 10, 20, 1000).blockedUntil; // 1020
 * ```
 */
export function after429(
  state: RateState,
  sentAt: number,
  now: number,
  retryAfterMs: number | undefined,
): RateState {
  // The refused start was not admitted: it leaves the recent starts.
  const own = state.recent.lastIndexOf(sentAt);
  const recent = own === -1 ? state.recent : state.recent.filter((_, i) => i !== own);
  let next = { ...state, recent, updatedAt: now };
  if (sentAt >= state.decreasedAt) {
    // The first 429 ends the slow start, whose rate may be far above the limit: what the provider
    // admitted is the ceiling, and the rate drops to RATE.decrease of it. Later ones come near a
    // ceiling already found:
    // - at or above it (a probe found the limit): the ceiling rises to what was admitted if that
    //   is more, the rate goes back to the approach point, and finding the same ceiling again
    //   halves the probe;
    // - just below it: requests reach the provider later than they start here, some closer
    //   together, so this is noise: the ceiling stays and the rate goes no higher than the
    //   approach point;
    // - well below it, while the rate climbs back after a decrease: the limit fell; the ceiling
    //   comes down a tenth and the rate to RATE.decrease of that.
    const admitted = admittedRate(state, sentAt);
    const known = state.ceiling;
    let ceiling: number;
    let rate: number;
    let probe = state.probe;
    if (known === null) {
      // The slow start doubles the rate each second and a 429 comes back within one: half the
      // rate in force is a floor under the limit, where the count of a ramp comes out short.
      // And the successes of the last second alone: the slow start doubled the rate each second,
      // so two seconds' count comes out a quarter short; the last second's starts would count the
      // refusals still on their way (more of them the lower the limit), its answered ones do not.
      const answered = state.answered.filter((t) => t > sentAt - 1000 && t <= sentAt).length;
      ceiling = clampRate(Math.max(admitted ?? 0, answered, state.rate / 2));
      rate = Math.min(state.rate, ceiling * RATE.decrease);
    } else if (state.rate >= known * RATE.noise && admitted !== null && admitted < known * RATE.noise) {
      // Near the ceiling, and yet the provider admitted well under it: the ceiling is above the
      // limit (a slow start's estimate can be), and near it every request would be refused. It
      // comes down to what was admitted, a tenth at most per 429.
      ceiling = clampRate(Math.max(admitted, known * RATE.ceilingStep));
      rate = Math.min(state.rate, ceiling * RATE.approach);
    } else if (state.rate >= known * RATE.noise) {
      ceiling = clampRate(Math.max(admitted ?? 0, known));
      rate = Math.min(state.rate, ceiling * RATE.approach);
      // Probing above the approach point, at the ceiling or just below it, the limit was found
      // again: the next probe goes half as fast (else, at a low limit, where the paced requests
      // jitter by a larger share of their interval, it met the limit again every second).
      const again =
        state.rate > known * RATE.approach && Math.abs(ceiling - known) <= known * RATE.sameCeiling;
      if (again) probe = Math.max(RATE.minProbe, state.probe / 2);
    } else {
      ceiling = clampRate(known * RATE.ceilingStep);
      rate = Math.min(state.rate, ceiling * RATE.decrease);
    }
    next = { ...next, ceiling, rate: clampRate(rate), probe, decreasedAt: now };
  }
  const floor = now + (retryAfterMs ?? 1000 / next.rate);
  next.blockedUntil = Math.max(next.blockedUntil, floor);
  next.nextAt = Math.max(next.nextAt, next.blockedUntil);
  return next;
}

/**
 * A request refused before it started: the provider's shared `Retry-After` block (`blockedUntil`)
 * ends `waitMs` from now, later than the request's budget allows it to wait.
 *
 * @example
 * ```ts
 * try { await rate.pace(signal, remainingMs); } catch (e) { if (e instanceof RateBlockedError) giveUp(e.waitMs); }
 * ```
 */
export class RateBlockedError extends Error {
  override readonly name = 'RateBlockedError';

  constructor(
    readonly waitMs: number,
    readonly budgetMs: number,
  ) {
    super(
      `the provider asked to wait ${Math.round(waitMs)} ms (Retry-After) before the next request, more than the ${Math.round(budgetMs)} ms this request may wait`,
    );
  }
}

/**
 * Where a provider's rate is kept. An explicit `requestsPerMinute` is not the controller's: the
 * limiter holds it, whatever rate the controller allows.
 *
 * @example
 * ```ts
 * const settings: RateSettings = { dir: judgeSettings().limitDir, key: 'https://api.openai.com/v1' };
 * ```
 */
export interface RateSettings {
  /** The limiter's directory, shared by every process of the run. */
  dir: string;
  /** The provider (base URL), hashed into the file name. */
  key: string;
}

/**
 * Where a {@link RateController} reads the time and waits: the system clock, or a test's.
 *
 * @example
 * ```ts
 * const clock: RateClock = { now: () => t, sleep: async (ms) => void (t += ms) };
 * ```
 */
export interface RateClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms` (rejects when `signal` aborts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const SYSTEM_CLOCK: RateClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, undefined, signal ? { signal } : undefined),
};

function parseState(text: string | undefined, now: number): RateState {
  if (text === undefined) return freshRate(now);
  try {
    const s = JSON.parse(text) as Partial<RateState>;
    const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
    if (s.v !== 1 || !finite(s.rate) || !finite(s.nextAt) || !finite(s.blockedUntil)) return freshRate(now);
    if (!finite(s.updatedAt) || now - s.updatedAt > RATE.idleResetMs) return freshRate(now);
    return {
      v: 1,
      rate: clampRate(s.rate),
      ceiling: finite(s.ceiling) ? s.ceiling : null,
      probe: finite(s.probe) ? s.probe : RATE.probe,
      recent: Array.isArray(s.recent) ? s.recent.filter(finite).slice(-RATE.recent) : [],
      answered: Array.isArray(s.answered) ? s.answered.filter(finite).slice(-RATE.recent) : [],
      since: finite(s.since) ? s.since : 0,
      nextAt: s.nextAt,
      blockedUntil: s.blockedUntil,
      decreasedAt: finite(s.decreasedAt) ? s.decreasedAt : 0,
      updatedAt: s.updatedAt,
    };
  } catch {
    return freshRate(now);
  }
}

/**
 * A provider's rate controller in this process: {@link RateController.pace} waits for the next
 * start the shared state allows, {@link RateController.observe} feeds each response back. Every
 * change is made under a lock on the shared file, in order for this process.
 *
 * @example
 * ```ts
 * const rate = rateController({ dir: judgeSettings().limitDir, key: 'http://localhost:8080/v1' });
 * const sentAt = await rate.pace(signal);
 * rate.observe(sentAt, response.status, retryAfter(response.headers));
 * ```
 */
export class RateController {
  readonly #file: string;
  readonly #clock: RateClock;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly settings: RateSettings,
    clock: RateClock = SYSTEM_CLOCK,
  ) {
    this.#clock = clock;
    const id = sha256Hex(settings.key).slice(0, 12);
    this.#file = join(settings.dir, `rate-${id}.json`);
  }

  /** Responses seen but not yet applied to the shared state: applied with the next update. */
  #pending: Array<(state: RateState, now: number) => RateState> = [];
  #flush: ReturnType<typeof setTimeout> | undefined;

  /**
   * Waits until this request may start under the shared rate; resolves to the start it was given
   * (pass it to {@link observe}). When the shared `Retry-After` block ends more than `maxBlockMs`
   * from now, rejects at once with a {@link RateBlockedError} instead, reserving nothing: a request
   * never waits for a block past its own budget.
   */
  async pace(signal?: AbortSignal, maxBlockMs = Number.POSITIVE_INFINITY): Promise<number> {
    let start = 0;
    let blocked = 0;
    const wait = await this.#update((state, now) => {
      const block = state.blockedUntil - now;
      if (block > maxBlockMs) {
        blocked = block;
        return { state, wait: 0 };
      }
      const reserved = reserve(state, now);
      start = reserved.start;
      return { state: reserved.state, wait: reserved.start - now };
    });
    if (blocked > 0) throw new RateBlockedError(blocked, maxBlockMs);
    if (wait > 0) await this.#clock.sleep(wait, signal);
    return start;
  }

  /**
   * Feeds back the response of a request that started at `sentAt` (what {@link pace} resolved to):
   * a success raises the rate, a 429 lowers it and blocks until its Retry-After. Returns at once;
   * a 429 reaches the shared state at once, a success with the next update (within 25 ms).
   */
  observe(sentAt: number, status: number, retryAfterMs: number | undefined): void {
    if (status === 429) {
      this.#pending.push((state, now) => after429(state, sentAt, now, retryAfterMs));
      void this.#update((state) => ({ state, wait: 0 }));
    } else if (status < 400) {
      this.#pending.push((state, now) => afterSuccess(state, sentAt, now));
      if (this.#flush === undefined) {
        this.#flush = setTimeout(() => {
          this.#flush = undefined;
          if (this.#pending.length > 0) void this.#update((state) => ({ state, wait: 0 }));
        }, 25).unref();
      }
    }
  }

  /** The shared state now (for tests and benchmarks). */
  async state(): Promise<RateState> {
    let seen: RateState | undefined;
    await this.#update((state) => {
      seen = state;
      return { state, wait: 0 };
    });
    return seen ?? freshRate(this.#clock.now());
  }

  /**
   * Runs `change` on the shared state under the lock, after this process's earlier changes and
   * the responses seen meanwhile.
   */
  #update(change: (state: RateState, now: number) => { state: RateState; wait: number }): Promise<number> {
    const run = this.#queue.then(() =>
      this.#locked((state, now) => {
        const seen = this.#pending.splice(0);
        return change(
          seen.reduce((s, apply) => apply(s, now), state),
          now,
        );
      }),
    );
    // A failed update (an unwritable directory) must not stop later ones.
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #locked(
    change: (state: RateState, now: number) => { state: RateState; wait: number },
  ): Promise<number> {
    mkdirSync(this.settings.dir, { recursive: true });
    return withFileLock(
      this.#file,
      {
        label: 'judge rate controller',
        code: 'JUDGE_FAILED',
        consequence: 'No judge call was made.',
        // Held for a read and a write: waiters poll briefly.
        pollMs: 5,
        stuckMs: 60_000,
        onTakeover: (holder, lock) =>
          logger.debug(
            `took over the rate lock ${lock} of process ${holder?.pid ?? '?'}, which is gone`,
            'judge',
          ),
      },
      () => {
        let text: string | undefined;
        try {
          text = readFileSync(this.#file, 'utf8');
        } catch {
          text = undefined;
        }
        const now = this.#clock.now();
        const { state, wait } = change(parseState(text, now), now);
        writeFileAtomic(this.#file, JSON.stringify(state), { durable: false });
        return wait;
      },
    );
  }
}

const KEY = Symbol.for('ai-eval.rate-controllers');

/**
 * The rate controller of a provider in this process (one per directory and key).
 *
 * @example
 * ```ts
 * rateController({ dir, key }) === rateController({ dir, key }); // true
 * ```
 */
export function rateController(settings: RateSettings): RateController {
  const holder = globalThis as { [KEY]?: Map<string, RateController> };
  const all = (holder[KEY] ??= new Map<string, RateController>());
  const id = `${settings.dir}\n${settings.key}`;
  let controller = all.get(id);
  if (!controller) {
    controller = new RateController(settings);
    all.set(id, controller);
  }
  return controller;
}
