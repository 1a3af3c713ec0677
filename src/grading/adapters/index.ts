import type { Adapter } from './core.js';
import { agentsSdk } from './agents-sdk.js';
import { aiSdk } from './ai-sdk.js';
import { anthropic } from './anthropic.js';
import { googleGenai } from './google-genai.js';
import { langchain } from './langchain.js';
import { mcp } from './mcp.js';
import { bare, holders, normalised } from './normalised.js';
import { openaiChat } from './openai-chat.js';
import { openaiResponses } from './openai-responses.js';
import { roleMessages } from './transcript.js';

/**
 * Every shape adapter, in the order they are tried. The order settles the shapes that overlap:
 * normalised calls first; Agents SDK run items and LangChain messages before the generic role
 * reader; an AI SDK result (`steps`) before a Responses result (`output`); the untyped bare
 * `{ name, arguments }` shape and the record holders (`{ messages }`, `{ toolCalls }`) last.
 *
 * @example
 * ```ts
 * readRecord(value, ADAPTERS);
 * ```
 */
export const ADAPTERS: readonly Adapter[] = [
  normalised,
  agentsSdk,
  langchain,
  roleMessages,
  mcp,
  aiSdk,
  openaiChat,
  openaiResponses,
  anthropic,
  googleGenai,
  holders,
  bare,
];
