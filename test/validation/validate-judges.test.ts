import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configure } from '../../src/index.js';
import { validateGoldLabels, type GoldLabel } from '../../src/datasets/gold-labels.js';
import { judgeRecordIdentity } from '../../src/registry/judge-identity.js';
import { getGrader } from '../../src/registry/graders.js';
import { readTrustFile, trustState } from '../../src/report/judge-trust.js';
import { updateTrustFile } from '../../src/validation/trust-write.js';
import { validateJudges } from '../../src/validation/validate-judges.js';
import { withJudgeServer } from '../judge/judge-env.js';
import type { RecordedRequest, Step } from '../helpers/openai-server.js';
import { scratch } from '../helpers/temp.js';

const env = withJudgeServer();

/** The scripted judge: 5 for a response marked GOOD, 1 for BAD, prose (unparseable) for BROKEN. */
function judgeByMarker(request: RecordedRequest): Step {
  if (request.prompt.includes('BROKEN')) return { content: 'I would say it is fine.' };
  return { answer: { score: request.prompt.includes('GOOD') ? 5 : 1, reason: 'scripted' } };
}

function item(id: string, response: string, label: 'pass' | 'fail', score?: number): GoldLabel {
  return {
    id,
    judge: 'relevance',
    input: 'Where is my refund?',
    response,
    label,
    ...(score !== undefined ? { score } : {}),
  };
}

// People passed 6 (the judge passes 5: one GOOD is labelled fail below, one pass is BAD) ...
const items: GoldLabel[] = [
  item('p1', 'GOOD one', 'pass', 5),
  item('p2', 'GOOD two', 'pass', 4),
  item('p3', 'GOOD three', 'pass', 5),
  item('p4', 'GOOD four', 'pass', 4),
  item('p5', 'BAD but people liked it', 'pass', 4),
  item('p6', 'BROKEN reply', 'pass', 5),
  item('f1', 'BAD one', 'fail', 1),
  item('f2', 'BAD two', 'fail', 0),
  item('f3', 'GOOD but people did not like it', 'fail', 2),
];

describe('validateJudges against a scripted judge over HTTP', () => {
  it('re-scores every item through the judge and counts the confusion, errors apart', async () => {
    env.server.fallback = judgeByMarker;
    const { judges } = await validateJudges({ items, file: 'gold.yaml', text: 'x', minimums: { n: 5 } });
    expect(env.server.requests).toHaveLength(9);
    expect(judges).toHaveLength(1);
    const [j] = judges;
    expect(j!.judge).toBe('relevance_grader');
    const m = j!.metrics;
    // p1-p4 TP, p5 FN, f1 f2 TN, f3 FP; p6 errored (prose) and is in neither.
    expect({ tp: m.tp, fn: m.fn, fp: m.fp, tn: m.tn, errors: m.errors, n: m.n }).toEqual({
      tp: 4,
      fn: 1,
      fp: 1,
      tn: 2,
      errors: 1,
      n: 8,
    });
    expect(m.tpr.value).toBeCloseTo(4 / 5, 10);
    expect(m.tnr.value).toBeCloseTo(2 / 3, 10);
    expect(m.agreement.value).toBeCloseTo(6 / 8, 10);
    expect(m.tpr.low).toBeLessThan(0.8);
    expect(m.tpr.high).toBeGreaterThan(0.8);
    // po = 0.75, pe = (5*5 + 3*3) / 64 = 34/64: kappa = (0.75 - 34/64) / (1 - 34/64) = 14/30.
    expect(m.kappa).toBeCloseTo(14 / 30, 10);
    expect(m.scored).toBe(8);
    // |5-5| + |4-5| + |5-5| + |4-5| + |4-1| + |1-1| + |0-1| + |2-5| = 9, over 8.
    expect(m.mae).toBeCloseTo(9 / 8, 10);
    expect(j!.met).toEqual({ tpr: true, tnr: false, n: true });
    expect(j!.state).toBe('untrusted');
    expect(j!.items.find((i) => i.id === 'p6')).toMatchObject({ error: true, judgePassed: null });
    expect(j!.labelsNeeded.passes).toBeGreaterThan(0);
    expect(j!.labelsNeeded.forMinimum).toBe(0);
  });

  it('is trusted when every minimum holds, and says how many labels the minimum n still needs', async () => {
    env.server.fallback = judgeByMarker;
    const clean = items.filter((i) => ['p1', 'p2', 'f1', 'f2'].includes(i.id));
    const loose = await validateJudges({ items: clean, file: 'g', text: 'x', minimums: { n: 4 } });
    expect(loose.judges[0]!.state).toBe('trusted');
    const strict = await validateJudges({ items: clean, file: 'g', text: 'x' });
    expect(strict.judges[0]!.state).toBe('untrusted');
    expect(strict.judges[0]!.met.n).toBe(false);
    expect(strict.judges[0]!.labelsNeeded.forMinimum).toBe(26);
  });

  it('replays from the judge cache: a second run asks the model nothing', async () => {
    env.server.fallback = judgeByMarker;
    const dir = scratch();
    configure({ judge: { cache: 'auto', cacheDir: join(dir, 'cache') } });
    const first = await validateJudges({ items, file: 'g', text: 'x' });
    const asked = env.server.requests.length;
    expect(asked).toBe(9);
    const second = await validateJudges({ items, file: 'g', text: 'x' });
    expect(env.server.requests.length).toBe(asked);
    expect(second.judges[0]!.metrics).toEqual(first.judges[0]!.metrics);
  });

  it('writes the trust file atomically, keeps other entries, and goes stale when the prompt or model changes', async () => {
    env.server.fallback = judgeByMarker;
    const dir = scratch({
      'ai-eval.judges.json': JSON.stringify({
        version: 1,
        judges: { other_judge: { state: 'trusted', promptHash: 'a', model: 'm', metrics: {} } },
      }),
    });
    const file = join(dir, 'ai-eval.judges.json');
    const clean = items.filter((i) => ['p1', 'p2', 'f1', 'f2'].includes(i.id));
    const { judges, goldHash } = await validateJudges({
      items: clean,
      file: 'gold.yaml',
      text: 'x',
      minimums: { n: 4 },
    });
    updateTrustFile(file, judges, { file: 'gold.yaml', hash: goldHash }, new Date('2026-01-01T00:00:00Z'));
    const written = JSON.parse(readFileSync(file, 'utf8')) as { judges: Record<string, unknown> };
    expect(Object.keys(written.judges)).toEqual(['other_judge', 'relevance_grader']);
    const entry = readTrustFile(file).trust.judges.relevance_grader!;
    expect(entry).toMatchObject({
      state: 'trusted',
      model: 'test-judge',
      gold: { file: 'gold.yaml', hash: goldHash },
    });
    const judge = getGrader('relevance_grader');
    const now = judgeRecordIdentity(judge)!;
    expect(trustState(entry, { promptHash: now.promptHash, model: now.judgeModel })).toBe('trusted');
    configure({ judge: { prompts: { relevance_grader: 'Strictly rate %s.\n%s\n%s\n%s' } } });
    const overridden = judgeRecordIdentity(judge)!;
    expect(overridden.promptHash).not.toBe(now.promptHash);
    expect(trustState(entry, { promptHash: overridden.promptHash, model: overridden.judgeModel })).toBe(
      'stale',
    );
    expect(trustState(entry, { promptHash: now.promptHash, model: 'another-model' })).toBe('stale');
    expect(trustState(undefined, { promptHash: now.promptHash })).toBe('unvalidated');
  });

  it('refuses to overwrite a trust file it cannot read', () => {
    const dir = scratch({ 'ai-eval.judges.json': '{ not json' });
    expect(() =>
      updateTrustFile(join(dir, 'ai-eval.judges.json'), [], { file: 'g', hash: 'h' }, new Date()),
    ).toThrow(/is not valid JSON.*Not overwriting it/);
    expect(readFileSync(join(dir, 'ai-eval.judges.json'), 'utf8')).toBe('{ not json');
  });
});

describe('gold-label files', () => {
  it('accepts the documented format', () => {
    const { items: parsed, problems } = validateGoldLabels(
      [
        'items:',
        '  - id: refund-1',
        '    judge: accuracy_grader',
        '    input: How long is the refund window?',
        '    response: Thirty days.',
        '    expected_facts: [30 days]',
        '    label: pass',
        '    score: 5',
        '  - id: refund-2',
        '    judge: relevance',
        '    messages: [{ role: user, content: Hi }]',
        '    response: Hello.',
        '    tool_calls: []',
        '    label: fail',
        '    notes: off topic',
        '',
      ].join('\n'),
      'gold.yaml',
    );
    expect(problems).toEqual([]);
    expect(parsed.map((i) => i.id)).toEqual(['refund-1', 'refund-2']);
  });

  it('names the file, line and path of each problem: duplicate ids, unknown judges, bad labels', () => {
    const { items: parsed, problems } = validateGoldLabels(
      [
        'items:',
        '  - { id: a, judge: relevance_grader, input: q, response: r, label: pass }',
        '  - { id: a, judge: house_tone, input: q, response: r, label: maybe }',
        '  - { id: c, judge: relevance_grader, response: r, label: fail }',
        '',
      ].join('\n'),
      'gold.yaml',
    );
    expect(parsed).toEqual([]);
    const lines = problems.map((p) => `${p.line}:${p.path}: ${p.message}`);
    expect(lines).toContain(
      "3:/items/1/id: duplicate item id 'a'; it is first used on line 2 (/items/0/id). Fix: ids must be unique, rename one of them.",
    );
    expect(
      lines.find((l) =>
        l.startsWith("3:/items/1/judge: names judge 'house_tone', which is no registered LLM judge"),
      ),
    ).toBeDefined();
    expect(lines.find((l) => l.startsWith('3:/items/1/label: must be one of'))).toBeDefined();
    expect(lines).toContain(
      "4:/items/2: needs either 'input' (the question text) or 'messages' (a list of { role, content }). Fix: add one of them.",
    );
    expect(validateGoldLabels('items: []\n', 'g.yaml').problems[0]!.message).toMatch(/at least 1 item/);
    expect(validateGoldLabels('labels: []\n', 'g.yaml').problems.length).toBeGreaterThan(0);
  });
});
