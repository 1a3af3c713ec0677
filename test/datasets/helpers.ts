import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TMP } from '../helpers/paths.js';

/** Makes a scratch directory under .tmp with the given files. */
export function scratch(files: Record<string, string> = {}): string {
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(join(TMP, 'datasets-'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

/** A small valid dataset in YAML. */
export function yamlDataset(ids: string[], extra = ''): string {
  return `${extra}questions:\n${ids.map((id) => `  - id: ${id}\n    input: Question ${id}\n`).join('')}`;
}
