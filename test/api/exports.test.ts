import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { ROOT } from '../helpers/paths.js';

/**
 * The public surface read from the sources' syntax, not a type-checked program (which takes half
 * a minute on two loaded cores): `src/index.ts` lists every export by name (no `export *`), and a
 * name re-exported along the way (`export { a as b } from`) is followed to its declaration.
 */
const parsed = new Map<string, ts.SourceFile>();

function sourceOf(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

/** `./x.js` written in `from` resolved to the TypeScript file beside `from`. */
function moduleFile(from: string, specifier: string): string {
  const base = join(dirname(from), specifier.replace(/\.js$/, ''));
  return existsSync(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts');
}

interface Exported {
  name: string;
  /** The module and the local name it is declared or re-exported under. */
  file: string;
  local: string;
}

/** The names a module re-exports with `export { ... } from`, with where each comes from. */
function reExports(file: string): Exported[] {
  const found: Exported[] = [];
  for (const statement of sourceOf(file).statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    const specifier = statement.moduleSpecifier;
    if (!clause || !ts.isNamedExports(clause)) throw new Error(`${file}: export * is not allowed`);
    if (!specifier || !ts.isStringLiteral(specifier)) continue;
    for (const element of clause.elements) {
      found.push({
        name: element.name.text,
        file: moduleFile(file, specifier.text),
        local: (element.propertyName ?? element.name).text,
      });
    }
  }
  return found;
}

/** The statements that declare `name` in `file`, following re-exports to the declaring module. */
function declarations(file: string, name: string): ts.Node[] {
  const source = sourceOf(file);
  const local = source.statements.filter((statement) => {
    if (ts.isVariableStatement(statement)) {
      return statement.declarationList.declarations.some(
        (d) => ts.isIdentifier(d.name) && d.name.text === name,
      );
    }
    return (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name?.text === name
    );
  });
  if (local.length > 0) return local;
  const next = reExports(file).find((e) => e.name === name);
  if (!next) throw new Error(`${file}: no declaration of ${name}`);
  return declarations(next.file, next.local);
}

const INDEX = join(ROOT, 'src', 'index.ts');

/** The exported names whose declaration has no JSDoc `@example`. */
function withoutExample(): string[] {
  return reExports(INDEX)
    .filter(
      (e) =>
        !declarations(e.file, e.local).some((node) =>
          ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'example'),
        ),
    )
    .map((e) => e.name)
    .sort();
}

/** Every name `src/index.ts` exports, values and types. */
function exportedNames(): string[] {
  return reExports(INDEX)
    .map((e) => e.name)
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
        "chrf",
        "claimsGrader",
        "clearHttpDatasetCache",
        "clearInlineDatasets",
        "completenessGrader",
        "configure",
        "createFileSource",
        "defineCheckExecutor",
        "defineDatasetSource",
        "defineGrader",
        "defineJudge",
        "defineStateCheck",
        "defineStateGrader",
        "displayArguments",
        "displayToolCalls",
        "factMatchGrader",
        "fileSource",
        "formatGrader",
        "formatProblem",
        "getConfig",
        "getDatasetSource",
        "getGrader",
        "getStateCheck",
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
        "listCheckExecutors",
        "listDatasetSources",
        "listGraders",
        "listStateChecks",
        "loadDataset",
        "loadDatasetSync",
        "loadDatasetWithWarnings",
        "loadRubric",
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
        "rubricChecks",
        "rubricSchema",
        "stateGrader",
        "toComposite",
        "toolUsageGrader",
        "trustState",
        "unregisterCheckExecutor",
        "unregisterDatasetSource",
        "unregisterGrader",
        "unregisterStateCheck",
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
        "CheckExecutor",
        "CheckExecutorOptions",
        "CheckOutcome",
        "CheckRun",
        "ClaimPattern",
        "CombineMode",
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
        "RecordedEvidence",
        "RecordedGrade",
        "RecordedToolCall",
        "ReporterOptions",
        "ResolvedRubric",
        "ResultFactory",
        "Rubric",
        "RubricCheck",
        "RubricLookup",
        "RubricScoring",
        "RubricValidation",
        "RunIdentity",
        "RunVerdict",
        "SkippedSuiteReport",
        "SplitDefinition",
        "StateCheck",
        "StateCheckContext",
        "StateCheckDefinition",
        "StateCheckFn",
        "StateCheckResult",
        "StateGraderOptions",
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
        "TrialEvidence",
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

  it('documents every public export with an @example', () => {
    expect(withoutExample()).toEqual([]);
  });

  it('keeps src/internal out of the public surface', () => {
    const index = readFileSync(join(ROOT, 'src', 'index.ts'), 'utf8');
    expect(index).not.toMatch(/from '\.\/internal\//);
  });
});
