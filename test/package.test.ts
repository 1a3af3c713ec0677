import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedDir, ROOT } from './helpers/paths.js';
import { makeProject, runNode } from './helpers/project.js';

interface ExportTarget {
  import?: { types: string; default: string };
  require?: { types: string; default: string };
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, ExportTarget | string>;
};
const dualEntries = Object.entries(pkg.exports)
  .filter((entry): entry is [string, ExportTarget] => typeof entry[1] === 'object')
  .map(([key]) => (key === '.' ? 'ai-eval' : `ai-eval/${key.slice(2)}`));

describe('the packed package', () => {
  it('ships every file its exports map names', () => {
    for (const target of Object.values(pkg.exports)) {
      const files =
        typeof target === 'string'
          ? [target]
          : [target.import?.default, target.import?.types, target.require?.default, target.require?.types];
      for (const file of files.filter((f): f is string => f !== undefined)) {
        expect(() => readFileSync(join(packedDir(), file)), file).not.toThrow();
      }
    }
  });

  it.each(dualEntries)('%s imports under ESM and requires under CJS', async (entry) => {
    const dir = makeProject('pack', {
      'esm.mjs': `const m = await import(${JSON.stringify(entry)}); console.log('esm', Object.keys(m).length > 0);`,
      'cjs.cjs': `const m = require(${JSON.stringify(entry)}); console.log('cjs', Object.keys(m).length > 0);`,
    });
    const esm = await runNode('esm.mjs', [], dir);
    expect(esm.output).toContain('esm true');
    expect(esm.code).toBe(0);
    const cjs = await runNode('cjs.cjs', [], dir);
    expect(cjs.output).toContain('cjs true');
    expect(cjs.code).toBe(0);
  });

  it('gives ESM and CJS copies one grader registry', async () => {
    const dir = makeProject('pack-registry', {
      'both.mjs': [
        `import { createRequire } from 'node:module';`,
        `import { defineGrader, registerGrader } from 'ai-eval';`,
        `const cjs = createRequire(import.meta.url)('ai-eval');`,
        `registerGrader(defineGrader({ id: 'shared_one', label: 'Shared', grade: (_i, _r, _c, { result }) => result(5, 'ok') }));`,
        `console.log('seen by cjs:', cjs.getGrader('shared_one').label);`,
      ].join('\n'),
    });
    const result = await runNode('both.mjs', [], dir);
    expect(result.output).toContain('seen by cjs: Shared');
  });

  it('passes publint', () => {
    const out = execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'publint', 'src', 'cli.js'), packedDir(), '--strict'],
      {
        cwd: ROOT,
      },
    ).toString();
    expect(out).not.toMatch(/error/i);
  });
});
