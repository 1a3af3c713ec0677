import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  admittedRate,
  after429,
  afterSuccess,
  freshRate,
  RATE,
  RateBlockedError,
  RateController,
  reserve,
  type RateState,
} from '../../src/judge/rate-controller.js';

const at = (overrides: Partial<RateState>): RateState => ({ ...freshRate(0), ...overrides });
/** `n` starts spread over the second up to `now`. */
const busy = (now: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => now - i * (999 / n)).reverse();

describe('the rate arithmetic', () => {
  it('paces starts 1000/rate ms apart, from now when idle, never before the Retry-After floor', () => {
    const first = reserve(at({ rate: 10 }), 5_000);
    expect(first.start).toBe(5_000);
    expect(first.state.nextAt).toBe(5_100);
    const second = reserve(first.state, 5_020);
    expect(second.start).toBe(5_100);
    expect(second.state.nextAt).toBe(5_200);
    expect(second.state).toMatchObject({ recent: [5_000, 5_100], since: 5_000 });
    expect(reserve(at({ rate: 10, blockedUntil: 6_000 }), 5_000).start).toBe(6_000);
  });

  it('grows by one request per second per success until the first 429 (slow start), while the rate is used', () => {
    let state = at({ recent: busy(1_000, 10) });
    for (let i = 1; i <= 5; i++) state = afterSuccess(state, 1_000, 1_000);
    expect(state.rate).toBe(RATE.initial + 5);
    expect(state.ceiling).toBeNull();
    // Fewer starts in the last second than half the rate: the run sends no faster, the rate stays.
    expect(afterSuccess(at({ recent: busy(1_000, 4) }), 1_000, 1_000).rate).toBe(RATE.initial);
  });

  it('sees the admitted rate in the starts of the two seconds before a refused one', () => {
    const state = at({ since: 100, recent: [200, 400, 600, 800, 1_000, 1_300] });
    // Early in a run over the time since the first start, but never under a second (a burst).
    expect(admittedRate(state, 1_100)).toBe(5);
    expect(admittedRate(at({ since: 1, recent: [1, 101, 201, 301] }), 501)).toBe(4);
    // Later, over two seconds.
    const steady = Array.from({ length: 40 }, (_, i) => 10_050 + i * 100);
    expect(admittedRate(at({ since: 1, recent: steady }), 14_000)).toBe(10);
    expect(admittedRate(at({ since: 1, recent: [1, 2] }), 5_000)).toBeNull();
  });

  it('on the first 429 takes what was admitted (at least half the rate in force) as the ceiling, RATE.decrease of it as the rate, and blocks until Retry-After', () => {
    const seen = at({
      rate: 16,
      since: 100,
      recent: [150, 250, 350, 450, 550, 650, 750, 850, 950, 1_050, 1_100],
    });
    const state = after429(seen, 1_100, 1_150, 400);
    expect(state).toMatchObject({
      ceiling: 10,
      rate: 10 * RATE.decrease,
      decreasedAt: 1_150,
      blockedUntil: 1_550,
    });
    // The refused start is no longer among the admitted ones.
    expect(state.recent).not.toContain(1_100);
    expect(state.nextAt).toBe(1_550);
    // A slow start far above the limit: half its rate is the floor of the ceiling.
    expect(after429({ ...seen, rate: 30 }, 1_100, 1_150, 400)).toMatchObject({
      ceiling: 15,
      rate: 15 * RATE.decrease,
    });
    // No starts seen: half the rate in force.
    expect(after429(at({ rate: 20 }), 1_000, 1_050, 400)).toMatchObject({
      ceiling: 10,
      rate: 10 * RATE.decrease,
    });
    // Without Retry-After: one interval at the new rate.
    expect(after429(at({ rate: 20 }), 1_000, 1_050, undefined).blockedUntil).toBe(
      1_050 + 1000 / (10 * RATE.decrease),
    );
  });

  it('ends a slow start at what the last second admitted: two seconds of a doubling ramp count a quarter short', () => {
    // 10 starts in the second before last, then 20 in the last one (the limit), the 20th refused.
    const ramp = [...busy(11_000, 10), ...busy(12_000, 20)];
    let seen = at({ rate: 30, since: 9_000, recent: ramp });
    // Every admitted one succeeded (its answer came back before the 429).
    for (const t of ramp.slice(0, -1)) seen = afterSuccess(seen, t, 12_000);
    expect(admittedRate(seen, 12_000)).toBe(14.5);
    const state = after429({ ...seen, rate: 30 }, 12_000, 12_050, 100);
    // Not 15 (half the rate, above the two seconds' 14.5): the 19 the last second admitted.
    expect(state.ceiling).toBe(19);
    expect(state.rate).toBeCloseTo(19 * RATE.decrease, 10);
  });

  it('counts as admitted in a slow start only what succeeded, not the refusals still on their way', () => {
    // A limit of 5: 10 starts in the last second, 5 succeeded, the other 5 are 429s on their way.
    const starts = busy(12_000, 10);
    let seen = at({ rate: 12, since: 9_000, recent: starts });
    for (const t of starts.slice(0, 5)) seen = afterSuccess(seen, t, 12_000);
    // The 429 of the last start comes back first.
    const state = after429({ ...seen, rate: 12 }, starts[9]!, 12_050, 100);
    expect(state.ceiling).toBe(6); // half the rate in force, not the 10 starts
  });

  it('decreases once for the requests sent before a decrease, and keeps their Retry-After as a floor', () => {
    const once = after429(at({ rate: 20 }), 1_000, 1_050, 100);
    const again = after429(once, 1_010, 1_060, 300);
    expect(again.rate).toBe(once.rate);
    expect(again.ceiling).toBe(once.ceiling);
    expect(again.blockedUntil).toBe(1_360);
    // A success of a request sent before the decrease does not raise the rate either.
    expect(afterSuccess({ ...once, recent: busy(1_070, 10) }, 1_020, 1_070).rate).toBe(once.rate);
  });

  it('after a ceiling is known: a 429 just below it is noise, one above it is the limit found again, one well below it lowers it', () => {
    // Just below: the ceiling stays, the rate goes no higher than the approach point.
    const noise = after429(at({ rate: 19, ceiling: 20 }), 1_000, 1_000, 100);
    expect(noise).toMatchObject({ ceiling: 20, rate: 19, probe: RATE.probe });
    // A probe above it found the same ceiling: back to the approach point, the probe halves.
    const found = after429(at({ rate: 20.5, ceiling: 20 }), 1_000, 1_000, 100);
    expect(found).toMatchObject({ ceiling: 20, rate: 20 * RATE.approach, probe: RATE.probe / 2 });
    // So did one probing above the approach point and just below the ceiling.
    const probing = after429(at({ rate: 19.7, ceiling: 20 }), 1_000, 1_000, 100);
    expect(probing).toMatchObject({ ceiling: 20, rate: 20 * RATE.approach, probe: RATE.probe / 2 });
    // The provider admitted more than the ceiling: it rises, and the probe keeps its speed.
    const starts = Array.from({ length: 60 }, (_, i) => 8_000 + i * 33);
    const more = after429(at({ rate: 21, ceiling: 20, since: 1, recent: starts }), 10_000, 10_000, 100);
    expect(more.ceiling).toBe(29.5);
    expect(more.probe).toBe(RATE.probe);
    // Well below it, while climbing back: the limit fell; the ceiling comes down a tenth.
    const fell = after429(at({ rate: 17, ceiling: 20 }), 1_000, 1_000, 100);
    expect(fell.ceiling).toBeCloseTo(20 * RATE.ceilingStep);
    expect(fell.rate).toBeCloseTo(20 * RATE.ceilingStep * RATE.decrease);
  });

  it('lowers a ceiling above the limit: near it, and yet the provider admitted well under it', () => {
    // A ceiling of 6 from a slow start, a limit of 5: at the approach point every second sees 429s.
    const admitted = busy(12_000, 10).filter((_, i) => i % 2 === 0); // 5 a second over two seconds
    const starts = [...busy(11_000, 5), ...admitted];
    const stuck = after429(at({ rate: 5.8, ceiling: 6, since: 1, recent: starts }), 12_000, 12_000, 100);
    expect(stuck.ceiling).toBe(5.4); // a tenth at most per 429 (admitted: 5)
    expect(stuck.rate).toBeCloseTo(5.4 * RATE.approach, 10);
    // The same 429 with the provider admitting about the ceiling stays noise.
    const full = [...busy(11_000, 6), ...busy(12_000, 6)];
    const noise = after429(at({ rate: 5.8, ceiling: 6, since: 1, recent: full }), 12_000, 12_000, 100);
    expect(noise.ceiling).toBe(6);
  });

  it('climbs back quickly to just below the ceiling, then probes, and a ceiling it outgrows follows it', () => {
    const recent = busy(300, 20);
    let state = at({ rate: 15, ceiling: 20, decreasedAt: 100, recent });
    state = afterSuccess(state, 200, 200);
    expect(state.rate).toBe(16);
    for (let i = 0; i < 4; i++) state = afterSuccess(state, 300 + i, 300);
    expect(state.rate).toBe(20 * RATE.approach);
    const probe = afterSuccess(state, 400, 400);
    expect(probe.rate).toBeCloseTo(state.rate + (RATE.probe * 20) / state.rate);
    const outgrown = afterSuccess(
      at({ rate: 20 * RATE.forget, ceiling: 20, probe: RATE.minProbe, recent: busy(500, 30) }),
      500,
      500,
    );
    expect(outgrown.ceiling).toBe(outgrown.rate);
    expect(outgrown.ceiling).toBeGreaterThan(20 * RATE.forget);
    expect(outgrown.probe).toBe(RATE.probe);
  });

  it('stays between its lowest and highest rate', () => {
    expect(after429(at({ rate: RATE.min }), 1, 2, 0).rate).toBe(RATE.min);
    expect(afterSuccess(at({ rate: RATE.max }), 1, 1).rate).toBe(RATE.max);
  });
});

/**
 * A run in virtual time: `callers` send `perCaller` requests each, one after another, through the
 * arithmetic against a server that admits `limit` requests in any 1000 ms and answers the rest 429
 * with Retry-After (until a slot frees), 50 ms after each start; a refused request is sent again.
 */
function simulate(limit: number, callers: number, perCaller: number) {
  let state = freshRate(0);
  const admitted: number[] = [];
  const refused: number[] = [];
  const free = Array.from({ length: callers }, () => 0);
  const left = Array.from({ length: callers }, () => perCaller);
  while (left.some((n) => n > 0)) {
    let w = -1;
    for (let i = 0; i < callers; i++) if (left[i]! > 0 && (w === -1 || free[i]! < free[w]!)) w = i;
    const r = reserve(state, free[w]!);
    state = r.state;
    const sentAt = r.start;
    const first = admitted.findIndex((t) => t > sentAt - 1000);
    const inWindow = first === -1 ? 0 : admitted.length - first;
    const done = sentAt + 50;
    if (inWindow < limit) {
      admitted.push(sentAt);
      state = afterSuccess(state, sentAt, done);
      left[w]! -= 1;
    } else {
      refused.push(sentAt);
      state = after429(state, sentAt, done, Math.ceil(admitted[first]! + 1000 - sentAt));
    }
    free[w] = done;
  }
  return { admitted, refused };
}

describe('the controller against a rate-limited server (virtual time)', () => {
  it.each([
    ['20/s, 4 callers', 20, 4, 75],
    ['5/s, 4 callers', 5, 4, 75],
    ['20/s, 12 callers (three workers of four)', 20, 12, 25],
  ])('reaches 90%% of the limit and its 429s die out: %s', (_name, limit, callers, perCaller) => {
    const { admitted, refused } = simulate(limit, callers, perCaller);
    expect(admitted).toHaveLength(callers * perCaller);
    const achieved = (admitted.length - 1) / ((admitted.at(-1)! - admitted[0]!) / 1000);
    expect(achieved / limit).toBeGreaterThanOrEqual(0.9);
    expect(refused.length).toBeGreaterThan(0);
    const half = admitted[Math.floor(admitted.length / 2)]!;
    expect(refused.filter((t) => t > half).length).toBeLessThan(refused.filter((t) => t <= half).length);
  });
});

/** A clock the test moves: `sleep` advances it and records the wait. */
function fakeClock(start = 1_000_000) {
  const clock = {
    t: start,
    waits: [] as number[],
    now: () => clock.t,
    sleep: (ms: number) => {
      clock.waits.push(ms);
      clock.t += ms;
      return Promise.resolve();
    },
  };
  return clock;
}

const readShared = (dir: string): RateState => {
  const [file] = readdirSync(dir).filter((f) => /^rate-[0-9a-f]+\.json$/.test(f));
  return JSON.parse(readFileSync(join(dir, file!), 'utf8')) as RateState;
};

describe('the shared rate state (an injected clock)', () => {
  it('holds a Retry-After seen by one process for every other one, and not for another provider', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-rate-'));
    const clock = fakeClock();
    const one = new RateController({ dir, key: 'provider' }, clock);
    const other = new RateController({ dir, key: 'provider' }, clock);
    const sentAt = await one.pace();
    expect(sentAt).toBe(clock.t);
    clock.t += 50;
    one.observe(sentAt, 429, 300);
    const blocked = (await one.state()).blockedUntil;
    expect(blocked).toBe(sentAt + 50 + 300);
    expect((await other.state()).blockedUntil).toBe(blocked);
    // The other process waits out the Retry-After before its request starts.
    expect(await other.pace()).toBe(blocked);
    expect(clock.waits).toEqual([300]);
    expect((await new RateController({ dir, key: 'elsewhere' }, clock).state()).blockedUntil).toBe(0);
  });

  it('refuses at once, without reserving a start, a request whose budget ends before a shared Retry-After does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-rate-'));
    const clock = fakeClock();
    const one = new RateController({ dir, key: 'provider' }, clock);
    const other = new RateController({ dir, key: 'provider' }, clock);
    one.observe(await one.pace(), 429, 3_600_000);
    const before = await other.state();
    const refused = await other.pace(undefined, 60_000).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(RateBlockedError);
    expect((refused as RateBlockedError).waitMs).toBe(3_600_000);
    expect(clock.waits).toEqual([]);
    expect((await other.state()).recent).toEqual(before.recent);
    // A block that ends within the budget is waited out, as before.
    expect(await other.pace(undefined, 3_600_000)).toBe(before.blockedUntil);
    expect(clock.waits).toEqual([3_600_000]);
  });

  it('records each start when it is reserved and removes a refused one when its 429 comes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-rate-'));
    const clock = fakeClock();
    const rate = new RateController({ dir, key: 'p' }, clock);
    const starts = [await rate.pace(), await rate.pace(), await rate.pace()];
    // 10/s at first: 100 ms apart, each one in the shared file as soon as it is reserved.
    expect(starts.map((t) => t - starts[0]!)).toEqual([0, 100, 200]);
    expect(readShared(dir).recent).toEqual(starts);
    rate.observe(starts[1]!, 429, 500);
    expect((await rate.state()).recent).toEqual([starts[0], starts[2]]);
  });

  it('batches successes into the next locked update, in the order they came', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-rate-'));
    const clock = fakeClock();
    const rate = new RateController({ dir, key: 'p' }, clock);
    const starts: number[] = [];
    for (let i = 0; i < 10; i++) starts.push(await rate.pace());
    for (const t of starts) rate.observe(t, 200, undefined);
    // Not applied yet: no lock taken per success.
    expect(readShared(dir).rate).toBe(RATE.initial);
    // The next update (a pace, here) applies all ten before it reserves.
    await rate.pace();
    expect(readShared(dir).rate).toBe(RATE.initial + 10);
  });

  it('recovers after a 429: successes bring the rate back near the ceiling it found', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-rate-'));
    const clock = fakeClock();
    const rate = new RateController({ dir, key: 'p' }, clock);
    const first = await rate.pace();
    clock.t += 50;
    rate.observe(first, 429, 1000);
    const down = await rate.state();
    // Nothing admitted yet: half the rate in force is the ceiling.
    expect(down).toMatchObject({ ceiling: RATE.initial / 2, rate: (RATE.initial / 2) * RATE.decrease });
    // Successes until the rate is back at the approach point (the probe above it would, with no
    // 429 to stop it, outgrow the ceiling and take it along: the limit rose).
    let up = down;
    for (let i = 0; i < 10 && up.rate < down.ceiling! * RATE.approach; i++) {
      const t = await rate.pace();
      clock.t += 50;
      rate.observe(t, 200, undefined);
      up = await rate.state();
    }
    expect(up.rate).toBeGreaterThanOrEqual(down.ceiling! * RATE.approach);
    expect(up.ceiling).toBe(down.ceiling);
  });

  it('forgets a state left idle for five minutes (the limit may have changed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-rate-'));
    const clock = fakeClock();
    const rate = new RateController({ dir, key: 'p' }, clock);
    const t = await rate.pace();
    rate.observe(t, 429, 60_000);
    expect((await rate.state()).ceiling).not.toBeNull();
    clock.t += RATE.idleResetMs + 1;
    expect(await rate.state()).toMatchObject({ rate: RATE.initial, ceiling: null, blockedUntil: 0 });
  });
});
