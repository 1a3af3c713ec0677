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
} from './grading/types.js';
export {
  defineGrader,
  createResultFactory,
  type Grader,
  type GraderOptions,
  type GradeFn,
  type GradeHelpers,
  type ResultFactory,
} from './grading/define-grader.js';
export {
  registerGrader,
  unregisterGrader,
  getGrader,
  hasGrader,
  listGraders,
  resolveGrader,
  actionObservingGraders,
  type GraderId,
} from './grading/registry.js';
export { toComposite, scaleLabel, isBinaryScale } from './grading/scale.js';
export { buildContext, messagesOf, inputOf, type ContextOptions } from './grading/context.js';
export { normalizeToolCalls, recordOf, MAX_ARGUMENT_CHARS, TRUNCATION_MARKER } from './grading/tool-calls.js';
export { builtinGraders, type BuiltinGraderId } from './graders/index.js';
export { readOnlyRun, DEFAULT_FORBIDDEN_PREFIXES } from './graders/read-only-run.js';
export { toolUsageGrader, FALLBACK_MARKER } from './graders/tool-usage.js';
export { formatGrader } from './graders/format.js';
export {
  gradeQuestion,
  combine,
  responseText,
  type GradeQuestionOptions,
  type QuestionResult,
} from './run/grade-question.js';
export { resolveTarget, type Target, type Gate } from './run/target.js';
export { RECORD_VERSION, type EvalRecord, type RecordTarget } from './report/record.js';
