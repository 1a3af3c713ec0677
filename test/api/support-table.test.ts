import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';

interface Cell {
  name: string;
  node: string;
  deps: Record<string, string>;
  transform: 'ts-jest' | 'swc';
}

// @ts-expect-error a plain ESM script without declarations
const { CELLS } = (await import('../../.ci/compat.mjs')) as { CELLS: Cell[] };
const minor = (version: string | undefined): string => (version ?? '').split('.').slice(0, 2).join('.');
const major = (version: string | undefined): string => (version ?? '').split('.')[0] ?? '';

/** The rows of the README's support table, as cells of text. */
function tableRows(): string[][] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Support'));
  return section
    .split('\n')
    .filter((line) => /^\| \d/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

describe('the support matrix', () => {
  it('is what the README support table says, row by row', () => {
    const rows = tableRows();
    expect(rows).toHaveLength(CELLS.length);
    CELLS.forEach((cell, i) => {
      const [node, vitest, jest, nodeTest, openai, typescript] = rows[i]!;
      expect(node).toBe(minor(cell.node));
      expect(vitest).toBe(minor(cell.deps.vitest));
      expect(jest).toContain(minor(cell.deps.jest));
      expect(jest).toContain(
        cell.transform === 'swc' ? '@swc/jest' : `ts-jest ${minor(cell.deps['ts-jest'])}`,
      );
      expect(jest).toContain(`TypeScript ${minor(cell.deps.typescript).replace(/\.0$/, '')}`);
      expect(nodeTest).toContain(`\`expect\` ${minor(cell.deps.expect)}`);
      expect(openai).toBe(minor(cell.deps.openai));
      expect(typescript).toBe(minor(cell.deps.typescript));
    });
  });

  it('covers every major the engines and peer ranges allow, and no other', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
      peerDependencies: Record<string, string>;
    };
    const majorsOf = (range: string): string[] =>
      range.split('||').map((part) => /\^?(\d+)/.exec(part.trim())?.[1] ?? '?');
    const tested = (name: string): string[] =>
      [...new Set(CELLS.map((c) => major(name === 'node' ? c.node : c.deps[name])))].sort();
    expect(majorsOf(pkg.engines.node).sort()).toEqual(tested('node'));
    for (const name of ['vitest', 'jest', '@jest/globals', 'expect', 'openai'])
      expect(majorsOf(pkg.peerDependencies[name]!).sort(), name).toEqual(tested(name));
  });
});
