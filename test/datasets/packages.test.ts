import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { captureLogs, logger } from '../../src/logger.js';
import { createFileSource, loadDatasetSync } from '../../src/datasets/index.js';
import { loadRubricCriteria } from '../../src/datasets/rubrics.js';
import { datasetPackages } from '../../src/datasets/sources/file-packages.js';
import { searchLocations } from '../../src/datasets/sources/file-resolve.js';
import { ROOT } from '../helpers/paths.js';
import { yamlDataset } from './helpers.js';

const PACKAGES = join(ROOT, 'fixtures', 'dataset-packages');
const messagesOf = (logs: Array<{ message: string }>) => logs.map((l) => l.message);

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

/** A project with the fixture packages installed (zeta-evals first on disk, to prove the order is by name). */
function project(files: Record<string, string> = {}): string {
  const dir = scratch(files);
  const modules = join(dir, 'node_modules');
  cpSync(join(PACKAGES, 'zeta-evals'), join(modules, 'zeta-evals'), { recursive: true });
  cpSync(join(PACKAGES, 'acme-support-evals'), join(modules, '@acme', 'support-evals'), { recursive: true });
  cpSync(join(PACKAGES, 'broken-evals'), join(modules, 'broken-evals'), { recursive: true });
  mkdirSync(join(modules, 'plain'), { recursive: true });
  writeFileSync(join(modules, 'plain', 'package.json'), '{ "name": "plain" }');
  return dir;
}

beforeEach(() => logger.setEchoLevel('silent'));
afterEach(() => resetConfig());

describe('datasets in installed packages', () => {
  it('searches configured paths, then <root>/datasets, then declaring packages in package-name order', () => {
    const root = project();
    configure({ datasets: { root, paths: ['evals'] } });
    const { value, logs } = captureLogs(() => searchLocations());
    expect(value).toEqual([
      { dir: join(root, 'evals'), origin: 'path' },
      { dir: join(root, 'datasets'), origin: 'root' },
      {
        dir: join(root, 'node_modules', '@acme', 'support-evals', 'evals'),
        origin: 'package',
        package: '@acme/support-evals',
      },
      { dir: join(root, 'node_modules', 'zeta-evals', 'datasets'), origin: 'package', package: 'zeta-evals' },
    ]);
    // A declaration that points outside its package is refused, saying where to fix it.
    expect(messagesOf(logs).join('\n')).toContain(
      'broken-evals: package.json "ai-eval".datasets "../outside" points outside the package',
    );
  });

  it('resolves a name both packages ship to the first package, logging the ignored duplicate', () => {
    const root = project();
    configure({ datasets: { root } });
    const { value, logs } = captureLogs(() => loadDatasetSync({ source: 'file', ref: 'shared.yaml' }));
    expect(value.questions.map((q) => q.id)).toEqual(['acme-hello', 'acme-refund']);
    expect(value.file).toBe(join(root, 'node_modules', '@acme', 'support-evals', 'evals', 'shared.yaml'));
    expect(messagesOf(logs)).toContainEqual(
      expect.stringMatching(
        /^file:shared\.yaml: ignoring duplicate dataset .*node_modules\/zeta-evals\/datasets\/shared\.yaml; using .*node_modules\/@acme\/support-evals\/evals\/shared\.yaml\.$/,
      ),
    );
    // A name only the later package ships still loads from it.
    expect(loadDatasetSync({ source: 'file', ref: 'zeta' }).questions.map((q) => q.id)).toEqual([
      'zeta-cites',
    ]);
  });

  it("lets the project's own datasets win over every package", () => {
    const root = project({ 'datasets/shared.yaml': yamlDataset(['mine']) });
    configure({ datasets: { root } });
    const { value, logs } = captureLogs(() => loadDatasetSync({ source: 'file', ref: 'shared' }));
    expect(value.questions.map((q) => q.id)).toEqual(['mine']);
    expect(messagesOf(logs).filter((m) => m.includes('ignoring duplicate'))).toHaveLength(2);
  });

  it('lists and loads splits by the same resolution', () => {
    const root = project();
    const source = createFileSource({ root });
    const { value, logs } = captureLogs(() => ({
      names: source.listDatasets(),
      labels: source.listDatasetsWithLabels?.(),
      splits: source.loadSplits?.('shared.yaml'),
    }));
    expect(value.names).toEqual(['acme-only.yaml', 'shared.yaml', 'zeta.yaml']);
    expect(value.labels?.['shared.yaml']).toBe('Shared questions (from @acme/support-evals)');
    expect(value.splits).toEqual({ smoke: ['acme-hello'] });
    expect(messagesOf(logs).filter((m) => m.includes('ignoring duplicate dataset'))).not.toHaveLength(0);
  });

  it("finds a packaged dataset's rubric beside it", () => {
    const root = project();
    configure({ datasets: { root } });
    const load = loadDatasetSync({ source: 'file', ref: 'zeta.yaml' });
    expect(loadRubricCriteria('zeta-policy', { datasetFile: load.file })).toEqual([
      'The answer names the 30-day refund window.',
    ]);
  });

  it('can be turned off, and follows Node resolution up the parent node_modules', () => {
    const parent = project();
    const root = join(parent, 'apps', 'web');
    mkdirSync(join(root, 'node_modules', 'zeta-evals', 'datasets'), { recursive: true });
    // The nearer copy of zeta-evals wins, as Node would resolve it from the app.
    writeFileSync(
      join(root, 'node_modules', 'zeta-evals', 'package.json'),
      JSON.stringify({ name: 'zeta-evals', 'ai-eval': { datasets: 'datasets' } }),
    );
    const names = datasetPackages(root).map((p) => [p.name, p.dir]);
    expect(names).toEqual([
      ['@acme/support-evals', join(parent, 'node_modules', '@acme', 'support-evals')],
      ['zeta-evals', join(root, 'node_modules', 'zeta-evals')],
    ]);
    expect(searchLocations({ root, packages: false }).map((l) => l.origin)).toEqual(['root']);
  });

  it('sees a package installed after the first scan', () => {
    const root = scratch();
    expect(datasetPackages(root)).toEqual([]);
    cpSync(join(PACKAGES, 'zeta-evals'), join(root, 'node_modules', 'zeta-evals'), { recursive: true });
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'node_modules'), later, later);
    expect(datasetPackages(root).map((p) => p.name)).toEqual(['zeta-evals']);
  });
});
