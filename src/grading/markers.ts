/**
 * The phrase a grader that declares `observesActions` puts in its reason when it had no tool-call
 * record and scored from a fallback instead (the seed's `ToolUsageGrader::FALLBACK_MARKER`). The
 * reporter matches on it to raise the `NO_TOOL_CALL_RECORD` advisory.
 *
 * @example
 * ```ts
 * return result(3, `${FALLBACK_MARKER}; matched tool names in the response text instead`);
 * ```
 */
export const FALLBACK_MARKER = 'no tool-call record available';
