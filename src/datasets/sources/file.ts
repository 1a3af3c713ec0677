import { logger } from '../../logger.js';
import type { Question } from '../../grading/types.js';
import {
  defineDatasetSource,
  normalizeQuestions,
  type DatasetLoadOptions,
  type SyncDatasetSource,
  type WritableDatasetMethods,
} from '../define-source.js';
import { appendToFile, createDatasetFile } from './file-write.js';
import {
  displayPath,
  listFiles,
  readDocument,
  resolveRef,
  searchDirs,
  type FileSourceDirs,
} from './file-resolve.js';

/**
 * Loads the questions of one dataset file given by path (absolute or relative to the working
 * directory). Validates the whole document first; an invalid one yields `[]` and logs every problem.
 * Never throws.
 *
 * @example
 * ```ts
 * const questions = loadDatasetFile('evals/support.yaml');
 * ```
 */
export function loadDatasetFile(
  path: string,
  questionId?: string,
  options: DatasetLoadOptions = {},
): Question[] {
  return readDatasetFile(path, questionId, options).questions;
}

/** {@link loadDatasetFile} with the document's `splits` block, from the same one read. */
export function readDatasetFile(
  path: string,
  questionId?: string,
  options: DatasetLoadOptions = {},
): { questions: Question[]; splits: unknown } {
  const label = `file:${displayPath(path)}`;
  const document = readDocument(path, label, { fresh: true });
  if (!document) return { questions: [], splits: undefined };
  return {
    questions: normalizeQuestions(document.questions, label, questionId, logger, options),
    splits: document.splits,
  };
}

/**
 * Options of {@link createFileSource}.
 *
 * @example
 * ```ts
 * createFileSource({ id: 'evals', label: 'Eval files', paths: ['evals/datasets'], root: process.cwd() });
 * ```
 */
export interface FileSourceOptions extends FileSourceDirs {
  /** The source id. Default `file`. */
  id?: string;
  /** The label. Default `Files`. */
  label?: string;
}

/**
 * Creates a `file` dataset source over dataset directories: bare refs (`support.yaml`, or `support`
 * for the first of `.yaml`, `.yml`, `.json`) resolve in order through the configured
 * `datasets.paths` and then `datasets/` under the root. A duplicate name resolves to the first
 * directory and logs the ignored one; a ref with a path separator or `..` loads nothing. The source
 * is writable: `appendQuestions` and `createDataset` write through a lock, a temporary file and a
 * rename. Directories are read from the configuration at each call unless given here.
 *
 * @example
 * ```ts
 * const evals = createFileSource({ id: 'evals', paths: ['evals/datasets'] });
 * registerDatasetSource(evals);
 * await evals.appendQuestions('support.yaml', [{ id: 'refund', input: 'How do I get a refund?' }]);
 * ```
 */
export function createFileSource(
  options: FileSourceOptions = {},
): SyncDatasetSource & WritableDatasetMethods {
  const id = options.id ?? 'file';
  const dirs = () => searchDirs(options);
  const source = defineDatasetSource({
    id,
    label: options.label ?? 'Files',
    description: 'YAML and JSON dataset files in the configured dataset directories.',
    capabilities: ['read', 'write'],
    load(ref, questionId, loadOptions) {
      const path = resolveRef(ref, dirs(), `${id}:${ref}`);
      if (path === undefined) return [];
      const document = readDocument(path, `${id}:${ref}`, { fresh: true });
      if (!document) return [];
      return normalizeQuestions(document.questions, `${id}:${ref}`, questionId, logger, loadOptions);
    },
    locate: (ref) => resolveRef(ref, dirs(), `${id}:${ref}`, true),
    loadSplits(ref) {
      const path = resolveRef(ref, dirs(), `${id}:${ref}`, true);
      const document = path === undefined ? undefined : readDocument(path, `${id}:${ref}`);
      return structuredClone(document?.splits ?? {});
    },
    listDatasets: () => [...listFiles(dirs()).keys()],
    listDatasetsWithLabels() {
      const labels: Record<string, string> = {};
      for (const [name, path] of listFiles(dirs())) {
        const document = readDocument(path, `${id}:${name}`);
        labels[name] = document?.label ?? document?.name ?? name;
      }
      return labels;
    },
    appendQuestions: (ref, questions) => appendToFile(ref, questions, dirs(), id),
    createDataset: (ref, meta) => createDatasetFile(ref, meta ?? {}, dirs(), id),
  });
  return source as SyncDatasetSource & WritableDatasetMethods;
}

/**
 * The shipped `file` source (writable), reading directories from the configuration.
 *
 * @example
 * ```ts
 * fileSource.load('support.yaml'); // Question[], synchronously
 * ```
 */
export const fileSource: SyncDatasetSource & WritableDatasetMethods = createFileSource();
