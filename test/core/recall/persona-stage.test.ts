/**
 * Personality-weighted re-ranking (seed 004): a second stage after relevance, off by default. Persona
 * off (or no persona stored) gives exactly the plain recall order; a persona that favours a tag lifts
 * the memories carrying it. Real SQLite files, hash embedder; fast-check for the pure stage.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { personaAffinity, personaRerank } from '../../../src/core/recall/persona-stage.js';
import { newRecord } from '../../../src/core/record-factory.js';
import type { Candidate } from '../../../src/core/recall/scoring.js';
import type { Engram } from '../../../src/index.js';
import { tempEngram } from '../../helpers/temp.js';
import { ManualClock } from '../../../src/core/ports/clock.js';

const SCOPE = 'lab/agents/tutor';

function candidate(id: number, score: number, tags: string[]): Candidate {
  const record = {
    ...newRecord({ scope: SCOPE, layer: 'episodic', content: `memory ${id}`, now: 1_000 + id, tags }),
    id: `id-${String(id).padStart(4, '0')}`,
  };
  return { record, channels: {}, fused: score, relevance: score, neighbourhood: 0, recency: 0, importance: 0, activation: 0, score };
}

describe('persona stage (pure)', () => {
  it('without a persona, or with weight 0, returns the same candidates in the same order (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -2, max: 5, noNaN: true }), fc.subarray(['ml', 'risk', 'team', 'misc'])), { maxLength: 40 }),
        (rows) => {
          const sorted = rows
            .map(([score, tags], i) => candidate(i, score, tags))
            .sort((a, b) => b.score - a.score || (a.record.id < b.record.id ? -1 : 1));
          expect(personaRerank(sorted, null, 0.5)).toEqual(sorted);
          expect(personaRerank(sorted, { dispositions: { curiosity: 1 }, favours: { curiosity: { tags: ['ml'] } } }, 0)).toEqual(sorted);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('lifts what a disposition above 0.5 favours, lowers it below 0.5, leaves it at 0.5, and explains why', () => {
    const ml = candidate(1, 1, ['ml']).record;
    const curious = { dispositions: { curiosity: 0.9 }, favours: { curiosity: { tags: ['ml'] } } };
    expect(personaAffinity(curious, ml)).toEqual({ affinity: 0.8, matched: ['curiosity 0.9: tag ml'] });
    expect(personaAffinity({ ...curious, dispositions: { curiosity: 0.1 } }, ml).affinity).toBeCloseTo(-0.8);
    expect(personaAffinity({ ...curious, dispositions: { curiosity: 0.5 } }, ml).affinity).toBe(0);
    // built-in favours: caution favours failed outcomes
    const failed = {
      ...newRecord({ scope: SCOPE, layer: 'episodic', content: 'dropped it', now: 1 }),
      data: { outcome: { success: false } },
    };
    expect(personaAffinity({ dispositions: { caution: 1 } }, failed)).toEqual({ affinity: 0.5, matched: ['caution 1: kind failure'] });
    const [top] = personaRerank([candidate(2, 1.2, []), candidate(1, 1, ['ml'])], curious, 0.5);
    expect(top?.record.tags).toEqual(['ml']);
    expect(top?.persona).toEqual({ factor: 1.4, affinity: 0.8, matched: ['curiosity 0.9: tag ml'] });
  });
});

/** A planted store: 48 notes on training runs of about equal relevance, 12 of them tagged `ml` among the lower ranks. */
async function planted(engram: Engram): Promise<void> {
  const topics = ['learning rate', 'batch size', 'loss curve', 'data loader', 'checkpoint', 'eval metrics'];
  const inputs = Array.from({ length: 48 }, (_, i) => ({
    scope: SCOPE,
    content: `Training run ${i + 1}: looked at the ${topics[i % topics.length]} of the model, run ${i + 1} notes.`,
    occurredAt: Date.UTC(2026, 0, 1) + i * 3_600_000,
    ...(i % 4 === 3 ? { tags: ['ml'] } : {}),
  }));
  await engram.remember(inputs);
}

describe('persona re-ranking of recall and context (planted store)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('persona off gives exactly the plain order; persona A lifts the memories with its tag by ≥ 3 ranks on average', async () => {
    // a still clock, so two reads of the same store compare exactly (recency moves with time)
    const ctx = await tempEngram({ clock: new ManualClock(Date.UTC(2026, 1, 1)) });
    cleanups.push(ctx.cleanup);
    const { engram } = ctx;
    await planted(engram);
    const query = 'training run notes on the model';
    const options = { scopes: [SCOPE], k: 48, trackAccess: false };
    // no persona stored: asking for it changes nothing
    const unset = (await engram.recall(query, options)).hits;
    expect((await engram.recall(query, { ...options, persona: true })).hits).toEqual(unset);
    await engram.setPersona({ scope: SCOPE, dispositions: { curiosity: 0.9, caution: 0.4 }, favours: { curiosity: { tags: ['ml'] } } });
    // stored but off (the default) and explicitly off: exactly the plain order and scores
    const plain = (await engram.recall(query, options)).hits;
    const ids = (hits: typeof unset) => hits.map((h) => h.id).sort();
    expect(ids(plain)).toEqual(ids(unset));
    expect((await engram.recall(query, { ...options, persona: false })).hits).toEqual(plain);

    const lifted = (await engram.recall(query, { ...options, persona: true })).hits;
    const rank = (hits: typeof plain) => new Map(hits.map((h, i) => [h.id, i + 1]));
    const before = rank(plain);
    const after = rank(lifted);
    const tagged = plain.filter((h) => h.tags.includes('ml'));
    expect(tagged).toHaveLength(12);
    const lifts = tagged.map((h) => (before.get(h.id) as number) - (after.get(h.id) as number));
    const mean = lifts.reduce((a, b) => a + b, 0) / lifts.length;
    console.log(
      `persona lift: ${tagged.length} tagged memories rise ${mean.toFixed(1)} ranks on average (min ${Math.min(...lifts)}, max ${Math.max(...lifts)}) among ${plain.length}`,
    );
    expect(mean).toBeGreaterThanOrEqual(3);
    expect(lifted.find((h) => h.tags.includes('ml'))?.why.persona).toMatchObject({ matched: ['curiosity 0.9: tag ml'] });
    expect(plain[0]?.why.persona).toBeUndefined();

    // an inline persona (no stored one needed) and the engine-wide switch do the same
    expect(
      (
        await engram.recall(query, {
          ...options,
          persona: { dispositions: { curiosity: 0.9, caution: 0.4 }, favours: { curiosity: { tags: ['ml'] } } },
        })
      ).hits.map((h) => h.id),
    ).toEqual(lifted.map((h) => h.id));

    // context: episodes re-ranked when asked
    const message = query;
    const off = await engram.context({ scopes: [SCOPE], message, budgetMs: 10_000, episodes: 10 });
    const on = await engram.context({ scopes: [SCOPE], message, budgetMs: 10_000, episodes: 10, persona: true });
    const taggedIn = (c: typeof off) => c.parts.episodes.items.filter((e) => tagged.some((t) => t.id === e.id)).length;
    expect(taggedIn(on)).toBeGreaterThan(taggedIn(off));
  });

  it('the engine-wide recall.persona switch turns it on for every read; a bad persona is refused', async () => {
    const ctx = await tempEngram({ recall: { persona: true } });
    cleanups.push(ctx.cleanup);
    const { engram } = ctx;
    await planted(engram);
    await engram.setPersona({ scope: SCOPE, dispositions: { curiosity: 1 }, favours: { curiosity: { tags: ['ml'] } } });
    const { hits } = await engram.recall('training run notes on the model', { scopes: [SCOPE], k: 5 });
    expect(hits.every((h) => h.why.persona !== undefined)).toBe(true);
    expect(hits.filter((h) => h.tags.includes('ml')).length).toBeGreaterThanOrEqual(4);
    await expect(engram.setPersona({ scope: SCOPE, dispositions: { curiosity: 1.5 } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(engram.setPersona({ scope: SCOPE, dispositions: {} })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(engram.recall('x', { scopes: [SCOPE], persona: { dispositions: { curiosity: -1 } } })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
