/**
 * The dream phases on a real SQLite store with an injected clock: a planted stream (a bridge, an
 * insight, a flashbulb, repeated failures) is found; a second run adds nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';
import type { MemoryRecord } from '../../src/core/memory.js';
import { generateDreamStream, seededRandomSource, type DreamStream } from '../../src/consolidation/dream-stream.js';
import { idleThresholdMs } from '../../src/consolidation/decay-policy.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/ops';
const START = Date.UTC(2026, 0, 5);
const NOW = START + 9 * 7 * 86_400_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function loaded(stream: DreamStream): Promise<{ engram: Engram; ids: string[] }> {
  const t = await tempEngram({ clock: new ManualClock(NOW) });
  cleanups.push(t.cleanup);
  const ids = (await t.engram.remember(stream.episodes.map((e) => ({ scope: SCOPE, ...e })))).map((r) => r.id);
  return { engram: t.engram, ids };
}

async function semantic(engram: Engram, category: string): Promise<MemoryRecord[]> {
  return (await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 10_000 })).filter((r) => r.data.category === category);
}

describe('dream phases on a planted stream', () => {
  it('bridges the distant pair, derives the Friday insight, cautions, moods and keeps the flashbulb; a second run adds nothing', async () => {
    const stream = generateDreamStream({ random: seededRandomSource(7), planted: true });
    const { engram, ids } = await loaded(stream);
    const report = await engram.consolidate({ scope: SCOPE });
    const phase = (name: string) => report.phases.find((p) => p.name === name);
    expect(report.bridges).toBeGreaterThan(0);
    expect(report.insights).toBeGreaterThan(0);
    expect(report.cautions).toBeGreaterThan(0);
    expect(phase('recombine')?.bridges).toBe(report.bridges);

    // the planted bridge, with what its ends share
    const [a, b] = (stream.truths.bridge?.ends ?? []).map((i) => ids[i] as string) as [string, string];
    const bridges = await engram.store.getEdges({ scopes: [SCOPE], ids: [a], types: ['BRIDGES'] });
    const planted = bridges.find((e) => (e.fromId === a && e.toId === b) || (e.fromId === b && e.toId === a));
    expect(planted).toBeDefined();
    expect(planted?.metadata.shared).toEqual(expect.arrayContaining(['invoice_reconciler', 'ledger_7_cluster', 'priya_raman']));
    expect([...(planted?.metadata.evidenceIds as string[])].sort()).toEqual([a, b].sort());
    // activation crosses the bridge and says why
    const activation = await engram.activate(a, { scopes: [SCOPE], hops: 1 });
    const reached = activation.ranked.find((r) => r.id === b);
    expect(reached?.path[0]).toMatchObject({ type: 'BRIDGES', direction: 'both' });
    expect(reached?.path[0]?.shared).toEqual(expect.arrayContaining(['priya_raman']));

    // the planted insight
    const insights = await semantic(engram, 'insight');
    const friday = insights.find((r) => r.content.startsWith('deploy failures cluster on Fridays'));
    expect(friday, insights.map((r) => r.content).join('\n')).toBeDefined();
    expect(friday?.tags).toContain('insight');
    expect(friday?.provenance.kind).toBe('hybrid');
    expect(friday?.content).toContain('7 of 8');
    const evidence = await engram.store.getEdges({ scopes: [SCOPE], ids: [friday?.id as string], types: ['DERIVED_FROM'] });
    const members = (stream.truths.insight?.members ?? []).map((i) => ids[i]);
    expect(members.every((m) => evidence.some((e) => e.toId === m))).toBe(true);

    // a caution on the concept that keeps failing, as a tag and a record
    const cautions = await semantic(engram, 'caution');
    const ordersDb = cautions.find((r) => r.content.startsWith('Caution on orders_db'));
    expect(ordersDb).toBeDefined();
    const [concept] = await engram.store.findConcepts({ scopes: [SCOPE], names: ['orders_db'] });
    expect(concept?.tags).toContain('caution');
    // moods per week, and the flashbulb marked so decay keeps it longer
    expect((await semantic(engram, 'mood')).length).toBeGreaterThan(3);
    const [flash] = await engram.store.getMemories([ids[stream.truths.flashbulb as number] as string], [SCOPE]);
    expect(flash?.data.affect?.flashbulb).toBe(true);
    expect(idleThresholdMs(flash as MemoryRecord)).toBeGreaterThan(idleThresholdMs({ ...(flash as MemoryRecord), data: {} }));

    // the context of a turn about it carries the caution and the latest mood
    const context = await engram.context({ scopes: [SCOPE], message: 'Deploy checkout after the schema migration on orders-db?', budgetMs: 5_000 });
    expect(context.parts.cautions.items.map((c) => c.concept)).toContain('orders_db');
    expect(context.parts.mood.items).toHaveLength(1);
    expect(context.markdown).toContain('## Cautions and mood');
    expect(context.markdown).toContain('Caution on orders_db');
    const unrelated = await engram.context({ scopes: [SCOPE], message: 'What did Li Wei say about the data lake?', budgetMs: 5_000 });
    expect(unrelated.parts.cautions.items).toEqual([]);

    // idempotent: nothing new the second time
    const again = await engram.consolidate({ scope: SCOPE });
    expect([again.bridges, again.insights, again.cautions]).toEqual([0, 0, 0]);
    expect(again.phases.find((p) => p.name === 'recombine')?.note).toMatch(/changed nothing/);
    expect((await engram.store.getEdges({ scopes: [SCOPE], ids: [a], types: ['BRIDGES'] })).length).toBe(bridges.length);
    expect((await semantic(engram, 'insight')).length).toBe(insights.length);
  });
});
