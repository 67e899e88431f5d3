/**
 * Records that cannot be hits (extracted concepts here) take part in a recall but leave before the hits
 * are ranked (`hit-candidates.ts`): they never take a hit's slot, and channel ranks count only the
 * candidates that can be hits. A real SQLite file with the hash embedder; concepts made by the
 * extraction job as in use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempEngram } from '../../helpers/temp.js';
import type { RecallHit } from '../../../src/index.js';

const S = 'tests/hidden';
/** One-word-ish concepts that all contain the query's word: they win on cosine and BM25 alike. */
const OBJECTS = ['laptop', 'laptop_bag', 'laptop_stand', 'laptop_charger', 'gaming_laptop', 'laptop_sleeve', 'old_laptop', 'laptop_case'];
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1);

describe('recall ranks only what can be a hit (SQLite file, hash embedder)', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;

  beforeAll(async () => {
    ctx = await tempEngram();
    const episodes = Array.from({ length: 24 }, (_, i) => ({
      scope: S,
      content: `Maria ${['carried', 'repaired', 'cleaned', 'lent out'][i % 4]} the laptop at the office on day ${i}, then went for lunch`,
      occurredAt: new Date(T0 + i * DAY).toISOString(),
      perception: { objects: [OBJECTS[i % OBJECTS.length] as string] },
      context: { sessionId: 'office' },
    }));
    await ctx.engram.remember(episodes);
    await ctx.engram.processJobs();
    const concepts = await ctx.engram.store.findConcepts({ scopes: [S], names: OBJECTS });
    expect(concepts).toHaveLength(OBJECTS.length);
  });

  afterAll(async () => ctx.cleanup());

  const recall = async (query: string, k: number): Promise<RecallHit[]> =>
    (await ctx.engram.recall(query, { scopes: [S], k, trackAccess: false, referenceTime: new Date(T0 + 30 * DAY).toISOString() })).hits;

  it('returns k hits while the scope holds that many answers, however many concepts match better', async () => {
    for (const query of ['laptop', 'Maria', 'the', 'laptop bag']) {
      for (const k of [1, 3, 5, 10]) {
        const hits = await recall(query, k);
        expect(hits, `${query} k=${k}`).toHaveLength(k);
        expect(hits.every((h) => h.layer === 'episodic')).toBe(true);
      }
    }
  });

  it('the first hits do not depend on k', async () => {
    const few = await recall('laptop', 3);
    const many = await recall('laptop', 20);
    expect(many.slice(0, 3).map((h) => h.id)).toEqual(few.map((h) => h.id));
  });

  it("ranks each channel 1, 2, 3… among the hits that can be returned, in the order of the channel's scores", async () => {
    // a time window (temporal and mention channels), a name (entity) and words (lexical, semantic)
    for (const query of ['What did Maria do with the laptop in early March 2026?', 'laptop', 'Maria']) {
      const hits = await recall(query, 100);
      // every answer in the scope is a candidate of these queries: the ranks are those among all of them
      expect(hits).toHaveLength(24);
      const channels = new Set(hits.flatMap((h) => Object.keys(h.why.channels)));
      expect(channels.size, query).toBeGreaterThan(1);
      for (const channel of channels) {
        const ranked = hits
          .map((h) => h.why.channels[channel])
          .filter((e) => e !== undefined)
          .sort((a, b) => a.rank - b.rank);
        expect(
          ranked.map((e) => e.rank),
          `${query}: ${channel}`,
        ).toEqual(ranked.map((_, i) => i + 1));
        for (let i = 1; i < ranked.length; i++)
          expect(ranked[i]!.score, `${query}: ${channel} #${i + 1}`).toBeLessThanOrEqual(ranked[i - 1]!.score);
      }
    }
  });
});
