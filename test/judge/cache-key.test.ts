import { describe, expect, it } from 'vitest';
import { judgeCacheKey, judgeCachePath } from '../../src/judge/cache.js';

const schema = () => ({
  type: 'object',
  required: ['score', 'reason'],
  properties: { score: { type: 'integer', minimum: 0, maximum: 5 }, reason: { type: 'string' } },
  additionalProperties: false,
});
const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
};
const messages = [{ role: 'user', content: 'Rate this: "quoted" \u2028 ünïcode' }];
const key = (decoding: Record<string, unknown>) =>
  judgeCacheKey({ model: 'gpt-4o-mini', messages, decoding, trial: 2 });

describe('judgeCacheKey', () => {
  // Recorded caches must keep replaying: these are the keys of every earlier version.
  it('is the SHA-256 of the canonical JSON of model, messages, sorted decoding and trial', () => {
    const pinned = '1cea282b3ff0b3338fa938ca40c949c08d4f57ad159f6c2ff8486551a6994968';
    const decoding = { temperature: 0, seed: 0, structuredOutput: true, answerSchema: schema() };
    expect(key(decoding)).toBe(pinned);
    expect(key({ ...decoding, answerSchema: deepFreeze(schema()) })).toBe(pinned);
    expect(key({ answerSchema: schema(), structuredOutput: true, seed: 0, temperature: 0 })).toBe(pinned);
    expect(key({ temperature: 0, seed: null, structuredOutput: false, answerSchema: null })).toBe(
      '0664dc9af6be0a24843e016a9a1cbf800074cd820454e635d1879dbea75407cf',
    );
    expect(
      key({ temperature: 0, seed: 7, structuredOutput: true, answerSchema: { b: [{ z: 1, a: 2 }], a: 1 } }),
    ).toBe('924d75dee5c59103326f1f90d788c66a74801060f3871a0513834647719dddde');
    // Members JSON.stringify leaves out of an object are left out of the key.
    expect(key({ ...decoding, extra: undefined, hook: () => 1 })).toBe(pinned);
  });

  it('follows a schema edited in place between calls (only one frozen all the way down is remembered)', () => {
    const answerSchema: Record<string, unknown> = schema();
    const before = key({ temperature: 0, seed: 0, structuredOutput: true, answerSchema });
    answerSchema.additionalProperties = true;
    const after = key({ temperature: 0, seed: 0, structuredOutput: true, answerSchema });
    expect(after).not.toBe(before);
    // Frozen only at the top: an inner object can still change, so the key follows it.
    const shallow = Object.freeze({ properties: { score: { type: 'number' } } });
    const first = key({ temperature: 0, answerSchema: shallow });
    shallow.properties.score.type = 'integer';
    expect(key({ temperature: 0, answerSchema: shallow })).not.toBe(first);
  });
});

describe('judgeCachePath', () => {
  it('is <dir>/<first two hex digits>/<key>.json, resolved against the working directory', () => {
    const k = 'ab'.padEnd(64, '0');
    expect(judgeCachePath('.ai-eval/judge-cache', k)).toBe(
      `${process.cwd()}/.ai-eval/judge-cache/ab/${k}.json`,
    );
    expect(judgeCachePath('/', k)).toBe(`/ab/${k}.json`);
    expect(judgeCachePath('/tmp/c/../d/', k)).toBe(`/tmp/d/ab/${k}.json`);
  });
});
