import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { writeFileAtomic } from '../internal/atomic-write.js';
import { logger } from '../logger.js';

/**
 * The adaptive request rate of one provider, shared by every process of a run through a file in
 * the limiter's directory. Requests start no closer together than `1000 / rate` ms, and never
 * before `blockedUntil` (the latest `Retry-After`, across processes). Until the provider first
 * answers 429 the rate grows by one request per second per success (doubling every second). A 429
 * sets the ceiling to the rate the provider was seen to admit (successes in the last second) and
 * takes the rate to {@link RATE.decrease} of it; successes then bring it back quickly to
 * {@link RATE.approach} of the ceiling, and above that it probes slowly. Each time a probe finds
 * the same ceiling again the probe slows by half, so 429s die out; a rate that outgrows the ceiling
 * by {@link RATE.forget} forgets it (the limit rose) and grows fast again.
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
 * RATE.decrease; // 0.8: a 429 takes the rate to 80% of what the provider admitted
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
  /** The first probe: requests per second added per second of successes above the approach point. */
  probe: 0.1,
  /** The slowest probe. */
  minProbe: 0.002,
  /** A ceiling within this share of the last one is the same limit found again. */
  sameCeiling: 0.1,
  /** The share of the ceiling the rate climbs back to quickly after a decrease. */
  approach: 0.97,
  /** A rate this far above the ceiling without a 429: the limit rose, forget the ceiling. */
  forget: 1.2,
  /** The factor of the admitted rate a 429 takes the rate to. */
  decrease: 0.8,
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
 * starts it did not refuse in the second before (over the time since the first start, when that
 * is shorter), or `null` with fewer than three.
 *
 * @example
 * ```ts
 * admittedRate({ ...freshRate(0), since: 100, recent: [200, 400, 600, 800, 1000] }, 1100); // 5
 * ```
 */
export function admittedRate(state: RateState, at: number): number | null {
  const count = state.recent.filter((t) => t > at - 1000 && t < at).length;
  if (count < 3 || state.since === 0) return null;
  const seconds = Math.min(1000, Math.max(250, at - state.since)) / 1000;
  return count / seconds;
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
  // A request sent before the last decrease says nothing about the rate in force now.
  if (sentAt < state.decreasedAt) return { ...state, updatedAt: now };
  const { ceiling } = state;
  let rate: number;
  if (ceiling === null) rate = state.rate + RATE.fastStep;
  else if (state.rate < ceiling * RATE.approach)
    rate = Math.min(ceiling * RATE.approach, state.rate + RATE.fastStep);
  else rate = state.rate + state.probe / state.rate;
  rate = clampRate(rate);
  if (ceiling !== null && rate > ceiling * RATE.forget)
    return { ...state, rate, ceiling: null, probe: RATE.probe, updatedAt: now };
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
    // What the provider admitted is its limit, however fast the rate was when it said so.
    const ceiling = clampRate(admittedRate(state, sentAt) ?? state.rate);
    const probing = state.ceiling !== null && state.rate >= state.ceiling * RATE.approach;
    const again =
      probing &&
      Math.abs(ceiling - (state.ceiling as number)) <= (state.ceiling as number) * RATE.sameCeiling;
    next = {
      ...next,
      ceiling,
      rate: clampRate(Math.min(state.rate, ceiling * RATE.decrease)),
      probe: again ? Math.max(RATE.minProbe, state.probe / 2) : state.probe,
      decreasedAt: now,
    };
  }
  const floor = now + (retryAfterMs ?? 1000 / next.rate);
  next.blockedUntil = Math.max(next.blockedUntil, floor);
  next.nextAt = Math.max(next.nextAt, next.blockedUntil);
  return next;
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
  readonly #lock: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(readonly settings: RateSettings) {
    const id = createHash('sha256').update(settings.key).digest('hex').slice(0, 12);
    this.#file = join(settings.dir, `rate-${id}.json`);
    this.#lock = join(settings.dir, `rate-${id}.lock`);
  }

  /** Responses seen but not yet applied to the shared state: applied with the next update. */
  #pending: Array<(state: RateState, now: number) => RateState> = [];
  #flush: ReturnType<typeof setTimeout> | undefined;

  /**
   * Waits until this request may start under the shared rate; resolves to the start it was given
   * (pass it to {@link observe}).
   */
  async pace(signal?: AbortSignal): Promise<number> {
    let start = 0;
    const wait = await this.#update((state, now) => {
      const reserved = reserve(state, now);
      start = reserved.start;
      return { state: reserved.state, wait: reserved.start - now };
    });
    if (wait > 0) await sleep(wait, undefined, signal ? { signal } : undefined);
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
    return seen ?? freshRate(Date.now());
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
    writeFileSync(this.#lock, '', { flag: 'a' });
    const release = await lockfile.lock(this.#lock, {
      stale: 10_000,
      realpath: false,
      retries: { retries: 10_000, minTimeout: 2, maxTimeout: 40, randomize: true },
    });
    try {
      let text: string | undefined;
      try {
        text = readFileSync(this.#file, 'utf8');
      } catch {
        text = undefined;
      }
      const now = Date.now();
      const { state, wait } = change(parseState(text, now), now);
      writeFileAtomic(this.#file, JSON.stringify(state));
      return wait;
    } finally {
      await release().catch((error: unknown) =>
        logger.debug(`judge rate lock ${this.#lock}: ${String(error)}`, 'judge'),
      );
    }
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
