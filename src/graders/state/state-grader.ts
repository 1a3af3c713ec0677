import { AiEvalError } from '../../errors.js';
import { defineGrader, type Grader } from '../../grading/define-grader.js';
import type { GradingContext } from '../../grading/types.js';
import { own } from '../../internal/own.js';
import { describeValue } from '../../internal/text.js';
import { runStateCheck } from './run-check.js';
import {
  createStateCheck,
  getStateCheck,
  type StateCheck,
  type StateCheckDefinition,
} from './state-checks.js';

/** One assertion of `metadata.state`, checked: its id, kind and params. */
export interface StateAssertion {
  id: string;
  kind: string;
  params: Record<string, unknown>;
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads `metadata.state` (`{ assertions: [{ id, kind, ...params }] }`) into assertions, or the
 * setup problems (each naming the assertion and what is wrong): a block that is not a mapping, no
 * or an empty assertion list, an assertion without a string `id` or `kind`, a repeated id, a kind
 * `lookup` does not know, params that fail the kind's schema.
 *
 * @example
 * ```ts
 * parseStateBlock({ assertions: [{ id: 'created', kind: 'node_exists', title: 'Launch' }] }, getStateCheck);
 * // { ok: true, assertions: [{ id: 'created', kind: 'node_exists', params: { title: 'Launch' } }] }
 * ```
 */
export function parseStateBlock(
  block: unknown,
  lookup: (kind: string) => StateCheck | undefined,
): { ok: true; assertions: StateAssertion[] } | { ok: false; problems: string[] } {
  if (!isMapping(block)) {
    return {
      ok: false,
      problems: [`metadata.state must be a mapping { assertions: [...] }, got ${describeValue(block)}`],
    };
  }
  const list = own(block, 'assertions');
  if (!Array.isArray(list) || list.length === 0) {
    return {
      ok: false,
      problems: [
        list === undefined
          ? 'metadata.state has no assertions list: add assertions: [{ id, kind, ...params }]'
          : Array.isArray(list)
            ? 'metadata.state.assertions is empty: with nothing to check, nothing can pass'
            : `metadata.state.assertions must be a list, got ${describeValue(list)}`,
      ],
    };
  }
  const problems: string[] = [];
  const assertions: StateAssertion[] = [];
  const seen = new Set<string>();
  list.forEach((entry: unknown, i) => {
    const at = `metadata.state.assertions[${i}]`;
    if (!isMapping(entry)) {
      problems.push(`${at} must be a mapping { id, kind, ...params }, got ${describeValue(entry)}`);
      return;
    }
    const { id, kind, ...params } = entry;
    if (typeof id !== 'string' || id.trim() === '') {
      problems.push(`${at} needs an id (a non-empty string), got ${describeValue(id)}`);
      return;
    }
    if (seen.has(id)) problems.push(`${at}: id '${id}' is used twice; give each assertion its own id`);
    seen.add(id);
    if (typeof kind !== 'string' || kind.trim() === '') {
      problems.push(`${at} (${id}) needs a kind (a non-empty string), got ${describeValue(kind)}`);
      return;
    }
    const check = lookup(kind);
    if (!check) {
      problems.push(
        `${at} (${id}): unknown kind '${kind}'; define it with defineStateCheck('${kind}', { schema, check })`,
      );
      return;
    }
    const problem = check.paramsProblem(params);
    if (problem !== undefined) {
      problems.push(`${at} (${id}): params do not match the schema of kind '${kind}': ${problem}`);
      return;
    }
    assertions.push({ id, kind, params });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, assertions };
}

/**
 * Options of {@link defineStateGrader}: the grader's id and label, and its own set of state check
 * kinds (kept by this grader only, not registered globally), for instance one grader per system
 * under test.
 *
 * @example
 * ```ts
 * const options: StateGraderOptions = { id: 'crm_state', label: 'CRM state', checks: { contact_exists: { schema, check } } };
 * ```
 */
export interface StateGraderOptions {
  id: string;
  label: string;
  description?: string;
  checks: Record<string, StateCheckDefinition>;
}

/**
 * Defines a state grader with its own id and kinds. It reads `metadata.state` as `state_grader`
 * does, but knows only the kinds given here. Register it with `registerGrader` to name it in a
 * target.
 *
 * @example
 * ```ts
 * const crmState = registerGrader(defineStateGrader({
 *   id: 'crm_state',
 *   label: 'CRM state',
 *   checks: {
 *     contact_exists: {
 *       schema: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } },
 *       check: async ({ email }, { signal }) => {
 *         const found = await crm.findContact(String(email), { signal });
 *         return { pass: found !== undefined, reason: found ? `contact ${email} exists` : `no contact ${email}` };
 *       },
 *     },
 *   },
 * }));
 * ```
 */
export function defineStateGrader(options: StateGraderOptions): Grader {
  if (!isMapping(options) || !isMapping(options.checks) || Object.keys(options.checks).length === 0) {
    throw new AiEvalError(
      'INVALID_GRADER',
      `defineStateGrader(${JSON.stringify((options as { id?: unknown } | undefined)?.id)}): checks must map at least one kind to { schema, check }.`,
    );
  }
  const kinds = new Map<string, StateCheck>();
  for (const [kind, definition] of Object.entries(options.checks))
    kinds.set(kind, createStateCheck(kind, definition));
  return stateGraderWith(
    options.id,
    options.label,
    options.description ?? 'Reads metadata.state and checks each assertion against the system under test.',
    (kind) => kinds.get(kind),
  );
}

function stateGraderWith(
  id: string,
  label: string,
  description: string,
  lookup: (kind: string) => StateCheck | undefined,
): Grader {
  return defineGrader({
    id,
    label,
    description,
    minScore: 0,
    maxScore: 5,
    observesActions: true,
    async grade(_input, response, context, { result, signal }) {
      const metadata = context.metadata;
      const block = isMapping(metadata) ? own(metadata, 'state') : undefined;
      if (block === undefined) return result(null, 'no metadata.state in the question, skipping');
      const parsed = parseStateBlock(block, lookup);
      if (!parsed.ok)
        return { ...result(0, `setup failure: ${parsed.problems.join('; ')}`), queriedState: true };
      const lines = await runAssertions(parsed.assertions, lookup, context, response, signal);
      const passed = lines.every((l) => l.pass);
      return {
        ...result(passed ? 5 : 0, lines.map((l) => l.line).join('\n')),
        queriedState: true,
      };
    },
  });
}

/**
 * Runs assertions in order, one at a time, each as `PASS <id> (<kind>): <reason>` or
 * `FAIL <id> (<kind>): <reason>`.
 *
 * @example
 * ```ts
 * const lines = await runAssertions(assertions, getStateCheck, context, response, signal);
 * lines.every((l) => l.pass);
 * ```
 */
export async function runAssertions(
  assertions: readonly StateAssertion[],
  lookup: (kind: string) => StateCheck | undefined,
  context: GradingContext,
  output: string,
  signal: AbortSignal | undefined,
): Promise<Array<{ pass: boolean; line: string }>> {
  const lines: Array<{ pass: boolean; line: string }> = [];
  for (const a of assertions) {
    const kind = lookup(a.kind);
    const outcome = kind
      ? await runStateCheck(kind, a.params, context, output, signal)
      : { pass: false, reason: `unknown kind '${a.kind}'` };
    lines.push({
      pass: outcome.pass,
      line: `${outcome.pass ? 'PASS' : 'FAIL'} ${a.id} (${a.kind}): ${oneLine(outcome.reason)}`,
    });
  }
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ');
}

/**
 * `state_grader` (0-5, observes actions): ignores the response and checks the system's real
 * state. Reads the question's `metadata.state`, `{ assertions: [{ id, kind, ...params }] }`, and
 * runs each assertion with the state check registered for its kind (`defineStateCheck`), in order.
 * 5 when every assertion passes, else 0; the reason has one `PASS <id> (<kind>): <reason>` or
 * `FAIL <id> (<kind>): <reason>` line per assertion.
 *
 * No `metadata.state`: skip. A block that is not a mapping, no or an empty assertion list, an
 * unknown kind, params that fail the kind's schema: 0, with a reason that starts `setup failure:`
 * and names the problem. A check that throws, times out or returns no boolean `pass` fails its
 * assertion; the grader never throws. Fail-closed: nothing passes that was not checked.
 *
 * Use it where the effect matters more than the calls: the update went to the right record, the
 * write really happened. Do not use it without a way to reset the state between questions
 * (`evalSuite`'s `beforeQuestion`).
 *
 * @example
 * ```ts
 * defineStateCheck('node_title', { schema, check: ({ id, title }) => ({ pass: store.get(id)?.title === title, reason: '...' }) });
 * await gradeQuestion({
 *   question: { id: 'q1', input: 'Rename node 7', metadata: { state: { assertions: [{ id: 'renamed', kind: 'node_title', id_: 7 }] } } },
 *   response: 'Renamed.',
 *   graders: ['state_grader'],
 * });
 * ```
 */
export const stateGrader: Grader = stateGraderWith(
  'state_grader',
  'System state',
  'Deterministic: ignores the response and checks the real state of the system under test against the assertions in metadata.state.',
  getStateCheck,
);
