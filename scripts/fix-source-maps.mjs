// After tsup: make every source map in dist/ point at files the package ships. tsup's CommonJS
// maps name the build machine's absolute path of the .cjs file itself, without its content; the
// ESM maps name ../src, ../matchers and ../reporter, which the package ships (package.json
// `files`). Each source becomes a path relative to its map, and each map carries the content of
// every source (sourcesContent), so a stack frame or a debugger finds the code either way.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** Rewrites the maps under `dist`; returns how many it changed. */
export function fixSourceMaps(dist = resolve('dist')) {
  let changed = 0;
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.map')) continue;
    const file = join(entry.parentPath ?? entry.path, entry.name);
    const map = JSON.parse(readFileSync(file, 'utf8'));
    const dir = dirname(file);
    const sources = map.sources.map((source) => {
      const absolute = isAbsolute(source) ? source : resolve(dir, source);
      return relative(dir, absolute).split('\\').join('/');
    });
    const content = sources.map((source, i) => {
      const known = map.sourcesContent?.[i];
      if (typeof known === 'string') return known;
      try {
        return readFileSync(resolve(dir, source), 'utf8');
      } catch {
        return null;
      }
    });
    const next = { ...map, sources, sourcesContent: content };
    if (JSON.stringify(next) !== JSON.stringify(map)) {
      writeFileSync(file, JSON.stringify(next));
      changed += 1;
    }
  }
  return changed;
}
