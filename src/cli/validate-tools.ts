import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { isAiEvalError } from '../errors.js';
import type { DatasetProblem } from '../datasets/types.js';
import { parseText } from '../datasets/parse.js';
import { unknownTools } from '../graders/catalog-check.js';
import { parseExpectedTools } from '../graders/expected-tools.js';
import { normalizeToolCatalog } from '../grading/tool-catalog.js';
import type { CatalogTool, Question } from '../grading/types.js';

/**
 * Reads the tool catalog of `ai-eval validate --tools <file>` (JSON or YAML, any shape
 * `normalizeToolCatalog` reads). Returns the catalog, or the reason it could not be read
 * (`unreadable` when the file itself could not be read, rather than its content not understood).
 *
 * @example
 * ```ts
 * const loaded = loadCatalog('tools.json');
 * if (!loaded.ok) console.error(loaded.message);
 * ```
 */
export function loadCatalog(
  file: string,
): { ok: true; tools: CatalogTool[] } | { ok: false; message: string; unreadable?: true } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return {
      ok: false,
      message: `${file}: could not be read (${(error as Error).message}). Fix the --tools path.`,
      unreadable: true,
    };
  }
  const parsed = parseText(text, file, { json: extname(file).toLowerCase() === '.json' });
  if (parsed.problems.length > 0)
    return { ok: false, message: parsed.problems.map((p) => `${file}: ${p.message}`).join('\n') };
  try {
    return { ok: true, tools: normalizeToolCatalog(parsed.value, 'tools') };
  } catch (error) {
    return { ok: false, message: `${file}: ${isAiEvalError(error) ? error.message : String(error)}` };
  }
}

/**
 * The `expected_tools` names (and `after` anchors) of a dataset's questions that the catalog does
 * not list, each a problem at its file, line and JSON path, naming the closest catalog name.
 *
 * @example
 * ```ts
 * toolNameProblems(document.questions, catalog, 'support.yaml', parsed.locate);
 * // [{ file: 'support.yaml', line: 7, column: 9, path: '/questions/0/expected_tools/0', message: "'list_node' is not ..." }]
 * ```
 */
export function toolNameProblems(
  questions: readonly Partial<Question>[],
  catalog: readonly CatalogTool[],
  file: string,
  locate: (path: string) => { line: number; column: number } | undefined,
): DatasetProblem[] {
  const problems: DatasetProblem[] = [];
  questions.forEach((question, i) => {
    const parsed = parseExpectedTools(question.expected_tools);
    if (question.expected_tools === undefined || !parsed.ok) return;
    for (const unknown of unknownTools(parsed.expectations, catalog)) {
      const entry = `/questions/${i}/expected_tools/${unknown.index}`;
      const path =
        typeof question.expected_tools[unknown.index] === 'string' ? entry : `${entry}/${unknown.field}`;
      const pos = locate(path);
      const hint = unknown.suggestion !== undefined ? ` Did you mean ${unknown.suggestion}?` : '';
      problems.push({
        file,
        ...(pos ? { line: pos.line, column: pos.column } : {}),
        path,
        message: `'${unknown.name}' is not a tool in the catalog.${hint} Fix the name, or add the tool to the catalog.`,
      });
    }
  });
  return problems;
}
