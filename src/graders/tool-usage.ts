import { FALLBACK_MARKER } from '../grading/markers.js';
import { defineGrader, type ResultFactory } from '../grading/define-grader.js';
import type { GradeResult, ToolCall } from '../grading/types.js';
import { catalogReason } from './catalog-check.js';
import {
  describeExpectation,
  isCallOf,
  parseExpectedTools,
  satisfyingCalls,
  type ToolExpectation,
} from './expected-tools.js';
import { maximumMatching } from './matching.js';

export { FALLBACK_MARKER };

/**
 * `tool_usage_grader` (0-5, observes actions): did the agent call the tools the question expects?
 *
 * Reads the question's `expected_tools`, a list whose entries are a tool name (the tool was called)
 * or `{ name, args?, after?, times?, succeeded?, critical? }`:
 * - `args`: some call of `name` has every given key deep-equal to its argument (a subset match, on
 *   the full arguments);
 * - `after`: that call comes after some (any) call of the `after` tool;
 * - `times`: exactly this many calls of `name` satisfy the entry's other constraints. A `times`
 *   entry is a count over the whole record: it consumes no calls, and `times: 0` forbids a tool;
 * - `succeeded: true`: only a call that did not fail counts: its `status` is neither `error` nor
 *   `unknown` (no result came back for it, as for a call awaiting a human's approval, which never
 *   ran). Without `succeeded`, such a call counts as a call made: the agent did ask for it;
 * - `critical: true`: when this entry is missed the score is 0, whatever else matched.
 *
 * Every other entry claims one recorded call, and a call satisfies at most one entry: calls are
 * assigned by a maximum bipartite matching, so the most entries that can be met at once are met.
 * A tool name matches a call's `function_name` or its `plugin_id`. Score = 5 x met / entries; the
 * reason lists each entry, met or missed, and why.
 *
 * No `expected_tools`: skip. A malformed entry: error naming its index. With a tool catalog on the
 * target (`context.tools`), a name that is not in it (nor called in the record) is an error naming
 * the closest catalog name. No tool-call record at all: an `args`, `after`, `times` or `succeeded`
 * entry cannot be checked, so the grade is an error; when every entry is a plain name, presence is
 * scored from the response text (the tool named in the prose) and the reason carries
 * {@link FALLBACK_MARKER}.
 *
 * Use it for agent questions where the right tools, arguments and order are known. Do not use it to
 * judge answer quality, or where many tool paths are equally right.
 *
 * @example
 * ```ts
 * await gradeQuestion({
 *   question: { id: 'q1', input: 'Publish the draft', expected_tools: ['find_node', { name: 'save_node', after: 'find_node' }] },
 *   response: { output: 'Published.', toolCalls: [{ function_name: 'find_node', arguments: {} }, { function_name: 'save_node', arguments: { status: 1 } }] },
 *   graders: ['tool_usage_grader'],
 * }); // composite 5
 * ```
 */
export const toolUsageGrader = defineGrader({
  id: 'tool_usage_grader',
  label: 'Tool usage',
  description:
    'Deterministic: did the agent call the expected tools, with the expected arguments, in the expected order and number?',
  minScore: 0,
  maxScore: 5,
  observesActions: true,
  grade(_input, response, context, { result }) {
    if (context.expected_tools === undefined) {
      return result(null, 'no expected_tools in context, skipping');
    }
    const parsed = parseExpectedTools(context.expected_tools);
    if (!parsed.ok) {
      return result(null, `malformed expected_tools: ${parsed.problems.join('; ')}`, true);
    }
    const unknown = catalogReason(parsed.expectations, context);
    if (unknown !== undefined) return result(null, unknown, true);
    // Absent and empty records differ: [] means the agent ran and called nothing.
    if (context.tool_calls === undefined) return fromResponseText(parsed.expectations, response, result);
    if (!Array.isArray(context.tool_calls)) {
      return result(
        null,
        'context.tool_calls is not a list of calls; pass it through normalizeToolCalls',
        true,
      );
    }
    return fromRecord(parsed.expectations, context.tool_calls, result);
  },
});

function fromRecord(expectations: ToolExpectation[], calls: ToolCall[], result: ResultFactory): GradeResult {
  // Entries with `times` count; the others take part in the matching. Loops, not array methods
  // with closures: this runs for every grade of every question.
  const matched: ToolExpectation[] = [];
  const candidates: number[][] = [];
  for (const e of expectations) {
    if (e.times !== undefined) continue;
    matched.push(e);
    candidates.push(satisfyingCalls(e, calls));
  }
  const assignment = maximumMatching(candidates, calls.length);
  // Each line at its entry's position in expectations (entries with `times` fill the gaps).
  const lines = new Array<{ met: boolean; text: string }>(expectations.length);
  let m = 0;
  let met = 0;
  for (let i = 0; i < expectations.length; i++) {
    const e = expectations[i]!;
    if (e.times === undefined) {
      const call = assignment[m] ?? -1;
      lines[i] =
        call >= 0
          ? { met: true, text: `met: ${describeExpectation(e)} (call #${call + 1})` }
          : {
              met: false,
              text: `missed: ${describeExpectation(e)} (${whyMissed(e, calls, candidates[m] ?? [])})`,
            };
      m += 1;
    } else {
      const count = satisfyingCalls(e, calls).length;
      const counted = `${count} matching call${count === 1 ? '' : 's'}`;
      lines[i] =
        count === e.times
          ? { met: true, text: `met: ${describeExpectation(e)} (${counted})` }
          : { met: false, text: `missed: ${describeExpectation(e)} (${counted})` };
    }
    if (lines[i]!.met) met += 1;
  }
  let texts = '';
  for (let i = 0; i < lines.length; i++) texts += i === 0 ? lines[i]!.text : `; ${lines[i]!.text}`;
  const summary = `${met}/${expectations.length} expected tools met among ${calls.length} recorded call${calls.length === 1 ? '' : 's'} (from the agent tool-call record): ${texts}`;
  return scored(expectations, lines, summary, result);
}

/** 5 x met / entries, or 0 when a critical entry was missed, saying which. */
function scored(
  expectations: readonly ToolExpectation[],
  lines: ReadonlyArray<{ met: boolean }>,
  summary: string,
  result: ResultFactory,
): GradeResult {
  let met = 0;
  let critical = false;
  for (let i = 0; i < expectations.length; i++) {
    if (lines[i]!.met) met += 1;
    else if (expectations[i]!.critical === true) critical = true;
  }
  if (critical) {
    const missed = expectations.filter((e, i) => e.critical === true && !lines[i]!.met);
    const which = missed.map((e) => `expected_tools[${e.index}] (${describeExpectation(e)})`).join(', ');
    return result(0, `critical expectation missed: ${which}; score 0 whatever else matched. ${summary}`);
  }
  return result((5 * met) / expectations.length, summary);
}

function whyMissed(e: ToolExpectation, calls: readonly ToolCall[], candidates: readonly number[]): string {
  if (candidates.length > 0) {
    const list = candidates.map((c) => `#${c + 1}`).join(', ');
    return `matching call ${list} already satisfied another expectation`;
  }
  const ofName = calls.filter((call) => isCallOf(call, e.name)).length;
  if (ofName === 0) return 'never called';
  const failed = calls.flatMap((call, i) =>
    isCallOf(call, e.name) && call.status === 'error' ? [`#${i + 1}`] : [],
  );
  const unanswered = calls.flatMap((call, i) =>
    isCallOf(call, e.name) && call.status === 'unknown' ? [`#${i + 1}`] : [],
  );
  const notes = [
    failed.length > 0 ? `${failed.join(', ')} failed` : '',
    unanswered.length > 0 ? `no result came back for ${unanswered.join(', ')}` : '',
  ].filter((s) => s !== '');
  const wanted = [
    e.args !== undefined ? 'with those arguments' : '',
    e.succeeded === true ? `that succeeded${notes.length > 0 ? ` (${notes.join('; ')})` : ''}` : '',
    e.after !== undefined
      ? calls.some((call) => isCallOf(call, e.after!))
        ? `after ${e.after}`
        : `after ${e.after}, which was never called`
      : '',
  ].filter((s) => s !== '');
  return `called ${ofName} time${ofName === 1 ? '' : 's'}, none ${wanted.join(' and ')}`;
}

function fromResponseText(
  expectations: ToolExpectation[],
  response: string,
  result: ResultFactory,
): GradeResult {
  const needRecord = expectations.filter(
    (e) => e.args !== undefined || e.after !== undefined || e.times !== undefined || e.succeeded === true,
  );
  if (needRecord.length > 0) {
    const which = needRecord.map((e) => `expected_tools[${e.index}] (${describeExpectation(e)})`).join(', ');
    return result(
      null,
      `${FALLBACK_MARKER}: args, after, times and succeeded expectations cannot be checked from the response text: ${which}. Grade an agent run with its toolCalls or messages.`,
      true,
    );
  }
  const lines = expectations.map((e) => {
    const named = mentions(response, e.name);
    return {
      met: named,
      text: `${named ? 'met' : 'missed'}: ${e.name} (${named ? '' : 'not '}named in the response)`,
    };
  });
  const met = lines.filter((l) => l.met).length;
  const summary = `${FALLBACK_MARKER}, presence scored from the response text, not from what the agent did: ${met}/${expectations.length} expected tools named: ${lines
    .map((l) => l.text)
    .join('; ')}`;
  return scored(expectations, lines, summary, result);
}

/** The tool name appears in the text as a whole word, ignoring case. */
function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`, 'i').test(text);
}
