import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';
import type { MemoryRecord } from '../../src/core/memory.js';
import { tempEngram } from '../helpers/temp.js';
import { snapshot } from './store-snapshot.js';

const SCOPE = 'acme/robot';
const T0 = Date.UTC(2026, 2, 1);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function open(clock = new ManualClock(T0), consolidation = {}): Promise<{ engram: Engram; clock: ManualClock }> {
  const t = await tempEngram({ clock, consolidation });
  cleanups.push(t.cleanup);
  return { engram: t.engram, clock };
}

function episode(tool: string, objects: string[], success: boolean, i: number) {
  return {
    scope: SCOPE,
    layer: 'episodic' as const,
    content: `${tool} ${objects.join(' ')} attempt ${i}: ${success ? 'worked' : 'failed'}`,
    importance: 0.3,
    perception: { objects, salience: 0.5 + (i % 3) * 0.1, novelty: 0.2 },
    action: { tool },
    outcome: { success },
  };
}

async function all(engram: Engram, layers?: MemoryRecord['layer'][]): Promise<MemoryRecord[]> {
  return engram.store.listMemories({ scopes: [SCOPE], limit: 10_000, ...(layers ? { layers } : {}) });
}

describe('consolidation cycle: fixed cases', () => {
  it('promotes 7 of 8 against a coin-flip base citing its 8 episodes, grounds "success rate: 0.875 (7/8)", not a 2-of-2 streak', async () => {
    const { engram } = await open();
    const mug = [true, true, false, true, true, true, true, true].map((s, i) => episode('grasp', ['coffee_mug'], s, i));
    // The other cues together succeed half the time (4/10 + 2/2 = 6/12): a coin-flip base rate (§11.8).
    const box = [true, false, true, false, true, false, true, false, false, false].map((s, i) => episode('push', ['box'], s, i));
    const streak = [true, true].map((s, i) => episode('wave', ['flag'], s, i));
    const mugIds = (await engram.remember(mug)).map((r) => r.id);
    await engram.remember([...box, ...streak]);

    const report = await engram.consolidate({ scope: SCOPE });
    expect(report.phases.map((p) => p.name)).toEqual([
      'dedup',
      'supersede',
      'extract',
      'ground',
      'promote',
      'recombine',
      'insight',
      'reflect',
      'affect',
      'decay',
      'compress',
    ]);

    const semantic = await all(engram, ['semantic']);
    const promoted = semantic.filter((r) => r.data.category === 'promoted');
    // 2/2 flag waving is below n_min; push/box is below the base rate.
    expect(promoted.map((r) => r.data.name)).toEqual(['grasp + coffee_mug → success']);
    const concept = promoted[0] as MemoryRecord;
    expect(concept.provenance.kind).toBe('episodic');
    expect(concept.confidence).toBeGreaterThan(0.5);
    expect(concept.content).toContain('7 of 8');
    const edges = await engram.store.getEdges({ scopes: [SCOPE], ids: [concept.id], types: ['DERIVED_FROM'] });
    expect(edges.map((e) => e.toId).sort()).toEqual([...mugIds].sort());

    const stats = await all(engram, ['statistical']);
    const verbal = stats.map((s) => s.content);
    expect(verbal).toContain('coffee_mug success rate: 0.875 (7/8)');
    expect(verbal).toContain('grasp success rate: 0.875 (7/8)');
    expect(verbal).toContain('box success rate: 0.4 (4/10)');
    // Salience over the 8 mug episodes: 0.5,0.6,0.7,0.5,0.6,0.7,0.5,0.6 → mean 0.5875, std 0.0780 (hand-computed).
    expect(verbal).toContain('coffee_mug salience: mean=0.59, std=0.08');

    // The statistical record is an ordinary record recall finds.
    const { hits } = await engram.recall('coffee_mug success rate', { scopes: [SCOPE], k: 5 });
    expect(hits.some((h) => h.content === 'coffee_mug success rate: 0.875 (7/8)')).toBe(true);
  });

  it('weights RELATED_TO by the Jaccard of episode sets (6 shared of 10 → 0.6) and reinforces it later', async () => {
    const { engram } = await open();
    const inputs = [
      ...Array.from({ length: 6 }, (_, i) => episode('look', ['mug', 'table'], true, i)),
      ...Array.from({ length: 2 }, (_, i) => episode('look', ['mug'], true, 10 + i)),
      ...Array.from({ length: 2 }, (_, i) => episode('look', ['table'], true, 20 + i)),
    ];
    await engram.remember(inputs);
    await engram.consolidate({ scope: SCOPE, phases: ['extract', 'ground'] });
    const concepts = (await all(engram, ['semantic'])).filter((r) => r.data.concept === true);
    const mug = concepts.find((c) => c.data.name === 'mug') as MemoryRecord;
    const table = concepts.find((c) => c.data.name === 'table') as MemoryRecord;
    const related = async () =>
      (await engram.store.getEdges({ scopes: [SCOPE], ids: [mug.id], types: ['RELATED_TO'] })).filter((e) =>
        [e.fromId, e.toId].includes(table.id),
      );
    const [edge] = await related();
    expect(edge?.weight).toBeCloseTo(0.6, 10);
    expect(edge?.metadata).toMatchObject({ shared: 6, union: 10 });

    await engram.remember(Array.from({ length: 4 }, (_, i) => episode('look', ['mug', 'table'], true, 30 + i)));
    const again = await engram.consolidate({ scope: SCOPE, phases: ['extract', 'ground'] });
    const after = await related();
    expect(after).toHaveLength(1);
    expect(after[0]?.id).toBe(edge?.id);
    expect(after[0]?.weight).toBeCloseTo(10 / 14, 6);
    expect(after[0]?.metadata.reinforced).toBe(1);
    expect(again.phases.find((p) => p.name === 'ground')?.note).toContain('edges reinforced');
  });
});

describe('consolidation cycle: idempotence and reports', () => {
  it('a second run changes nothing and says so in every phase', async () => {
    const { engram, clock } = await open();
    const mug = [true, true, false, true, true, true, true, true].map((s, i) => episode('grasp', ['coffee_mug'], s, i));
    await engram.remember(mug);
    await engram.consolidate({ scope: SCOPE });
    const before = await snapshot(engram, SCOPE);
    clock.advance(60_000);
    const second = await engram.consolidate({ scope: SCOPE });
    expect(await snapshot(engram, SCOPE)).toEqual(before);
    for (const phase of second.phases) {
      expect(phase.created, phase.name).toBe(0);
      expect(phase.updated, phase.name).toBe(0);
      expect(phase.note, phase.name).toMatch(/examined nothing|changed nothing|skipped/);
    }
    expect(second.phases.find((p) => p.name === 'reflect')?.note).toMatch(/^skipped: accumulated importance/);
    const stored = await engram.store.getState(SCOPE, 'consolidate/report/last');
    expect(stored?.value).toEqual(second);
  });

  it('an empty scope reports that every phase examined nothing', async () => {
    const { engram } = await open();
    const report = await engram.consolidate({ scope: 'acme/empty' });
    for (const phase of report.phases) expect(phase.note, phase.name).toMatch(/examined nothing|skipped/);
  });

  it('one cycle per scope: a concurrent second call is rejected with LOCKED', async () => {
    const { engram } = await open();
    await engram.remember(Array.from({ length: 30 }, (_, i) => episode('grasp', ['cup'], i % 2 === 0, i)));
    const results = await Promise.allSettled([engram.consolidate({ scope: SCOPE }), engram.consolidate({ scope: SCOPE })]);
    const rejected = results.filter((r) => r.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'LOCKED' });
    expect(String((rejected[0] as PromiseRejectedResult).reason.message)).toMatch(/Another consolidation cycle is running/);
    // Other scopes are not blocked, and the scope is free again afterwards.
    await expect(engram.consolidate({ scope: SCOPE, phases: ['decay'] })).resolves.toBeDefined();
  });

  it('rejects unknown phases with a clear INVALID_INPUT', async () => {
    const { engram } = await open();
    await expect(engram.consolidate({ scope: SCOPE, phases: ['nap' as never] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('dedup and supersession sweeps (claims that slipped past the write path)', () => {
  it('merges a duplicate claim into the older one and supersedes a claim corrected in another session', async () => {
    const { newId } = await import('../../src/core/write/new-record.js');
    const { engram, clock } = await open();
    const [target, seats] = await engram.remember([
      { scope: SCOPE, layer: 'semantic', content: 'The deploy target is staging.' },
      { scope: SCOPE, layer: 'semantic', content: 'Alice prefers window seats on long flights.' },
    ]);
    clock.advance(86_400_000);
    // Written straight into the store (an import, another process' old version), bypassing the write path.
    const [a, b] = await engram.store.getMemories([target!.id, seats!.id], [SCOPE]);
    const raw = (from: MemoryRecord, content: string): MemoryRecord => ({
      ...from,
      id: newId(clock.now()),
      content,
      recordedAt: clock.now(),
      validFrom: clock.now(),
      updatedAt: clock.now(),
      provenance: { ...from.provenance, sources: [{ conversationId: 'session-2' }] },
      data: {},
    });
    const correction = raw(a!, 'The deploy target moved from staging to production.');
    // a duplicate that had merged restatements of its own: its mentions and their wordings come along
    const duplicate = {
      ...raw(b!, 'Alice prefers window seats on long flights.'),
      mentionCount: 3,
      data: { history: [{ content: 'Alice likes window seats best when the flight is long.', at: clock.now() - 1000 }] },
    };
    const vectors = await engram.embedder.embed([correction.content, duplicate.content]);
    await engram.store.transaction((tx) =>
      tx.insertMemories([
        { record: correction, embedding: vectors[0]! },
        { record: duplicate, embedding: vectors[1]! },
      ]),
    );

    const report = await engram.consolidate({ scope: SCOPE, phases: ['dedup', 'supersede'] });
    const [oldTarget, newTarget, original, copy] = await engram.store.getMemories(
      [target!.id, correction.id, seats!.id, duplicate.id],
      [SCOPE],
    );
    expect(oldTarget?.status).toBe('superseded');
    expect(newTarget?.status).toBe('active');
    const supersedes = await engram.store.getEdges({ scopes: [SCOPE], ids: [correction.id], types: ['SUPERSEDES'] });
    expect(supersedes.map((e) => [e.fromId, e.toId])).toEqual([[correction.id, target!.id]]);
    expect(original?.mentionCount).toBe(4);
    expect(original?.data.history?.map((h) => h.content)).toEqual(['Alice likes window seats best when the flight is long.']);
    expect(original?.provenance.sources).toContainEqual({ conversationId: 'session-2' });
    expect(copy?.status).toBe('deleted');
    expect(copy?.data.mergedInto).toBe(seats!.id);
    expect(report.phases.find((p) => p.name === 'dedup')?.note).toMatch(/1 merged/);
    expect(report.phases.find((p) => p.name === 'supersede')?.note).toMatch(/1 superseded/);
    // the report names what each sweep changed
    expect(report.phases.find((p) => p.name === 'supersede')?.superseded).toEqual([target!.id]);
    expect(report.phases.find((p) => p.name === 'dedup')?.merged).toEqual([duplicate.id]);
    // Concepts are names, not claims: a sweep neither merges them with each other nor with a claim.
    const concept = (content: string): MemoryRecord => ({
      ...raw(b!, content),
      data: { concept: true, name: content.replace(/ /g, '_'), category: 'entity' },
    });
    const concepts = [concept('initech'), concept('deploy initech'), concept('alice prefers window seats on long flights')];
    const conceptVectors = await engram.embedder.embed(concepts.map((c) => c.content));
    await engram.store.transaction((tx) => tx.insertMemories(concepts.map((record, i) => ({ record, embedding: conceptVectors[i]! }))));
    await engram.consolidate({ scope: SCOPE, phases: ['dedup', 'supersede'] });
    for (const c of await engram.store.getMemories(
      concepts.map((c) => c.id),
      [SCOPE],
    ))
      expect([c.content, c.status]).toEqual([c.content, 'active']);
    expect((await engram.store.getMemories([seats!.id], [SCOPE]))[0]?.mentionCount).toBe(4);
    // Idempotent.
    const again = await engram.consolidate({ scope: SCOPE, phases: ['dedup', 'supersede'] });
    for (const p of again.phases) expect([p.created, p.updated]).toEqual([0, 0]);
  });
});
