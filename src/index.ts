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
} from './registry/graders.js';
export { toComposite, scaleLabel, isBinaryScale } from './grading/scale.js';
export { buildContext, messagesOf, inputOf, type ContextOptions } from './grading/context.js';
export { normalizeToolCalls, recordOf, MAX_ARGUMENT_CHARS, TRUNCATION_MARKER } from './grading/tool-calls.js';
export { builtinGraders, type BuiltinGraderId } from './registry/builtin.js';
export { readOnlyRun, DEFAULT_FORBIDDEN_PREFIXES } from './graders/read-only-run.js';
export { toolUsageGrader, FALLBACK_MARKER } from './graders/tool-usage.js';
export { formatGrader } from './graders/format.js';
export {
  gradeQuestion,
  responseText,
  type GradeQuestionOptions,
  type QuestionResult,
} from './run/grade-question.js';
export { resolveTarget, type Target, type Gate } from './run/target.js';
export { RECORD_VERSION, type EvalRecord, type RecordTarget } from './run/record-types.js';
export {
  defineJudge,
  isJudge,
  type Judge,
  type JudgeOptions,
  type JudgeAnswerField,
} from './judge/define-judge.js';
export { judgeIdentity, judgeRecordIdentity, type JudgeIdentity } from './registry/judge-identity.js';
export {
  callJudge,
  redactSecrets,
  type JudgeChatClient,
  type JudgeChatBody,
  type JudgeChatCompletion,
  type JudgeMessage,
  type JudgeReply,
  type JudgeRequest,
} from './judge/client.js';
export {
  judgeSettings,
  JUDGE_CACHE_MODES,
  DEFAULT_JUDGE_MODEL,
  type JudgeCacheMode,
  type JudgeSettings,
} from './judge/settings.js';
export { parseJudgeAnswer, type JudgeAnswer, type ParsedJudgeAnswer } from './judge/parse.js';
export {
  DEFAULT_TEMPLATE,
  TEMPLATE_SLOTS,
  checkTemplate,
  countPlaceholders,
  fillTemplate,
  resolveTemplate,
  type ResolvedTemplate,
} from './judge/template.js';
export { fenceResponse, truncateForJudge, DEFAULT_JUDGE_CHAR_LIMIT } from './judge/fence.js';
export { renderToolCalls, NO_TOOL_CALLS_STATEMENT } from './judge/tool-block.js';
export { judgeCacheKey, judgeCachePath, type JudgeCacheEntry } from './judge/cache.js';
export { relevanceGrader } from './judges/relevance-grader.js';
export { completenessGrader } from './judges/completeness-grader.js';
export { actionabilityGrader } from './judges/actionability-grader.js';
export { accuracyGrader, FORBIDDEN_CONTENT_CAP, EVASIVE_CAP } from './judges/accuracy-grader.js';
export { factMatchGrader } from './judges/fact-match-grader.js';
export { groundednessGrader } from './judges/groundedness-grader.js';
export * from './datasets/index.js';
export {
  REPORT_SCHEMA_VERSION,
  type Advisory,
  type AdvisoryCode,
  type BaselineChange,
  type BaselineReport,
  type EvalReport,
  type GateSettings,
  type GateVerdict,
  type GradeReport,
  type JudgeTokens,
  type QuestionReport,
  type RunIdentity,
  type TargetReport,
  type Totals,
  type TrialsReport,
} from './report/model.js';
export { groupRecords, questionFromGrades, totalsOf, type TargetGroup } from './report/aggregate.js';
export { advisoriesFor, type AdvisoryInput } from './report/advisories.js';
export { judgeGates, type GateInput } from './report/gates.js';
export { collect, assembleReport, targetReport } from './report/collect.js';
export { readBaseline, parseReport, compareWithBaseline } from './report/baseline.js';
export { mergeReports } from './report/merge.js';
export { checkReporterOptions, gateSettings, type ReporterOptions } from './report/options.js';
export { renderTerminal, scoreBar, PLAIN, type Palette } from './report/render-terminal.js';
export { renderJunit } from './report/render-junit.js';
export { renderMarkdown, githubAnnotations } from './report/render-markdown.js';
export { finishRun, writeFileAtomic, type FinishIO, type FinishResult } from './report/write.js';
export { redactText, redactArguments } from './report/redact.js';
