import { AiEvalError } from '../errors.js';
import { own } from '../internal/own.js';
import { builtinGraders, type BuiltinGraderId } from './builtin.js';
import type { Grader } from '../grading/define-grader.js';

const KEY = Symbol.for('ai-eval.grader-registry');

/**
 * The user registry lives on `globalThis` under a `Symbol.for` key, so an ESM and a CJS copy of
 * ai-eval loaded in one process (a Vitest setup file importing one, a helper requiring the other)
 * see the same graders.
 */
function userGraders(): Map<string, Grader> {
  const holder = globalThis as { [KEY]?: Map<string, Grader> };
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/**
 * Any registered grader id: the shipped ones are typed, yours are strings.
 *
 * @example
 * ```ts
 * const ids: GraderId[] = ['read_only_run', 'my_custom_grader'];
 * ```
 */
export type GraderId = BuiltinGraderId | (string & {});

/**
 * Registers a grader under its id so targets, datasets and matchers can name it. Registering a
 * grader with the same definition again (a test file or an ESM and a CJS copy re-importing it)
 * replaces the registered one, so the latest copy wins; a grader whose attributes or grading code
 * differ under a taken id is an error. The comparison reads the attributes and the source of
 * `grade`, so two graders made by one factory with different captured values count as the same:
 * give each its own id. A shipped grader passed back in (from either copy) is returned as it is.
 *
 * @example
 * ```ts
 * registerGrader(defineGrader({ id: 'read_only_run', ... }));
 * await expect(run).toPassGrader('read_only_run');
 * ```
 */
export function registerGrader(grader: Grader): Grader {
  const existing = getRegistered(grader.id);
  if (existing && existing !== grader && !sameDefinition(existing, grader)) {
    throw new AiEvalError(
      'DUPLICATE_GRADER',
      `registerGrader: a different grader is already registered as '${grader.id}'. Pick another id, or call unregisterGrader('${grader.id}') first.`,
    );
  }
  const shipped = shippedGrader(grader.id);
  if (shipped) {
    // The same shipped grader from the other module copy (ESM beside CJS) is no conflict.
    if (shipped === grader || sameDefinition(shipped, grader)) return shipped;
    throw new AiEvalError(
      'DUPLICATE_GRADER',
      `registerGrader: '${grader.id}' is a shipped grader id. Pick another id for your grader.`,
    );
  }
  userGraders().set(grader.id, grader);
  return grader;
}

/**
 * Removes a grader registered with {@link registerGrader}. Returns whether one was removed.
 *
 * @example
 * ```ts
 * unregisterGrader('polite_reply');
 * ```
 */
export function unregisterGrader(id: string): boolean {
  return userGraders().delete(id);
}

/** A shipped grader by id: an own key of the map, never an inherited member (`constructor`). */
function shippedGrader(id: string): Grader | undefined {
  return own(builtinGraders as Record<string, Grader>, id);
}

function getRegistered(id: string): Grader | undefined {
  return shippedGrader(id) ?? userGraders().get(id);
}

/**
 * Looks up a grader by id. An unknown id is an {@link AiEvalError} that lists the known ids.
 *
 * @example
 * ```ts
 * getGrader('read_only_run').displayLabel; // 'Read-only run (binary, 0-1)'
 * ```
 */
export function getGrader(id: GraderId): Grader {
  const grader = getRegistered(id);
  if (!grader) {
    throw new AiEvalError(
      'UNKNOWN_GRADER',
      `Unknown grader '${id}'. Known graders: ${listGraders()
        .map((g) => g.id)
        .join(', ')}. Register yours with registerGrader(defineGrader({ id: '${id}', ... })).`,
    );
  }
  return grader;
}

/**
 * True when a grader is registered under `id` (shipped or yours).
 *
 * @example
 * ```ts
 * if (!hasGrader('polite_reply')) registerGrader(politeReply);
 * ```
 */
export function hasGrader(id: string): boolean {
  return getRegistered(id) !== undefined;
}

/**
 * Every known grader: the shipped ones first, then yours in registration order.
 *
 * @example
 * ```ts
 * listGraders().filter((g) => g.llm).map((g) => g.id); // the LLM judges
 * ```
 */
export function listGraders(): Grader[] {
  return [...Object.values(builtinGraders as Record<string, Grader>), ...userGraders().values()];
}

/**
 * Resolves a grader reference (an id or a grader object) to a grader.
 *
 * @example
 * ```ts
 * resolveGrader('format_grader').id; // 'format_grader'
 * ```
 */
export function resolveGrader(ref: GraderId | Grader): Grader {
  return typeof ref === 'string' ? getGrader(ref) : ref;
}

/**
 * The ids among `ids` whose graders declare `observesActions`: the ones that can see what an agent
 * did. An agent-mode target with none of these is flagged by the reporter.
 *
 * @example
 * ```ts
 * actionObservingGraders(['relevance_grader', 'tool_usage_grader']); // ['tool_usage_grader']
 * ```
 */
export function actionObservingGraders(ids: ReadonlyArray<GraderId | Grader>): string[] {
  return ids
    .map(resolveGrader)
    .filter((g) => g.observesActions)
    .map((g) => g.id);
}

function sameDefinition(a: Grader, b: Grader): boolean {
  return (
    a.label === b.label &&
    a.minScore === b.minScore &&
    a.maxScore === b.maxScore &&
    a.llm === b.llm &&
    a.observesActions === b.observesActions &&
    a.seesToolCalls === b.seesToolCalls &&
    a.grade.toString() === b.grade.toString()
  );
}
