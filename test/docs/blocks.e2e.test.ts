import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.js';
import { makeProject, runCommand, runNode } from '../helpers/project.js';
import { allBlocks, JS_LANGS, SHELL_LANGS, TS_LANGS, whereOf, type DocBlock } from './blocks.js';

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const blocks = allBlocks().filter((b) => !b.fragment);

/** Where a block is written in the fixture project: one folder per block, named after its page and line. */
function pathOf(block: DocBlock): string {
  const folder = `${block.doc.replace(/\.md$/, '').replace(/[^\w]+/g, '-')}-${block.line}`;
  const name =
    block.file?.split('/').pop() ??
    (TS_LANGS.has(block.lang)
      ? 'block.ts'
      : `block.${block.lang === 'cjs' ? 'cjs' : block.lang === 'mjs' ? 'mjs' : 'js'}`);
  return `blocks/${folder}/${name}`;
}

describe.skipIf(process.env.AI_EVAL_NO_DTS === '1')('the code blocks of README.md and docs/', () => {
  it('type-check, all at once, against the packed package', async () => {
    const code = blocks.filter((b) => TS_LANGS.has(b.lang) || JS_LANGS.has(b.lang));
    const files: Record<string, string> = {
      'tsconfig.json': readFileSync(join(ROOT, 'test/docs/fixture/tsconfig.json'), 'utf8'),
      'prelude.d.ts': readFileSync(join(ROOT, 'test/docs/fixture/prelude.d.ts'), 'utf8'),
      'blocks/src/agent.ts': readFileSync(join(ROOT, 'test/docs/fixture/agent.ts'), 'utf8'),
      // The node:test section imports it as an ES module file.
      'blocks/src/agent.mts': readFileSync(join(ROOT, 'test/docs/fixture/agent.ts'), 'utf8'),
    };
    const where = new Map<string, string>();
    for (const block of code) {
      const path = pathOf(block);
      files[path] = `${block.code}\n`;
      where.set(path, whereOf(block));
    }
    const dir = makeProject('doc-blocks', files);
    const result = await runNode(TSC, ['-p', 'tsconfig.json', '--pretty', 'false'], dir);
    // Each error names the page and line of its block, so a failure says which block to fix.
    const errors = result.output
      .split('\n')
      .filter((l) => /error TS\d+/.test(l))
      .map((l) => {
        const m = /^(blocks\/[^(]+)\((\d+),(\d+)\): (.*)$/.exec(l.trim());
        if (!m) return l.trim();
        const [page, line] = (where.get(m[1] as string) ?? `${m[1]}:0`).split(/:(?=\d+$)/);
        return `${page}:${Number(line) + Number(m[2])}: ${m[4]}`;
      });
    expect(errors).toEqual([]);
    expect(result.code, result.output).toBe(0);
    expect(code.length).toBeGreaterThan(30);
  });

  it('shell blocks parse (bash -n)', async () => {
    const shell = blocks.filter((b) => SHELL_LANGS.has(b.lang));
    expect(shell.length).toBeGreaterThan(5);
    const dir = makeProject('doc-shell');
    const problems: string[] = [];
    for (const block of shell) {
      const result = await runCommand('bash', ['-n', '-c', block.code], dir);
      if (result.code !== 0) problems.push(`${whereOf(block)}: ${result.output.trim()}`);
    }
    expect(problems).toEqual([]);
  });
});
