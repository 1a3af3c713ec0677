export type {
  DatasetDocument,
  DatasetFilter,
  DatasetLoad,
  DatasetProblem,
  DatasetSelector,
  SplitDefinition,
} from './types.js';
export { datasetSchema } from './schema.js';
export {
  validateDataset,
  validateDatasetFile,
  formatProblem,
  type DatasetValidation,
  type ValidateDatasetOptions,
} from './validate.js';
export { MAX_ALIAS_COUNT } from './parse.js';
export {
  defineDatasetSource,
  isWritableSource,
  normalizeQuestions,
  type DatasetCapability,
  type DatasetLoadOptions,
  type DatasetSource,
  type DatasetSourceOptions,
  type SyncDatasetSource,
  type AsyncDatasetSource,
  type WarningLogger,
  type WritableDatasetMethods,
  type WritableDatasetSource,
} from './define-source.js';
export {
  builtinDatasetSources,
  registerDatasetSource,
  unregisterDatasetSource,
  getDatasetSource,
  listDatasetSources,
  type BuiltinDatasetSourceId,
} from './registry.js';
export { fileSource, createFileSource, loadDatasetFile, type FileSourceOptions } from './sources/file.js';
export { allocateIds } from './sources/file-write.js';
export { inlineSource, registerInlineDataset, clearInlineDatasets } from './sources/inline.js';
export { httpSource, clearHttpDatasetCache, DEFAULT_HTTP_TIMEOUT_MS } from './sources/http.js';
export {
  loadDataset,
  loadDatasetSync,
  loadDatasetWithWarnings,
  filterFromEnv,
  datasetLabel,
} from './load.js';
export { createSplitter, splitPosition, type Splitter, type SplitProblem } from './splits.js';
export {
  loadRubric,
  loadRubricCriteria,
  judgeCriteria,
  validateRubric,
  validateParsedRubric,
  rubricSchema,
  rubricDirs,
  type Rubric,
  type RubricCheck,
  type RubricLookup,
  type RubricValidation,
} from './rubrics.js';
export { validateGoldLabels, type GoldLabel } from './gold-labels.js';
