import { collect } from '../../src/report/collect.js';
import type { EvalReport } from '../../src/report/model.js';
import { gateSettings, type ReporterOptions } from '../../src/report/options.js';
import type { EvalRecord, RecordTarget } from '../../src/run/record-types.js';
import { FAQ, identity, rec, skip, fail } from './report-fixtures.js';

/** Text that would run script if the HTML report did not escape it. */
export const HOSTILE = {
  script: '<script>window.__pwned = "script";</script>',
  onerror: '<img src=x onerror="window.__pwned = \'onerror\'">',
  attr: '" autofocus onfocus="window.__pwned = \'attr\'" x="',
};

/** An agent target scored by a deterministic observer and a judge. */
const AGENT: RecordTarget = {
  name: 'support-bot',
  mode: 'agent',
  graders: ['tool_usage_grader', 'accuracy_grader'],
  actionObserving: ['tool_usage_grader'],
  passThreshold: 3.5,
};

/** An agent target with no action observer (it gets an advisory). */
const BLIND: RecordTarget = {
  name: 'billing-bot',
  mode: 'agent',
  graders: ['accuracy_grader'],
  actionObserving: [],
  passThreshold: 3.5,
};

const FILE = '/repo/test/support.test.ts';

function q(
  target: RecordTarget,
  question: string,
  grades: Array<[grader: string, score: number | null, extra?: Partial<EvalRecord>]>,
  options: { tags?: string[]; trial?: number; dataset?: string } = {},
): EvalRecord[] {
  const tags = options.tags?.length ? ` [${options.tags.join(', ')}]` : '';
  return grades.map(([grader, score, extra]) => {
    const base = {
      question,
      grader,
      target,
      test: { file: FILE, name: `${target.name} > ${question}${tags}` },
      trial: options.trial ?? 1,
      observesActions: target.actionObserving.includes(grader),
      llm: grader.endsWith('_grader') && grader !== 'tool_usage_grader',
      label: grader === 'tool_usage_grader' ? 'Tool usage (0-5)' : 'Accuracy (0-5)',
      dataset: { ref: options.dataset ?? 'file:datasets/support.yaml', hash: 'abc' },
      ...extra,
    };
    if (score === null && extra?.error) return fail(question, grader, base);
    if (score === null) return skip(question, grader, base);
    return rec({ ...base, score, reason: extra?.reason ?? `scored ${score}` });
  });
}

/** The records of the fixture run: two agent targets and a chat target, trials, tags, hostile text. */
export function fixtureRecords(variant: 'head' | 'base' = 'head'): EvalRecord[] {
  const head = variant === 'head';
  return [
    ...q(
      AGENT,
      'refund-order',
      [
        ['tool_usage_grader', 5],
        ['accuracy_grader', 4.5],
      ],
      { tags: ['billing', 'smoke'] },
    ),
    ...q(
      AGENT,
      'cancel-order',
      [
        ['tool_usage_grader', head ? 1 : 5, { reason: `cancel_order was never called. ${HOSTILE.script}` }],
        ['accuracy_grader', head ? 2 : 4, { reason: `The reply claims a cancellation. ${HOSTILE.onerror}` }],
      ],
      { tags: ['orders'] },
    ),
    ...[1, 2, 3].flatMap((trial) =>
      q(
        AGENT,
        'track-parcel',
        [
          ['tool_usage_grader', trial === 2 ? 2 : 5],
          ['accuracy_grader', trial === 3 ? 3 : 4],
        ],
        { tags: ['orders'], trial },
      ),
    ),
    ...q(AGENT, 'judge-down', [
      ['tool_usage_grader', 4],
      ['accuracy_grader', null, { error: true, reason: 'judge timed out after 3 attempts' }],
    ]),
    ...q(AGENT, `odd-id-${HOSTILE.attr}`, [['tool_usage_grader', 4]]),
    ...(head
      ? q(AGENT, 'new-question', [['tool_usage_grader', 5]], { tags: ['smoke'] })
      : q(AGENT, 'old-question', [['tool_usage_grader', 3]])),
    ...q(BLIND, 'invoice-copy', [['accuracy_grader', 4]], {
      tags: ['billing'],
      dataset: 'file:datasets/billing.yaml',
    }),
    ...q(BLIND, 'vat-number', [['accuracy_grader', head ? 2.5 : 3]], {
      dataset: 'file:datasets/billing.yaml',
    }),
    ...q({ ...FAQ, graders: ['accuracy_grader'] }, 'opening-hours', [['accuracy_grader', 5]], {
      dataset: 'file:datasets/faq.yaml',
    }),
  ];
}

/** The fixture report, with a response and tool-call record on one question (the evidence block). */
export function fixtureReport(variant: 'head' | 'base' = 'head', options: ReporterOptions = {}): EvalReport {
  const report = collect(fixtureRecords(variant), {
    identity: {
      ...identity,
      judgeModel: 'gpt-4o-mini',
      judgeHash: '3b1f0c9a2d4e',
      promptHashes: { accuracy_grader: '9f2c11aa0b3d' },
    },
    settings: gateSettings({ gate: { level: 'hard', minAverage: 3.5, minCoverage: 0.9 }, ...options }),
  });
  const cancel = report.targets
    .find((t) => t.name === 'support-bot')
    ?.questions.find((x) => x.id === 'cancel-order');
  if (cancel)
    Object.assign(cancel, {
      response: `Done! I cancelled order 1042. ${HOSTILE.script} ${HOSTILE.onerror}`,
      toolCalls: [
        { function_name: 'find_order', arguments: { order_id: '1042', note: HOSTILE.onerror }, status: 'ok' },
        { function_name: 'get_status', arguments: { order_id: '1042' }, status: 'error' },
      ],
    });
  return report;
}
