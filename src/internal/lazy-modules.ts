import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type * as YamlModule from 'yaml';

/**
 * ajv and yaml, loaded the first time something needs them. Loading both costs about 50 ms per
 * process (a Vitest fork, a Jest worker, the reporter): a suite of JSON datasets whose schemas are
 * precompiled needs neither, so neither is loaded at import time.
 */
const load = createRequire(import.meta.url);

let ajv: typeof AjvModule.Ajv2020 | undefined;
let yaml: typeof YamlModule | undefined;

/**
 * The `Ajv2020` class (JSON Schema draft 2020-12), loaded on first use.
 *
 * @example
 * ```ts
 * const validate = new (ajv2020())({ allErrors: true }).compile({ type: 'object' });
 * ```
 */
export function ajv2020(): typeof AjvModule.Ajv2020 {
  ajv ??= (load('ajv/dist/2020.js') as typeof AjvModule).Ajv2020;
  return ajv;
}

/**
 * A validator of one of ai-eval's document schemas (rubrics, gold labels), compiled the first time
 * it is asked for (ajv loads then) and the same one after: every error, with the data it was about.
 *
 * @example
 * ```ts
 * const validator = documentValidator(rubricSchemaJson);
 * const validate = validator(); // compiled now
 * validate(value);
 * ```
 */
export function documentValidator(schema: object): () => ValidateFunction {
  let compiled: ValidateFunction | undefined;
  return () =>
    (compiled ??= new (ajv2020())({
      allErrors: true,
      verbose: true,
      allowUnionTypes: true,
      strict: false,
    }).compile(schema));
}

/**
 * The `yaml` package, loaded on first use.
 *
 * @example
 * ```ts
 * yamlModule().stringify({ a: 1 }); // 'a: 1\n'
 * ```
 */
export function yamlModule(): typeof YamlModule {
  yaml ??= load('yaml') as typeof YamlModule;
  return yaml;
}
