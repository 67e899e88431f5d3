/**
 * After a captured correction, recall agrees with the context (`core/corrections.ts`): the turn whose
 * claim was superseded ranks after the hits nothing corrected and names what corrected it; and the
 * captured claims, which have no event time, take no share of the turns around them (they are no one's
 * neighbours). A real SQLite file with the hash embedder and a fixed clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/ports/clock.js';
import { tempEngram } from '../../helpers/temp.js';
import { recall as runRecall } from '../../../src/core/recall/recall.js';
import { recallOptionsSchema } from '../../../src/core/schemas.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 2, 1, 12);
const S = 'acme/projects/web';
const TURNS: [string, number][] = [
  ['user: We use pnpm for package management.', NOW - 20 * DAY],
  ['user: Our CI runs on GitHub Actions.', NOW - 19 * DAY],
  ['user: Our test runner is Jest.', NOW - 18 * DAY],
  ['user: I live in Lisbon.', NOW - 17 * DAY],
  ['user: We switched to bun last week.', NOW - 10 * DAY],
  ['user: Actually I moved to Porto last month.', NOW - 9 * DAY],
];

describe('recall after a captured correction (SQLite file, hash embedder)', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    ctx = await tempEngram({ clock: new ManualClock(NOW) });
    for (const [i, [content, at]] of TURNS.entries()) {
      const written = await ctx.engram.remember({
        scope: S,
        content,
        capture: true,
        occurredAt: at,
        source: { conversationId: 's1', messageId: `m${i}` },
      });
      ids.set(content, written.id);
    }
  });

  afterAll(async () => ctx.cleanup());

  const recall = async (query: string, k: number, extra: { asOf?: string } = {}) =>
    (await ctx.engram.recall(query, { scopes: [S], k, trackAccess: false, ...extra })).hits;

  it('ranks the corrected turn after the hits nothing corrected and names the claim that holds now', async () => {
    const hits = await recall('Where do I live?', 12);
    const lisbon = hits.findIndex((h) => h.id === ids.get('user: I live in Lisbon.'));
    expect(lisbon).toBeGreaterThanOrEqual(0);
    const correction = hits[lisbon]?.correctedBy;
    expect(correction?.content).toBe('Actually, I moved to Porto last month.');
    // the correcting claim, or its turn standing for it (a turn and its claim make one hit)
    const current = hits.findIndex((h) => h.id === correction?.id || (h.why.sameAs ?? []).includes(correction?.id ?? ''));
    expect(current).toBeGreaterThanOrEqual(0);
    expect(current).toBeLessThan(lisbon);
    // every hit nothing corrected comes first
    const corrected = hits.map((h) => h.correctedBy !== undefined);
    expect(corrected).toEqual([...corrected].sort((a, b) => Number(a) - Number(b)));
    // the correction itself and its turn are not marked
    expect(hits.filter((h) => h.content.includes('Porto')).every((h) => h.correctedBy === undefined)).toBe(true);
  });

  it('gives the first slot to what holds now, not to the superseded turn that matches the question best', async () => {
    const [top] = await recall('Do I still live in Lisbon?', 1);
    expect(top).toBeDefined();
    expect(top?.id).not.toBe(ids.get('user: I live in Lisbon.'));
    expect(top?.correctedBy).toBeUndefined();
  });

  it('marks nothing when read as of a time before the correction', async () => {
    const hits = await recall('Where do I live?', 12, { asOf: new Date(NOW - 15 * DAY).toISOString() });
    const turn = ids.get('user: I live in Lisbon.') ?? '';
    expect(hits.some((h) => h.id === turn || (h.why.sameAs ?? []).includes(turn))).toBe(true);
    expect(hits.every((h) => h.correctedBy === undefined)).toBe(true);
  });

  it('a captured claim (no event time) takes nothing from the turns around it; turns still share with theirs', async () => {
    // both of a turn and its claim, as the context reads them (plain recall makes one hit of the two)
    const both = async (query: string, k: number) =>
      (
        await runRecall(
          { store: ctx.engram.store, embedder: ctx.engram.embedder, clock: ctx.engram.clock, config: ctx.engram.recallConfig },
          query,
          recallOptionsSchema.parse({ scopes: [S], k, trackAccess: false }),
          { keepCopies: true },
        )
      ).hits;
    for (const query of ['We use pnpm for package management.', 'Our CI runs on GitHub Actions.', 'Where do I live?']) {
      const hits = await both(query, 20);
      const claims = hits.filter((h) => h.layer === 'semantic');
      expect(claims.length, query).toBeGreaterThan(0);
      for (const claim of claims) expect(claim.why.neighbourhood, `${query}: ${claim.content}`).toBe(0);
    }
    const turns = (await both('We use pnpm for package management.', 20)).filter((h) => h.layer === 'episodic');
    expect(turns.some((h) => h.why.neighbourhood > 0)).toBe(true);
  });
});

describe('the index of corrected claims recall keeps', () => {
  it('a correction written after a recall marks the turn in the very next recall; a write that corrects nothing keeps it', async () => {
    const t = await tempEngram({ clock: new ManualClock(NOW) });
    try {
      const say = (content: string, i: number) =>
        t.engram.remember({
          scope: S,
          content,
          capture: true,
          occurredAt: NOW - (20 - i) * DAY,
          source: { conversationId: 's2', messageId: `n${i}` },
        });
      const lisbon = await say('user: I live in Lisbon.', 0);
      const ask = async () => (await t.engram.recall('Where do I live?', { scopes: [S], k: 10, trackAccess: false })).hits;
      expect((await ask()).find((h) => h.id === lisbon.id)?.correctedBy).toBeUndefined();
      await say('user: Our CI runs on GitHub Actions.', 1);
      expect((await ask()).find((h) => h.id === lisbon.id)?.correctedBy).toBeUndefined();
      await say('user: Actually I moved to Porto last month.', 2);
      expect((await ask()).find((h) => h.id === lisbon.id)?.correctedBy?.content).toBe('Actually, I moved to Porto last month.');
      // moved back: what holds now is what the first turn said, which is true again, not corrected
      const porto = (await ask()).find((h) => h.content.includes('Porto') && h.layer === 'episodic');
      await say('user: I moved back to Lisbon.', 3);
      const after = await ask();
      expect(after.find((h) => h.id === lisbon.id)?.correctedBy).toBeUndefined();
      expect(after.find((h) => h.id === porto?.id)?.correctedBy?.content).toBe('I moved back to Lisbon.');
    } finally {
      await t.cleanup();
    }
  });
});
