import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { ROOT } from '../helpers/paths.js';

let compiled: { checker: ts.TypeChecker; exports: ts.Symbol[] } | undefined;

/** The compiled public surface, built once for the file (a TypeScript program takes seconds). */
function program(): { checker: ts.TypeChecker; exports: ts.Symbol[] } {
  if (compiled) return compiled;
  const file = join(ROOT, 'src', 'index.ts');
  const prog = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = prog.getTypeChecker();
  const source = prog.getSourceFile(file);
  const symbol = source ? checker.getSymbolAtLocation(source) : undefined;
  if (!symbol) throw new Error('src/index.ts not found');
  compiled = { checker, exports: checker.getExportsOfModule(symbol) };
  return compiled;
}

/** The exported names whose declaration has no JSDoc `@example`. */
function withoutExample(): string[] {
  const { checker, exports } = program();
  return exports
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declarations = target.getDeclarations() ?? [];
      return !declarations.some((d) => {
        const node = ts.isVariableDeclaration(d) ? d.parent.parent : d;
        return ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'example');
      });
    })
    .map((s) => s.getName())
    .sort();
}

/** Every name `src/index.ts` exports, values and types, as the compiler sees them. */
function exportedNames(): string[] {
  return program()
    .exports.map((s) => s.getName())
    .sort();
}

describe('the public surface of ai-eval', () => {
  it('exports exactly these values: a new one is a decision, not an accident', () => {
    expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
      [
        "AiEvalError",
        "DEFAULT_CLAIM_PATTERNS",
        "DEFAULT_JUDGES_FILE",
        "DEFAULT_TRUST_MINIMUMS",
        "ERROR_CODES",
        "FALLBACK_MARKER",
        "RECORD_VERSION",
        "REPORT_SCHEMA_VERSION",
        "accuracyGrader",
        "actionabilityGrader",
        "captureLogs",
        "captureLogsAsync",
        "claimsGrader",
        "clearHttpDatasetCache",
        "clearInlineDatasets",
        "completenessGrader",
        "configure",
        "createFileSource",
        "defineDatasetSource",
        "defineGrader",
        "defineJudge",
        "displayArguments",
        "displayToolCalls",
        "factMatchGrader",
        "fileSource",
        "formatGrader",
        "formatProblem",
        "getConfig",
        "getDatasetSource",
        "getGrader",
        "goldSchema",
        "gradeQuestion",
        "groundednessGrader",
        "hasGrader",
        "httpSource",
        "inlineSource",
        "inputOf",
        "isAiEvalError",
        "isJudge",
        "isWritableSource",
        "judgeIdentity",
        "judgeMetrics",
        "listDatasetSources",
        "listGraders",
        "loadDataset",
        "loadDatasetSync",
        "loadDatasetWithWarnings",
        "loadRubricCriteria",
        "logger",
        "mergeReports",
        "normalizeQuestions",
        "normalizeToolCalls",
        "normalizeToolCatalog",
        "parseReport",
        "readOnlyRun",
        "readTrustFile",
        "registerDatasetSource",
        "registerGrader",
        "registerInlineDataset",
        "relevanceGrader",
        "resetConfig",
        "toComposite",
        "toolUsageGrader",
        "trustState",
        "unregisterDatasetSource",
        "unregisterGrader",
        "updateTrustFile",
        "validateDataset",
        "validateDatasetFile",
        "validateGoldLabels",
        "validateJudges",
        "validateRubric",
      ]
    `);
  });

  it('exports exactly these types beside the values', { timeout: 60_000 }, () => {
    const values = new Set(Object.keys(api));
    expect(exportedNames().filter((name) => !values.has(name))).toMatchInlineSnapshot(`
      [
        "Advisory",
        "AdvisoryCode",
        "AgentRun",
        "AiEvalConfig",
        "AiEvalConfigInput",
        "AiEvalErrorCode",
        "AiEvalRecord",
        "AsyncDatasetSource",
        "BaselineChange",
        "BaselineReport",
        "BuiltinDatasetSourceId",
        "BuiltinGraderId",
        "CatalogTool",
        "ChatMessage",
        "ClaimPattern",
        "Coverage",
        "DatasetCapability",
        "DatasetConfig",
        "DatasetDocument",
        "DatasetFilter",
        "DatasetLoad",
        "DatasetLoadOptions",
        "DatasetProblem",
        "DatasetSelector",
        "DatasetSource",
        "DatasetSourceOptions",
        "DatasetValidation",
        "EvalRecord",
        "EvalReport",
        "Expected",
        "ExpectedTool",
        "FileSourceOptions",
        "FilterSkipRecord",
        "Gate",
        "GateSettings",
        "GateVerdict",
        "GoldFile",
        "GoldItemResult",
        "GoldLabel",
        "GoldOutcome",
        "GoldValidation",
        "Gradable",
        "GradeFn",
        "GradeHelpers",
        "GradeQuestionOptions",
        "GradeReport",
        "GradeResult",
        "Grader",
        "GraderId",
        "GraderOptions",
        "GradingContext",
        "Judge",
        "JudgeAnswer",
        "JudgeAnswerField",
        "JudgeCacheEntry",
        "JudgeCacheMode",
        "JudgeCallInfo",
        "JudgeChatBody",
        "JudgeChatClient",
        "JudgeChatCompletion",
        "JudgeConfig",
        "JudgeHealth",
        "JudgeIdentity",
        "JudgeMessage",
        "JudgeMetrics",
        "JudgeOptions",
        "JudgePassRate",
        "JudgeReport",
        "JudgeTokens",
        "JudgeTrustEntry",
        "JudgeValidation",
        "JudgeValidationSummary",
        "LabelsNeeded",
        "LoadFailureRecord",
        "LoadFailureReport",
        "LogEntry",
        "LogLevel",
        "LogListener",
        "NegatedReport",
        "PartialRun",
        "Question",
        "QuestionReport",
        "QuestionResult",
        "Rate",
        "RecordTarget",
        "RecordedGrade",
        "ReporterOptions",
        "ResultFactory",
        "Rubric",
        "RubricCheck",
        "RubricLookup",
        "RubricValidation",
        "RunIdentity",
        "RunVerdict",
        "SkippedSuiteReport",
        "SplitDefinition",
        "SuiteRecord",
        "SyncDatasetSource",
        "Target",
        "TargetJudgeReport",
        "TargetReport",
        "TokenUsage",
        "ToolArguments",
        "ToolCall",
        "ToolCallKind",
        "ToolCallStatus",
        "ToolCatalogInput",
        "Totals",
        "TrialsReport",
        "TrustFile",
        "TrustMinimums",
        "TrustState",
        "ValidateDatasetOptions",
        "ValidateJudgesOptions",
        "WarningLogger",
        "WritableDatasetMethods",
        "WritableDatasetSource",
      ]
    `);
  });

  it('documents every public export with an @example', { timeout: 60_000 }, () => {
    expect(withoutExample()).toEqual([]);
  });

  it('keeps src/internal out of the public surface', () => {
    const index = readFileSync(join(ROOT, 'src', 'index.ts'), 'utf8');
    expect(index).not.toMatch(/from '\.\/internal\//);
  });
});
