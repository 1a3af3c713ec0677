import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../internal/text.js';

/**
 * The `--setup <module>` option of list, pull and promote: modules that register custom graders and
 * dataset sources (`registerGrader`, `registerDatasetSource`) or call `configure`, imported in order
 * before the command runs. The registries live on `globalThis`, so what the module registers through
 * its own `import 'ai-eval'` is what the command sees.
 */
export const SETUP_OPTION = { setup: { type: 'string', multiple: true } } as const;

/**
 * Imports each setup module (a path relative to the working directory). Returns what went wrong,
 * naming the module, or `undefined` when every one loaded.
 *
 * @example
 * ```ts
 * const problem = await importSetupModules(values.setup ?? []);
 * if (problem) return inputError('pull', problem);
 * ```
 */
/**
 * A real `import()`, also in the CommonJS build of the CLI (the bundler turns a plain `import()` of
 * a CJS build into `require()`, which cannot load an ES module).
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- a fixed body, no input is evaluated
const importModule = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<unknown>;

export async function importSetupModules(files: readonly string[]): Promise<string | undefined> {
  for (const file of files) {
    try {
      await importModule(pathToFileURL(resolve(file)).href);
    } catch (error) {
      return `--setup ${file}: the module failed to load (${errorMessage(error)}). Fix the path, or the error in the module (a .js or .mjs file that registers sources or graders)`;
    }
  }
  return undefined;
}
