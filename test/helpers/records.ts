import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './paths.js';

/** Every fixtures/records JSON file, as `records/<name>.json` files for a fixture project. */
export function recordFiles(): Record<string, string> {
  const base = join(ROOT, 'fixtures', 'records');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.json') ? [path] : [];
    });
  return Object.fromEntries(
    walk(base).map((path) => [`records/${relative(base, path)}`, readFileSync(path, 'utf8')]),
  );
}
