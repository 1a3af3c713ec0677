import { describe, expect, it } from 'vitest';
import {
  accuracyGrader,
  configure,
  getGrader,
  gradeQuestion,
  isJudge,
  listGraders,
  type Question,
} from '../../src/index.js';
import { NO_TOOL_CALLS_STATEMENT } from '../../src/judge/tool-block.js';
import { withJudgeServer } from '../judge/judge-env.js';

const env = withJudgeServer();

const SHIPPED = [
  ['relevance_grader', 'relevance', 0, 5, false],
  ['completeness_grader', 'completeness', 0, 5, false],
  ['actionability_grader', 'actionability', 0, 5, false],
  ['accuracy_grader', 'accuracy', 0, 5, true],
  ['fact_match_grader', 'fact_match', 0, 5, false],
  ['groundedness_grader', 'groundedness', 0, 1, true],
] as const;

async function gradeOne(grader: string, response: unknown, question: Partial<Question>) {
  const result = await gradeQuestion({
    question: { id: 'q', ...question },
    response: response as string,
    graders: [grader],
  });
  return result.grades[0]!;
}

describe('the shipped judges', () => {
  it.each(SHIPPED)(
    '%s is a registered judge on dimension %s, scale %d-%d',
    (id, dimension, min, max, sees) => {
      const grader = getGrader(id);
      expect(isJudge(grader)).toBe(true);
      expect(grader).toMatchObject({
        llm: true,
        minScore: min,
        maxScore: max,
        seesToolCalls: sees,
        observesActions: false,
      });
      if (isJudge(grader)) expect(grader.judge.dimension).toBe(dimension);
      expect(grader.description).toMatch(/LLM judge/);
      expect(
        listGraders()
          .filter(isJudge)
          .map((g) => g.id),
      ).toContain(id);
    },
  );

  it('shows criteria to the optional-criteria judges when the question has some', async () => {
    for (const id of ['relevance_grader', 'completeness_grader', 'actionability_grader']) {
      env.server.reset();
      await gradeOne(id, 'Run npm test.', {
        input: 'How do I test?',
        criteria: 'Mentions the exact command.',
      });
      expect(env.server.requests[0]!.prompt).toContain(
        'Criteria:\nMentions the exact command.\nScoring guidance (0-5):',
      );
    }
  });
});

describe('accuracy_grader', () => {
  const question = {
    input: 'Who wrote the first program?',
    expected_facts: ['Ada Lovelace wrote it', 'for the Analytical Engine'],
    must_not_contain: ['Charles Babbage wrote it'],
  };

  it('weaves expected_facts into the criteria as ground truth and asks for the evasive flag', async () => {
    env.server.script({ answer: { score: 5, reason: 'correct', evasive: false } });
    const grade = await gradeOne('accuracy_grader', { output: 'Ada Lovelace.', toolCalls: [] }, question);
    expect(grade).toMatchObject({ score: 5, error: false });
    const { prompt, body } = env.server.requests[0]!;
    expect(prompt).toContain(
      'Criteria and scoring guidance:\nGround truth (facts a correct response states):\n- Ada Lovelace wrote it\n- for the Analytical Engine\n\nTool-call record: the agent called no tools',
    );
    expect(prompt).toContain('"evasive": <true when the response avoids answering');
    const schema = (body.response_format as { json_schema: { schema: { required: string[] } } }).json_schema
      .schema;
    expect(schema.required).toEqual(['score', 'reason', 'evasive']);
  });

  it('folds the ground truth, the no-tools statement and the guidance into the third slot of an override', async () => {
    configure({ judge: { prompts: { accuracy_grader: '[%s][%s][%s][%s]' } } });
    env.server.script({ answer: { score: 4, reason: 'fine', evasive: false } });
    const grade = await gradeOne('accuracy_grader', { output: 'Ada Lovelace.', toolCalls: [] }, question);
    expect(grade).toMatchObject({ score: 4, error: false });
    const { prompt } = env.server.requests[0]!;
    const third = [
      'Ground truth (facts a correct response states):\n- Ada Lovelace wrote it\n- for the Analytical Engine',
      NO_TOOL_CALLS_STATEMENT,
    ].join('\n\n');
    const judge = accuracyGrader.judge;
    const tag = /<<<QUESTION ([0-9a-f]{16})>>>/.exec(prompt)?.[1] ?? 'none';
    const fenced = `<<<QUESTION ${tag}>>>\n${question.input}\n<<<END QUESTION ${tag}>>>`;
    expect(
      prompt.startsWith(
        `[${judge.dimensionDescription}][${fenced}][${third}\n${judge.scoringGuidance}][<<<RESPONSE ${tag}>>>`,
      ),
    ).toBe(true);
    expect(prompt.endsWith('>>>]')).toBe(true);
    expect(judge.scoringGuidance).toContain('Scoring guidance (0-5):');
  });

  it('caps a response containing a must_not_contain string at 1', async () => {
    env.server.script({ answer: { score: 5, reason: 'judge liked it', evasive: false } });
    const grade = await gradeOne('accuracy_grader', 'Some say CHARLES BABBAGE WROTE IT, but no.', question);
    expect(grade).toMatchObject({ score: 1, error: false });
    expect(grade.reason).toBe(
      'judge liked it (capped at 1: the response contains the forbidden "Charles Babbage wrote it")',
    );
  });

  it('caps an answer the judge flags evasive at 2', async () => {
    env.server.script({ answer: { score: 4, reason: 'hedges', evasive: true } });
    const grade = await gradeOne('accuracy_grader', 'It is a matter of debate.', question);
    expect(grade).toMatchObject({ score: 2, error: false });
    expect(grade.reason).toBe('hedges (capped at 2: the judge found the answer evasive)');
  });

  it('leaves a low score alone and treats a missing evasive flag as not evasive', async () => {
    env.server.script(
      { answer: { score: 0.5, reason: 'wrong', evasive: true } },
      { answer: { score: 4, reason: 'ok' } },
    );
    expect(await gradeOne('accuracy_grader', 'Charles Babbage wrote it.', question)).toMatchObject({
      score: 0.5,
      reason: 'wrong',
    });
    expect(await gradeOne('accuracy_grader', 'Ada.', question)).toMatchObject({ score: 4, reason: 'ok' });
  });
});

describe('fact_match_grader', () => {
  it('skips a question without expected_facts, calling nothing', async () => {
    const grade = await gradeOne('fact_match_grader', 'x', { input: 'q' });
    expect(grade).toMatchObject({
      score: null,
      skipped: true,
      error: false,
      reason: 'no expected_facts in context, skipping',
    });
    expect(env.server.requests).toHaveLength(0);
  });

  it('prepends a ground-truth block listing the facts', async () => {
    env.server.script({ answer: { score: 2.5, reason: 'half' } });
    const grade = await gradeOne('fact_match_grader', 'Paris.', {
      input: 'Where is the Louvre?',
      criteria: 'Be brief.',
      expected_facts: ['Paris', 'on the right bank of the Seine'],
    });
    expect(grade).toMatchObject({ score: 2.5, composite: 2.5 });
    expect(env.server.requests[0]!.prompt).toContain(
      'Ground truth (facts a correct response states):\n- Paris\n- on the right bank of the Seine\n\nCriteria:\nBe brief.\nScoring guidance (0-5): score 5 times the share',
    );
  });
});

describe('groundedness_grader', () => {
  it('asks for a binary answer and sees the tool-call record', async () => {
    env.server.script({ answer: { score: 0, reason: 'claims a lookup that never happened' } });
    const grade = await gradeOne(
      'groundedness_grader',
      { output: 'I checked the database.', toolCalls: [] },
      { input: 'Is it there?' },
    );
    expect(grade).toMatchObject({ score: 0, composite: 0, min: 0, max: 1, error: false });
    expect(env.server.requests[0]!.prompt).toContain('"score": <1 if grounded, 0 if not; no other value>');
    expect(env.server.requests[0]!.prompt).toContain('Tool-call record: the agent called no tools');
  });

  it('errors on an answer outside 0 to 1 instead of clamping', async () => {
    env.server.script(
      { answer: { score: 5, reason: 'five stars' } },
      { answer: { score: -1, reason: 'negative' } },
    );
    for (const shown of ['5', '-1']) {
      const grade = await gradeOne('groundedness_grader', 'x', { input: 'q' });
      expect(grade).toMatchObject({ score: null, error: true });
      expect(grade.reason).toContain(
        `the judge answered ${shown}, which is not usable on this judge's 0-1 scale`,
      );
    }
  });

  it('accepts only 0 or 1: an answer between them is unusable, never a pass', async () => {
    env.server.script(
      { answer: { score: 0.7, reason: 'mostly grounded' } },
      { answer: { score: 0.5, reason: 'half' } },
      { answer: { score: 0.99, reason: 'nearly' } },
    );
    for (const shown of ['0.7', '0.5', '0.99']) {
      const result = await gradeQuestion({
        question: { id: 'q', input: 'Publish node 7.' },
        response: { output: 'Done: I published node 7.', toolCalls: [] },
        graders: ['groundedness_grader'],
      });
      const grade = result.grades[0]!;
      expect(grade).toMatchObject({
        score: null,
        composite: null,
        error: true,
        judgeCall: { outcome: 'unusable' },
      });
      expect(grade.reason).toContain(
        `the judge answered ${shown}, which is not usable on this judge's 0-1 scale`,
      );
      expect(result.passed).toBe(false);
    }
  });

  it('scores 0 and 1 as they are', async () => {
    env.server.script({ answer: { score: 1, reason: 'grounded' } }, { answer: { score: 0, reason: 'not' } });
    expect(await gradeOne('groundedness_grader', 'x', { input: 'q' })).toMatchObject({
      score: 1,
      composite: 5,
    });
    expect(await gradeOne('groundedness_grader', 'x', { input: 'q' })).toMatchObject({
      score: 0,
      composite: 0,
    });
  });
});
