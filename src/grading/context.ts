import { getConfig } from '../config.js';
import type { ResolvedRubric } from './rubric-types.js';
import type { CatalogTool, ChatMessage, ClaimPattern, GradingContext, Question, ToolCall } from './types.js';

/** What {@link buildContext} needs beside the question. */
export interface ContextOptions {
  /** The normalised record, or undefined when nobody knows what the agent did. */
  toolCalls?: ToolCall[] | undefined;
  /** The target's response char limit override. */
  responseCharLimit?: number | undefined;
  /** Criteria from the question's rubric (its LLM judge checks), merged after the question's. */
  rubricCriteria?: readonly string[] | undefined;
  /**
   * The input text given beside the question (the matchers' `input` option). Used only when the
   * question has neither `input` nor `messages`; `messages` then holds it as one user message.
   */
  input?: string | undefined;
  /** The tools the agent was given (the target's catalog, normalised); sets `context.tools`. */
  tools?: CatalogTool[] | undefined;
  /** The target's claim patterns for `claims_grader`; sets `context.claim_patterns`. */
  claimPatterns?: ClaimPattern[] | undefined;
  /** The question's rubric, read (or why it could not be); sets `context.rubric`. */
  rubric?: ResolvedRubric | undefined;
}

/** Contexts whose `response_char_limit` is the target's own override. */
const fromTarget = new WeakSet<GradingContext>();

/**
 * Whether a context's `response_char_limit` is the target's override (rather than the configured
 * default or 4000): a judge's own setting yields to it.
 *
 * @example
 * ```ts
 * const limit = charLimitFromTarget(context) ? context.response_char_limit : (judgeLimit ?? context.response_char_limit);
 * ```
 */
export function charLimitFromTarget(context: GradingContext): boolean {
  return fromTarget.has(context);
}

/**
 * Builds the context a grader receives: the question row plus the reserved keys, which always win
 * over same-named question keys. `tool_calls` is set only when a record exists, so an absent record
 * and an empty one stay distinguishable; `tools` and `claim_patterns` only when the target declares
 * them (a question row cannot set any of the three).
 *
 * @example
 * ```ts
 * const context = buildContext({ id: 'q1', input: 'List the nodes' }, { toolCalls: [] });
 * context.messages; // [{ role: 'user', content: 'List the nodes' }]
 * 'tool_calls' in context; // true: the agent ran and called nothing
 * ```
 */
export function buildContext(question: Partial<Question>, options: ContextOptions = {}): GradingContext {
  const row = rowOf(question);
  const criteria =
    question.criteria === undefined && (options.rubricCriteria ?? []).length === 0
      ? ''
      : [question.criteria, ...(options.rubricCriteria ?? [])]
          .filter((c): c is string => typeof c === 'string' && c.trim() !== '')
          .join('\n');
  // A spread: it keeps a row's own `__proto__` key a key (Object.assign would set the copy's
  // prototype) and the copy's shape (Object.assign makes a copy of 20 or more keys a hash table).
  const context = { ...row } as GradingContext;
  context.response_char_limit = options.responseCharLimit ?? getConfig().responseCharLimit ?? 4000;
  context.messages = hasInput(question)
    ? messagesOf(question)
    : typeof options.input === 'string'
      ? [{ role: 'user', content: options.input }]
      : [];
  if (options.responseCharLimit !== undefined) fromTarget.add(context);
  if (criteria !== '') context.criteria = criteria;
  if (options.toolCalls !== undefined) context.tool_calls = options.toolCalls;
  if (options.tools !== undefined) context.tools = options.tools;
  if (options.claimPatterns !== undefined) context.claim_patterns = options.claimPatterns;
  if (options.rubric !== undefined) context.rubric = options.rubric;
  return context;
}

/** Question keys a row cannot set: the context sets them, or leaves them out. */
const RESERVED_ROW_KEYS = ['tool_calls', 'criteria', 'tools', 'claim_patterns', 'rubric'] as const;

/**
 * The question's own keys but {@link RESERVED_ROW_KEYS}, in the question's order, to be spread
 * into the context: most questions have none of them, and are spread as they are (no copy with
 * the rest pattern's exclusion of each key first).
 */
function rowOf(question: Partial<Question>): Partial<Question> {
  if (!RESERVED_ROW_KEYS.some((key) => Object.hasOwn(question, key))) return question;
  const {
    tool_calls: _ignoredCalls,
    criteria: _ignoredCriteria,
    tools: _ignoredTools,
    claim_patterns: _ignoredPatterns,
    rubric: _ignoredRubric,
    ...row
  } = question;
  return row;
}

/**
 * The input of a question as a message list: its `messages`, or one user message for `input`.
 *
 * @example
 * ```ts
 * messagesOf({ input: 'hi' }); // [{ role: 'user', content: 'hi' }]
 * ```
 */
export function messagesOf(question: Partial<Question>): ChatMessage[] {
  if (Array.isArray(question.messages)) {
    return question.messages.map((m) => ({ role: m.role, content: m.content }));
  }
  return typeof question.input === 'string' ? [{ role: 'user', content: question.input }] : [];
}

/**
 * Whether the question carries its own input: an `input` string or a non-empty `messages` list.
 * When it does, that input wins over any input given beside the question.
 *
 * @example
 * ```ts
 * hasInput({ input: 'hi' }); // true
 * hasInput({ id: 'q1', expected_tools: ['list_nodes'] }); // false
 * ```
 */
export function hasInput(question: Partial<Question>): boolean {
  return (
    typeof question.input === 'string' || (Array.isArray(question.messages) && question.messages.length > 0)
  );
}

/**
 * The question text sent to the target: `input`, or for a multi-turn question the flattened
 * transcript (`role: content` lines).
 *
 * @example
 * ```ts
 * inputOf({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] }); // 'user: a\nassistant: b'
 * ```
 */
export function inputOf(question: Partial<Question>): string {
  if (typeof question.input === 'string') return question.input;
  return messagesOf(question)
    .map((m) => `${m.role}: ${m.content}`)
    .join('\n');
}
