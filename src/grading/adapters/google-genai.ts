import { AiEvalError } from '../../errors.js';
import { isObject, text, type Adapter, type Json, type Reader } from './core.js';

/** Part keys of Gemini content that carry neither a call nor a result. */
const OTHER_PARTS: ReadonlySet<string> = new Set([
  'text',
  'inlineData',
  'fileData',
  'thought',
  'thoughtSignature',
  'videoMetadata',
  'audioTranscription',
  'mediaResolution',
  'partMetadata',
  'mediaProcessing',
  'speechMetadata',
]);

/** Every key of a Gemini `Part` (`@google/genai` 2.x). */
const PART_KEYS: ReadonlySet<string> = new Set([
  ...OTHER_PARTS,
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
]);

/**
 * A part with neither a call nor a result: one of its own keys is a non-call part key, and every
 * one is a `Part` key. An object that merely has a `text` (an AI SDK v4 step, `{ text, toolCalls }`)
 * is not a part: it goes on to the other adapters, or is an error, never a silent gap.
 */
const isOtherPart = (item: Json): boolean => {
  const keys = Object.keys(item);
  return keys.some((key) => OTHER_PARTS.has(key)) && keys.every((key) => PART_KEYS.has(key));
};

/**
 * Google GenAI (`@google/genai`): `functionCall` parts (`{ name, args, id? }`), `functionResponse`
 * parts (a result; failed when its `response` holds `error`), code execution (`executableCode` is
 * a hosted `code_execution` call, `codeExecutionResult` its result by `outcome`), server tool
 * `toolCall` / `toolResponse` parts (hosted, named by `toolType`), and a whole
 * `GenerateContentResponse` (its `automaticFunctionCallingHistory`, then each candidate's content
 * that the history does not already hold).
 * A `functionCalls` list is read as bare `{ name, args }` calls. `Content` turns are read by role
 * (`model`, `user`). A piece of a call streamed in pieces (Vertex AI's `streamFunctionCallArguments`:
 * `willContinue: true`, `partialArgs`, or a nameless part with either) is an error: the SDK does not
 * merge the pieces, and a piece's arguments are not the call's.
 *
 * @example
 * ```ts
 * googleGenai({ functionCall: { name: 'get_weather', args: { city: 'Ghent' } } }, '$[0].parts[0]', reader); // true
 * ```
 */
export const googleGenai: Adapter = (item, path, reader) => {
  if (item.type !== undefined || typeof item.role === 'string') return false;
  if (Array.isArray(item.candidates)) return readResponse(item, path, reader);
  const call = item.functionCall;
  if (isObject(call)) {
    if (isPiece(call)) throw streamedPiece(`${path}.functionCall`);
    reader.call({ name: text(call.name) ?? '', args: call.args, id: text(call.id) }, `${path}.functionCall`);
    return true;
  }
  const response = item.functionResponse;
  if (isObject(response)) {
    const failed =
      isObject(response.response) &&
      response.response.error !== undefined &&
      response.response.error !== null;
    reader.result(failed ? 'error' : 'ok', { id: text(response.id), name: text(response.name) });
    return true;
  }
  return readServerParts(item, path, reader) || isOtherPart(item);
};

/**
 * A piece of a function call streamed in pieces: more follows (`willContinue: true`), it carries
 * streamed arguments (`partialArgs`), or it has no name and either key (the pieces after the
 * first). A whole call may say `willContinue: false`.
 */
function isPiece(call: Json): boolean {
  if (call.willContinue === true) return true;
  if (Array.isArray(call.partialArgs) && call.partialArgs.length > 0) return true;
  return text(call.name) === undefined && ('willContinue' in call || 'partialArgs' in call);
}

function streamedPiece(path: string): AiEvalError {
  return new AiEvalError(
    'INVALID_TOOL_CALLS',
    `The tool-call record at ${path} is a function call streamed in pieces (willContinue or partialArgs: Vertex AI's streamFunctionCallArguments), and @google/genai does not merge the pieces (a chat's history keeps each as its own turn): a piece's arguments are not the call's. Pass whole calls: leave streamFunctionCallArguments off (or use generateContent / sendMessage), or pass each call as { name, args } once your code has joined its pieces.`,
  );
}

function readServerParts(item: Json, path: string, reader: Reader): boolean {
  const code = item.executableCode;
  if (isObject(code)) {
    const args = {
      ...(code.code !== undefined ? { code: code.code } : {}),
      ...(code.language !== undefined ? { language: code.language } : {}),
    };
    reader.call(
      { name: 'code_execution', args, id: text(code.id), kind: 'hosted' },
      `${path}.executableCode`,
    );
    return true;
  }
  const ran = item.codeExecutionResult;
  if (isObject(ran)) {
    reader.result(ran.outcome === 'OUTCOME_OK' ? 'ok' : 'error', {
      id: text(ran.id),
      name: 'code_execution',
    });
    return true;
  }
  const tool = item.toolCall;
  if (isObject(tool)) {
    const name = typeof tool.toolType === 'string' ? tool.toolType.toLowerCase() : 'server_tool';
    reader.call({ name, args: tool.args, id: text(tool.id), kind: 'hosted' }, `${path}.toolCall`);
    return true;
  }
  const answer = item.toolResponse;
  if (isObject(answer)) {
    reader.result('ok', { id: text(answer.id) });
    return true;
  }
  return false;
}

function readResponse(item: Json, path: string, reader: Reader): boolean {
  const history = item.automaticFunctionCallingHistory;
  if (Array.isArray(history)) reader.visit(history, `${path}.automaticFunctionCallingHistory`);
  (item.candidates as unknown[]).forEach((candidate, i) => {
    if (isObject(candidate) && isObject(candidate.content) && !inHistory(candidate.content, history)) {
      reader.visit(candidate.content, `${path}.candidates[${i}].content`);
    }
  });
  return true;
}

/**
 * Whether a candidate's content is the model turn the history already holds. When automatic
 * function calling stops at `maximumRemoteCalls`, the SDK returns the response whose calls it has
 * just run: that turn is both the history's last model turn (before the user turn of its results)
 * and the candidate, and its calls ran once. The same object, or the same JSON after a round trip.
 */
function inHistory(content: Json, history: unknown): boolean {
  if (!Array.isArray(history) || history.length < 2) return false;
  const turn: unknown = history[history.length - 2];
  const results: unknown = history[history.length - 1];
  if (turn === content) return true;
  return (
    isObject(turn) &&
    turn.role === 'model' &&
    isObject(results) &&
    results.role === 'user' &&
    Array.isArray(content.parts) &&
    content.parts.some((part) => isObject(part) && isObject(part.functionCall)) &&
    JSON.stringify(turn) === JSON.stringify(content)
  );
}
