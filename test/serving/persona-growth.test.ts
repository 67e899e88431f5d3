/**
 * Personality growth (seed 004): reflections on deep conversations about ML make the agent more
 * curious — at most 0.05 per cycle, each shift a logged persona version (by `reflection`, with its
 * reasons), reversible with `revertPersona`; a stream without such evidence moves nothing. Real
 * SQLite files, hash embedder, the real reflect phase.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { freshPgSchema, pgTestUrl } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'lab/agents/tutor';

const ML_TALKS = [
  'Deep conversation with Bob about why transformers learn in context; we explored the theory of attention.',
  'Bob asked how gradient descent finds flat minima; we discussed the research on loss landscapes in depth.',
  'Long talk with Ana about machine learning: why do neural networks generalise? We explored ideas for an experiment.',
  'Ana and I wondered how embeddings capture meaning and studied the maths of contrastive learning.',
  'Deep discussion of reinforcement learning theory with Bob: how agents learn from reward, and open questions.',
];

/** `n` planted episodes: deep ML conversations (tagged ml) or plain chores. */
function stream(kind: 'ml' | 'chores', n: number, offset = 0) {
  return Array.from({ length: n }, (_, i) => ({
    scope: SCOPE,
    content:
      kind === 'ml'
        ? `${ML_TALKS[i % ML_TALKS.length]} (session ${offset + i + 1})`
        : `Tidied desk drawer number ${offset + i + 1} and filed the paperwork in the cabinet.`,
    importance: 0.8,
    ...(kind === 'ml' ? { tags: ['ml'] } : {}),
  }));
}

describe('personality growth in the reflect phase', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  async function open(): Promise<Engram> {
    const ctx = await tempEngram();
    cleanups.push(ctx.cleanup);
    await ctx.engram.setPersona({
      scope: SCOPE,
      dispositions: { curiosity: 0.5, caution: 0.5, sociability: 0.5 },
      favours: { curiosity: { tags: ['ml'] } },
    });
    return ctx.engram;
  }

  it('deep conversations about ML make the agent more curious, ≤ 0.05 per cycle, logged and reversible', async () => {
    const engram = await open();
    const curiosity: number[] = [0.5];
    for (let cycle = 0; cycle < 3; cycle++) {
      await engram.remember(stream('ml', 15, cycle * 15));
      const report = await engram.consolidate({ scope: SCOPE, phases: ['reflect'] });
      const reflect = report.phases.find((p) => p.name === 'reflect');
      expect(reflect?.created).toBeGreaterThan(0);
      expect(reflect?.note).toMatch(/persona shifts/);
      curiosity.push((await engram.persona({ scopes: [SCOPE] }))?.persona.dispositions.curiosity as number);
    }
    const steps = curiosity.slice(1).map((v, i) => Math.round((v - (curiosity[i] as number)) * 1000) / 1000);
    console.log(`persona growth: curiosity ${curiosity.join(' → ')} over 3 cycles of 15 ML conversations (steps ${steps.join(', ')})`);
    expect(steps.every((s) => s > 0 && s <= 0.05)).toBe(true);
    expect(curiosity[3]).toBeGreaterThan(0.6);
    const now = await engram.persona({ scopes: [SCOPE] });
    expect(now?.persona.dispositions.caution).toBe(0.5);
    // talks with Bob and Ana are social too, but less of the evidence says so
    expect(now?.persona.dispositions.sociability).toBeLessThan(curiosity[3] as number);

    const history = await engram.personaHistory({ scope: SCOPE });
    expect(history.map((v) => v.change.by)).toEqual(['user', 'reflection', 'reflection', 'reflection']);
    expect(history.map((v) => v.status)).toEqual(['superseded', 'superseded', 'superseded', 'active']);
    expect(history[1]?.change.reason).toMatch(
      /^reflection: \d+ of \d+ reflected memories express curiosity \(tag ml.*\): 0\.5 → 0\.55(;|$)/,
    );
    expect(history[1]?.change.details).toMatchObject({
      shifts: expect.arrayContaining([
        { disposition: 'curiosity', from: 0.5, to: 0.55, signal: expect.any(Number), reason: expect.any(String) },
      ]),
    });

    // revert: back to the previous version, as a new logged version; revert to the first one by id
    const back = await engram.revertPersona({ scope: SCOPE });
    expect(back.persona.dispositions.curiosity).toBe(curiosity[2]);
    expect(back.change).toMatchObject({ by: 'revert', revertOf: history[2]?.id });
    const first = await engram.revertPersona({ scope: SCOPE, to: history[0]?.id as string, reason: 'undo the growth' });
    expect(first.persona.dispositions.curiosity).toBe(0.5);
    expect((await engram.personaHistory({ scope: SCOPE })).length).toBe(6);
    await expect(engram.revertPersona({ scope: SCOPE, to: first.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(engram.revertPersona({ scope: SCOPE, to: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a stream without evidence moves nothing, and a scope without a persona grows none', async () => {
    const engram = await open();
    await engram.remember(stream('chores', 15));
    const report = await engram.consolidate({ scope: SCOPE, phases: ['reflect'] });
    expect(report.phases.find((p) => p.name === 'reflect')?.created).toBeGreaterThan(0);
    expect((await engram.personaHistory({ scope: SCOPE })).length).toBe(1);
    expect((await engram.persona({ scopes: [SCOPE] }))?.persona.dispositions).toEqual({ curiosity: 0.5, caution: 0.5, sociability: 0.5 });

    const other = 'lab/agents/plain';
    await engram.remember(stream('ml', 15).map((m) => ({ ...m, scope: other })));
    await engram.consolidate({ scope: other, phases: ['reflect'] });
    expect(await engram.persona({ scopes: [other] })).toBeNull();
  });
});

const pgSkip = process.env.STORES === 'sqlite' || pgTestUrl() === undefined;
describe.skipIf(pgSkip)('persona and profile schema on PostgreSQL', { timeout: 120_000 }, () => {
  it('sets, re-ranks by, grows, reverts a persona and reads a profile schema in context', async () => {
    const pg = freshPgSchema('persona');
    const engram = await Engram.open({ path: pg.url, embedder: 'hash' });
    try {
      await engram.setPersona({ scope: SCOPE, dispositions: { curiosity: 0.5 }, favours: { curiosity: { tags: ['ml'] } } });
      await engram.remember(stream('ml', 15));
      await engram.consolidate({ scope: SCOPE, phases: ['reflect'] });
      expect((await engram.persona({ scopes: [SCOPE] }))?.persona.dispositions.curiosity).toBe(0.55);
      expect((await engram.revertPersona({ scope: SCOPE })).persona.dispositions.curiosity).toBe(0.5);
      const { hits } = await engram.recall('deep conversation', { scopes: [SCOPE], persona: true, k: 3 });
      expect(hits[0]?.why.persona).toBeDefined();
      await engram.setProfileSchema({ scope: 'acme/shared', fields: [{ name: 'budget range' }, { name: 'BHK requirement' }] });
      await engram.remember({ scope: 'acme/users/alice', layer: 'semantic', content: 'My budget is 80L.' });
      const ctx = await engram.context({ scopes: ['acme/shared', 'acme/users/alice'], message: 'flats?', budgetMs: 10_000 });
      expect(ctx.parts.profileFields).toMatchObject({ known: [{ field: 'budget range', value: '80l' }], missing: ['BHK requirement'] });
    } finally {
      await engram.close();
      await pg.drop();
    }
  });
});
