import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import { getConfig } from '../../config.js';
import { logger } from '../../logger.js';
import type { DatasetDocument } from '../types.js';
import { formatProblem, validateDatasetFile } from '../validate.js';
import { datasetPackages } from './file-packages.js';

/** The extensions the file source reads, in the order a bare name is tried. */
export const DATASET_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/** Where the file source looks, in order. */
export interface FileSourceDirs {
  /** Directories searched first, in order (relative ones are taken from `root`). */
  paths?: string[] | undefined;
  /** The project root; its `datasets/` directory is searched after `paths`. Default `process.cwd()`. */
  root?: string | undefined;
  /**
   * Whether the `datasets/` directories of installed packages (declared in their package.json as
   * `"ai-eval": { "datasets": "datasets" }`) are searched last, in package-name order. Default true.
   */
  packages?: boolean | undefined;
}

/** One directory the file source searches, and why it is searched. */
export interface SearchLocation {
  /** The absolute directory. */
  dir: string;
  /** `path`: a configured path; `root`: `datasets/` under the root; `package`: an installed package's. */
  origin: 'path' | 'root' | 'package';
  /** The package that declares the directory, for `origin: 'package'`. */
  package?: string;
}

/**
 * The directories searched, in order: the configured paths, then `datasets/` under the root, then
 * the datasets directory of every installed package that declares one, in package-name order.
 * A directory reached twice is searched once, at its first place.
 *
 * @example
 * ```ts
 * searchLocations({ paths: ['evals'] }).map((l) => `${l.origin} ${l.dir}`);
 * // ['path /app/evals', 'root /app/datasets', 'package /app/node_modules/@acme/evals/datasets']
 * ```
 */
export function searchLocations(dirs: FileSourceDirs = {}): SearchLocation[] {
  const config = getConfig().datasets;
  const root = resolve(dirs.root ?? config.root ?? process.cwd());
  const paths = dirs.paths ?? config.paths ?? [];
  const all: SearchLocation[] = [
    ...paths.map((p): SearchLocation => ({ dir: resolve(root, p), origin: 'path' })),
    { dir: join(root, 'datasets'), origin: 'root' },
  ];
  if ((dirs.packages ?? config.packages) !== false) {
    for (const pkg of datasetPackages(root))
      all.push({ dir: pkg.datasets, origin: 'package', package: pkg.name });
  }
  return all.filter((location, i) => all.findIndex((l) => l.dir === location.dir) === i);
}

/** The directories searched, in order (see {@link searchLocations}). */
export function searchDirs(dirs: FileSourceDirs = {}): string[] {
  return searchLocations(dirs).map((l) => l.dir);
}

/** A path for messages: relative to the working directory when below it. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** True (and logs why not) when `ref` is a bare file name. */
export function isBareRef(ref: string, tag: string): boolean {
  if (
    typeof ref !== 'string' ||
    ref.trim() === '' ||
    /[/\\]/.test(ref) ||
    ref.includes('..') ||
    isAbsolute(ref)
  ) {
    logger.warn(
      `${tag}: refusing dataset ref ${JSON.stringify(ref)}: a ref must be a bare file name (no path separator, no '..'). Fix: put the file in a dataset directory and name it alone, or load it by path.`,
      `dataset:${tag.split(':')[0]}`,
    );
    return false;
  }
  return true;
}

function isQuietlyBare(ref: string): boolean {
  return (
    typeof ref === 'string' &&
    ref.trim() !== '' &&
    !/[/\\]/.test(ref) &&
    !ref.includes('..') &&
    !isAbsolute(ref)
  );
}

function candidates(ref: string): string[] {
  const ext = extname(ref).toLowerCase();
  return (DATASET_EXTENSIONS as readonly string[]).includes(ext)
    ? [ref]
    : DATASET_EXTENSIONS.map((e) => `${ref}${e}`);
}

/**
 * Resolves a bare ref to a file: the first directory that has it wins, and every other match is
 * logged as an ignored duplicate. Returns undefined (and logs) when nothing matches.
 */
export function resolveRef(
  ref: string,
  dirs: string[],
  tag = `file:${ref}`,
  quiet = false,
): string | undefined {
  if (quiet ? !isQuietlyBare(ref) : !isBareRef(ref, tag)) return undefined;
  const found = dirs
    .flatMap((dir) => candidates(ref).map((name) => join(dir, name)))
    .filter((p) => isFile(p));
  const [first, ...ignored] = found;
  if (quiet) return first;
  for (const other of ignored) {
    logger.warn(
      `${tag}: ignoring duplicate dataset ${displayPath(other)}; using ${displayPath(first ?? '')}.`,
      'dataset:file',
    );
  }
  if (first === undefined) {
    logger.warn(
      `${tag}: no dataset named ${JSON.stringify(ref)} in ${dirs.map(displayPath).join(', ')}. Fix: create it there, or add its directory to configure({ datasets: { paths } }).`,
      'dataset:file',
    );
  }
  return first;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Every dataset file name in the directories; a duplicate name resolves to the first directory. */
export function listFiles(dirs: string[]): Map<string, string> {
  const located = listLocated(dirs.map((dir) => ({ dir, origin: 'path' as const })));
  return new Map([...located].map(([name, found]) => [name, found.path]));
}

/** A dataset file found by listing, and the search location it was found in. */
export interface LocatedDataset {
  path: string;
  location: SearchLocation;
}

/**
 * Every dataset file name in the locations, with where it was found; a duplicate name resolves to
 * the first location and the ignored copy is logged.
 *
 * @example
 * ```ts
 * for (const [name, { path, location }] of listLocated(searchLocations())) console.log(name, location.origin, path);
 * ```
 */
export function listLocated(locations: SearchLocation[]): Map<string, LocatedDataset> {
  const files = new Map<string, LocatedDataset>();
  for (const location of locations) {
    const { dir } = location;
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!(DATASET_EXTENSIONS as readonly string[]).includes(extname(name).toLowerCase())) continue;
      const path = join(dir, name);
      if (!isFile(path)) continue;
      const first = files.get(name);
      if (first !== undefined) {
        logger.warn(
          `file:${name}: ignoring duplicate dataset ${displayPath(path)}; using ${displayPath(first.path)}.`,
          'dataset:file',
        );
      } else files.set(name, { path, location });
    }
  }
  return files;
}

const cache = new Map<string, { stamp: string; document: DatasetDocument | undefined }>();

/**
 * Reads and validates a dataset file, logging every problem (file, line, column, JSON path, fix).
 * Returns the document only when it is valid: an invalid document is refused whole. Cached per
 * file until it changes; with `fresh`, read anew and not cached, so the caller owns the document
 * and may hand its questions out without copying them. Never throws.
 */
export function readDocument(
  path: string,
  label: string,
  options: { fresh?: boolean } = {},
): DatasetDocument | undefined {
  if (options.fresh) return validated(path, label);
  let stamp = '';
  try {
    const stat = statSync(path);
    stamp = `${stat.mtimeMs}:${stat.size}`;
  } catch {
    // validateDatasetFile reports the missing file below.
  }
  const cached = cache.get(path);
  if (cached && stamp !== '' && cached.stamp === stamp && cached.document) return cached.document;
  const document = validated(path, label);
  if (stamp !== '' && document) cache.set(path, { stamp, document });
  return document;
}

function validated(path: string, label: string): DatasetDocument | undefined {
  const result = validateDatasetFile(path, displayPath(path));
  if (!result.valid) {
    logger.warn(
      `${label}: ${displayPath(path)} is invalid and was refused whole (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}).`,
      'dataset:file',
    );
    for (const problem of result.problems) logger.warn(formatProblem(problem), 'dataset:file');
    return undefined;
  }
  return result.document;
}

/** Reads a file's raw text (for writers that keep its comments). */
export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
