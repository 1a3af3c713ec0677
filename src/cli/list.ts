import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  displayPath,
  listLocated,
  readDocument,
  searchLocations,
  type SearchLocation,
} from '../datasets/sources/file-resolve.js';
import type { DatasetCapability } from '../datasets/define-source.js';
import { builtinDatasetSources, getDatasetSource, listDatasetSources } from '../datasets/registry.js';
import { isJudge } from '../judge/define-judge.js';
import { builtinGraders } from '../registry/builtin.js';
import { listGraders } from '../registry/graders.js';
import { judgeRecordIdentity } from '../registry/judge-identity.js';
import {
  EXIT,
  inputError,
  parseCommand,
  printJson,
  usageError,
  type CommandOptions,
  type CommandSpec,
} from './args.js';
import { importSetupModules, SETUP_OPTION } from './setup-modules.js';
import { holdWarnings, printWarnings } from './source-warnings.js';

const USAGE = `Usage: ai-eval list graders [--json] [--setup <module>...]
       ai-eval list judges [--json] [--setup <module>...]
       ai-eval list sources [--json] [--setup <module>...]
       ai-eval list datasets [--source <id>] [--root <dir>] [--path <dir>...] [--no-packages] [--json]
                             [--setup <module>...]

graders: every registered grader with its label and scale ("Read-only run (binary, 0-1)") and its
  flags: llm (an LLM judge), seesToolCalls (shown the tool-call record), observesActions (decides
  from what the agent did, not what it said).
judges: the LLM judges, with the model and prompt hash in force (configure() in a --setup module).
sources: every dataset source with its capabilities (read, write, promote) and whether it loads
  synchronously (an async source needs 'ai-eval pull' before a suite can use it).
datasets: without --source, the datasets the file source finds, in search order: the --path
  directories (default: none), then datasets/ under the root (default: the working directory),
  then the datasets directory of every installed package that declares one
  ("ai-eval": { "datasets": "datasets" } in its package.json), in package-name order. A name found
  twice resolves to its first directory; the ignored copy is logged as a warning.
  With --source <id>, the refs and labels that source lists.

--setup imports a module first (.js or .mjs) that registers custom graders or sources.
--json prints one JSON document and nothing else on stdout; for datasets, the warnings of the
  listing (an ignored duplicate, an invalid file) are in its 'warnings' (without --json they are
  printed once on stderr). Exits 0, or 2 on bad arguments.
`;

const SPEC = {
  name: 'list',
  usage: USAGE,
  options: {
    root: { type: 'string' },
    path: { type: 'string', multiple: true },
    'no-packages': { type: 'boolean' },
    source: { type: 'string' },
    json: { type: 'boolean' },
    ...SETUP_OPTION,
  },
} as const satisfies CommandSpec<CommandOptions>;

const KINDS = ['graders', 'judges', 'sources', 'datasets'] as const;
type Kind = (typeof KINDS)[number];

/** One row of `ai-eval list datasets --json`. */
export interface ListedDataset {
  /** The bare ref a target or `evalSuite` names it by. */
  name: string;
  /** Its label (the document's `label` or `name`), or the file name. */
  label: string;
  /** The file, relative to the working directory when below it (the file source only). */
  file?: string;
  /** `path`, `root` or `package`: which kind of search location it came from (the file source only). */
  origin?: SearchLocation['origin'];
  /** The package that ships it, for `origin: 'package'`. */
  package?: string;
  /** Invalid files are listed too, marked so (the file source only). */
  valid?: boolean;
  /** The source that lists it. */
  source: string;
}

/** One row of `ai-eval list graders --json`. */
export interface ListedGrader {
  id: string;
  /** The label with its scale: `Read-only run (binary, 0-1)`. */
  label: string;
  description: string;
  minScore: number;
  maxScore: number;
  llm: boolean;
  seesToolCalls: boolean;
  observesActions: boolean;
  /** Shipped with ai-eval (false: registered by a setup module). */
  builtin: boolean;
}

/** One row of `ai-eval list judges --json`. */
export interface ListedJudge {
  id: string;
  label: string;
  dimension: string;
  seesToolCalls: boolean;
  /** The judge model in force. */
  model: string;
  /** The hash of the prompt in force (template after overrides, dimension, guidance). */
  promptHash: string;
}

/** One row of `ai-eval list sources --json`. */
export interface ListedSource {
  id: string;
  label: string;
  description: string;
  capabilities: DatasetCapability[];
  /** False when the source only loads asynchronously (pull it into a file first). */
  synchronous: boolean;
  builtin: boolean;
}

function flags(g: { llm: boolean; seesToolCalls: boolean; observesActions: boolean }): string {
  const on = [g.llm && 'llm', g.seesToolCalls && 'seesToolCalls', g.observesActions && 'observesActions'];
  return on.filter(Boolean).join(', ') || '-';
}

/** Rows as aligned columns. */
function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

function graders(): ListedGrader[] {
  return listGraders().map((g) => ({
    id: g.id,
    label: g.displayLabel,
    description: g.description,
    minScore: g.minScore,
    maxScore: g.maxScore,
    llm: g.llm,
    seesToolCalls: g.seesToolCalls,
    observesActions: g.observesActions,
    builtin: (builtinGraders as Record<string, unknown>)[g.id] === g,
  }));
}

function judges(): ListedJudge[] {
  return listGraders()
    .filter(isJudge)
    .map((j) => {
      const identity = judgeRecordIdentity(j);
      return {
        id: j.id,
        label: j.displayLabel,
        dimension: j.judge.dimension,
        seesToolCalls: j.seesToolCalls,
        model: identity?.judgeModel ?? '',
        promptHash: identity?.promptHash ?? '',
      };
    });
}

function sources(): ListedSource[] {
  return listDatasetSources().flatMap((id) => {
    const s = getDatasetSource(id);
    if (!s) return [];
    return [
      {
        id,
        label: s.label,
        description: s.description,
        capabilities: s.capabilities,
        synchronous: s.synchronous !== false,
        builtin: (builtinDatasetSources as Record<string, unknown>)[id] === s,
      },
    ];
  });
}

/** The datasets the file source finds; what it logs (duplicates, invalid files) is the caller's to print. */
function fileDatasets(values: { root?: string; path?: string[]; 'no-packages'?: boolean }): ListedDataset[] {
  const root = resolve(values.root ?? process.cwd());
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
      source: 'file',
    };
  });
}

/** The refs and labels a source lists, or why it cannot list them. */
async function sourceDatasets(id: string): Promise<ListedDataset[] | string> {
  const source = getDatasetSource(id);
  if (!source)
    return `unknown dataset source '${id}' (available: ${listDatasetSources().join(', ')}). Register it in a --setup module, or name one of those`;
  let labels: Record<string, string>;
  try {
    labels = await source.listDatasetsWithLabels();
  } catch (error) {
    return `the '${id}' source could not list its datasets: ${error instanceof Error ? error.message : String(error)}`;
  }
  return Object.entries(labels).map(([name, label]) => ({ name, label, source: id }));
}

function from(row: ListedDataset): string {
  if (row.source !== 'file' || row.origin === undefined) return `source ${row.source}`;
  if (row.origin === 'package') return `package ${row.package ?? '?'}`;
  return row.origin === 'root' ? 'project datasets/' : '--path';
}

/**
 * `ai-eval list graders|judges|sources|datasets`: what is registered, and where each dataset comes
 * from. Exit code 0, or 2 on bad arguments.
 *
 * @example
 * ```ts
 * await list(['graders', '--json']);
 * await list(['datasets', '--source', 'registry', '--setup', 'eval-sources.mjs']);
 * ```
 */
export async function list(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed.ok) return parsed.code;
  const { values, positionals } = parsed;
  const kind = positionals[0] as Kind | undefined;
  if (positionals.length !== 1 || kind === undefined || !KINDS.includes(kind))
    return usageError(
      SPEC,
      `say what to list: ${KINDS.map((k) => `'${k}'`).join(', ')}${positionals.length > 0 ? ` (got ${positionals.map((p) => `'${p}'`).join(' ')})` : ''}`,
    );
  if (values.source !== undefined && kind !== 'datasets')
    return usageError(SPEC, `--source is for 'list datasets', not 'list ${kind}'`);
  if (
    kind !== 'datasets' &&
    (values.root !== undefined || values.path !== undefined || values['no-packages'])
  )
    return usageError(SPEC, `--root, --path and --no-packages are for 'list datasets'`);
  const problem = await importSetupModules(values.setup ?? []);
  if (problem) return inputError('list', problem);
  const json = values.json === true;
  if (kind === 'graders') {
    const rows = graders();
    if (json) printJson({ graders: rows });
    else
      process.stdout.write(table([['ID', 'LABEL', 'FLAGS'], ...rows.map((g) => [g.id, g.label, flags(g)])]));
    return EXIT.ok;
  }
  if (kind === 'judges') {
    const rows = judges();
    if (json) printJson({ judges: rows });
    else if (rows.length === 0) process.stdout.write('No LLM judges registered.\n');
    else
      process.stdout.write(
        table([
          ['ID', 'LABEL', 'MODEL', 'PROMPT'],
          ...rows.map((j) => [j.id, j.label, j.model, `#${j.promptHash}`]),
        ]),
      );
    return EXIT.ok;
  }
  if (kind === 'sources') {
    const rows = sources();
    if (json) printJson({ sources: rows });
    else
      process.stdout.write(
        table([
          ['ID', 'LABEL', 'CAPABILITIES', 'LOADS'],
          ...rows.map((s) => [
            s.id,
            s.label,
            s.capabilities.join(', '),
            s.synchronous ? 'sync' : 'async (pull first)',
          ]),
        ]),
      );
    return EXIT.ok;
  }
  // A folder named on the command line that is not there would otherwise be searched in silence.
  const root = resolve(values.root ?? '.');
  for (const [flag, dir, path] of [
    ...(values.root !== undefined ? [['--root', values.root, root] as const] : []),
    ...(values.path ?? []).map((p) => ['--path', p, resolve(root, p)] as const),
  ]) {
    if (!isDirectory(path)) return inputError('list', `${flag} ${dir}: no such directory. Fix the path`);
  }
  // What the listing logs (an ignored duplicate, an invalid file, a source's own warnings) is held
  // back and printed once: in the --json document, or on stderr.
  const source = values.source;
  const { value: rows, warnings } = await holdWarnings(() =>
    source === undefined || source === 'file' ? fileDatasets(values) : sourceDatasets(source),
  );
  if (typeof rows === 'string') {
    printWarnings(warnings);
    return inputError('list', rows);
  }
  if (json) {
    printJson({ datasets: rows, warnings: warnings.map((w) => w.message) });
    return EXIT.ok;
  }
  printWarnings(warnings);
  if (rows.length === 0) process.stdout.write('No datasets found.\n');
  for (const row of rows) {
    const where = row.file !== undefined ? `  ${row.file}` : row.label !== row.name ? `  ${row.label}` : '';
    process.stdout.write(`${row.name}${where}  (${from(row)})${row.valid === false ? '  INVALID' : ''}\n`);
  }
  return EXIT.ok;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
