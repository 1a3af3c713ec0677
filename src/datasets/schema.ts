import type { ErrorObject, ValidateFunction } from 'ajv';
import schemaJson from '../../schema/dataset.json' with { type: 'json' };
import * as compiledValidators from './compiled/dataset-validators.js';
import { shownKey } from './text-input.js';

/**
 * The dataset JSON Schema (draft 2020-12), also published as `ai-eval/schema/dataset.json`.
 *
 * @example
 * ```ts
 * datasetSchema.$id; // 'https://unpkg.com/ai-eval/schema/dataset.json'
 * ```
 */
export const datasetSchema: Readonly<Record<string, unknown>> = schemaJson;

interface Compiled {
  document: ValidateFunction;
  question: ValidateFunction;
}

const compiled: Compiled = {
  document: compiledValidators.document,
  question: compiledValidators.question,
};

/**
 * The validators of a dataset and of one question, compiled ahead of time from the schema by
 * `scripts/compile-schemas.mjs` (ajv standalone code): nothing is compiled at run time.
 */
export function validators(): Compiled {
  return compiled;
}

/** A schema error, translated: where (JSON Pointer) and what to do. */
export interface SchemaIssue {
  path: string;
  message: string;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === 'number' && !Number.isFinite(value))
    return `number ${String(value)} (JSON cannot hold it: a number too large to be finite, such as 1e400, or YAML's .inf or .nan)`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** A number as the message shows it: `Infinity` and `NaN` by name (JSON.stringify writes `null`). */
const shownNumber = (value: unknown): string =>
  typeof value === 'number' && !Number.isFinite(value) ? String(value) : String(JSON.stringify(value));

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object (a map of keys)',
  array: 'a list',
  null: 'null',
};

function expectedType(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_WORDS[String(t)] ?? String(t)).join(' or ');
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function branchMatchesType(branch: unknown, value: unknown): boolean {
  const type = (branch as { type?: unknown }).type;
  if (type === undefined) return false;
  const types = (Array.isArray(type) ? type : [type]) as string[];
  const actual = jsonType(value);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

/** The question id's and tag's pattern against a comma (schema/dataset.json). */
const ID_WITHOUT_COMMA = '^[^,]*$';
/** The question id's and tag's pattern against whitespace at either end (schema/dataset.json). */
const ID_TRIMMED = '^(?:\\s*|\\S(?:[\\s\\S]*\\S)?)$';

/** A question's tag (`/questions/3/tags/0`), which AI_EVAL_TAGS selects, rather than its id. */
const TAG_PATH = /\/tags\/\d+$/;

/**
 * AI_EVAL_IDS (and `promote --ids`) and AI_EVAL_TAGS split on commas: an id or tag holding one
 * could never be selected.
 */
function commaIn(value: string, tag: boolean): string {
  const fixed = value.replace(/\s*,\s*/g, '-').trim();
  const example = fixed.replace(/-/g, '') === '' ? '' : `, for example ${shownKey(fixed)}`;
  if (tag)
    return `must not contain a comma, got ${typeName(value)}: AI_EVAL_TAGS reads a comma-separated list, so no filter could select this tag. Fix: make it two tags, or rename it without the comma${example}.`;
  return `must not contain a comma, got ${typeName(value)}: AI_EVAL_IDS (and ai-eval promote --ids) read a comma-separated list, so no filter could select this question. Fix: rename it without the comma${example}.`;
}

/** The filters trim each id and tag: one with whitespace at an end could never be selected. */
function untrimmed(value: string, tag: boolean): string {
  if (tag)
    return `must not begin or end with whitespace, got ${typeName(value)}: AI_EVAL_TAGS trims each tag, so no filter could select this tag. Fix: write it as ${shownKey(value.trim())}.`;
  return `must not begin or end with whitespace, got ${typeName(value)}: AI_EVAL_IDS (and ai-eval promote --ids) trim each id, so no filter could select this question. Fix: write it as ${shownKey(value.trim())}.`;
}

function describe(error: ErrorObject): string {
  const { keyword, params, data } = error;
  const p = params as Record<string, unknown>;
  const key = error.instancePath.split('/').pop() ?? '';
  switch (keyword) {
    case 'required':
      if (p.missingProperty === 'id')
        return "is missing the required key 'id'. Fix: add `id: <a unique name>` to it.";
      return `is missing the required key '${String(p.missingProperty)}'. Fix: add it.`;
    case 'type':
      return `must be ${expectedType(p.type)}, got ${typeName(data)}. Fix the value of '${key}'.`;
    case 'pattern':
      if (p.pattern === ID_WITHOUT_COMMA && typeof data === 'string')
        return commaIn(data, TAG_PATH.test(error.instancePath));
      if (p.pattern === ID_TRIMMED && typeof data === 'string')
        return untrimmed(data, TAG_PATH.test(error.instancePath));
      if (p.pattern !== '\\S') {
        const what = (error.parentSchema as { description?: string } | undefined)?.description;
        return `must be ${what ?? `text matching ${String(p.pattern)}`}, got ${typeName(data)}. Fix the value of '${key}'.`;
      }
      return `must be a non-empty string, got ${typeName(data)}. Fix: give it some text.`;
    case 'minLength':
      return `must be a non-empty string, got ${typeName(data)}. Fix: give it some text.`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => `'${String(v)}'`).join(', ')}, got ${typeName(data)}. Fix the value of '${key}'.`;
    case 'minItems':
      return `must have at least ${String(p.limit)} item(s), got an empty list. Fix: add one or remove the key.`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(p.limit)}, got ${shownNumber(data)}.`;
    case 'minimum':
      return `must be at least ${String(p.limit)}, got ${shownNumber(data)}.`;
    case 'maximum':
      return p.limit === 2147483647
        ? `must be at most 2147483647 (the longest timer Node.js sets, about 24.8 days), got ${shownNumber(data)}.`
        : `must be at most ${String(p.limit)}, got ${shownNumber(data)}.`;
    case 'additionalProperties': {
      const allowed = Object.keys(
        (error.parentSchema as { properties?: object } | undefined)?.properties ?? {},
      );
      return `has an unknown key '${String(p.additionalProperty)}'. Fix: use only ${allowed.map((k) => `'${k}'`).join(', ')}.`;
    }
    default:
      return `${error.message ?? 'is invalid'}.`;
  }
}

function describeAnyOf(error: ErrorObject): string {
  const branches = error.schema as Array<{ required?: string[] }>;
  if (
    branches.some((b) => b.required?.includes('input')) &&
    branches.some((b) => b.required?.includes('messages'))
  ) {
    return "needs either 'input' (the question text) or 'messages' (a list of { role, content }). Fix: add one of them.";
  }
  const description = (error.parentSchema as { description?: string } | undefined)?.description;
  return `must be ${description ?? 'one of the allowed shapes'}, got ${typeName(error.data)}.`;
}

/**
 * Turns ajv's errors into one issue per real problem: branch errors of an `anyOf` are folded into
 * the branch that matches the value's type, or into one message naming the accepted shapes.
 */
export function translateErrors(errors: readonly ErrorObject[]): SchemaIssue[] {
  const dropped = new Set<ErrorObject>();
  const replaced = new Set<ErrorObject>();
  for (const error of errors) {
    if (error.keyword !== 'anyOf') continue;
    const branches = error.schema as unknown[];
    const inside = errors.filter(
      (e) =>
        e !== error &&
        e.schemaPath.startsWith(`${error.schemaPath}/`) &&
        (e.instancePath === error.instancePath || e.instancePath.startsWith(`${error.instancePath}/`)),
    );
    const matching = branches
      .map((b, i) => (branchMatchesType(b, error.data) ? i : -1))
      .filter((i) => i >= 0);
    if (matching.length === 1) {
      const keep = `${error.schemaPath}/${matching[0]}/`;
      for (const e of inside) if (!e.schemaPath.startsWith(keep)) dropped.add(e);
      dropped.add(error);
    } else {
      for (const e of inside) dropped.add(e);
      replaced.add(error);
    }
  }
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (dropped.has(error)) continue;
    if (
      error.keyword === 'pattern' &&
      errors.some((e) => e.keyword === 'minLength' && e.instancePath === error.instancePath)
    )
      continue;
    const message = replaced.has(error) ? describeAnyOf(error) : describe(error);
    const dedupe = `${error.instancePath}\u0000${message}`;
    if (seen.has(dedupe)) continue;
    seen.add(dedupe);
    issues.push({ path: error.instancePath, message });
  }
  return issues;
}
