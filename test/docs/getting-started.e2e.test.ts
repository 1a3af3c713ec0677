import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { makeProject, runCommand, runJest, runNode, runVitest, type RunResult } from '../helpers/project.js';
import { blocksOf, SHELL_LANGS, whereOf } from './blocks.js';

const PAGE = 'docs/getting-started.md';
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const blocks = blocksOf(PAGE);

/** The runners the page has a section for, with the package.json a fresh project of each starts from. */
const PROJECTS: Array<[project: string, packageType: 'module' | 'commonjs']> = [
  ['vitest', 'module'],
  ['jest-ts', 'commonjs'],
  ['jest-ts', 'module'],
  ['jest-babel', 'commonjs'],
  ['jest-esm', 'module'],
  ['node-test', 'module'],
];

/** A section that says "everything is as with" another: its files start from that section's. */
const BASED_ON: Record<string, string> = { 'jest-babel': 'jest-ts' };

/**
 * Runs one line of a `<!-- command -->` block as the reader would, with the runners this test
 * run provides (the repository's Vitest, Jest and tsc; `ai-eval` is the packed package).
 */
function runLine(line: string, dir: string): Promise<RunResult> {
  const words = line.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_]+=/.test(words[0])) {
    const [key, ...value] = (words.shift() as string).split('=');
    env[key as string] = value.join('=');
  }
  const [command, ...args] = words;
  if (command === 'npx' && args[0] === 'vitest' && args[1] === 'run')
    return runVitest(dir, args.slice(2), env);
  if (command === 'npx' && args[0] === 'tsc') return runNode(TSC, args.slice(1), dir, env);
  if (command === 'npx' && args[0] === 'jest') {
    const esm = env.NODE_OPTIONS === '--experimental-vm-modules';
    if (esm) delete env.NODE_OPTIONS; // runJest passes the flag to node itself
    return runJest(dir, args.slice(1), env, { esm });
  }
  if (command === 'node') return runCommand(process.execPath, args, dir, env);
  throw new Error(`${PAGE} runs \`${line}\`, which this test does not know how to run: teach runLine.`);
}

describe('docs/getting-started.md, followed word for word in a fresh project', () => {
  it('has a section for each runner, each with files and a command', () => {
    for (const [project] of PROJECTS) {
      expect(
        blocks.some((b) => b.project === project && b.file),
        project,
      ).toBe(true);
      expect(
        blocks.some((b) => b.project === project && b.command),
        project,
      ).toBe(true);
    }
  });

  it.each(PROJECTS)('%s (package.json type %s) passes on the first try', async (project, type) => {
    const base = BASED_ON[project];
    const mine = blocks.filter((b) => b.project === undefined || b.project === project);
    const files: Record<string, string> = {};
    // The page's shared files, then the section it builds on, then its own (which win).
    const layers = [undefined, ...(base ? [base] : []), project];
    for (const layer of layers)
      for (const block of blocks.filter((b) => b.project === layer && b.file && !b.fragment))
        files[block.file as string] = `${block.code}\n`;
    const dir = makeProject(`getting-started-${project}`, files);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: `my-app-${project}`, private: true, ...(type === 'module' ? { type } : {}) }),
    );
    const commands = mine.filter((b) => b.command && SHELL_LANGS.has(b.lang));
    expect(commands.length).toBeGreaterThan(0);
    let last: RunResult | undefined;
    for (const block of commands) {
      for (const line of block.code.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'))) {
        const result = await runLine(line, dir);
        expect(result.code, `${whereOf(block)}: \`${line}\` failed:\n${result.output}`).toBe(0);
        if (line.includes('tsc')) expect(result.output.trim()).toBe('');
        else last = result;
      }
    }
    expect(last?.output).toMatch(/ai-eval: PASSED: no test failed; all \d+ planned questions scored/);
    const reportFile = join(dir, 'reports/ai-eval.json');
    expect(existsSync(reportFile)).toBe(true);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
      passed: boolean;
      targets: Array<{ name: string; questionCount: number }>;
    };
    expect(report.passed).toBe(true);
    expect(report.targets.find((t) => t.name === 'support-bot')?.questionCount).toBe(2);
  });

  it('needs its typing step: without types/ai-eval.d.ts, ts-jest fails as the issue reported', async () => {
    const mine = blocks.filter((b) => b.project === undefined || b.project === 'jest-ts');
    const files: Record<string, string> = {};
    for (const block of mine.filter((b) => b.file && b.file !== 'types/ai-eval.d.ts')) {
      files[block.file as string] = `${block.code}\n`;
    }
    expect(Object.keys(files)).toContain('jest.config.mjs');
    const dir = makeProject('getting-started-untyped', files);
    const result = await runJest(dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("TS2339: Property 'toPassGrader' does not exist on type");
  });
});
