import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { ROOT, TMP } from './paths.js';

/**
 * Builds the package, packs it with `npm pack` and unpacks the tarball into
 * `<run dir>/node_modules/ai-eval`, where every fixture project of this test run (under
 * `<run dir>/projects`) resolves it, exactly as a consumer who installed the tarball would. The
 * package's own dependencies and the runners are linked into `<run dir>/node_modules` from the
 * repository's node_modules. The run directory lies outside the repository, so no resolver can
 * walk up into the repository and find its `dist/` instead of the packed copy.
 *
 * Each `vitest run` gets its own run directory (in AI_EVAL_TEST_RUN_DIR, inherited by the workers),
 * and build plus pack hold a lock, so several runs at once do not trip over each other.
 */
export default async function setup(): Promise<() => void> {
  mkdirSync(TMP, { recursive: true });
  const runDir = mkdtempSync(join(tmpdir(), 'ai-eval-test-'));
  const modules = join(runDir, 'node_modules');
  const packed = join(modules, 'ai-eval');
  mkdirSync(packed, { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === 'ai-eval' || name.startsWith('.')) continue;
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
    process.env.AI_EVAL_TEST_TARBALL = tarball;
  } finally {
    await release();
  }
  process.env.AI_EVAL_TEST_RUN_DIR = runDir;
  return () => {
    if (process.env.AI_EVAL_KEEP_TMP !== '1') rmSync(runDir, { recursive: true, force: true });
  };
}
