import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetLoad } from '../types.js';
import { rubricDirs } from '../rubrics.js';

const RUBRIC_EXTENSIONS = ['.rubric.yaml', '.rubric.yml', '.rubric.json', '.yaml', '.yml', '.json'];

/**
 * The files a loaded dataset's suite depends on, for a runner's watch mode: the dataset file, and
 * every existing rubric file a question's `rubric_ref` can resolve to. A dataset without a file
 * (inline, http) has none of its own.
 *
 * @example
 * ```ts
 * watchedFiles(loadDatasetSync({ path: 'datasets/support.yaml' }));
 * // ['/app/datasets/support.yaml', '/app/datasets/rubrics/cites-policy.yaml']
 * ```
 */
export function watchedFiles(load: DatasetLoad): string[] {
  const files = load.file !== undefined ? [load.file] : [];
  const refs = new Set<string>();
  for (const question of load.questions)
    if (
      typeof question.rubric_ref === 'string' &&
      !/[/\\]/.test(question.rubric_ref) &&
      !question.rubric_ref.includes('..')
    )
      refs.add(question.rubric_ref);
  if (refs.size === 0) return files;
  const dirs = rubricDirs(load.file !== undefined ? { datasetFile: load.file } : {});
  for (const ref of refs)
    for (const dir of dirs)
      for (const ext of RUBRIC_EXTENSIONS) {
        const path = join(dir, `${ref}${ext}`);
        if (existsSync(path)) files.push(path);
      }
  return [...new Set(files)];
}
