import { afterEach, describe, expect, it, vi } from 'vitest';

const Original = Intl.Collator;
afterEach(() => {
  Intl.Collator = Original;
  vi.resetModules();
});

/** Replaces the constructor with a counting stand-in (a collator works as before). */
function countCollators(): { count: number } {
  const made = { count: 0 };
  Intl.Collator = class extends Original {
    constructor(...args: ConstructorParameters<typeof Original>) {
      super(...args);
      made.count += 1;
    }
  } as typeof Intl.Collator;
  return made;
}

describe('the report collators', () => {
  it('are made on first use, once each, not when the report code is imported', async () => {
    const made = countCollators();
    vi.resetModules();
    await import('../../src/report/aggregate.js');
    await import('../../src/report/headline.js');
    const { compareNatural, comparePlain } = await import('../../src/internal/collate.js');
    expect(made.count).toBe(0);
    expect(['q10', 'q2', 'q1'].sort(compareNatural)).toEqual(['q1', 'q2', 'q10']);
    expect(['q10', 'q2', 'q1'].sort(compareNatural)).toEqual(['q1', 'q2', 'q10']);
    expect(made.count).toBe(1);
    expect(['b', 'a', 'B'].sort(comparePlain)).toEqual(['a', 'b', 'B']);
    expect(['q10', 'q2'].sort(comparePlain)).toEqual(['q10', 'q2']);
    expect(made.count).toBe(2);
  });
});

describe('warmCollators', () => {
  it('makes both collators at once, so that no later sort makes one', async () => {
    const made = countCollators();
    vi.resetModules();
    const { compareNatural, comparePlain, warmCollators } = await import('../../src/internal/collate.js');
    warmCollators();
    expect(made.count).toBe(2);
    warmCollators();
    expect(['q10', 'q2'].sort(compareNatural)).toEqual(['q2', 'q10']);
    expect(['b', 'a'].sort(comparePlain)).toEqual(['a', 'b']);
    expect(made.count).toBe(2);
  });
});
