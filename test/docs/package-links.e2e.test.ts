import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedDir } from '../helpers/paths.js';
import { makeProject, runVitest } from '../helpers/project.js';

/** Every file of the packed package, relative to its root. */
function packedFiles(under = ''): string[] {
  return readdirSync(join(packedDir(), under), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(packedDir(), join(e.parentPath, e.name)));
}

describe('what the packed package points users at', () => {
  it('every docs page a message or the CLI help names ships in the package, at the path given', () => {
    const code = packedFiles('dist').filter((f) => /\.c?js$/.test(f));
    const named = new Map<string, string>();
    for (const file of code) {
      const text = readFileSync(join(packedDir(), file), 'utf8');
      for (const m of text.matchAll(/([\w./-]*)docs\/([\w-]+\.md)/g)) named.set(`${m[1]}docs/${m[2]}`, file);
    }
    // The messages and the help exist (a refactor that drops them must drop this test too).
    expect([...named.keys()]).toEqual(
      expect.arrayContaining([
        'node_modules/ai-eval/docs/reporter.md',
        'node_modules/ai-eval/docs/suites.md',
        'node_modules/ai-eval/docs/matchers.md',
      ]),
    );
    for (const [path, file] of named) {
      // A path relative to the project root that installed the package, not to this repository.
      expect(path, `${file} names ${path}`).toMatch(/^node_modules\/ai-eval\/docs\//);
      const shipped = join(packedDir(), path.slice('node_modules/ai-eval/'.length));
      expect(existsSync(shipped), `${file} names ${path}, which the package does not ship`).toBe(true);
    }
  });

  it('every source map names files the package ships, each with its content', () => {
    const maps = packedFiles('dist').filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(10);
    const problems: string[] = [];
    let shippedSources = 0;
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(packedDir(), file), 'utf8')) as {
        sources: string[];
        sourcesContent?: Array<string | null>;
      };
      const dir = join(packedDir(), file, '..');
      map.sources.forEach((source, i) => {
        if (isAbsolute(source)) problems.push(`${file}: absolute source ${source}`);
        const at = resolve(dir, source);
        const inside = !relative(packedDir(), at).startsWith('..');
        if (inside && existsSync(at)) shippedSources += 1;
        else if (!source.includes('node_modules/tsup/')) problems.push(`${file}: ${source} is not shipped`);
        if (typeof map.sourcesContent?.[i] !== 'string') problems.push(`${file}: no content for ${source}`);
      });
    }
    expect(problems).toEqual([]);
    expect(shippedSources).toBeGreaterThan(maps.length);
  });

  it('a stack frame of a user-facing error points at a file that ships', async () => {
    const dir = makeProject('stack-frames', {
      'vitest.config.ts': `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: {} });\n`,
      'frames.test.ts': [
        `import { test } from 'vitest';`,
        `import { evalSuite } from 'ai-eval/vitest';`,
        `test('placeholder', () => {});`,
        `evalSuite('bad', { dataset: { inline: [] }, target: { name: 't', mode: 'agent', graders: [] }, run: () => '', nope: 1 } as never);`,
      ].join('\n'),
    });
    const result = await runVitest(dir);
    expect(result.code).not.toBe(0);
    // Vitest prints frames relative to the project: ../../node_modules/ai-eval/src/run/suite.ts:146:2
    const frames = [...result.output.matchAll(/((?:\.\.\/)*node_modules\/ai-eval\/[^\s():]+):\d+:\d+/g)].map(
      (m) => m[1] as string,
    );
    expect(frames.length, result.output).toBeGreaterThan(2);
    expect(
      frames.some((f) => f.endsWith('.ts')),
      result.output,
    ).toBe(true);
    for (const frame of frames)
      expect(existsSync(resolve(dir, frame)), `${frame} in\n${result.output}`).toBe(true);
  });
});
