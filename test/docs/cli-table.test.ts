import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/** The command names `ai-eval help` lists (the first word of each command line). */
async function helpCommands(): Promise<string[]> {
  let text = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  };
  try {
    expect(await main(['help'])).toBe(0);
  } finally {
    process.stdout.write = write;
  }
  const names = [...text.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]!);
  return [...new Set(names)].filter((name) => name !== 'help');
}

describe('docs/cli.md', () => {
  it('names every command of `ai-eval help` in its table of commands', async () => {
    const table = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| ['));
    const commands = await helpCommands();
    expect(commands).toEqual(expect.arrayContaining(['validate', 'judges', 'merge']));
    for (const name of commands) {
      expect(
        table.some((line) => line.includes(`\`${name}`)),
        `${name} is missing from docs/cli.md's table`,
      ).toBe(true);
    }
  });
});
