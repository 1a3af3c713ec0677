import type { EvalReport } from './model.js';

/**
 * The JSON report's text: indented as `JSON.stringify(report, null, 2)` would down to the lists a
 * target or the baseline holds (a target's questions, negated assertions, advisories, the
 * baseline's changes), whose entries take one line each. The content is the same JSON; the file is
 * about half the size of a fully indented one and written in half the time, and a committed
 * baseline still diffs line by line: one question per line.
 *
 * @example
 * ```ts
 * writeFileAtomic('reports/ai-eval.json', reportJson(report));
 * ```
 */
export function reportJson(report: EvalReport): string {
  return `${layout(report, '', 0) ?? 'null'}\n`;
}

/** Arrays this deep or deeper (the report is 0, `targets` 1, a target 2) hold one-line entries. */
const ONE_LINE_ENTRIES_FROM = 2;

/** `value` laid out at `depth`, or undefined where JSON.stringify would leave the key out. */
function layout(value: unknown, indent: string, depth: number): string | undefined {
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const oneLine = depth >= ONE_LINE_ENTRIES_FROM;
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const entry = oneLine ? (JSON.stringify(item) as string | undefined) : layout(item, inner, depth + 1);
      text += `${i === 0 ? '' : ','}\n${inner}${entry ?? 'null'}`;
    }
    return `${text}\n${indent}]`;
  }
  let text = '';
  for (const key of Object.keys(value)) {
    const entry = layout((value as Record<string, unknown>)[key], inner, depth + 1);
    if (entry === undefined) continue;
    text += `${text === '' ? '' : ','}\n${inner}${JSON.stringify(key)}: ${entry}`;
  }
  return text === '' ? '{}' : `{${text}\n${indent}}`;
}
