import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_KEYS } from '../helpers/cleanup.js';
import { ROOT } from '../helpers/paths.js';

/** Every `Symbol.for('ai-eval.…')` key a source file of src/ keeps process-wide state under. */
function stateKeysInSrc(): string[] {
  const keys = new Set<string>();
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  );
  for (const file of files)
    for (const m of readFileSync(join(ROOT, 'src', file), 'utf8').matchAll(
      /Symbol\.for\('(ai-eval\.[a-z-]+)'\)/g,
    ))
      keys.add(m[1] as string);
  return [...keys].sort();
}

describe('the unit project runs files in one module graph per worker', () => {
  it('so the setup file drops every piece of process-wide state src/ keeps: a new one is listed there', () => {
    expect([...STATE_KEYS].sort()).toEqual(stateKeysInSrc());
  });
});
