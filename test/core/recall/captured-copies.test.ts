/**
 * A captured turn and the claim captured from it are one hit, not two (`captured-copies.ts`): the one
 * ranked first is returned, the other spends no slot and is named in `why.sameAs`. A real SQLite file
 * with the hash embedder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempEngram } from '../../helpers/temp.js';
import type { RecallHit } from '../../../src/index.js';

const S = 'club/rooms/general';
const TURNS = [
  'Alice: I just got back from Kyoto, the temples were amazing.',
  'Bob: Welcome back! Did you try the matcha?',
  'Alice: Yes, every day. I bought a tea set too.',
  'Chen: I am training for the Berlin marathon in September.',
  'Bob: My sister lives in Kyoto near the old temples.',
  'Chen: I moved to Munich for the new job.',
];

describe('a captured turn and its claim make one hit (SQLite file, hash embedder)', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;

  beforeAll(async () => {
    ctx = await tempEngram();
    for (const [i, content] of TURNS.entries())
      await ctx.engram.remember({
        scope: S,
        content,
        capture: true,
        occurredAt: Date.UTC(2026, 0, 1, 10, i),
        source: { conversationId: 'general', messageId: `m${i}` },
      });
  });

  afterAll(async () => ctx.cleanup());

  const copiesAmong = (hits: readonly RecallHit[]): string[][] => {
    const ids = new Set(hits.map((h) => h.id));
    return hits
      .filter((h) => h.tags.includes('captured'))
      .flatMap((h) => h.provenance.derivedFrom.filter((id) => ids.has(id)).map((id) => [h.id, id]));
  };

  it('never returns a turn together with a claim captured from it, and names the one left out', async () => {
    let folded = 0;
    for (const query of ['kyoto temples', 'Where did Alice travel?', 'Berlin marathon', 'Chen moved to Munich', 'matcha tea set']) {
      for (const k of [2, 4, 6]) {
        const hits = (await ctx.engram.recall(query, { scopes: [S], k, trackAccess: false })).hits;
        expect(hits, `${query} k=${k}`).toHaveLength(k);
        expect(copiesAmong(hits), `${query} k=${k}`).toEqual([]);
        for (const hit of hits) folded += hit.why.sameAs?.length ?? 0;
      }
    }
    expect(folded).toBeGreaterThan(0);
  });

  it('the copy named in why.sameAs is the turn of the claim or a claim of the turn', async () => {
    const hits = (await ctx.engram.recall('kyoto temples', { scopes: [S], k: 4, trackAccess: false })).hits;
    const withCopy = hits.filter((h) => (h.why.sameAs?.length ?? 0) > 0);
    expect(withCopy.length).toBeGreaterThan(0);
    for (const hit of withCopy) {
      const [copy] = await ctx.engram.store.getMemories(hit.why.sameAs ?? [], [S]);
      expect(copy).toBeDefined();
      const linked = hit.provenance.derivedFrom.includes(copy!.id) || copy!.provenance.derivedFrom.includes(hit.id);
      expect(linked).toBe(true);
    }
  });
});
