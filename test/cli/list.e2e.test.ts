import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packedDir, ROOT } from '../helpers/paths.js';
import { runNode } from '../helpers/project.js';
import { yamlDataset } from '../datasets/helpers.js';

const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');
const PACKAGES = join(ROOT, 'fixtures', 'dataset-packages');

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A scratch directory (outside the repository, so no parent node_modules is the repository's) holding `files`. */
function scratch(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'ai-eval-packages-'));
  made.push(dir);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

function project(): string {
  const dir = scratch({
    'datasets/local.yaml': yamlDataset(['here']),
    'evals/extra.yaml': yamlDataset(['x']),
  });
  cpSync(join(PACKAGES, 'zeta-evals'), join(dir, 'node_modules', 'zeta-evals'), { recursive: true });
  cpSync(join(PACKAGES, 'acme-support-evals'), join(dir, 'node_modules', '@acme', 'support-evals'), {
    recursive: true,
  });
  return dir;
}

describe('ai-eval list datasets', () => {
  it('shows where each dataset comes from, in resolution order, and logs the ignored duplicate', async () => {
    const dir = project();
    const result = await runNode(bin(), ['list', 'datasets', '--path', 'evals'], dir);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'extra.yaml  evals/extra.yaml  (--path)',
      'local.yaml  datasets/local.yaml  (project datasets/)',
      'acme-only.yaml  node_modules/@acme/support-evals/evals/acme-only.yaml  (package @acme/support-evals)',
      'shared.yaml  node_modules/@acme/support-evals/evals/shared.yaml  (package @acme/support-evals)',
      'zeta.yaml  node_modules/zeta-evals/datasets/zeta.yaml  (package zeta-evals)',
      '',
    ]);
    expect(result.stderr).toContain(
      'file:shared.yaml: ignoring duplicate dataset node_modules/zeta-evals/datasets/shared.yaml; using node_modules/@acme/support-evals/evals/shared.yaml.',
    );
  });

  it('exits 2 naming a --path or --root that is not a directory, instead of searching it in silence', async () => {
    const dir = project();
    const path = await runNode(bin(), ['list', 'datasets', '--path', 'nonexistent'], dir);
    expect(path.code).toBe(2);
    expect(path.stderr).toContain('ai-eval list: --path nonexistent: no such directory. Fix the path');
    const root = await runNode(bin(), ['list', 'datasets', '--root', 'nowhere'], dir);
    expect(root.code).toBe(2);
    expect(root.stderr).toContain('ai-eval list: --root nowhere: no such directory. Fix the path');
  });

  it('prints JSON with the package of each dataset, and can leave packages out', async () => {
    const dir = project();
    const json = await runNode(bin(), ['list', 'datasets', '--json'], dir);
    expect(json.code, json.output).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      datasets: Array<{ name: string; origin: string; package?: string; label: string; valid: boolean }>;
      warnings: string[];
    };
    expect(parsed.datasets.find((d) => d.name === 'shared.yaml')).toMatchObject({
      origin: 'package',
      package: '@acme/support-evals',
      label: 'Shared questions (from @acme/support-evals)',
      valid: true,
    });
    expect(parsed.warnings).toHaveLength(1);
    const local = await runNode(bin(), ['list', 'datasets', '--no-packages'], dir);
    expect(local.stdout).toBe('local.yaml  datasets/local.yaml  (project datasets/)\n');
  });

  it('exits 2 on a bad argument', async () => {
    const result = await runNode(bin(), ['list', 'widgets'], scratch());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "say what to list: 'graders', 'judges', 'sources', 'datasets' (got 'widgets')",
    );
  });
});
