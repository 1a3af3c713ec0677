import { describe, expect, it } from 'vitest';
import { gradeQuestion, getGrader } from '../../src/index.js';
import { TEST_KEY, withJudgeServer } from './judge-env.js';

const env = withJudgeServer();

const grade = async (grader: string, response = 'Paris is the capital of France.') =>
  (
    await gradeQuestion({
      question: { id: 'q1', input: 'What is the capital of France?' },
      response,
      graders: [grader],
    })
  ).grades[0]!;

describe('judge answers, over the real openai SDK', () => {
  it('scores from a JSON answer and records token usage', async () => {
    env.server.script({
      answer: { score: 4, reason: 'on topic' },
      usage: { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 },
    });
    const result = await grade('relevance_grader');
    expect(result).toMatchObject({
      grader: 'relevance_grader',
      score: 4,
      composite: 4,
      reason: 'on topic',
      error: false,
    });
    expect(result.usage).toEqual({ promptTokens: 50, completionTokens: 9, totalTokens: 59 });
    expect(env.server.requests).toHaveLength(1);
    expect(env.server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(env.server.requests[0]!.authorized).toBe(true);
  });

  it('maps a binary judge onto the composite scale', async () => {
    env.server.script({ answer: { score: 1, reason: 'all supported' } });
    const result = await grade('groundedness_grader');
    expect(result).toMatchObject({ score: 1, min: 0, max: 1, composite: 5, error: false });
  });

  it('accepts one fenced JSON block', async () => {
    env.server.script({ content: '```json\n{"score": 3, "reason": "partly"}\n```' });
    expect(await grade('completeness_grader')).toMatchObject({ score: 3, error: false });
  });

  it('refuses prose around a fenced block, naming what came back', async () => {
    env.server.script({ content: 'Sure! Here it is:\n```json\n{"score": 5, "reason": "x"}\n```' });
    const result = await grade('completeness_grader');
    expect(result).toMatchObject({ score: null, composite: null, error: true });
    expect(result.reason).toContain('did not answer with JSON');
    expect(result.reason).toContain('Sure! Here it is:');
  });

  it('turns malformed JSON into an error grade, never a zero', async () => {
    env.server.script({ content: '{"score": 4, "reason": ' });
    const result = await grade('relevance_grader');
    expect(result).toMatchObject({ score: null, error: true, skipped: false });
    expect(result.reason).toBe('the judge did not answer with JSON: "{"score": 4, "reason":"');
    expect(result.usage?.totalTokens).toBe(136);
  });

  it('turns a missing or non-numeric score into an error grade', async () => {
    env.server.script(
      { answer: { reason: 'forgot the score' } },
      { answer: { score: '4', reason: 'string' } },
    );
    const missing = await grade('relevance_grader');
    expect(missing).toMatchObject({ score: null, error: true });
    expect(missing.reason).toContain('no numeric score');
    expect(missing.reason).toContain('forgot the score');
    const stringy = await grade('relevance_grader');
    expect(stringy).toMatchObject({ score: null, error: true });
    expect(stringy.reason).toContain('no numeric score');
  });

  it('clamps an out-of-scale score by default', async () => {
    env.server.script(
      { answer: { score: 9, reason: 'overenthusiastic' } },
      { answer: { score: -2, reason: 'harsh' } },
    );
    expect(await grade('relevance_grader')).toMatchObject({
      score: 5,
      error: false,
      reason: 'overenthusiastic (the judge answered 9, clamped to 5)',
    });
    expect(await grade('relevance_grader')).toMatchObject({
      score: 0,
      error: false,
      reason: 'harsh (the judge answered -2, clamped to 0)',
    });
  });

  it('errors when interpretScore refuses an out-of-scale score (groundedness)', async () => {
    env.server.script({ answer: { score: 4, reason: 'graded on 0-5' } });
    const result = await grade('groundedness_grader');
    expect(result).toMatchObject({ score: null, error: true });
    expect(result.reason).toContain('the judge answered 4, which is not usable');
    expect(result.reason).toContain('0-1 scale');
  });

  it('turns a refusal into an error grade naming it', async () => {
    env.server.script({ content: null, refusal: "I'm sorry, I can't help with grading this." });
    const result = await grade('relevance_grader');
    expect(result).toMatchObject({ score: null, error: true });
    expect(result.reason).toBe(`the judge refused to answer: "I'm sorry, I can't help with grading this."`);
  });

  it('turns an empty answer into an error grade', async () => {
    env.server.script({ content: '' });
    const result = await grade('relevance_grader');
    expect(result).toMatchObject({ score: null, error: true, reason: 'the judge returned an empty answer' });
  });

  it('shortens a long malformed answer in the reason', async () => {
    env.server.script({ content: `not json ${'blah '.repeat(200)}` });
    const result = await grade('relevance_grader');
    expect(result.error).toBe(true);
    expect(result.reason.length).toBeLessThan(260);
    expect(result.reason).toContain('…');
  });

  it('is a grader with llm: true that gradeQuestion runs', () => {
    const judge = getGrader('accuracy_grader');
    expect(judge).toMatchObject({ llm: true, seesToolCalls: true, observesActions: false });
    expect(getGrader('relevance_grader').seesToolCalls).toBe(false);
    expect(TEST_KEY).toMatch(/^sk-/);
  });
});
