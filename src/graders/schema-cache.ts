import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajv2020 } from '../internal/lazy-modules.js';

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
      entry = new (ajv2020())({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
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
