/**
 * `ai-eval`: what users write code against. Everything else in the package is internal (see
 * src/internal/README.md) and may change in any release; the export list is pinned by a test, so
 * a new export is a decision.
 */
export { AiEvalError, ERROR_CODES, isAiEvalError, type AiEvalErrorCode } from './errors.js';
export {
  logger,
  captureLogs,
  captureLogsAsync,
  type LogEntry,
  type LogLevel,
  type LogListener,
} from './logger.js';
export {
  configure,
  getConfig,
  resetConfig,
  type AiEvalConfig,
  type AiEvalConfigInput,
  type JudgeConfig,
  type DatasetConfig,
} from './config.js';
export type {
  AgentRun,
  CatalogTool,
  ClaimPattern,
  ChatMessage,
  Expected,
  ExpectedTool,
  Gradable,
  GradeResult,
  GradingContext,
  Question,
  TokenUsage,
  ToolArguments,
  ToolCall,
  ToolCallKind,
  ToolCallStatus,
} from './grading/types.js';
export type { JudgeCallInfo } from './grading/types.js';
export {
  defineGrader,
  type Grader,
  type GraderOptions,
  type GradeFn,
  type GradeHelpers,
  type ResultFactory,
} from './grading/define-grader.js';
export { toComposite } from './grading/scale.js';
export { inputOf } from './grading/context.js';
export { normalizeToolCalls, displayToolCalls, displayArguments } from './grading/tool-calls.js';
export { normalizeToolCatalog, type ToolCatalogInput } from './grading/tool-catalog.js';
export { FALLBACK_MARKER } from './grading/markers.js';
export {
  registerGrader,
  unregisterGrader,
  getGrader,
  hasGrader,
  listGraders,
  type GraderId,
} from './registry/graders.js';
export type { BuiltinGraderId } from './registry/builtin.js';
export { judgeIdentity, type JudgeIdentity } from './registry/judge-identity.js';
export { readOnlyRun } from './graders/read-only-run.js';
export { toolUsageGrader } from './graders/tool-usage.js';
export { formatGrader } from './graders/format.js';
export { claimsGrader } from './graders/claims.js';
export { DEFAULT_CLAIM_PATTERNS } from './graders/claim-patterns.js';
export {
  defineStateCheck,
  unregisterStateCheck,
  getStateCheck,
  listStateChecks,
  type StateCheck,
  type StateCheckContext,
  type StateCheckDefinition,
  type StateCheckFn,
  type StateCheckResult,
} from './graders/state/state-checks.js';
export { stateGrader, defineStateGrader, type StateGraderOptions } from './graders/state/state-grader.js';
export { rubricChecks } from './graders/rubric/rubric-checks.js';
export {
  defineCheckExecutor,
  unregisterCheckExecutor,
  listCheckExecutors,
} from './graders/rubric/executors.js';
export type {
  CheckExecutor,
  CheckExecutorOptions,
  CheckOutcome,
  CheckRun,
} from './graders/rubric/check-types.js';
export { chrf } from './graders/rubric/chrf.js';
export {
  defineJudge,
  isJudge,
  type Judge,
  type JudgeOptions,
  type JudgeAnswerField,
} from './judge/define-judge.js';
export type { JudgeChatBody, JudgeChatClient, JudgeChatCompletion, JudgeMessage } from './judge/client.js';
export type { JudgeCacheMode } from './judge/settings.js';
export type { JudgeAnswer } from './judge/parse.js';
export type { JudgeCacheEntry } from './judge/cache.js';
export { relevanceGrader } from './judges/relevance-grader.js';
export { completenessGrader } from './judges/completeness-grader.js';
export { actionabilityGrader } from './judges/actionability-grader.js';
export { accuracyGrader } from './judges/accuracy-grader.js';
export { factMatchGrader } from './judges/fact-match-grader.js';
export { groundednessGrader } from './judges/groundedness-grader.js';
export type {
  DatasetDocument,
  DatasetFilter,
  DatasetLoad,
  DatasetProblem,
  DatasetSelector,
  SplitDefinition,
} from './datasets/types.js';
export {
  validateDataset,
  validateDatasetFile,
  formatProblem,
  type DatasetValidation,
  type ValidateDatasetOptions,
} from './datasets/validate.js';
export {
  defineDatasetSource,
  isWritableSource,
  normalizeQuestions,
  type AsyncDatasetSource,
  type DatasetCapability,
  type DatasetLoadOptions,
  type DatasetSource,
  type DatasetSourceOptions,
  type SyncDatasetSource,
  type WarningLogger,
  type WritableDatasetMethods,
  type WritableDatasetSource,
} from './datasets/define-source.js';
export {
  registerDatasetSource,
  unregisterDatasetSource,
  getDatasetSource,
  listDatasetSources,
  type BuiltinDatasetSourceId,
} from './datasets/registry.js';
export { fileSource, createFileSource, type FileSourceOptions } from './datasets/sources/file.js';
export { inlineSource, registerInlineDataset, clearInlineDatasets } from './datasets/sources/inline.js';
export { httpSource, clearHttpDatasetCache } from './datasets/sources/http.js';
export { loadDataset, loadDatasetSync, loadDatasetWithWarnings } from './datasets/load.js';
export {
  loadRubric,
  loadRubricCriteria,
  validateRubric,
  rubricSchema,
  type CombineMode,
  type ResolvedRubric,
  type Rubric,
  type RubricCheck,
  type RubricLookup,
  type RubricScoring,
  type RubricValidation,
} from './datasets/rubrics.js';
export {
  validateGoldLabels,
  goldSchema,
  type GoldFile,
  type GoldLabel,
  type GoldValidation,
} from './datasets/gold-labels.js';
export { gradeQuestion, type GradeQuestionOptions, type QuestionResult } from './run/grade-question.js';
export type { Target, Gate } from './run/target.js';
export {
  RECORD_VERSION,
  type AiEvalRecord,
  type EvalRecord,
  type FilterSkipRecord,
  type LoadFailureRecord,
  type RecordTarget,
  type RecordedEvidence,
  type RecordedGrade,
  type RecordedToolCall,
  type SuiteRecord,
} from './run/record-types.js';
export {
  REPORT_SCHEMA_VERSION,
  type Advisory,
  type AdvisoryCode,
  type BaselineChange,
  type BaselineReport,
  type Coverage,
  type EvalReport,
  type GateSettings,
  type GateVerdict,
  type GradeReport,
  type JudgeTokens,
  type LoadFailureReport,
  type NegatedReport,
  type PartialRun,
  type QuestionReport,
  type RunIdentity,
  type RunVerdict,
  type SkippedSuiteReport,
  type TargetReport,
  type Totals,
  type TrialEvidence,
  type TrialsReport,
} from './report/model.js';
export { parseReport } from './report/baseline.js';
export { mergeReports } from './report/merge.js';
export type { ReporterOptions } from './report/options.js';
export {
  DEFAULT_JUDGES_FILE,
  DEFAULT_TRUST_MINIMUMS,
  readTrustFile,
  trustState,
  type JudgeMetrics,
  type JudgeTrustEntry,
  type Rate,
  type TrustFile,
  type TrustMinimums,
  type TrustState,
} from './report/judge-trust.js';
export type {
  JudgeHealth,
  JudgePassRate,
  JudgeReport,
  JudgeValidationSummary,
  TargetJudgeReport,
} from './report/judge-report-types.js';
export {
  judgeMetrics,
  updateTrustFile,
  validateJudges,
  type GoldItemResult,
  type GoldOutcome,
  type JudgeValidation,
  type LabelsNeeded,
  type ValidateJudgesOptions,
} from './validation/index.js';
