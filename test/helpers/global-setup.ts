import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PACKED_DIR, ROOT, TMP } from './paths.js';

/**
 * Builds the package once, packs it with `npm pack` and unpacks the tarball into
 * `.tmp/node_modules/ai-eval`, where every fixture project under `.tmp/projects` resolves it, exactly
 * as a consumer who installed the tarball would. The package's own dependencies and the runners
 * resolve from the repository's node_modules further up.
 */
export default function setup(): void {
  if (process.env.AI_EVAL_SKIP_PACK === '1') return;
  execFileSync('npx', ['tsup', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(TMP, { recursive: true });
  for (const file of readdirSync(TMP)) if (file.endsWith('.tgz')) rmSync(join(TMP, file));
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', TMP], { cwd: ROOT })
    .toString()
    .trim();
  const tarball = join(TMP, out.split('\n').pop() ?? '');
  rmSync(PACKED_DIR, { recursive: true, force: true });
  mkdirSync(PACKED_DIR, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', PACKED_DIR, '--strip-components=1']);
  process.env.AI_EVAL_TARBALL = tarball;
}
