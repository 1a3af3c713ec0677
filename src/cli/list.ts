import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { errorMessage } from '../internal/text.js';
import { captureLogs } from '../logger.js';
import {
  displayPath,
  listLocated,
  readDocument,
  searchLocations,
  type SearchLocation,
} from '../datasets/sources/file-resolve.js';

const USAGE = `Usage: ai-eval list datasets [--root <dir>] [--path <dir>...] [--no-packages] [--json]

Lists the datasets the file source finds, in search order: the --path directories (default: none),
then datasets/ under the root (default: the working directory), then the datasets directory of
every installed package that declares one ("ai-eval": { "datasets": "datasets" } in its
package.json), in package-name order. A name found twice resolves to its first directory; the
ignored copy is logged as a warning. Exits 0, or 2 on bad arguments.
`;

/** One row of `ai-eval list datasets --json`. */
export interface ListedDataset {
  /** The bare ref a target or `evalSuite` names it by. */
  name: string;
  /** Its label (the document's `label` or `name`), or the file name. */
  label: string;
  /** The file, relative to the working directory when below it. */
  file: string;
  /** `path`, `root` or `package`: which kind of search location it came from. */
  origin: SearchLocation['origin'];
  /** The package that ships it, for `origin: 'package'`. */
  package?: string;
  /** Invalid files are listed too, marked so. */
  valid: boolean;
}

function from(row: ListedDataset): string {
  if (row.origin === 'package') return `package ${row.package ?? '?'}`;
  return row.origin === 'root' ? 'project datasets/' : '--path';
}

/**
 * `ai-eval list datasets`: where each dataset comes from. Exit code 0, or 2 on bad arguments.
 *
 * @example
 * ```ts
 * await list(['datasets', '--json']);
 * ```
 */
export function list(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        root: { type: 'string' },
        path: { type: 'string', multiple: true },
        'no-packages': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`ai-eval list: ${errorMessage(error)}\n\n${USAGE}`);
    return Promise.resolve(2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return Promise.resolve(0);
  }
  if (positionals.length !== 1 || positionals[0] !== 'datasets') {
    process.stderr.write(`ai-eval list: say what to list ('datasets').\n\n${USAGE}`);
    return Promise.resolve(2);
  }
  const root = resolve(values.root ?? process.cwd());
  const { value: rows, logs } = captureLogs(() => {
    const locations = searchLocations({
      root,
      paths: values.path ?? [],
      packages: values['no-packages'] !== true,
    });
    return [...listLocated(locations)].map(([name, { path, location }]): ListedDataset => {
      const document = readDocument(path, `file:${name}`);
      return {
        name,
        label: document?.label ?? document?.name ?? name,
        file: displayPath(path),
        origin: location.origin,
        ...(location.package !== undefined ? { package: location.package } : {}),
        valid: document !== undefined,
      };
    });
  });
  const warnings = logs.filter((entry) => entry.level === 'warn').map((entry) => entry.message);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ datasets: rows, warnings }, null, 2)}\n`);
    return Promise.resolve(0);
  }
  if (rows.length === 0) process.stdout.write('No datasets found.\n');
  // Warnings (an ignored duplicate, an invalid file) are already echoed to stderr by the logger.
  for (const row of rows)
    process.stdout.write(`${row.name}  ${row.file}  (${from(row)})${row.valid ? '' : '  INVALID'}\n`);
  return Promise.resolve(0);
}
