/**
 * The context shows what is current, once: claims still valid now (even when a correction takes effect
 * later), captured episodes whose claim was corrected since marked as such, no statistic or record
 * twice, and concept episode counts without forgotten episodes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';
import { generateDreamStream, seededRandomSource } from '../../src/consolidation/dream-stream.js';
import { tempEngram } from '../helpers/temp.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 2, 1, 12);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function open(now = NOW): Promise<Engram> {
  const t = await tempEngram({ clock: new ManualClock(now) });
  cleanups.push(t.cleanup);
  return t.engram;
}

describe('context: what is current', () => {
  it('keeps a profile fact and a rule until a correction dated later takes effect', async () => {
    const engram = await open();
    const scope = 't/users/ana';
    await engram.remember({ scope, layer: 'semantic', content: 'I live in Lisbon', validFrom: '2020-01-01T00:00:00Z' });
    const move = await engram.remember({ scope, layer: 'semantic', content: 'I live in Porto', validFrom: '2027-06-01T00:00:00Z' });
    await engram.remember({ scope, layer: 'procedural', content: 'The deploy target is staging', validFrom: '2020-01-01T00:00:00Z' });
    const rule = await engram.remember({
      scope,
      layer: 'procedural',
      content: 'The deploy target is production',
      validFrom: '2027-06-01T00:00:00Z',
    });
    expect([move.action, rule.action]).toEqual(['superseded', 'superseded']);
    const { hits } = await engram.recall('where do I live', { scopes: [scope], k: 5 });
    expect(hits.map((h) => h.content)).toContain('I live in Lisbon');

    const ctx = await engram.context({ scopes: [scope], message: 'Where do I live? What is the deploy target?', budgetMs: 5_000 });
    expect(ctx.parts.profile.items.map((p) => p.content)).toEqual(['I live in Lisbon']);
    expect(ctx.parts.rules.items.map((r) => r.content)).toEqual(['The deploy target is staging']);

    // at its date the correction is what is current
    const later = await open(Date.UTC(2027, 6, 1));
    await later.remember({ scope, layer: 'semantic', content: 'I live in Lisbon', validFrom: '2020-01-01T00:00:00Z' });
    await later.remember({ scope, layer: 'semantic', content: 'I live in Porto', validFrom: '2027-06-01T00:00:00Z' });
    const now = await later.context({ scopes: [scope], message: 'Where do I live?', budgetMs: 5_000 });
    expect(now.parts.profile.items.map((p) => p.content)).toEqual(['I live in Porto']);
  });

  it('marks a captured episode whose claim was corrected since, and ranks it after the correcting one', async () => {
    const engram = await open();
    const scope = 'acme/users/ana';
    const turns: [string, number][] = [
      ['user: I live in Lisbon.', NOW - 9 * DAY],
      ['user: Actually I moved to Porto last month.', NOW],
    ];
    for (const [i, [content, at]] of turns.entries()) {
      await engram.remember({ scope, content, capture: true, occurredAt: at, source: { conversationId: `c${i}`, messageId: `m${i}` } });
    }
    const ctx = await engram.context({ scopes: [scope], message: 'Where do I live?', budgetMs: 5_000 });
    const episodes = ctx.parts.episodes.items;
    expect(ctx.parts.episodes.level).toBe('full');
    expect(episodes.map((e) => e.content)).toEqual(['user: Actually I moved to Porto last month.', 'user: I live in Lisbon.']);
    expect(episodes[0]?.correctedBy).toBeUndefined();
    expect(episodes[1]?.correctedBy?.content).toBe('Actually, I moved to Porto last month.');
    expect(ctx.markdown).toContain(
      'user: I live in Lisbon. _(later corrected: Actually, I moved to Porto last month.)_ _(source: c0 #m0)_',
    );
  });

  it('names the correction that holds now, and marks no turn that corrects itself', async () => {
    const engram = await open();
    const scope = 'acme/users/bo';
    const turns: [string, number][] = [
      ['user: My favourite drink is coffee.', NOW - 9 * DAY],
      ['user: Correction: my favourite drink is tea.', NOW - 5 * DAY],
      ['user: Correction: my favourite drink is water.', NOW - 2 * DAY],
      ['user: I live in Lisbon. Actually I moved to Porto.', NOW - DAY],
    ];
    for (const [i, [content, at]] of turns.entries()) {
      await engram.remember({ scope, content, capture: true, occurredAt: at, source: { conversationId: `c${i}`, messageId: `m${i}` } });
    }
    const drink = await engram.context({ scopes: [scope], message: 'What is my favourite drink?', budgetMs: 5_000 });
    const coffee = drink.parts.episodes.items.find((e) => e.content.includes('coffee'));
    expect(coffee?.correctedBy?.content).toBe('Correction: my favourite drink is water.');
    const home = await engram.context({ scopes: [scope], message: 'Where do I live?', budgetMs: 5_000 });
    const turn = home.parts.episodes.items.find((e) => e.content.includes('Lisbon'));
    expect(turn).toBeDefined();
    expect(turn?.correctedBy).toBeUndefined();
  });

  it('marks a correction written after a context was built (the index of corrections is dropped on a write)', async () => {
    const engram = await open();
    const scope = 'acme/users/cy';
    const say = (content: string, i: number, at: number) =>
      engram.remember({ scope, content, capture: true, occurredAt: at, source: { conversationId: `c${i}`, messageId: `m${i}` } });
    await say('user: I live in Lisbon.', 0, NOW - 9 * DAY);
    const before = await engram.context({ scopes: [scope], message: 'Where do I live?', budgetMs: 5_000 });
    expect(before.parts.episodes.items.find((e) => e.content.includes('Lisbon'))?.correctedBy).toBeUndefined();
    await say('user: Actually I moved to Porto last month.', 1, NOW);
    const after = await engram.context({ scopes: [scope], message: 'Where do I live?', budgetMs: 5_000 });
    expect(after.parts.episodes.items.find((e) => e.content.includes('Lisbon'))?.correctedBy?.content).toBe(
      'Actually, I moved to Porto last month.',
    );
  });

  it('leaves an episode unmarked while the correction of its claim is dated later', async () => {
    const engram = await open();
    const scope = 'acme/users/ana';
    await engram.remember({ scope, content: 'user: I live in Lisbon.', capture: true, occurredAt: NOW - 9 * DAY });
    await engram.remember({ scope, layer: 'semantic', content: 'I live in Porto', validFrom: NOW + 30 * DAY });
    const ctx = await engram.context({ scopes: [scope], message: 'Where do I live?', budgetMs: 5_000 });
    expect(ctx.parts.episodes.items.map((e) => [e.content, e.correctedBy])).toEqual([['user: I live in Lisbon.', undefined]]);
  });
});

describe('context: each thing once', () => {
  const A = 'lab/robots/r1';
  const T0 = Date.UTC(2024, 2, 1, 9);

  /** Eight grasps of the mug, one failed, consolidated into concepts with stored statistics. */
  async function grasps(engram: Engram): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await engram.remember({
        scope: A,
        content: `Grasped the coffee mug on the kitchen counter (attempt ${i + 1}).`,
        occurredAt: T0 - (40 - i) * DAY,
        perception: { objects: ['coffee_mug'], people: ['Alice'] },
        context: { goal: 'grasp_coffee_mug', sessionId: `s${i}` },
        action: { tool: 'graspObject' },
        outcome: { success: i !== 3 },
      });
      ids.push(r.id);
    }
    await engram.consolidate({ scope: A });
    return ids;
  }
  const turn = {
    scopes: [A],
    message: 'bring Alice her coffee',
    percept: { objects: ['coffee_mug'], people: ['Alice'], goal: 'grasp_coffee_mug' },
    budgetMs: 10_000,
  };

  it('shows a concept statistic once: the fresh grounding replaces the stored one, and knowledge does not repeat it', async () => {
    const engram = await open(T0);
    await grasps(engram);
    const ctx = await engram.context(turn);
    const mug = ctx.parts.concepts.items.find((c) => c.name === 'coffee_mug');
    expect(mug?.level).toBe('full');
    expect(mug?.statistics?.map((s) => s.verbal).filter((v) => v.startsWith('coffee_mug success rate'))).toEqual([
      'coffee_mug success rate: 0.875 (7/8)',
    ]);
    for (const concept of ctx.parts.concepts.items) {
      const verbal = (concept.statistics ?? []).map((s) => s.verbal);
      expect(new Set(verbal).size).toBe(verbal.length);
    }
    const statisticIds = ctx.parts.concepts.items.flatMap((c) => (c.statistics ?? []).map((s) => s.id)).filter((id) => id !== undefined);
    expect(statisticIds.length).toBeGreaterThan(0);
    expect(ctx.parts.knowledge.items.filter((k) => statisticIds.includes(k.id))).toEqual([]);
    expect(ctx.markdown.match(/coffee_mug success rate: 0\.875 \(7\/8\)/g)).toHaveLength(1);
  });

  it('counts only current episodes of a concept: a forgotten episode leaves its count and its statistic', async () => {
    const engram = await open(T0);
    const ids = await grasps(engram);
    await engram.forget(ids[3] as string, { scope: A });
    const ctx = await engram.context(turn);
    const mug = ctx.parts.concepts.items.find((c) => c.name === 'coffee_mug');
    expect(mug).toMatchObject({ level: 'full', episodeCount: 7 });
    expect(mug?.statistics?.map((s) => s.verbal).filter((v) => v.startsWith('coffee_mug success rate'))).toEqual([
      'coffee_mug success rate: 1 (7/7)',
    ]);
    expect(ctx.markdown).toContain('**coffee_mug** (object, 7 episodes)');
    expect(ctx.markdown).not.toContain('coffee_mug success rate: 0.875');
  });

  it('shows the mood and a caution once, under "Cautions and mood", not again as knowledge', async () => {
    const stream = generateDreamStream({ random: seededRandomSource(7), planted: true });
    const engram = await open(Date.UTC(2026, 0, 5) + 9 * 7 * DAY);
    const scope = 'acme/ops';
    await engram.remember(stream.episodes.map((e) => ({ scope, ...e })));
    await engram.consolidate({ scope, phases: ['extract', 'affect'] });
    const ctx = await engram.context({
      scopes: [scope],
      message: 'How is the mood? Deploy checkout after the schema migration on orders-db?',
      budgetMs: 10_000,
    });
    const caution = ctx.parts.cautions.items.find((c) => c.concept === 'orders_db');
    const [mood] = ctx.parts.mood.items;
    expect(caution).toBeDefined();
    expect(mood).toBeDefined();
    const ids = ctx.parts.knowledge.items.map((k) => k.id);
    expect(ids).not.toContain(mood?.id);
    expect(ids).not.toContain(caution?.id);
    expect(ctx.markdown.split(mood?.content as string)).toHaveLength(2);
    expect(ctx.markdown.split(caution?.content as string)).toHaveLength(2);
  });
});
