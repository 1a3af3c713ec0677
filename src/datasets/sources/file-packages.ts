import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { logger } from '../../logger.js';

/**
 * An installed package that ships eval datasets: its package.json declares the directory under
 * the `ai-eval` key, as `"ai-eval": { "datasets": "datasets" }`.
 */
export interface DatasetPackage {
  /** The package name, for example `@acme/support-evals`. */
  name: string;
  /** The package's directory. */
  dir: string;
  /** The absolute datasets directory it declares. */
  datasets: string;
}

/** The `node_modules` directories Node would search from `root`: its own, then each parent's. */
function moduleDirs(root: string): string[] {
  const dirs: string[] = [];
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') dirs.push(join(dir, 'node_modules'));
    if (dirname(dir) === dir) return dirs;
  }
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The package directories in one `node_modules`, by package name (scoped ones included). */
function packagesIn(modules: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const entry of entries(modules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const inner of entries(join(modules, entry)))
        if (!inner.startsWith('.')) out.push([`${entry}/${inner}`, join(modules, entry, inner)]);
    } else out.push([entry, join(modules, entry)]);
  }
  return out;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The declared datasets directory of a package, or undefined (logging a bad declaration). */
function declaredDatasets(name: string, dir: string): string | undefined {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    return undefined; // not a package (or an unreadable one): it declares nothing
  }
  const section = field(manifest, 'ai-eval');
  if (section === undefined) return undefined;
  const declared = field(section, 'datasets');
  if (declared === undefined) return undefined;
  const where = `${name}: package.json "ai-eval".datasets`;
  if (typeof declared !== 'string' || declared.trim() === '') {
    logger.warn(
      `${where} must be a directory path inside the package, got ${JSON.stringify(declared)}; its datasets are not searched. Fix: set it to a folder such as "datasets".`,
      'dataset:file',
    );
    return undefined;
  }
  const datasets = resolve(dir, declared);
  const rel = relative(dir, datasets);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    logger.warn(
      `${where} ${JSON.stringify(declared)} points outside the package; its datasets are not searched. Fix: name a folder inside the package.`,
      'dataset:file',
    );
    return undefined;
  }
  if (!isDirectory(datasets)) {
    logger.warn(
      `${where} names ${JSON.stringify(declared)}, which is not a directory in ${dir}; nothing is searched there. Fix: ship the folder (check "files" in its package.json) or correct the path.`,
      'dataset:file',
    );
    return undefined;
  }
  return datasets;
}

/** Stamps of the `node_modules` directories (and their scopes), so an install invalidates the cache. */
function stampOf(dirs: string[]): string {
  const parts: string[] = [];
  for (const dir of dirs) {
    let stat;
    try {
      stat = statSync(dir);
    } catch {
      continue;
    }
    parts.push(`${dir}:${stat.mtimeMs}`);
    for (const entry of entries(dir)) {
      if (!entry.startsWith('@')) continue;
      try {
        parts.push(`${entry}:${statSync(join(dir, entry)).mtimeMs}`);
      } catch {
        // vanished meanwhile
      }
    }
  }
  return parts.join('|');
}

const cache = new Map<string, { stamp: string; packages: DatasetPackage[] }>();

/**
 * The installed packages that declare a datasets directory, in package-name order. A package is
 * looked up as Node resolves it from `root`: in `root/node_modules`, then in each parent's
 * `node_modules`, the nearest copy of a name winning. The scan is cached until a `node_modules`
 * directory changes (an install or removal). Never throws; a bad declaration is logged and skipped.
 *
 * @example
 * ```ts
 * datasetPackages(process.cwd()); // [{ name: '@acme/support-evals', dir: '...', datasets: '.../datasets' }]
 * ```
 */
export function datasetPackages(root: string): DatasetPackage[] {
  const dirs = moduleDirs(root);
  const stamp = stampOf(dirs);
  const cached = cache.get(root);
  if (cached && cached.stamp === stamp) return cached.packages;
  const seen = new Map<string, string>();
  for (const modules of dirs)
    for (const [name, dir] of packagesIn(modules)) if (!seen.has(name)) seen.set(name, dir);
  const packages: DatasetPackage[] = [];
  for (const name of [...seen.keys()].sort()) {
    const dir = seen.get(name) as string;
    const datasets = declaredDatasets(name, dir);
    if (datasets !== undefined) packages.push({ name, dir, datasets });
  }
  cache.set(root, { stamp, packages });
  return packages;
}
