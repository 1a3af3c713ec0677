import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { stringify } from 'yaml';
import { isAiEvalError } from '../errors.js';
import type { Question } from '../grading/types.js';
import { isWritableSource } from '../datasets/define-source.js';
import { loadDatasetWithWarnings } from '../datasets/load.js';
import { getDatasetSource, listDatasetSources } from '../datasets/registry.js';
import { parseReport } from '../report/baseline.js';
import type { EvalReport, QuestionReport } from '../report/model.js';
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
import { readTextFile } from '../internal/read-text.js';

const USAGE = `Usage: ai-eval promote <report.json> --to <source>:<ref> [--failed] [--degraded] [--ids <id,...>]
                       [--create] [--dry-run] [--setup <module>...] [--json]

Appends questions of a report to a writable dataset, for example the failures of last night's run
to a regression set:

  npx ai-eval promote reports/ai-eval.json --to file:regressions.yaml --failed --create

Selection (at least one; they add up): --failed, the questions that did not pass; --degraded, those
a grader errored on; --ids, the questions with these ids (comma-separated, or the option repeated).
Each question is copied from the dataset it came from (the report names it), with
metadata.promoted_from saying which run and target it failed in. A question graded by a bare
matcher has no dataset and cannot be promoted.

The questions go through the source's appendQuestions: all are validated first and all or none are
written; an id the dataset already has gets a free one (q-2), and the ids are printed in input
order. --create makes the dataset when it does not exist. --dry-run prints what would be appended
and writes nothing. --setup imports a module that registers a custom writable source.
--json prints one JSON document and nothing else on stdout.

Exits 0 (also when nothing matched the selection); 1 when a question is invalid for the dataset
(nothing written); 2 on bad arguments, an unreadable report, a source that cannot write, or a
question whose dataset cannot be read.
`;

const SPEC = {
  name: 'promote',
  usage: USAGE,
  options: {
    to: { type: 'string' },
    failed: { type: 'boolean' },
    degraded: { type: 'boolean' },
    ids: { type: 'string', multiple: true },
    create: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    ...SETUP_OPTION,
  },
} as const satisfies CommandSpec<CommandOptions>;

interface Selected {
  target: string;
  question: QuestionReport;
}

function select(
  report: EvalReport,
  criteria: { failed: boolean; degraded: boolean; ids: Set<string> },
): Selected[] {
  const out: Selected[] = [];
  for (const target of report.targets) {
    for (const question of target.questions) {
      if (
        (criteria.failed && !question.passed) ||
        (criteria.degraded && question.degraded) ||
        criteria.ids.has(question.id)
      )
        out.push({ target: target.name, question });
    }
  }
  return out;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The dataset a report's question came from, as a selector: `file:evals/a.yaml` is a path. */
function selectorOf(label: string): { source: string; ref: string } | { path: string } {
  const at = label.indexOf(':');
  const source = at > 0 ? label.slice(0, at) : 'file';
  const ref = at > 0 ? label.slice(at + 1) : label;
  if (source === 'file' && (/[/\\]/.test(ref) || isFile(resolve(ref)))) return { path: ref };
  return { source, ref };
}

/** The dataset rows of the selected questions, in selection order, or the reasons they cannot be had. */
async function rowsOf(selected: Selected[], run: string): Promise<{ rows: Question[]; problems: string[] }> {
  const datasets = new Map<string, Promise<{ questions: Question[]; warnings: string[] }>>();
  const rows: Question[] = [];
  const problems: string[] = [];
  for (const { target, question } of selected) {
    if (question.dataset === undefined) {
      problems.push(
        `${target} / ${question.id}: graded by a matcher, not an evalSuite dataset, so there is no question row to copy. Add it to a dataset by hand, or leave it out of --ids`,
      );
      continue;
    }
    const label = question.dataset;
    let load = datasets.get(label);
    if (!load) {
      load = loadDatasetWithWarnings({ ...selectorOf(label), includeDisabled: true });
      datasets.set(label, load);
    }
    const { questions, warnings } = await load;
    const row = questions.find((q) => q.id === question.id);
    if (!row) {
      problems.push(
        `${target} / ${question.id}: not found in ${label}${warnings.length > 0 ? ` (${warnings.join(' ')})` : ' (removed since the run?)'}`,
      );
      continue;
    }
    const { disabled: _disabled, ...rest } = structuredClone(row);
    const metadata = rest.metadata !== null && typeof rest.metadata === 'object' ? rest.metadata : {};
    rows.push({
      ...rest,
      metadata: {
        ...metadata,
        promoted_from: {
          dataset: label,
          target,
          run,
          test: question.test.file,
          composite: question.composite,
          passed: question.passed,
        },
      },
    });
  }
  return { rows, problems };
}

/**
 * `ai-eval promote <report.json> --to <source>:<ref> --failed`: appends a report's selected
 * questions to a writable dataset through `appendQuestions`. Exit code 0, 1 when a question is
 * invalid (nothing written), 2 on bad input.
 *
 * @example
 * ```ts
 * process.exitCode = await promote(['reports/ai-eval.json', '--to', 'file:regressions.yaml', '--failed']);
 * ```
 */
export async function promote(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed.ok) return parsed.code;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return usageError(SPEC, 'name one JSON report to promote questions from');
  const file = positionals[0] as string;
  const to = values.to;
  const at = to?.indexOf(':') ?? -1;
  if (to === undefined || at <= 0 || at === to.length - 1)
    return usageError(
      SPEC,
      `say where to append with --to <source>:<ref>, for example --to file:regressions.yaml${to !== undefined ? ` (got '${to}')` : ''}`,
    );
  const ids = new Set(
    (values.ids ?? [])
      .flatMap((list) => list.split(','))
      .map((s) => s.trim())
      .filter(Boolean),
  );
  if (!values.failed && !values.degraded && ids.size === 0)
    return usageError(SPEC, 'say which questions to promote: --failed, --degraded or --ids <id,...>');
  const sourceId = to.slice(0, at);
  const ref = to.slice(at + 1);
  let report: EvalReport;
  try {
    report = parseReport(readTextFile(resolve(file)), file);
  } catch (error) {
    return inputError(
      'promote',
      isAiEvalError(error) ? error : `${file}: cannot read (${(error as Error).message})`,
    );
  }
  const problem = await importSetupModules(values.setup ?? []);
  if (problem) return inputError('promote', problem);
  const source = getDatasetSource(sourceId);
  if (!source)
    return inputError(
      'promote',
      `--to ${to}: unknown dataset source '${sourceId}' (available: ${listDatasetSources().join(', ')}). Register it in a --setup module`,
    );
  if (!isWritableSource(source))
    return inputError(
      'promote',
      `--to ${to}: the '${sourceId}' source cannot write (capabilities: ${source.capabilities.join(', ')}). Promote into a writable source, such as file:<name>.yaml`,
    );
  const selected = select(report, {
    failed: values.failed === true,
    degraded: values.degraded === true,
    ids,
  });
  const unknown = [...ids].filter((id) => !selected.some((s) => s.question.id === id));
  if (unknown.length > 0)
    return inputError(
      'promote',
      `${file}: no question with id ${unknown.map((id) => `'${id}'`).join(', ')}. Check --ids`,
    );
  if (selected.length === 0) {
    if (values.json) printJson({ to, dryRun: values['dry-run'] === true, ids: [], questions: [] });
    else process.stdout.write(`No question in ${file} matched the selection; nothing to promote.\n`);
    return EXIT.ok;
  }
  const { rows, problems } = await rowsOf(selected, report.timestamp);
  if (problems.length > 0)
    return inputError(
      'promote',
      `nothing was written: ${problems.length} question(s) cannot be promoted:\n  ${problems.join('\n  ')}`,
    );
  const from = selected.map((s) => ({ target: s.target, id: s.question.id }));
  if (values['dry-run']) {
    if (values.json) printJson({ to, dryRun: true, ids: [], questions: rows, from });
    else
      process.stdout.write(
        `Would append ${rows.length} question(s) to ${to} (dry run: nothing written; an id the dataset already has gets a free one):\n\n${stringify(rows)}`,
      );
    return EXIT.ok;
  }
  let written: string[];
  try {
    if (values.create) {
      const existing = await source.listDatasets();
      const names = new Set(existing.flatMap((name) => [name, name.replace(/\.(ya?ml|json)$/i, '')]));
      if (!names.has(ref)) await source.createDataset(ref);
    }
    written = await source.appendQuestions(ref, rows);
  } catch (error) {
    const message = isAiEvalError(error) || error instanceof Error ? error.message : String(error);
    process.stderr.write(`ai-eval promote: --to ${to}: ${message}\n`);
    return isAiEvalError(error) && error.code === 'INVALID_DATASET' ? EXIT.findings : EXIT.usage;
  }
  if (values.json) printJson({ to, dryRun: false, ids: written, from });
  else
    process.stdout.write(
      `Appended ${written.length} question(s) to ${to}: ${written.join(', ')}\n${from
        .map((f, i) => `  ${f.target} / ${f.id} -> ${written[i] ?? '?'}\n`)
        .join('')}`,
    );
  return EXIT.ok;
}
