import { mkdirSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { stringify } from 'yaml';
import { configure } from '../config.js';
import { getDatasetSource, listDatasetSources } from '../datasets/registry.js';
import type { DatasetSource } from '../datasets/define-source.js';
import { displayPath } from '../datasets/sources/file-resolve.js';
import { httpDatasetProblems, httpSource } from '../datasets/sources/http.js';
import { readDocumentText } from '../datasets/text-input.js';
import type { DatasetProblem } from '../datasets/types.js';
import { formatProblem, validateDataset, validateDatasetFile } from '../datasets/validate.js';
import { writeFileAtomic } from '../internal/atomic-write.js';
import { errorMessage, plural } from '../internal/text.js';
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

const USAGE = `Usage: ai-eval pull <source> <ref> -o <file> [--base-url <url>] [--setup <module>...] [--json]

Brings a dataset from a source (the asynchronous 'http' source, or a custom source that a --setup
module registers) into a local file that suites load synchronously, for example:

  npx ai-eval pull http https://evals.example.com/datasets/support.yaml -o datasets/support.pulled.json
  npx ai-eval pull registry support -o datasets/support.pulled.yaml --setup eval-sources.mjs

Disabled questions and the dataset's splits block are kept. The document is validated before it is
written, and written atomically (a failed pull leaves the old file as it was). The file is JSON, or
YAML when -o ends in .yaml or .yml. Point the suite at it: dataset: 'datasets/support.pulled.json'.

--base-url sets the http source's base URL (configure({ datasets: { httpBaseUrl } })); the ref is
then a file name under it. Without it, the http ref is the dataset's whole URL.
--setup imports a module first (.js or .mjs) that registers sources or calls configure().
--json prints one JSON document and nothing else on stdout; the source's warnings are in its
'warnings' (without --json, or when the pull fails, they are printed once on stderr).

Exits 0; 1 when the dataset is invalid, at the source or as pulled (each problem printed, nothing
written); 2 on bad arguments, an unknown source, or a dataset the source does not have (it gave no
questions).
`;

const SPEC = {
  name: 'pull',
  usage: USAGE,
  options: {
    output: { type: 'string', short: 'o' },
    'base-url': { type: 'string' },
    json: { type: 'boolean' },
    ...SETUP_OPTION,
  },
} as const satisfies CommandSpec<CommandOptions>;

/**
 * `ai-eval pull <source> <ref> -o <file>`: an async (or any) source's dataset, disabled questions
 * and splits kept, validated, written atomically. Exit code 0, 1 when the dataset is invalid (at
 * the source, or as pulled), 2 on bad input or a dataset the source does not have. The source's
 * warnings are printed once: on stderr, or in the `--json` document.
 *
 * @example
 * ```ts
 * process.exitCode = await pull(['http', 'support.yaml', '-o', 'datasets/support.pulled.json', '--base-url', url]);
 * ```
 */
export async function pull(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed.ok) return parsed.code;
  const { values, positionals } = parsed;
  if (positionals.length !== 2)
    return usageError(
      SPEC,
      `name the source and the ref, for example 'ai-eval pull http https://evals.example.com/datasets/support.yaml -o <file>'`,
    );
  const [id, given] = positionals as [string, string];
  // The http source's ref may be the whole URL (the recipe the docs and the suite's hint print):
  // its folder is the base URL, its last segment the ref.
  const url = id === 'http' && values['base-url'] === undefined ? absoluteUrl(given) : undefined;
  const ref = url ? decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1)) : given;
  const baseUrl = url ? new URL('.', url).href : values['base-url'];
  const output = values.output;
  if (output === undefined || output === '')
    return usageError(
      SPEC,
      'name the file to write with -o <file>, for example -o datasets/support.pulled.json',
    );
  const ext = extname(output).toLowerCase();
  if (!['.json', '.yaml', '.yml'].includes(ext))
    return usageError(SPEC, `-o ${output}: the file must end in .json, .yaml or .yml`);
  const problem = await importSetupModules(values.setup ?? []);
  if (problem) return inputError('pull', problem);
  if (baseUrl !== undefined) {
    try {
      configure({ datasets: { httpBaseUrl: baseUrl } });
    } catch (error) {
      return inputError('pull', `--base-url: ${errorMessage(error)}`);
    }
  }
  const source = getDatasetSource(id);
  if (!source)
    return inputError(
      'pull',
      `unknown dataset source '${id}' (available: ${listDatasetSources().join(', ')}). Register it in a --setup module, or name one of those`,
    );
  const label = `${id}:${ref}`;
  // The source's warnings are held back and printed once below (on stderr, or in the --json document).
  const { value: pulled, warnings: held } = await holdWarnings(async () => {
    const questions = await source.load(ref, undefined, { includeDisabled: true });
    // Without questions nothing is written: the splits are not asked for.
    const splits: unknown = questions.length > 0 ? ((await source.loadSplits?.(ref)) ?? {}) : {};
    return { questions, splits };
  });
  const warnings = held.map((e) => e.message);
  if (pulled.questions.length === 0) {
    const problems = await refusedProblems(source, ref);
    const shown = printWarnings(held);
    if (problems !== undefined && problems.length > 0) {
      // There, but invalid: a finding, as when the pulled document fails validation below.
      const unseen = problems.map(formatProblem).filter((line) => !(shown && warnings.includes(line)));
      process.stderr.write(
        `ai-eval pull: ${label}: the dataset is invalid (${plural(problems.length, 'problem')}), so ${output} was not written. Fix the dataset at its source, then pull again${unseen.length > 0 ? `:\n${unseen.map((line) => `  ${line}`).join('\n')}` : '.'}\n`,
      );
      return EXIT.findings;
    }
    const why =
      warnings.length === 0
        ? ''
        : shown
          ? ` (${warnings.length === 1 ? 'its warning is' : `its ${warnings.length} warnings are`} above)`
          : ` (${warnings.join(' ')})`;
    return inputError(
      'pull',
      `${label}: nothing pulled, the source gave no questions${why}. ${output} was not written`,
    );
  }
  // With --json the warnings go in the document; a failure below, which prints none, prints them.
  let heldBack = values.json === true;
  const flush = (): void => {
    if (heldBack) printWarnings(held);
    heldBack = false;
  };
  if (!heldBack) printWarnings(held);
  const hasSplits =
    pulled.splits !== null && typeof pulled.splits === 'object' && Object.keys(pulled.splits).length > 0;
  const document = { questions: pulled.questions, ...(hasSplits ? { splits: pulled.splits } : {}) };
  let text: string;
  try {
    text = ext === '.json' ? `${JSON.stringify(document, null, 2)}\n` : stringify(document);
  } catch (error) {
    // A function, a BigInt or a cycle: nothing a dataset file can hold.
    flush();
    process.stderr.write(
      `ai-eval pull: ${label}: the source gave a value no dataset file can hold (${errorMessage(error)}), so ${output} was not written. Fix the source: its questions must be plain JSON values (no functions, BigInts or objects that contain themselves).\n`,
    );
    return EXIT.findings;
  }
  const check = validateDataset(text, { file: output });
  if (!check.valid) {
    flush();
    process.stderr.write(
      `ai-eval pull: ${label}: the pulled dataset is invalid, so ${output} was not written:\n${check.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\n`,
    );
    return EXIT.findings;
  }
  try {
    mkdirSync(dirname(resolve(output)), { recursive: true });
    writeFileAtomic(resolve(output), text);
  } catch (error) {
    flush();
    return inputError('pull', `cannot write ${output}: ${errorMessage(error)}`);
  }
  const disabled = pulled.questions.filter((q) => q.disabled === true).length;
  if (values.json) {
    printJson({
      source: id,
      ref,
      file: output,
      questions: pulled.questions.length,
      disabled,
      splits: hasSplits,
      warnings,
    });
  } else {
    process.stdout.write(
      `Pulled ${pulled.questions.length} question(s)${disabled > 0 ? ` (${disabled} disabled)` : ''}${hasSplits ? ' and the splits block' : ''} from ${label} into ${output}.\nPoint the suite at it: dataset: '${output}'\n`,
    );
  }
  return EXIT.ok;
}

/**
 * Why a source that gave no questions gave none, when the dataset is there but invalid: its
 * problems (the http source's refused document, or the local file a source locates). Undefined when
 * the dataset is not there, cannot be read, or is valid (then it simply has no questions).
 */
async function refusedProblems(source: DatasetSource, ref: string): Promise<DatasetProblem[] | undefined> {
  if (source === httpSource) return httpDatasetProblems(ref);
  let path: string | undefined;
  try {
    path = source.locate?.(ref);
  } catch {
    return undefined;
  }
  if (path === undefined) return undefined;
  const label = displayPath(path);
  const read = readDocumentText(path, label);
  if ('problem' in read && read.unreadable) return undefined;
  const result = validateDatasetFile(path, label);
  return result.valid ? undefined : result.problems;
}

/** `text` as an http(s) URL naming a file, or undefined when it is a plain ref. */
function absoluteUrl(text: string): URL | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.pathname.endsWith('/') ? undefined : url;
  } catch {
    return undefined;
  }
}
