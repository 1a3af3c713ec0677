import type { ResolvedRubric } from './rubric-types.js';

/**
 * One message of a conversation, as graders see it.
 *
 * @example
 * ```ts
 * const messages: ChatMessage[] = [
 *   { role: 'user', content: 'Cancel order 42' },
 *   { role: 'assistant', content: 'Done: order 42 is cancelled.' },
 * ];
 * ```
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | (string & {});
  content: string;
}

/**
 * Arguments of one tool call: the parsed JSON object, or the raw string when it did not parse.
 *
 * @example
 * ```ts
 * const parsed: ToolArguments = { id: 42 };
 * const unparsable: ToolArguments = '{not json';
 * ```
 */
export type ToolArguments = Record<string, unknown> | string;

/**
 * The outcome of a call, where the input holds tool results: `ok` (a result came back and did not
 * report a failure), `error` (the tool failed, was denied, or its result reports an error) or
 * `unknown` (no result came back for it: the input holds results of other calls but none for this
 * one, the call item says it has not finished, or it is awaiting a human's approval and never ran:
 * an AI SDK `tool-approval-request`, an Agents SDK `tool_approval_item` or an OpenAI Responses
 * `mcp_approval_request` with no result after it; or it is an Agents SDK `function_call` with no
 * `function_call_result`, or an Agents SDK `shell_call`, `apply_patch_call` or `computer_call` with
 * no output, which the SDK records for every call it runs). Absent when no result in
 * the input belongs to any of its calls and none is such a call; a
 * hosted call item carries its own. `claims_grader` and `succeeded: true` count only a call that is
 * neither `error` nor `unknown`.
 *
 * @example
 * ```ts
 * const failed = record.filter((call) => call.status === 'error');
 * ```
 */
export type ToolCallStatus = 'ok' | 'error' | 'unknown';

/**
 * Where a call ran. Absent means `function`: a tool the agent's own code executed. `custom` is a
 * tool with free-form text input (OpenAI custom tools); `hosted` ran on the provider's side
 * (OpenAI `web_search_call`, `file_search_call`, `code_interpreter_call`, `mcp_call`; Anthropic
 * `server_tool_use`, `mcp_tool_use`; AI SDK `providerExecuted`; Gemini code execution).
 *
 * @example
 * ```ts
 * const hosted = record.filter((call) => call.kind === 'hosted');
 * ```
 */
export type ToolCallKind = 'function' | 'custom' | 'hosted';

/**
 * One call in the normalised tool-call record, in the shape every grader reads (snake_case, as in
 * ai_eval): which tool, under which plugin if the agent framework names one, with which arguments
 * (in full: never truncated), and, when known, how it ended and where it ran.
 *
 * @example
 * ```ts
 * const call: ToolCall = { function_name: 'create_ticket', arguments: { title: 'Printer' }, status: 'ok' };
 * ```
 */
export interface ToolCall {
  function_name: string;
  plugin_id?: string;
  arguments: ToolArguments;
  /** The call's outcome; present only when the input holds results of its calls (see {@link ToolCallStatus}). */
  status?: ToolCallStatus;
  /** Where the call ran; absent means `function` (see {@link ToolCallKind}). */
  kind?: ToolCallKind;
}

/**
 * One tool the agent was given, as a target's tool catalog declares it. `readOnly` and
 * `destructive` are present only when the catalog says so explicitly (MCP `annotations.readOnlyHint`
 * and `destructiveHint`, or `{ name, readOnly }` entries).
 *
 * @example
 * ```ts
 * const tool: CatalogTool = { name: 'list_nodes', readOnly: true };
 * ```
 */
export interface CatalogTool {
  name: string;
  readOnly?: boolean;
  destructive?: boolean;
}

/**
 * An agent run: what the agent answered and, when known, what it did. `toolCalls` accepts any shape
 * the record adapters know (OpenAI Chat Completions and Responses, the Vercel AI SDK, Anthropic, the
 * OpenAI Agents SDK, LangChain, Google GenAI, MCP, normalised; see `normalizeToolCalls`). When
 * `toolCalls` is absent, the record is read from `messages`; a run with neither has no record.
 *
 * @example
 * ```ts
 * const run: AgentRun = { output: 'Created.', toolCalls: [{ function_name: 'create_ticket', arguments: {} }] };
 * ```
 */
export interface AgentRun {
  output: string;
  toolCalls?: unknown;
  messages?: readonly unknown[];
}

/**
 * Anything ai-eval grades: the response text, or an agent run that carries its tool-call record.
 *
 * @example
 * ```ts
 * const plain: Gradable = 'Paris is the capital of France.';
 * const agentic: Gradable = { output: 'Done', toolCalls: [] };
 * ```
 */
export type Gradable = string | AgentRun;

/**
 * Token usage of one or more judge calls.
 *
 * @example
 * ```ts
 * const usage: TokenUsage | undefined = result.grades[0]?.usage; // judges only
 * console.log(usage?.totalTokens);
 * ```
 */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/**
 * The result of one grader on one response. `score` is on the grader's declared scale
 * (`min`..`max`); `composite` is the same score mapped onto the shared 0 to 5 scale. A `null` score
 * is either a skip (`skipped: true`: the grader does not apply) or an error (`error: true`: the
 * grader could not do its job). Neither is ever a zero.
 *
 * @example
 * ```ts
 * const grade: GradeResult = readOnlyRun.result(1, 'no mutating tool among 2 recorded calls');
 * grade.composite; // 5: a binary 1 on the composite scale
 * ```
 */
export interface GradeResult {
  grader: string;
  score: number | null;
  min: number;
  max: number;
  composite: number | null;
  reason: string;
  error: boolean;
  skipped: boolean;
  /** Token usage, for graders that call a model. */
  usage?: TokenUsage;
  /** How an LLM judge's call went, for the report's judge health. Absent for a skip. */
  judgeCall?: JudgeCallInfo;
  /**
   * Whether this grade's verdict rests on what the agent did, when that differs from grade to
   * grade: `rubric_checks` sets it from its `tool_usage` and `state` checks. Absent: the grader's
   * declared `observesActions` holds.
   */
  observesActions?: boolean;
  /**
   * The verdict came from querying the system's real state (a state check), not from the tool-call
   * record, so a grade without a record is not an unverified observation.
   */
  queriedState?: boolean;
  /** The rubric that scored it (`rubric_checks`): its id and semver version. */
  rubric?: { id: string; version?: string };
}

/**
 * How one LLM judge call went: where the answer came from (absent when none came: the call
 * failed) and what it was (`scored`; `clamped` onto the scale; `refused`; `unparseable`, not the
 * JSON asked for; `unusable`, a score the judge's interpretScore refused; `failed`, no answer).
 *
 * @example
 * ```ts
 * const refused = grades.filter((g) => (g.judgeCall satisfies JudgeCallInfo | undefined)?.outcome === 'refused');
 * ```
 */
export interface JudgeCallInfo {
  source?: 'live' | 'cache';
  outcome: 'scored' | 'clamped' | 'refused' | 'unparseable' | 'unusable' | 'failed';
}

/**
 * One pattern of claimed work for `claims_grader`: the past-tense `verbs` that claim the `action`
 * in a response ("created", "opened"), and the tool-name fragments of the calls that perform it
 * (`create`, `add`). Data, so a target or a question can replace the English defaults.
 *
 * @example
 * ```ts
 * const refund: ClaimPattern = { action: 'refund', verbs: ['refunded', 'reimbursed'], tools: ['refund', 'reimburse'] };
 * ```
 */
export interface ClaimPattern {
  /** A short name for the action, shown in reasons. */
  action: string;
  /** Words or phrases that claim the action was done, matched as whole words, ignoring case. */
  verbs: string[];
  /** Fragments of the names of the tools that do it, matched against the words of a tool name. */
  tools: string[];
}

/**
 * An expected tool: a bare name (presence) or a constrained expectation.
 *
 * @example
 * ```ts
 * const expected: ExpectedTool[] = ['find_order', { name: 'cancel_pending_order', succeeded: true, critical: true }];
 * ```
 */
export type ExpectedTool =
  | string
  | {
      name: string;
      /** Every given key must deep-equal the call's argument (subset match, on the full arguments). */
      args?: Record<string, unknown>;
      /** The call must come after a call of this tool. */
      after?: string;
      /** Exactly this many calls of the tool (with `args`, of matching calls). */
      times?: number;
      /**
       * Only a call that did not fail counts: its `status` is neither `error` nor `unknown` (no
       * result came back for it, as for a call awaiting approval).
       */
      succeeded?: boolean;
      /** When this entry is not met, `tool_usage_grader` scores 0 whatever else matched. */
      critical?: boolean;
    };

/**
 * What a question says about the expected response. Extra keys are allowed.
 *
 * @example
 * ```ts
 * const expected: Expected = { format: 'json', schema: { type: 'object', required: ['id'] } };
 * ```
 */
export interface Expected {
  format?: 'json' | 'markdown' | (string & {});
  schema?: Record<string, unknown> | boolean;
  pattern?: string;
  reference?: string;
  [key: string]: unknown;
}

/**
 * One eval question, as a dataset row (snake_case keys, as the file has them). Only `id` and one of
 * `input` or `messages` are required in a dataset; extra keys are kept for domain graders.
 *
 * @example
 * ```ts
 * const question: Question = {
 *   id: 'list-drafts',
 *   input: 'Which pages are still drafts?',
 *   expected_tools: [{ name: 'list_nodes', args: { status: 'draft' } }],
 *   tags: ['smoke'],
 * };
 * ```
 */
export interface Question {
  id: string;
  input?: string;
  messages?: ChatMessage[];
  criteria?: string;
  expected?: Expected;
  expected_facts?: string[];
  expected_tools?: ExpectedTool[];
  must_not_contain?: string[];
  rubric_ref?: string;
  metadata?: Record<string, unknown>;
  tags?: string[];
  bundle?: string;
  split?: string;
  disabled?: boolean;
  timeout?: number;
  [key: string]: unknown;
}

/**
 * What a grader receives as `context`: the question row plus the reserved keys, which always win
 * over same-named question keys. `tool_calls` is absent when nobody knows what the agent did and
 * `[]` when it ran and called nothing: test `context.tool_calls === undefined`, never truthiness.
 *
 * @example
 * ```ts
 * grade: (_input, _response, context: GradingContext, { result }) =>
 *   context.tool_calls === undefined
 *     ? result(null, 'no tool-call record available', true)
 *     : result(context.tool_calls.length, `${context.tool_calls.length} calls`),
 * ```
 */
export interface GradingContext {
  [key: string]: unknown;
  id?: string;
  input?: string;
  expected?: Expected;
  expected_facts?: string[];
  expected_tools?: ExpectedTool[];
  must_not_contain?: string[];
  metadata?: Record<string, unknown>;
  tags?: string[];
  /** Reserved: target override, then the configured default, then 4000. */
  response_char_limit: number;
  /** Reserved: the input as a message list, also for a single-turn question. */
  messages: ChatMessage[];
  /** Reserved: question criteria merged with rubric checks; present only when there are any. */
  criteria?: string;
  /** Reserved: the normalised tool-call record; present only when a record was read. */
  tool_calls?: ToolCall[];
  /** Reserved: the tools the agent was given (the target's `tools`); present only when declared. */
  tools?: CatalogTool[];
  /** Reserved: the target's `claimPatterns` for `claims_grader`; present only when set. */
  claim_patterns?: ClaimPattern[];
  /**
   * Reserved: the rubric the question's `rubric_ref` names, resolved (or why it could not be);
   * present only when the question has a `rubric_ref`. `rubric_checks` reads it.
   */
  rubric?: ResolvedRubric;
}
