import { defineGrader } from '../../grading/define-grader.js';
import type { Rubric, RubricCheck } from '../../grading/rubric-types.js';
import type { GradeResult } from '../../grading/types.js';
import { formatNumber } from '../../internal/numbers.js';
import { errorMessage } from '../../internal/text.js';
import type { CheckOutcome } from './check-types.js';
import { combineChecks, isNumericMode } from './combine.js';
import { findExecutor } from './executors.js';

/** A check's name in reasons: its id, else its position. */
function checkName(check: RubricCheck, index: number): string {
  return typeof check.id === 'string' && check.id !== '' ? check.id : `checks[${index}]`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ');
}

/**
 * `rubric_checks` (0-5): runs the deterministic checks of the question's rubric and combines them.
 *
 * Reads the rubric the question's `rubric_ref` names (`context.rubric`, resolved as suites do:
 * `rubrics/<ref>.yaml` beside the dataset, in a dataset directory, or under the root). Runs each
 * check that an executor claims, in order: `must_contain_any`, `must_not_contain`, `regex`,
 * `json_schema`, `format`, `target_match`, `tool_usage`, `state`, and kinds added with
 * `defineCheckExecutor`. `llm_judge` checks are never run here: their criteria reach the judges.
 * A check no executor claims is left out of combining and named in the reason.
 *
 * Combines by the rubric's `scoring.combine` (default `all_pass`): `all_pass` and `any_pass` score
 * 5 or 0; `weighted_avg`, `min`, `max` and `median` score 5 x the combined check score (each check
 * scores 1 when it passes, 0 when not, or its own value: chrF, the share of a format or tool_usage
 * check met), and 0 when it is below `scoring.pass_threshold`. The reason has one line per check
 * (`PASS`, `FAIL`, `ERROR`, `NOT RUN`, `JUDGE`). The rubric's id and version are stored with the
 * grade.
 *
 * No `rubric_ref`: skip. A rubric that does not apply to the question's bundle: skip. No check
 * could run: skip (the judges may still read its `llm_judge` criteria). A missing or invalid rubric:
 * an error naming the ref and the file. A check that could not run (an invalid pattern, a missing
 * target value, an executor that threw): an error, never a score. The grade observes actions only
 * when a `tool_usage` or `state` check ran: the record says so per grade.
 *
 * @example
 * ```ts
 * // rubrics/refund_reply.yaml: { id: refund_reply, version: 1.0.0, checks: [{ id: says_refund, type: must_contain_any, values: [refund] }] }
 * await gradeQuestion({ question: { id: 'q1', input: 'Refund?', rubric_ref: 'refund_reply' }, response: 'Your refund is on its way.', graders: ['rubric_checks'] });
 * ```
 */
export const rubricChecks = defineGrader({
  id: 'rubric_checks',
  label: 'Rubric checks',
  description:
    "Deterministic: runs the question rubric's checks (strings, regex, JSON Schema, format, target match, tool usage, state) and combines them by the rubric's mode.",
  minScore: 0,
  maxScore: 5,
  async grade(input, response, context, { result, signal }) {
    const resolved = context.rubric;
    if (resolved === undefined) {
      return typeof context.rubric_ref === 'string'
        ? result(
            null,
            `rubric_ref '${context.rubric_ref}' was not resolved for this grade; grade through evalSuite or gradeQuestion, which read rubrics/${context.rubric_ref}.yaml`,
            true,
          )
        : result(null, 'no rubric_ref in the question, skipping');
    }
    if (resolved.error !== undefined || resolved.rubric === undefined) {
      return result(
        null,
        `rubric '${resolved.ref}'${resolved.file ? ` (${resolved.file})` : ''}: ${resolved.error ?? 'not loaded'}`,
        true,
      );
    }
    const rubric = resolved.rubric;
    const stamp = rubricStamp(rubric, resolved.ref);
    const title = `rubric ${stamp.id}${stamp.version ? ` ${stamp.version}` : ''}`;
    const bundles = rubric.applicable_bundles ?? [];
    const bundle = typeof context.bundle === 'string' ? context.bundle : undefined;
    if (bundles.length > 0 && (bundle === undefined || !bundles.includes(bundle))) {
      return {
        ...result(
          null,
          `${title} applies to bundle ${bundles.join(', ')}; the question's bundle is ${bundle ?? '(none)'}, skipping`,
        ),
        rubric: stamp,
      };
    }
    const lines: string[] = [];
    const ran: Array<{ outcome: CheckOutcome; weight: number }> = [];
    const notRun: string[] = [];
    let observed = false;
    let queried = false;
    for (const [index, check] of rubric.checks.entries()) {
      const name = `${checkName(check, index)} (${check.type})`;
      if (check.type === 'llm_judge') {
        lines.push(`JUDGE ${name}: criteria left to the judges, not run here`);
        continue;
      }
      const executor = findExecutor(check);
      if (!executor) {
        notRun.push(name);
        lines.push(
          `NOT RUN ${name}: no check executor claims this kind; define one with defineCheckExecutor({ kind: '${check.type}', ... })`,
        );
        continue;
      }
      let outcome: CheckOutcome;
      try {
        outcome = normalized(await executor.execute(check, { response, input, context, signal }));
      } catch (error) {
        outcome = {
          pass: false,
          error: true,
          reason: `the ${executor.kind} executor threw: ${errorMessage(error)}`,
        };
      }
      if (executor.observesActions) observed = true;
      if (executor.queriesState) queried = true;
      ran.push({ outcome, weight: typeof check.weight === 'number' ? check.weight : 1 });
      const verdict = outcome.error ? 'ERROR' : outcome.pass ? 'PASS' : 'FAIL';
      lines.push(`${verdict} ${name}: ${oneLine(outcome.reason)}`);
    }
    const flags = (grade: GradeResult): GradeResult => ({
      ...grade,
      observesActions: observed,
      ...(queried ? { queriedState: true } : {}),
      rubric: stamp,
    });
    if (ran.length === 0) {
      const why =
        notRun.length > 0
          ? `no check could run (not run: ${notRun.join(', ')})`
          : 'no executable check (only llm_judge criteria, which the judges read)';
      return { ...result(null, [`${title}: ${why}, skipping`, ...lines].join('\n')), rubric: stamp };
    }
    const errored = ran.filter((r) => r.outcome.error === true).length;
    if (errored > 0) {
      return flags(
        result(
          null,
          [
            `${title}: ${errored} of ${ran.length} checks could not run, so the rubric could not be scored`,
            ...lines,
          ].join('\n'),
          true,
        ),
      );
    }
    const mode = rubric.scoring?.combine ?? 'all_pass';
    const value = combineChecks(
      mode,
      ran.map(({ outcome, weight }) => ({
        pass: outcome.pass,
        score: outcome.score ?? (outcome.pass ? 1 : 0),
        weight,
      })),
    );
    const passed = ran.filter((r) => r.outcome.pass).length;
    const threshold = rubric.scoring?.pass_threshold;
    const below = isNumericMode(mode) && threshold !== undefined && value < threshold;
    const summary = isNumericMode(mode)
      ? `${mode} ${formatNumber(value)}${threshold !== undefined ? `, ${below ? 'below' : 'at or above'} the pass threshold ${formatNumber(threshold)}` : ''}`
      : `${mode}: ${passed}/${ran.length} checks passed`;
    const left = notRun.length > 0 ? `; not run: ${notRun.join(', ')}` : '';
    return flags(result(below ? 0 : 5 * value, [`${title}: ${summary}${left}`, ...lines].join('\n')));
  },
});

/** The rubric's id (else the ref) and version, as grades keep them. */
function rubricStamp(rubric: Rubric, ref: string): { id: string; version?: string } {
  return { id: rubric.id ?? ref, ...(rubric.version !== undefined ? { version: rubric.version } : {}) };
}

/** An executor's answer, checked: anything but `{ pass: boolean, reason }` is an error. */
function normalized(value: unknown): CheckOutcome {
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { pass?: unknown }).pass !== 'boolean'
  ) {
    return {
      pass: false,
      error: true,
      reason: `the executor returned ${value === null ? 'null' : typeof value} instead of { pass, reason }`,
    };
  }
  const { pass, score, reason, error } = value as CheckOutcome;
  const text = typeof reason === 'string' && reason.trim() !== '' ? reason : '(no reason given)';
  if (error === true) return { pass: false, error: true, reason: text };
  if (
    score !== undefined &&
    (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1)
  ) {
    return {
      pass: false,
      error: true,
      reason: `the executor returned score ${String(score)}, outside 0 to 1`,
    };
  }
  return { pass, ...(score !== undefined ? { score } : {}), reason: text };
}
