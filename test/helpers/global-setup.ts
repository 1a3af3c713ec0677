import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { TestProject } from 'vitest/node';
import { ROOT, TMP } from './paths.js';

/**
 * Builds the package, packs it with `npm pack` and unpacks the tarball into
 * `<run dir>/node_modules/ai-eval`, where every fixture project of this test run (under
 * `<run dir>/projects`) resolves it, exactly as a consumer who installed the tarball would. The
 * package's declared dependencies and peers, plus the tools a consumer project installs itself
 * (ts-jest, babel's TypeScript preset, typescript, type packages), are linked into `<run dir>/node_modules` from the
 * repository's node_modules, and nothing else: an import the package forgot to declare fails. The run directory lies outside the repository, so no resolver can
 * walk up into the repository and find its `dist/` instead of the packed copy.
 *
 * The fixtures' shared modules (fixtures/projects/shared) are copied to `<run dir>/projects/shared`,
 * so a fixture project reaches them at `../shared` there as in the repository.
 *
 * Each `vitest run` gets its own run directory (provided to the e2e project's tests as
 * `aiEvalRunDir`: test/helpers/paths.ts), and build plus pack hold a lock, so several runs at once
 * do not trip over each other. The teardown removes the run directory (AI_EVAL_KEEP_TMP=1 keeps it).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  mkdirSync(TMP, { recursive: true });
  const runDir = mkdtempSync(join(tmpdir(), 'ai-eval-test-'));
  const modules = join(runDir, 'node_modules');
  const packed = join(modules, 'ai-eval');
  mkdirSync(packed, { recursive: true });
  for (const name of consumerPackages()) {
    if (name.includes('/')) mkdirSync(join(modules, name.split('/')[0] as string), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name), 'dir');
  }
  const lockTarget = join(TMP, 'build.lock');
  writeFileSync(lockTarget, '');
  const release = await lockfile.lock(lockTarget, {
    retries: { retries: 120, minTimeout: 500, maxTimeout: 2000 },
  });
  try {
    if (process.env.AI_EVAL_SKIP_BUILD !== '1') {
      execFileSync('npx', ['tsup', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    }
    const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', runDir], { cwd: ROOT })
      .toString()
      .trim();
    const tarball = join(runDir, out.split('\n').pop() ?? '');
    execFileSync('tar', ['-xzf', tarball, '-C', packed, '--strip-components=1']);
    project.provide('aiEvalTarball', tarball);
  } finally {
    await release();
  }
  cpSync(join(ROOT, 'fixtures', 'projects', 'shared'), join(runDir, 'projects', 'shared'), {
    recursive: true,
  });
  project.provide('aiEvalRunDir', runDir);
  return () => {
    if (process.env.AI_EVAL_KEEP_TMP === '1') console.log(`AI_EVAL_KEEP_TMP=1: kept ${runDir}`);
    else rmSync(runDir, { recursive: true, force: true });
  };
}

/**
 * What a consumer of the packed package has installed: its dependencies, its peers and its own tools
 * (ts-jest, typescript, type packages), with everything they depend on, as npm hoists them. The
 * repository's other dev tools are left out.
 */
function consumerPackages(): string[] {
  const manifest = (name: string): Record<string, Record<string, string> | undefined> | undefined => {
    try {
      return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as Record<
        string,
        Record<string, string> | undefined
      >;
    } catch {
      return undefined; // not installed at the top level (nested or optional and absent)
    }
  };
  const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  const queue = [
    ...Object.keys(own.dependencies ?? {}),
    ...Object.keys(own.peerDependencies ?? {}),
    'ts-jest',
    // The babel transform of docs/getting-started.md's "Jest with babel" section.
    '@babel/preset-typescript',
    '@babel/plugin-transform-modules-commonjs',
    'typescript',
    '@types/node',
    '@types/jest',
  ];
  const found = new Set<string>();
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (found.has(name)) continue;
    const pkg = manifest(name);
    if (!pkg) continue;
    found.add(name);
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      queue.push(...Object.keys(pkg[field] ?? {}));
    }
  }
  return [...found].sort();
}
