/**
 * Clarifying questions: the answer read with the question (the labelled pairs of fixtures/capture/answers.ts,
 * figures printed), and on a real SQLite store: a stable fact becomes a claim in the user's scope (else the
 * write scope), a decision an episode tagged `decision` with the question in its context, also when the
 * answer comes in a later write than the question (as the hooks store each exchange).
 */
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../src/core/write/capture/index.js';
import { ANSWERS, HELDOUT_ANSWERS, type LabelledAnswer } from '../../fixtures/capture/answers.js';
import { enginesPerTest } from './engines.js';

const SCOPE = 'acme/projects/web';
const USER = 'acme/users/alice';
const { open } = enginesPerTest();
const turn = (messageId: string, role: string, text: string, extra: Record<string, unknown> = {}) => ({
  scope: SCOPE,
  content: `${role}: ${text}`,
  capture: true,
  source: { system: 'test', conversationId: 'c1', messageId },
  ...extra,
});

describe('answers read with their question', () => {
  function score(name: string, pairs: readonly LabelledAnswer[]): number {
    let right = 0;
    const wrong: string[] = [];
    for (const pair of pairs) {
      const reading = readAnswer(pair.question, pair.answer);
      const factOk =
        pair.fact === undefined ? reading?.fact === undefined : new RegExp(`\\b${pair.fact}\\b`, 'i').test(reading?.fact ?? '');
      const decisionOk = (reading?.decision !== undefined) === (pair.decision === true);
      const rationaleOk = pair.rationale === undefined || reading?.decision?.rationale === pair.rationale;
      if (factOk && decisionOk && rationaleOk) right += 1;
      else wrong.push(`  ${JSON.stringify(pair.question)} → ${JSON.stringify(pair.answer)}: read ${JSON.stringify(reading)}`);
    }
    console.log(`clarifying answers (${name}): ${right}/${pairs.length} read as labelled\n${wrong.join('\n')}`);
    return right / pairs.length;
  }

  it('labelled pairs: facts, decisions and rationales (figures printed)', () => {
    expect(score('dev', ANSWERS)).toBeGreaterThanOrEqual(0.9);
    expect(score('held-out', HELDOUT_ANSWERS)).toBeGreaterThanOrEqual(0.75);
  });

  it('a stable fact becomes a claim in the user scope, in the same write as the question', async () => {
    const engram = await open();
    const results = await engram.remember([
      turn('m1', 'assistant', 'I can set up the workspace. Which package manager should I use?'),
      turn('m2', 'user', 'bun', { userScope: USER }),
    ]);
    expect(results[1]?.claims).toEqual([{ id: expect.any(String), action: 'created' }]);
    const [claim] = await engram.store.listMemories({ scopes: [USER], layers: ['semantic'], limit: 5 });
    expect(claim?.content).toBe('The package manager is bun.');
    expect(claim?.provenance.derivedFrom).toEqual([results[1]?.id]);
    const [episode] = await engram.store.getMemories([results[1]?.id ?? ''], [SCOPE]);
    expect(episode?.data.context?.question).toBe('Which package manager should I use?');
  });

  it('without a user scope the fact goes to the write scope', async () => {
    const engram = await open();
    await engram.remember([
      turn('m1', 'assistant', 'Which database should we use for this service?'),
      turn('m2', 'user', 'Postgres, please.'),
    ]);
    expect((await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 5 })).map((r) => r.content)).toEqual([
      'The database is Postgres.',
    ]);
  });

  it('a decision with its reason, answered in a later write, is an episode tagged decision with the question in its context', async () => {
    const engram = await open();
    await engram.remember(turn('m1', 'assistant', 'The lookup endpoint is slow. Should I add Redis caching to it?'));
    const answer = await engram.remember(turn('m2', 'user', 'No, not yet, because traffic is low.'));
    const [episode] = await engram.store.getMemories([answer.id], [SCOPE]);
    expect(episode?.layer).toBe('episodic');
    expect(episode?.tags).toContain('decision');
    expect(episode?.data.context?.question).toBe('Should I add Redis caching to it?');
    expect(episode?.data.decision).toEqual({ intent: 'No, not yet', rationale: 'traffic is low' });
    // answered: the next user turn is not read against the same question
    const next = await engram.remember(turn('m3', 'user', 'Yes'));
    const [plain] = await engram.store.getMemories([next.id], [SCOPE]);
    expect(plain?.tags).not.toContain('decision');
  });

  it('rememberBatches pairs a question and its answer across batches', async () => {
    const engram = await open();
    const written: string[] = [];
    const turns = [
      turn('m1', 'assistant', 'Should I bump the major version?'),
      turn('m2', 'user', 'Yes, because the config format changed.'),
    ];
    for await (const batch of engram.rememberBatches(turns, { batchSize: 1 })) written.push(...batch.map((r) => r.id));
    const [episode] = await engram.store.getMemories([written[1] ?? ''], [SCOPE]);
    expect(episode?.tags).toContain('decision');
    expect(episode?.data.decision?.rationale).toBe('the config format changed');
  });
});
