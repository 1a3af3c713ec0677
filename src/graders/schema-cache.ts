import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type * as AjvModule from 'ajv/dist/2020.js';

/** ajv, loaded when the first schema is compiled: most runs never check a response's schema. */
let Ajv: typeof AjvModule.Ajv2020 | undefined;

const SCHEMA_CACHE_LIMIT = 256;
const schemaCache = new Map<string, ValidateFunction | Error>();

/**
 * Compiles a JSON Schema (draft 2020-12) once per process: later questions with the same schema
 * (compared by its JSON text) reuse the validator. Returns the validator, or the reason the schema
 * is not one. All errors are collected; `format` keywords are annotations, not asserted.
 *
 * @example
 * ```ts
 * const compiled = compileSchema({ type: 'object', required: ['ok'] });
 * if (compiled.ok) compiled.validate({ ok: true }); // true
 * ```
 */
export function compileSchema(
  schema: unknown,
): { ok: true; validate: ValidateFunction } | { ok: false; message: string } {
  if (
    typeof schema !== 'boolean' &&
    (typeof schema !== 'object' || schema === null || Array.isArray(schema))
  ) {
    return { ok: false, message: 'expected.schema must be a JSON Schema object (or true/false)' };
  }
  const key = JSON.stringify(schema);
  let entry = schemaCache.get(key);
  if (entry === undefined) {
    try {
      // One instance per schema, so two schemas that reuse an $id do not collide.
      Ajv ??= (createRequire(import.meta.url)('ajv/dist/2020.js') as typeof AjvModule).Ajv2020;
      entry = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
    } catch (error) {
      entry = error instanceof Error ? error : new Error(String(error));
    }
    if (schemaCache.size >= SCHEMA_CACHE_LIMIT) schemaCache.delete(schemaCache.keys().next().value!);
    schemaCache.set(key, entry);
  }
  return entry instanceof Error
    ? { ok: false, message: `expected.schema is not a valid JSON Schema: ${entry.message}` }
    : { ok: true, validate: entry };
}

/**
 * How many distinct schemas are compiled and cached in this process (for tests and benchmarks).
 *
 * @example
 * ```ts
 * compiledSchemaCount(); // 0 before any question with a schema was graded
 * ```
 */
export function compiledSchemaCount(): number {
  return schemaCache.size;
}
