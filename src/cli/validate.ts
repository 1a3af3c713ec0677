import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { isAiEvalError } from '../errors.js';
import { validateParsedGoldLabels } from '../datasets/gold-labels.js';
import { parseText, type ParsedText } from '../datasets/parse.js';
import { loadRubricCriteria, validateParsedRubric } from '../datasets/rubrics.js';
import { createSplitter } from '../datasets/splits.js';
import { readDocumentText } from '../datasets/text-input.js';
import type { DatasetProblem } from '../datasets/types.js';
import { formatProblem, validateValue } from '../datasets/validate.js';
import type { CatalogTool } from '../grading/types.js';
import { loadCatalog, toolNameProblems } from './validate-tools.js';
import { EXIT, inputError, parseCommand, usageError, type CommandOptions, type CommandSpec } from './args.js';
import { importSetupModules, SETUP_OPTION } from './setup-modules.js';

/** What kind of document a file holds. */
export type DocumentKind = 'dataset' | 'rubric' | 'gold-labels';

const EXTENSIONS = ['.yaml', '.yml', '.json'];

/**
 * Decides what a file holds: by name first (`*.rubric.yaml`, a file in a `rubrics/` directory,
 * `gold*.yaml`, `*.labels.yaml`, `*.gold.yaml`), then by shape (a top-level `checks` or `items` key
 * without `questions`). Anything else is a dataset.
 *
 * @example
 * ```ts
 * documentKind('rubrics/cites.yaml', 'checks: []'); // 'rubric'
 * documentKind('support.yaml', 'questions: []'); // 'dataset'
 * ```
 */
export function documentKind(file: string, text: string | ParsedText): DocumentKind {
  const name = basename(file).toLowerCase();
  if (/\.rubric\.(ya?ml|json)$/.test(name) || basename(join(file, '..')) === 'rubrics') return 'rubric';
  if (/^gold.*\.(ya?ml|json)$/.test(name) || /\.(labels|gold)\.(ya?ml|json)$/.test(name))
    return 'gold-labels';
  const value = (typeof text === 'string' ? parseText(text, file, { json: extname(name) === '.json' }) : text)
    .value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('questions' in value)) {
    if ('checks' in value) return 'rubric';
    if ('items' in value) return 'gold-labels';
  }
  return 'dataset';
}

function expand(arg: string): string[] {
  try {
    if (!statSync(arg).isDirectory()) return [arg];
  } catch {
    return [arg];
  }
  return readdirSync(arg, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(arg, entry.name);
      if (entry.isDirectory())
        return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : expand(path);
      return EXTENSIONS.includes(extname(entry.name).toLowerCase()) ? [path] : [];
    });
}

interface Checked {
  kind: DocumentKind;
  problems: DatasetProblem[];
  notes: string[];
  summary: string;
  /** The file could not be read at all (missing, unreadable, not a regular file): an input error. */
  unreadable?: true;
}

function checkDataset(file: string, parsed: ParsedText, tools?: CatalogTool[]): Checked {
  const notes: string[] = [];
  if (parsed.problems.length > 0) return { kind: 'dataset', problems: parsed.problems, notes, summary: '' };
  // The loader's own validation (splits included), so the two cannot disagree.
  const result = validateValue(parsed.value, file, parsed);
  if (!result.valid || !result.document)
    return { kind: 'dataset', problems: result.problems, notes, summary: '' };
  const document = result.document;
  const problems: DatasetProblem[] = [];
  const splitter = createSplitter(document.splits);
  for (const { split, id } of splitter.unknownIds(document.questions)) {
    notes.push(`${file}: /splits/${split}: names question id '${id}', which the dataset does not have.`);
  }
  document.questions.forEach((question, i) => {
    if (question.rubric_ref === undefined) return;
    try {
      loadRubricCriteria(question.rubric_ref, { datasetFile: file });
    } catch (error) {
      const pos = parsed.locate(`/questions/${i}/rubric_ref`);
      const message = isAiEvalError(error) ? error.message : String(error);
      problems.push({
        file,
        ...(pos ? { line: pos.line, column: pos.column } : {}),
        path: `/questions/${i}/rubric_ref`,
        message,
      });
    }
  });
  if (tools) problems.push(...toolNameProblems(document.questions, tools, file, (p) => parsed.locate(p)));
  if (document.questions.length === 0)
    notes.push(`${file}: the dataset has no questions; a suite over it fails.`);
  const disabled = document.questions.filter((q) => q.disabled === true).length;
  const summary = `${document.questions.length} question(s)${disabled > 0 ? `, ${disabled} disabled` : ''}`;
  return { kind: 'dataset', problems, notes, summary };
}

/** Reads and parses each file once; every check below works on that one parse. */
function check(file: string, tools?: CatalogTool[]): Checked {
  const read = readDocumentText(file, file, { brief: true });
  if ('problem' in read) {
    const unreadable = read.unreadable ? { unreadable: read.unreadable } : {};
    return { kind: 'dataset', problems: [read.problem], notes: [], summary: '', ...unreadable };
  }
  const parsed = parseText(read.text, file, {
    json: extname(file).toLowerCase() === '.json',
    ascii: read.ascii,
    noDelOrC1: read.noDelOrC1,
  });
  const kind = documentKind(file, parsed);
  if (kind === 'rubric') {
    // Against the rubric schema (ai-eval/schema/rubric.json) and the kinds' own params schemas.
    const result = validateParsedRubric(parsed, file);
    return {
      kind,
      problems: result.problems,
      notes: result.warnings.map((w) => (w.startsWith(`${file}: `) ? w : `${file}: ${w}`)),
      summary: `${result.rubric?.checks.length ?? 0} check(s)`,
    };
  }
  if (kind === 'gold-labels') {
    const result = validateParsedGoldLabels(parsed, file);
    return { kind, problems: result.problems, notes: [], summary: `${result.items.length} item(s)` };
  }
  return checkDataset(file, parsed, tools);
}

const USAGE = `Usage: ai-eval validate [--tools <catalog>] [--setup <module>...] <file or directory...>

Checks dataset, rubric and gold-label files (YAML or JSON). Rubrics are recognised by name
(*.rubric.yaml, rubrics/*.yaml) or a top-level 'checks' key and checked against the rubric
schema (ai-eval/schema/rubric.json); gold labels by name (gold*.yaml, *.labels.yaml,
*.gold.yaml) or a top-level 'items' key; anything else is checked as a dataset.
A gold item's judge must be a registered LLM judge: the shipped ones, and those registered by the
--setup modules (imported first, in order).
With --tools, every expected_tools name must be a tool in the catalog (an OpenAI tools array, an
MCP tools/list result or { name, readOnly } entries, JSON or YAML); a miss names the closest one.
Prints each problem as file:line:column: /json/path: message. Exits 0 when every file is valid,
1 on any problem, 2 on bad arguments or input: a file or --tools catalog that cannot be read (the
other files are still checked), or a directory with no .yaml, .yml or .json file.
`;

const SPEC = {
  name: 'validate',
  usage: USAGE,
  options: { tools: { type: 'string' }, ...SETUP_OPTION },
} as const satisfies CommandSpec<CommandOptions>;

/**
 * The `ai-eval validate` command: checks each file (directories are searched for .yaml, .yml and
 * .json files), prints every problem with its file, line, column and JSON path, and returns 1 when
 * there is any problem, 0 when all files are valid, 2 on a usage or input error (a file or the
 * `--tools` catalog cannot be read; the readable files are still checked). With
 * `--tools <catalog>`, every dataset's `expected_tools` names must be tools of that catalog.
 *
 * @example
 * ```ts
 * const code = await validate(['datasets/support.yaml', 'rubrics/']);
 * const checked = await validate(['--tools', 'tools.json', 'datasets/']);
 * ```
 */
export async function validate(argv: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, argv);
  if (!parsed.ok) return parsed.code;
  const args = parsed.positionals;
  const catalogFile = parsed.values.tools;
  if (args.length === 0)
    return usageError(SPEC, 'name the dataset, rubric or gold-label files (or directories) to check');
  if (catalogFile === '') return usageError(SPEC, '--tools needs a tool catalog file');
  const problem = await importSetupModules(parsed.values.setup ?? []);
  if (problem) return inputError('validate', problem);
  let tools: CatalogTool[] | undefined;
  if (catalogFile !== undefined) {
    const loaded = loadCatalog(catalogFile);
    if (!loaded.ok && loaded.unreadable) return inputError('validate', `--tools ${loaded.message}`);
    if (!loaded.ok) {
      process.stdout.write(`FAIL ${catalogFile} (tool catalog): ${loaded.message}\n`);
      return EXIT.findings;
    }
    tools = loaded.tools;
  }
  const files = args.flatMap(expand);
  if (files.length === 0)
    return inputError(
      'validate',
      `no .yaml, .yml or .json files in ${args.join(', ')}. Fix: name dataset, rubric or gold-label files, or a directory that holds some`,
    );
  let failed = 0;
  const unreadable: string[] = [];
  for (const file of files) {
    const result = check(file, tools);
    if (result.unreadable) {
      // An input error, as every command reports one: on stderr, and exit 2 at the end.
      for (const problem of result.problems) inputError('validate', `${problem.file}: ${problem.message}`);
      unreadable.push(file);
    } else if (result.problems.length === 0) {
      process.stdout.write(`ok ${file} (${result.kind}, ${result.summary})\n`);
    } else {
      failed++;
      process.stdout.write(`FAIL ${file} (${result.kind}): ${result.problems.length} problem(s)\n`);
      for (const problem of result.problems) process.stdout.write(`  ${formatProblem(problem)}\n`);
    }
    for (const note of result.notes) process.stdout.write(`  warning: ${note}\n`);
  }
  const checked = files.length - unreadable.length;
  const summary = [
    checked === 0
      ? ''
      : failed === 0
        ? `${checked} file(s) valid.`
        : `${failed} of ${checked} file(s) have problems.`,
    unreadable.length === 0
      ? ''
      : `${unreadable.length} file(s) could not be read: ${unreadable.join(', ')}.`,
  ];
  process.stdout.write(`\n${summary.filter((s) => s !== '').join(' ')}\n`);
  if (unreadable.length > 0) return EXIT.usage;
  return failed === 0 ? EXIT.ok : EXIT.findings;
}
