import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  admittedRate,
  after429,
  afterSuccess,
  freshRate,
  RATE,
  RateController,
  reserve,
  type RateState,
} from '../../src/judge/rate-controller.js';

const at = (overrides: Partial<RateState>): RateState => ({ ...freshRate(0), ...overrides });

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

  it('grows by one request per second per success until the first 429 (slow start)', () => {
    let state = freshRate(0);
    for (let i = 1; i <= 5; i++) state = afterSuccess(state, i, i);
    expect(state.rate).toBe(RATE.initial + 5);
    expect(state.ceiling).toBeNull();
  });

  it('sees the admitted rate in the starts of the second before a refused one', () => {
    const state = at({ since: 100, recent: [200, 400, 600, 800, 1_000, 1_300] });
    expect(admittedRate(state, 1_100)).toBe(5);
    // Over the time since the first success when that is shorter than a second.
    expect(admittedRate(at({ since: 1, recent: [1, 101, 201, 301] }), 501)).toBe(8);
    expect(admittedRate(at({ since: 1, recent: [1, 2] }), 500)).toBeNull();
  });

  it('on a 429 takes the admitted rate as the ceiling, 80% of it as the rate, and blocks until Retry-After', () => {
    const seen = at({
      rate: 30,
      since: 100,
      recent: [150, 250, 350, 450, 550, 650, 750, 850, 950, 1_050, 1_100],
    });
    const state = after429(seen, 1_100, 1_150, 400);
    expect(state).toMatchObject({ ceiling: 10, rate: 8, decreasedAt: 1_150, blockedUntil: 1_550 });
    // The refused start is no longer among the admitted ones.
    expect(state.recent).not.toContain(1_100);
    expect(state.nextAt).toBe(1_550);
    // Too few successes to see the admitted rate: the rate in force is the ceiling.
    expect(after429(at({ rate: 20 }), 1_000, 1_050, 400)).toMatchObject({ ceiling: 20, rate: 16 });
    // Without Retry-After: one interval at the new rate.
    expect(after429(at({ rate: 20 }), 1_000, 1_050, undefined).blockedUntil).toBe(1_050 + 1000 / 16);
  });

  it('decreases once for the requests sent before a decrease, and keeps their Retry-After as a floor', () => {
    const once = after429(at({ rate: 20 }), 1_000, 1_050, 100);
    const again = after429(once, 1_010, 1_060, 300);
    expect(again.rate).toBe(once.rate);
    expect(again.ceiling).toBe(20);
    expect(again.blockedUntil).toBe(1_360);
    // A success of a request sent before the decrease does not raise the rate either.
    expect(afterSuccess(once, 1_020, 1_070).rate).toBe(once.rate);
  });

  it('climbs back quickly to just below the ceiling, then probes, and forgets an outgrown ceiling', () => {
    let state = at({ rate: 15, ceiling: 20, decreasedAt: 100 });
    state = afterSuccess(state, 200, 200);
    expect(state.rate).toBe(16);
    for (let i = 0; i < 4; i++) state = afterSuccess(state, 300 + i, 300 + i);
    expect(state.rate).toBe(20 * RATE.approach);
    const probe = afterSuccess(state, 400, 400);
    expect(probe.rate).toBeCloseTo(state.rate + RATE.probe / state.rate);
    const outgrown = afterSuccess(
      at({ rate: 20 * RATE.forget, ceiling: 20, probe: RATE.minProbe }),
      500,
      500,
    );
    expect(outgrown).toMatchObject({ ceiling: null, probe: RATE.probe });
  });

  it('halves the probe each time a 429 finds the same ceiling again', () => {
    const first = after429(at({ rate: 20, ceiling: 20.5 }), 1_000, 1_000, 100);
    expect(first.probe).toBe(RATE.probe / 2);
    const elsewhere = after429(at({ rate: 40, ceiling: 20 }), 1_000, 1_000, 100);
    expect(elsewhere.probe).toBe(RATE.probe);
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

describe('the shared rate state', () => {
  it('holds a Retry-After seen by one process for every other one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-rate-'));
    const one = new RateController({ dir, key: 'provider' });
    const other = new RateController({ dir, key: 'provider' });
    const sentAt = await one.pace();
    one.observe(sentAt, 429, 300);
    const blocked = (await one.state()).blockedUntil;
    expect(blocked).toBeGreaterThanOrEqual(sentAt + 300);
    expect((await other.state()).blockedUntil).toBe(blocked);
    expect(await other.pace()).toBeGreaterThanOrEqual(blocked);
    // Another provider is not held.
    expect((await new RateController({ dir, key: 'elsewhere' }).state()).blockedUntil).toBe(0);
  });
});
