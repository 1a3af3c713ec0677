import { extname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { validateParsedGoldLabels } from '../datasets/gold-labels.js';
import { parseText } from '../datasets/parse.js';
import { readDocumentText } from '../datasets/text-input.js';
import { formatProblem } from '../datasets/validate.js';
import { isAiEvalError } from '../errors.js';
import { isJudge } from '../judge/define-judge.js';
import { resolveTemplate } from '../judge/template.js';
import { errorMessage } from '../internal/text.js';
import { listGraders } from '../registry/graders.js';
import { judgeRecordIdentity } from '../registry/judge-identity.js';
import {
  DEFAULT_JUDGES_FILE,
  DEFAULT_TRUST_MINIMUMS,
  readTrustFile,
  trustEntry,
  trustState,
  validatedOn,
  type Rate,
  type TrustState,
} from '../report/judge-trust.js';
import { updateTrustFile } from '../validation/trust-write.js';
import { validateJudges, type JudgeValidation } from '../validation/validate-judges.js';
import { importSetupModules, SETUP_OPTION } from './setup-modules.js';

const USAGE = `Usage:
  ai-eval judges validate --gold <file> [--judge <id>] [--json] [--dry-run] [options]
  ai-eval judges list [--json] [options]

validate  re-scores every gold item with its judge (through the replay cache when
          AI_EVAL_JUDGE_CACHE is auto or replay), prints each judge's agreement with the people
          (TPR, TNR, agreement, Cohen's kappa; MAE, Spearman and QWK with person scores), and
          records its trust state in the judges file unless --dry-run.
          Exit 0: every judge validated met its minimums. 1: some judge did not.
          2: bad arguments, an invalid gold file, or a judges file it cannot read.
list      every LLM judge: dimension, scale, flags, trust state, the prompt hash it was validated
          on and the current one. Exit 0, or 2 on bad arguments.

Options:
  --judges-file <file>   the trust file (default ${DEFAULT_JUDGES_FILE} in the working directory)
  --setup <module>       a JavaScript module to import first (registers custom judges, calls
                         configure()); repeatable
  --min-tpr <0..1>       minimum TPR to be trusted (default ${DEFAULT_TRUST_MINIMUMS.tpr})
  --min-tnr <0..1>       minimum TNR (default ${DEFAULT_TRUST_MINIMUMS.tnr})
  --min-n <n>            minimum graded items (default ${DEFAULT_TRUST_MINIMUMS.n})
  --margin <0..1>        margin of error for Cochran's labels-needed figure (default 0.05)
  --confidence <0..1>    its confidence (default 0.95)
  --json                 print only the JSON document on stdout (warnings go to stderr)
The judge model and endpoint come from the environment (AI_EVAL_JUDGE_MODEL, OPENAI_BASE_URL,
OPENAI_API_KEY, AI_EVAL_JUDGE_CACHE) or a --setup module's configure(). Docs: node_modules/ai-eval/docs/judge-validation.md.
`;

const SHARED = {
  ...SETUP_OPTION,
  json: { type: 'boolean' },
  'judges-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const VALIDATE = {
  ...SHARED,
  gold: { type: 'string' },
  judge: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'min-tpr': { type: 'string' },
  'min-tnr': { type: 'string' },
  'min-n': { type: 'string' },
  margin: { type: 'string' },
  confidence: { type: 'string' },
} as const;

/**
 * `ai-eval judges validate | list`. Exit codes: see the usage text (0, 1, 2).
 *
 * @example
 * ```ts
 * process.exitCode = await judges(['validate', '--gold', 'gold/accuracy.yaml', '--json']);
 * ```
 */
export async function judges(argv: string[]): Promise<number> {
  const [sub, ...args] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'validate' && sub !== 'list') return usage(`unknown subcommand '${sub}'`);
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    values = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: sub === 'list' ? SHARED : VALIDATE,
    }).values;
  } catch (error) {
    return usage(errorMessage(error));
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const problem = await importSetupModules(Array.isArray(values.setup) ? values.setup : []);
  if (problem) return failure(problem);
  const judgesFile = resolve(
    typeof values['judges-file'] === 'string' ? values['judges-file'] : DEFAULT_JUDGES_FILE,
  );
  try {
    return sub === 'list' ? list(judgesFile, values.json === true) : await validate(values, judgesFile);
  } catch (error) {
    return failure(isAiEvalError(error) ? error.message : errorMessage(error));
  }
}

function usage(problem: string): number {
  process.stderr.write(`ai-eval judges: ${problem}.\n\n${USAGE}`);
  return 2;
}

function failure(message: string): number {
  process.stderr.write(`ai-eval judges: ${message}\n`);
  return 2;
}

function numberOption(
  values: Record<string, string | boolean | string[] | undefined>,
  name: string,
  check: (n: number) => boolean,
  what: string,
): number | undefined {
  const raw = values[name];
  if (typeof raw !== 'string') return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new Error(`--${name} must be ${what}, got ${JSON.stringify(raw)}`);
  return n;
}

async function validate(
  values: Record<string, string | boolean | string[] | undefined>,
  judgesFile: string,
): Promise<number> {
  const gold = values.gold;
  if (typeof gold !== 'string') return usage('validate needs --gold <file>');
  let minimums: { tpr?: number; tnr?: number; n?: number };
  let margin: number | undefined;
  let confidence: number | undefined;
  try {
    const share = (n: number) => n >= 0 && n <= 1;
    minimums = {
      ...optional('tpr', numberOption(values, 'min-tpr', share, 'a number from 0 to 1')),
      ...optional('tnr', numberOption(values, 'min-tnr', share, 'a number from 0 to 1')),
      ...optional(
        'n',
        numberOption(values, 'min-n', (n) => Number.isInteger(n) && n >= 1, 'a whole number of at least 1'),
      ),
    };
    margin = numberOption(values, 'margin', (n) => n > 0 && n < 1, 'a number between 0 and 1');
    confidence = numberOption(values, 'confidence', (n) => n > 0 && n < 1, 'a number between 0 and 1');
  } catch (error) {
    return usage(errorMessage(error));
  }
  const read = readDocumentText(gold, gold, { brief: true });
  if ('problem' in read) return failure(formatProblem(read.problem));
  const parsed = parseText(read.text, gold, {
    json: extname(gold).toLowerCase() === '.json',
    ascii: read.ascii,
    noDelOrC1: read.noDelOrC1,
  });
  const checked = validateParsedGoldLabels(parsed, gold);
  if (checked.problems.length > 0) {
    process.stderr.write(`ai-eval judges: ${gold} is not a valid gold-label file:\n`);
    for (const p of checked.problems) process.stderr.write(`  ${formatProblem(p)}\n`);
    return 2;
  }
  const trust = readTrustFile(judgesFile);
  if (trust.problem && values['dry-run'] !== true) return failure(trust.problem);
  const json = values.json === true;
  const progress = !json && process.stderr.isTTY ? progressBar() : undefined;
  const result = await validateJudges({
    items: checked.items,
    file: gold,
    text: read.text,
    ...(typeof values.judge === 'string' ? { judge: values.judge } : {}),
    minimums,
    ...(margin !== undefined ? { margin } : {}),
    ...(confidence !== undefined ? { confidence } : {}),
    ...(progress ? { onProgress: progress } : {}),
  });
  if (progress) process.stderr.write('\n');
  const goldFile = relative(process.cwd(), resolve(gold)).replace(/\\/g, '/') || gold;
  const updated = values['dry-run'] !== true;
  if (updated)
    updateTrustFile(judgesFile, result.judges, { file: goldFile, hash: result.goldHash }, new Date());
  const allTrusted = result.judges.every((j) => j.state === 'trusted');
  if (json) {
    const document = {
      gold: { file: goldFile, hash: result.goldHash, items: checked.items.length },
      judgesFile,
      updated,
      passed: allTrusted,
      judges: result.judges,
    };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    for (const j of result.judges) process.stdout.write(`${describeValidation(j)}\n`);
    process.stdout.write(
      updated
        ? `Trust file ${judgesFile} updated (${result.judges.map((j) => j.judge).join(', ')}).\n`
        : `Dry run: ${judgesFile} not changed.\n`,
    );
  }
  return allTrusted ? 0 : 1;
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

function f2(n: number | null): string {
  return n === null ? '-' : n.toFixed(2);
}

function rate(name: string, r: Rate, min: number | undefined, met: boolean | undefined): string {
  const interval = r.low !== null && r.high !== null ? ` [${f2(r.low)}, ${f2(r.high)}]` : '';
  const floor = min !== undefined ? `  (min ${f2(min)}: ${met ? 'met' : 'NOT met'})` : '';
  return `  ${name} ${f2(r.value)}${interval} (${r.count} of ${r.of})${floor}`;
}

/**
 * A validation in words, as `ai-eval judges validate` prints it.
 *
 * @example
 * ```ts
 * console.log(describeValidation(result));
 * ```
 */
export function describeValidation(j: JudgeValidation): string {
  const m = j.metrics;
  const lines = [
    `${j.judge} (${j.dimension}, ${j.min}-${j.max}, passes at composite >= ${j.passThreshold}; model ${j.model}, prompt #${j.promptHash})`,
    `  n ${m.n} graded (min ${j.minimums.n}: ${j.met.n ? 'met' : 'NOT met'}); ${m.errors} errored, ${m.skipped} skipped, counted apart`,
    `  confusion: TP ${m.tp}  FN ${m.fn}  FP ${m.fp}  TN ${m.tn}  (rows: people pass, fail; columns: judge pass, fail)`,
    rate('TPR', m.tpr, j.minimums.tpr, j.met.tpr),
    rate('TNR', m.tnr, j.minimums.tnr, j.met.tnr),
    `${rate('agreement', m.agreement, undefined, undefined)}  kappa ${f2(m.kappa)}`,
  ];
  if (m.scored > 0)
    lines.push(
      `  scores (${m.scored} with a person's score): MAE ${f2(m.mae)}  Spearman ${f2(m.spearman)}  QWK ${f2(m.qwk)}`,
    );
  const need = j.labelsNeeded;
  lines.push(
    `  labels needed for a ±${need.margin} margin at ${Math.round(need.confidence * 100)}% (Cochran): ${need.passes} more people-pass and ${need.fails} more people-fail item(s)${need.forMinimum > 0 ? `; ${need.forMinimum} more graded item(s) for the minimum n` : ''}`,
  );
  const errored = j.items.filter((i) => i.error);
  for (const i of errored.slice(0, 5)) lines.push(`  error on ${i.id}: ${i.reason}`);
  if (errored.length > 5) lines.push(`  ... and ${errored.length - 5} more errors`);
  lines.push(`  => ${j.state}`);
  return lines.join('\n');
}

function progressBar(): (done: number, total: number) => void {
  return (done, total) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} items`);
  };
}

/** One row of `ai-eval judges list --json`. */
interface ListedJudge {
  id: string;
  label: string;
  dimension: string;
  min: number;
  max: number;
  flags: { seesToolCalls: boolean; promptOverridden: boolean };
  trust: TrustState;
  model: string;
  promptHash: string;
  validated: { promptHash: string; model: string; validatedAt: string; gold: string } | null;
}

function list(judgesFile: string, json: boolean): number {
  const trust = readTrustFile(judgesFile);
  if (trust.problem) process.stderr.write(`[ai-eval] warning: ${trust.problem}\n`);
  const rows: ListedJudge[] = listGraders()
    .filter(isJudge)
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((judge) => {
      const identity = judgeRecordIdentity(judge);
      const entry = trustEntry(trust.trust, judge.id);
      const current = { promptHash: identity?.promptHash, model: identity?.judgeModel };
      return {
        id: judge.id,
        label: judge.label,
        dimension: judge.judge.dimension,
        min: judge.minScore,
        max: judge.maxScore,
        flags: {
          seesToolCalls: judge.seesToolCalls,
          promptOverridden: resolveTemplate(judge.id, judge.judge.template).source !== 'default',
        },
        trust: trustState(entry, current),
        model: identity?.judgeModel ?? '',
        promptHash: identity?.promptHash ?? '',
        validated: entry ? validatedOn(entry) : null,
      };
    });
  if (json) {
    process.stdout.write(`${JSON.stringify({ judgesFile, judges: rows }, null, 2)}\n`);
    return 0;
  }
  for (const r of rows) {
    const flags = [
      r.flags.seesToolCalls ? 'sees tool calls' : '',
      r.flags.promptOverridden ? 'prompt overridden' : '',
    ]
      .filter(Boolean)
      .join(', ');
    const validated = r.validated
      ? `validated on #${r.validated.promptHash} (${r.validated.model}), now #${r.promptHash} (${r.model})`
      : `never validated; now #${r.promptHash} (${r.model})`;
    process.stdout.write(
      `${r.id}  ${r.dimension}  ${r.min}-${r.max}  ${r.trust}${flags ? `  [${flags}]` : ''}\n  ${validated}\n`,
    );
  }
  process.stdout.write(`(trust file: ${judgesFile}${trust.missing ? ', not found' : ''})\n`);
  return 0;
}
