/** One message of a conversation, as graders see it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | (string & {});
  content: string;
}

/** Arguments of one tool call: the parsed JSON object, or the raw string when it did not parse. */
export type ToolArguments = Record<string, unknown> | string;

/**
 * One call in the normalised tool-call record, in the shape every grader reads (snake_case, as in
 * ai_eval): which tool, under which plugin if the agent framework names one, with which arguments.
 */
export interface ToolCall {
  function_name: string;
  plugin_id?: string;
  arguments: ToolArguments;
}

/**
 * An agent run: what the agent answered and, when known, what it did. `toolCalls` accepts any shape
 * the record adapters know (OpenAI Chat Completions, OpenAI Responses, Vercel AI SDK, Anthropic,
 * normalised). When `toolCalls` is absent, the record is read from the assistant turns of
 * `messages`; a run with neither has no record.
 */
export interface AgentRun {
  output: string;
  toolCalls?: unknown;
  messages?: readonly unknown[];
}

/** Anything ai-eval grades: the response text, or an agent run that carries its tool-call record. */
export type Gradable = string | AgentRun;

/** Token usage of one or more judge calls. */
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
}

/** An expected tool: a bare name (presence) or a constrained expectation. */
export type ExpectedTool =
  | string
  | {
      name: string;
      /** Every given key must deep-equal the call's argument (subset match). */
      args?: Record<string, unknown>;
      /** The call must come after a call of this tool. */
      after?: string;
      /** Exactly this many calls of the tool (with `args`, of matching calls). */
      times?: number;
    };

/** What a question says about the expected response. Extra keys are allowed. */
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
}
