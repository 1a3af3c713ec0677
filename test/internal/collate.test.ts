import { afterEach, describe, expect, it, vi } from 'vitest';

const Original = Intl.Collator;
afterEach(() => {
  Intl.Collator = Original;
  vi.resetModules();
});

describe('the report collators', () => {
  it('are made on first use, once each, not when the report code is imported', async () => {
    let made = 0;
    // A counting stand-in for the constructor (a collator works as before).
    Intl.Collator = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made += 1;
      }
    } as typeof Intl.Collator;
    vi.resetModules();
    await import('../../src/report/aggregate.js');
    await import('../../src/report/headline.js');
    const { compareNatural, comparePlain } = await import('../../src/internal/collate.js');
    expect(made).toBe(0);
    expect(['q10', 'q2', 'q1'].sort(compareNatural)).toEqual(['q1', 'q2', 'q10']);
    expect(['q10', 'q2', 'q1'].sort(compareNatural)).toEqual(['q1', 'q2', 'q10']);
    expect(made).toBe(1);
    expect(['b', 'a', 'B'].sort(comparePlain)).toEqual(['a', 'b', 'B']);
    expect(['q10', 'q2'].sort(comparePlain)).toEqual(['q10', 'q2']);
    expect(made).toBe(2);
  });
});

describe('warmCollators', () => {
  it('makes both collators at once, so that no later sort makes one', async () => {
    let made = 0;
    Intl.Collator = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made += 1;
      }
    } as typeof Intl.Collator;
    vi.resetModules();
    const { compareNatural, comparePlain, warmCollators } = await import('../../src/internal/collate.js');
    warmCollators();
    expect(made).toBe(2);
    warmCollators();
    expect(['q10', 'q2'].sort(compareNatural)).toEqual(['q2', 'q10']);
    expect(['b', 'a'].sort(comparePlain)).toEqual(['a', 'b']);
    expect(made).toBe(2);
  });
});
