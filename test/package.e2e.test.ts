import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedDir, ROOT, tarball } from './helpers/paths.js';
import { makeProject, runNode } from './helpers/project.js';

interface ExportTarget {
  import?: { types: string; default: string };
  require?: { types: string; default: string };
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, ExportTarget | string>;
};
const specifier = (key: string): string => (key === '.' ? 'ai-eval' : `ai-eval/${key.slice(2)}`);
const dual = Object.entries(pkg.exports).filter(
  (entry): entry is [string, ExportTarget] => typeof entry[1] === 'object',
);
/**
 * The matcher entries import vitest or @jest/globals, which only load inside their runner: here
 * their resolution is checked; loading them inside Vitest and Jest is the matcher tests' job.
 */
const RUNNER_ONLY = new Set(['ai-eval/vitest', 'ai-eval/jest']);
const loadable = dual.map(([key]) => specifier(key)).filter((s) => !RUNNER_ONLY.has(s));
const runnerOnly = dual.filter(([key]) => RUNNER_ONLY.has(specifier(key)));

/** Declarations are skipped by AI_EVAL_NO_DTS=1 builds (quick local runs); a full run checks them. */
const withTypes = process.env.AI_EVAL_NO_DTS !== '1';

describe('the packed package', () => {
  it('ships every file its exports map names', () => {
    for (const target of Object.values(pkg.exports)) {
      const files =
        typeof target === 'string'
          ? [target]
          : [
              target.import?.default,
              target.require?.default,
              ...(withTypes ? [target.import?.types, target.require?.types] : []),
            ];
      for (const file of files.filter((f): f is string => f !== undefined)) {
        expect(() => readFileSync(join(packedDir(), file)), file).not.toThrow();
      }
    }
  });

  it.each(loadable)('%s imports under ESM and requires under CJS', async (entry) => {
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

  it.each(runnerOnly)('%s resolves to its ESM and CJS files outside a runner', async (key, target) => {
    const entry = specifier(key);
    const dir = makeProject('pack-resolve', {
      'esm.mjs': `console.log('esm', import.meta.resolve(${JSON.stringify(entry)}));`,
      'cjs.cjs': `console.log('cjs', require.resolve(${JSON.stringify(entry)}));`,
    });
    const esm = await runNode('esm.mjs', [], dir);
    expect(esm.code).toBe(0);
    const esmPath = /esm file:\/\/(\S+)/.exec(esm.stdout)?.[1];
    expect(esmPath, esm.output).toBe(join(packedDir(), target.import!.default));
    const cjs = await runNode('cjs.cjs', [], dir);
    expect(cjs.code).toBe(0);
    expect(/cjs (\S+)/.exec(cjs.stdout)?.[1], cjs.output).toBe(join(packedDir(), target.require!.default));
  });

  it('gives ESM and CJS copies one grader registry', async () => {
    const dir = makeProject('pack-registry', {
      'both.mjs': [
        `import { createRequire } from 'node:module';`,
        `import { defineGrader, registerGrader } from 'ai-eval';`,
        `const cjs = createRequire(import.meta.url)('ai-eval');`,
        `registerGrader(defineGrader({ id: 'shared_one', label: 'Shared', grade: (_i, _r, _c, { result }) => result(5, 'ok') }));`,
        `console.log('seen by cjs:', cjs.getGrader('shared_one').label);`,
        `console.log('shipped in cjs:', cjs.listGraders().map((g) => g.id).join(','));`,
      ].join('\n'),
    });
    const result = await runNode('both.mjs', [], dir);
    expect(result.output).toContain('seen by cjs: Shared');
    expect(result.output).toMatch(/shipped in cjs: .*read_only_run.*tool_usage_grader.*format_grader/);
  });

  it("keeps the report writer out of the Vitest reporter's static imports (loaded when a run starts)", () => {
    // Vitest loads its reporters before it starts a worker: what the reporter imports statically
    // delays every run. The writer (renderers, judge identity, the grader registry) is imported
    // when the run starts, while the workers start and run.
    const dist = join(packedDir(), 'dist');
    const staticGraph = (entry: string): Set<string> => {
      const seen = new Set<string>();
      const visit = (file: string): void => {
        if (seen.has(file)) return;
        seen.add(file);
        const text = readFileSync(join(dist, file), 'utf8');
        // `import … from "./x.js"`, `export … from "./x.js"` and `import "./x.js"` (not `import("…")`).
        for (const [, spec] of text.matchAll(
          /^(?:(?:import|export)\b[^'"(]*?from\s*|import\s*)"(\.[^"]+)"/gm,
        ))
          visit(join(file, '..', spec!));
      };
      visit(entry);
      return seen;
    };
    const writers = (entry: string): string[] =>
      [...staticGraph(entry)].filter((file) =>
        readFileSync(join(dist, file), 'utf8').includes('function finishRun('),
      );
    expect(writers('reporter/vitest.js')).toEqual([]);
    // ...and the dynamic import reaches it.
    const lazy = /import\("(\.\.\/[^"]+)"\)/.exec(
      readFileSync(join(dist, 'reporter/vitest.js'), 'utf8'),
    )?.[1];
    expect(lazy).toBeDefined();
    expect(writers(join('reporter', lazy!))).toHaveLength(1);
    // The other reporters, which load it at once, show the check can see it.
    expect(writers('reporter/jest.js')).toHaveLength(1);
  });

  it('grades with the shipped graders from the packed CJS build', async () => {
    const dir = makeProject('pack-grade', {
      'grade.cjs': [
        `const { gradeQuestion, FALLBACK_MARKER } = require('ai-eval');`,
        `gradeQuestion({`,
        `  question: { id: 'q', input: 'x', expected: { format: 'json', schema: { type: 'object' } }, expected_tools: ['search', { name: 'search', args: { q: 'a' } }] },`,
        `  response: { output: '{}', toolCalls: [{ type: 'function', function: { name: 'search', arguments: '{"q":"a"}' } }, { toolName: 'search', input: { q: 'b' } }] },`,
        `  graders: ['tool_usage_grader', 'format_grader', 'read_only_run'],`,
        `}).then((r) => console.log(JSON.stringify({ composite: r.composite, marker: FALLBACK_MARKER })));`,
      ].join('\n'),
    });
    const result = await runNode('grade.cjs', [], dir);
    expect(result.code, result.output).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toEqual({
      composite: 5,
      marker: 'no tool-call record available',
    });
  });

  it('passes publint --strict', async () => {
    // The unpacked tarball is linted as is (pack: false): exactly the files a consumer gets.
    const { publint } = await import('publint');
    const { formatMessage } = await import('publint/utils');
    const packed = JSON.parse(readFileSync(join(packedDir(), 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const { messages } = await publint({ pkgDir: packedDir(), strict: true, pack: false });
    const problems = messages
      .map((m) => formatMessage(m, packed) ?? m.code)
      // A build without declarations lacks the types files on purpose; every other problem counts.
      .filter((text) => withTypes || !/\.types is .* but the file does not exist/.test(text));
    expect(problems).toEqual([]);
  });

  // attw runs offline on the tarball; --no-definitely-typed keeps it from asking the registry for
  // @types/ai-eval.
  it.skipIf(!withTypes)('passes @arethetypeswrong/cli on the tarball', () => {
    let out: string;
    try {
      out = execFileSync(
        process.execPath,
        [
          join(ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'),
          tarball(),
          '--no-definitely-typed',
          '--format',
          'json',
        ],
        { cwd: ROOT },
      ).toString();
    } catch (error) {
      const failed = error as { stdout?: Buffer; stderr?: Buffer };
      throw new Error(`attw failed:\n${String(failed.stdout)}\n${String(failed.stderr)}`, { cause: error });
    }
    const report = JSON.parse(out) as { analysis: { types: unknown; problems: unknown[] } };
    expect(report.analysis.types).not.toBe(false);
    expect(report.analysis.problems).toEqual([]);
  });
});
