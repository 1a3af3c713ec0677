import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../internal/text.js';

/**
 * Takes every `--setup <module>` (or `--setup=<module>`) out of a command's arguments: the modules
 * in order and the rest. `ok` is false when a `--setup` has no module after it.
 */
export function takeSetup(argv: readonly string[]): { ok: boolean; modules: string[]; rest: string[] } {
  const modules: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--setup') {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return { ok: false, modules, rest };
      modules.push(next);
      i++;
    } else if (arg.startsWith('--setup=')) modules.push(arg.slice('--setup='.length));
    else rest.push(arg);
  }
  return { ok: true, modules, rest };
}

/**
 * A real `import()`: the CJS build turns a written `import()` into `require()`, which cannot load
 * an ES module on Node 20, and a setup module usually is one.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const importModule = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<unknown>;

/**
 * Imports setup modules (relative to the working directory), in order: they register custom
 * judges and call `configure()`, as a test runner's setup file does. A module that cannot be
 * imported is a message naming it.
 */
export async function loadSetupModules(
  modules: readonly string[],
): Promise<{ ok: true } | { ok: false; message: string }> {
  for (const module of modules) {
    try {
      await importModule(pathToFileURL(resolve(module)).href);
    } catch (error) {
      return {
        ok: false,
        message: `cannot load the setup module ${module}: ${errorMessage(error)}. Fix the path, or give a JavaScript module (run TypeScript through a loader, e.g. node --import tsx).`,
      };
    }
  }
  return { ok: true };
}
