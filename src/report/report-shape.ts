import { createRequire } from 'node:module';

/**
 * The part of JSON Schema (draft 2020-12) that `schema/report.json` is written in, which
 * {@link reportProblem} checks. A keyword outside it would be ignored: test/report/report-shape.test.ts
 * fails when the schema uses one (add it here and in `check`).
 *
 * @example
 * ```ts
 * REPORT_SCHEMA_KEYWORDS.includes('oneOf'); // true
 * ```
 */
export const REPORT_SCHEMA_KEYWORDS: readonly string[] = [
  // checked
  'type',
  'required',
  'properties',
  'additionalProperties',
  'items',
  '$ref',
  'oneOf',
  'enum',
  'const',
  'minimum',
  'maximum',
  'format',
  // annotations and structure
  '$schema',
  '$id',
  '$defs',
  'title',
  'description',
];

interface Schema {
  type?: string | string[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  $ref?: string;
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
  $defs?: Record<string, Schema>;
}

let root: Schema | undefined;

/**
 * The report schema the package ships (`ai-eval/schema/report.json`, through the package's own
 * exports), read the first time a report is checked: the one source of truth, never a copy, and not
 * bundled into the code (its annotations stay out of dist).
 */
function schemaRoot(): Schema {
  root ??= createRequire(import.meta.url)('ai-eval/schema/report.json') as Schema;
  return root;
}

/**
 * What is wrong with a value of a report, and where: `path` is a JSON path (`$.targets[0].composite`).
 *
 * @example
 * ```ts
 * const problem: ReportProblem | null = reportProblem(JSON.parse(text));
 * if (problem) console.error(`${problem.path}: ${problem.problem}`);
 * ```
 */
export interface ReportProblem {
  path: string;
  problem: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function member(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

const TYPE_WORDS: Record<string, string> = {
  null: 'null',
  array: 'an array',
  object: 'an object',
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
};

function words(types: readonly string[]): string {
  return types.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
}

/** How a value reads after `got`. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  if (typeof value === 'string' && value.length > 60) return `${JSON.stringify(value.slice(0, 60))}...`;
  return JSON.stringify(value) ?? String(value);
}

const resolved = new Map<string, Schema>();

function resolve(ref: string): Schema {
  let target = resolved.get(ref);
  if (target) return target;
  const name = /^#\/\$defs\/([^/]+)$/.exec(ref)?.[1];
  target = name === undefined ? undefined : schemaRoot().$defs?.[name];
  if (!target) throw new Error(`schema/report.json: cannot resolve $ref ${ref}`);
  resolved.set(ref, target);
  return target;
}

function typeMatches(type: string | string[], value: unknown): boolean {
  if (typeof type === 'string') return matchesType(value, type);
  for (const t of type) if (matchesType(value, t)) return true;
  return false;
}

/** The types a schema accepts at its top (through `$ref`), for naming a `oneOf`'s shapes. */
function topTypes(schema: Schema): string[] {
  if (schema.$ref !== undefined) return topTypes(resolve(schema.$ref));
  if (schema.type !== undefined) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.oneOf) return schema.oneOf.flatMap(topTypes);
  return [];
}

/** A problem found inside a value: the keys down to it (pushed on the way back up) and what is wrong. */
interface Found {
  keys: Array<string | number>;
  problem: string;
}

/** Checks one value against one schema node. */
type Checker = (value: unknown) => Found | null;

const found = (problem: string, keys: Array<string | number> = []): Found => ({ keys, problem });

function within(key: string | number, inner: Found | null): Found | null {
  if (inner) inner.keys.push(key);
  return inner;
}

const hasOwn = (record: object, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Turns the schema into checkers once (per value of `required`), so that checking a large report
 * does not read the keywords again at every value. `$ref`s resolve to one checker each, made lazily.
 */
class Compiler {
  private readonly made = new Map<Schema, Checker>();

  constructor(private readonly required: boolean) {}

  compile(schema: Schema): Checker {
    const known = this.made.get(schema);
    if (known) return known;
    let impl: Checker | undefined;
    const checker: Checker = (value) => (impl ??= this.build(schema))(value);
    this.made.set(schema, checker);
    return checker;
  }

  private build(schema: Schema): Checker {
    const steps: Checker[] = [];
    if (schema.$ref !== undefined) steps.push(this.compile(resolve(schema.$ref)));
    if (schema.oneOf) steps.push(this.oneOf(schema.oneOf));
    const type = schema.type;
    if (type !== undefined)
      steps.push((value) =>
        typeMatches(type, value)
          ? null
          : found(`expected ${words(([] as string[]).concat(type))}, got ${shown(value)}`),
      );
    if (schema.const !== undefined) {
      const expected = schema.const;
      steps.push((value) =>
        value === expected ? null : found(`expected ${shown(expected)}, got ${shown(value)}`),
      );
    }
    if (schema.enum) {
      const allowed = schema.enum;
      steps.push((value) =>
        allowed.includes(value)
          ? null
          : found(`expected one of ${allowed.map(shown).join(', ')}, got ${shown(value)}`),
      );
    }
    const { minimum, maximum } = schema;
    if (minimum !== undefined || maximum !== undefined)
      steps.push((value) => {
        if (typeof value !== 'number') return null;
        if (minimum !== undefined && value < minimum)
          return found(`expected at least ${minimum}, got ${value}`);
        if (maximum !== undefined && value > maximum)
          return found(`expected at most ${maximum}, got ${value}`);
        return null;
      });
    if (schema.format === 'date-time')
      steps.push((value) =>
        typeof value === 'string' && Number.isNaN(Date.parse(value))
          ? found(`expected a date and time (ISO 8601), got ${shown(value)}`)
          : null,
      );
    if (schema.items) {
      const item = this.compile(schema.items);
      steps.push((value) => {
        if (!Array.isArray(value)) return null;
        for (let i = 0; i < value.length; i++) {
          const inner = item(value[i]);
          if (inner) return within(i, inner);
        }
        return null;
      });
    }
    const object = this.object(schema);
    if (object) steps.push(object);
    if (steps.length === 1) return steps[0] as Checker;
    return (value) => {
      for (const step of steps) {
        const inner = step(value);
        if (inner) return inner;
      }
      return null;
    };
  }

  private oneOf(branches: Schema[]): Checker {
    const checkers = branches.map((b) => this.compile(b));
    return (value) => {
      const results = checkers.map((c) => c(value));
      const passing = results.filter((r) => r === null).length;
      if (passing === 1) return null;
      if (passing > 1) return found('matches more than one of the shapes it may have');
      // The branch meant for a value of this type says what is wrong inside it; else name the shapes.
      const meant = branches.findIndex((b) => topTypes(b).some((t) => matchesType(value, t)));
      if (meant >= 0) return results[meant] as Found;
      return found(`expected ${words([...new Set(branches.flatMap(topTypes))])}, got ${shown(value)}`);
    };
  }

  private object(schema: Schema): Checker | undefined {
    const required = this.required ? (schema.required ?? []) : [];
    const properties = new Map(
      Object.entries(schema.properties ?? {}).map(([key, sub]) => [key, this.compile(sub)] as const),
    );
    const extra =
      typeof schema.additionalProperties === 'object' ? this.compile(schema.additionalProperties) : undefined;
    if (required.length === 0 && properties.size === 0 && !extra) return undefined;
    return (value) => {
      if (!isObject(value)) return null;
      for (const key of required) if (!hasOwn(value, key)) return found('is missing', [key]);
      for (const key of Object.keys(value)) {
        // A field the schema does not name is let through (`additionalProperties: false` included):
        // a report from a later version may carry more, and nothing reads what it does not know.
        const sub = properties.get(key) ?? extra;
        if (sub === undefined) continue;
        const inner = sub(value[key]);
        if (inner) return within(key, inner);
      }
      return null;
    };
  }
}

const checkers = new Map<boolean, Checker>();

/**
 * The first value of a parsed report that `schema/report.json` does not allow, with its JSON path
 * and what is wrong (`expected a number or null, got "5"`), or `null` when every value is of its
 * type and range. Fields the schema does not name are ignored, so a report from a later version
 * with more fields still reads. `{ required: false }` lets fields be absent (a version 1 report).
 *
 * @example
 * ```ts
 * reportProblem(JSON.parse(text)); // { path: '$.targets[0].questions[0].composite', problem: 'expected a number or null, got "5"' }
 * ```
 */
export function reportProblem(data: unknown, options: { required?: boolean } = {}): ReportProblem | null {
  const required = options.required ?? true;
  let checker = checkers.get(required);
  if (!checker) {
    checker = new Compiler(required).compile(schemaRoot());
    checkers.set(required, checker);
  }
  const inner = checker(data);
  if (!inner) return null;
  let path = '$';
  for (let i = inner.keys.length - 1; i >= 0; i--) {
    const key = inner.keys[i] as string | number;
    path = typeof key === 'number' ? `${path}[${key}]` : member(path, key);
  }
  return { path, problem: inner.problem };
}
