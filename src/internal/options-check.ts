import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { ajv2020 } from './lazy-modules.js';
import { AiEvalError, type AiEvalErrorCode } from '../errors.js';

/**
 * A JSON Schema for options, where every constrained node says in `description` what it expects
 * (`'hard' or 'soft'`, `a number from 0 to 5`) and a node may carry `x-message` for a rule that
 * spans properties. {@link optionsChecker} turns the first failure into one clear sentence.
 */
export type OptionSchema = Record<string, unknown>;

/** How a checker names what it checks and where to read more. */
export interface CheckerLabels {
  /** The error code thrown. */
  code: AiEvalErrorCode;
  /** What is checked, for example `ai-eval reporter option` or `target "bot"`. */
  subject: string;
  /** Where to fix it, appended as `See <docs>.` */
  docs?: string;
}

/**
 * The ajv options every options schema is compiled with, here and ahead of time by
 * scripts/compile-option-validators.mjs (a test holds the two to the same options).
 */
export const OPTIONS_AJV = {
  allErrors: true,
  verbose: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
} as const;

/** A validator as ajv makes it, compiled now or ahead of time (standalone code). */
export interface OptionsValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

let ajv: Ajv2020 | undefined;

/** ajv's compiler, loaded on first use only: the shipped schemas come compiled ahead of time. */
function compiler(): Ajv2020 {
  if (!ajv) {
    ajv = new (ajv2020())({ ...OPTIONS_AJV });
    ajv.addVocabulary(['x-message']);
  }
  return ajv;
}

/** How a value reads after `got`. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'function') return 'a function';
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

function pathOf(error: ErrorObject): string {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function sentence(error: ErrorObject): { path: string; problem: string } {
  const path = pathOf(error);
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>;
  const join = (key: string): string => (path ? `${path}.${key}` : key);
  if (error.keyword === 'additionalProperties') {
    const key = String((error.params as { additionalProperty: string }).additionalProperty);
    const known = Object.keys(parent.properties ?? {});
    return { path: join(key), problem: `unknown option (known: ${known.join(', ')})` };
  }
  if (error.keyword === 'required') {
    const key = String((error.params as { missingProperty: string }).missingProperty);
    const property = ((parent.properties ?? {}) as Record<string, { description?: string }>)[key];
    return {
      path: join(key),
      problem: `is required${property?.description ? `: ${property.description}` : ''}`,
    };
  }
  if (error.keyword === 'dependentRequired') {
    const { property, missingProperty } = error.params as { property: string; missingProperty: string };
    return { path: join(property), problem: `needs \`${missingProperty}\` as well` };
  }
  if (typeof parent['x-message'] === 'string' && (error.keyword === 'anyOf' || error.keyword === 'not')) {
    return { path, problem: parent['x-message'] };
  }
  const description = typeof parent.description === 'string' ? parent.description : error.message;
  return { path, problem: `expected ${description}, got ${shown(error.data)}` };
}

/** A compiled options check: returns the value typed, or throws naming what to fix. */
export type OptionsCheck<T> = (value: unknown, labels: CheckerLabels, at?: string) => T;

/**
 * Makes a check that throws an {@link AiEvalError} naming the option path, what it expects and
 * what it got: the one mechanism behind the target, gate, suite, matcher and reporter option
 * checks. `validate` is the schema compiled ahead of time (src/run/option-validators.generated.ts);
 * without it the schema is compiled on the check's first use.
 *
 * @example
 * ```ts
 * const checkGate = optionsChecker<Gate>(gateSchema);
 * checkGate({ level: 'hrad', minAverage: 3 }, { code: 'INVALID_CONFIG', subject: 'ai-eval reporter option' }, 'gate');
 * // throws: ai-eval reporter option gate.level: expected 'hard' or 'soft', got "hrad".
 * ```
 */
export function optionsChecker<T>(schema: OptionSchema, validate?: OptionsValidator): OptionsCheck<T> {
  let check = validate;
  return (value, labels, at) => {
    check ??= compiler().compile(schema) as OptionsValidator;
    if (check(value)) return value as T;
    // An anyOf reports each failed branch before itself: explain the anyOf, not a branch.
    const errors = check.errors ?? [];
    // A direct failure (an unknown key, a wrong type) says more than a rule across keys.
    const own = errors.filter((e) => !/\/(anyOf|oneOf)\/\d+\//.test(e.schemaPath));
    const first = own.find((e) => e.keyword !== 'anyOf') ?? own[0] ?? errors[0];
    const { path, problem } = first ? sentence(first) : { path: '', problem: 'is invalid' };
    const where = [at, path].filter((p) => p !== undefined && p !== '').join('.');
    const docs = labels.docs ? ` See ${labels.docs}.` : '';
    throw new AiEvalError(labels.code, `${labels.subject}${where ? ` ${where}` : ''}: ${problem}.${docs}`);
  };
}
