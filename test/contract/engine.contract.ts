/**
 * The engine over each store backend: the write path (supersession, merge), both time axes, scopes,
 * the graph, the concept queue and the consolidation cycle, end to end with the hash embedder. A store
 * passes the port contract (store.contract.ts) and this; seed 002's worst bug was a consolidation phase
 * that silently did nothing on PostgreSQL, so the cycle's effects are asserted here, per backend.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PHASES } from '../../src/consolidation/config.js';
import { isEngramError } from '../../src/core/errors.js';
import type { MemoryRecord } from '../../src/core/memory.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';

const DAY = 86_400_000;

export interface EngineContractOptions {
  name: string;
  /** A new engine over an empty store with the hash embedder and `clock`; `cleanup` closes and deletes it. */
  open(clock: ManualClock): Promise<{ engram: Engram; cleanup: () => Promise<void> }>;
}

export function runEngineContract(options: EngineContractOptions): void {
  describe(`Engine over ${options.name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      while (cleanups.length > 0) await cleanups.pop()?.();
    });
    const open = async (start = Date.parse('2024-01-10T12:00:00Z')) => {
      const clock = new ManualClock(start);
      const opened = await options.open(clock);
      cleanups.push(opened.cleanup);
      return { engram: opened.engram, clock };
    };

    it('a correction supersedes; current, asOf and knownAt reads each see the right version', async () => {
      const { engram, clock } = await open();
      const t0 = clock.now();
      const old = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The deploy target is staging.' });
      clock.advance(10 * DAY);
      const t1 = clock.now();
      const fix = await engram.remember({
        scope: 't/a',
        layer: 'semantic',
        content: 'The deploy target moved from staging to production.',
      });
      expect(fix).toEqual({ id: expect.any(String), action: 'superseded', superseded: [old.id] });
      expect((await engram.recall('deploy target', { scopes: ['t/a'] })).hits.map((h) => h.id)).toEqual([fix.id]);
      expect((await engram.recall('deploy target', { scopes: ['t/a'], asOf: t0 + 5 * DAY })).hits.map((h) => h.id)).toEqual([old.id]);
      const believed = await engram.recall('deploy target', { scopes: ['t/a'], knownAt: t1 - DAY });
      expect(believed.hits.map((h) => h.id)).toEqual([old.id]);
      const all = await engram.recall('deploy target', { scopes: ['t/a'], includeSuperseded: true });
      expect(all.hits.find((h) => h.id === old.id)?.supersededBy).toBe(fix.id);
      const history = await engram.history(fix.id, { scopes: ['t/a'] });
      expect(history.versions.map((v) => v.id)).toEqual([old.id, fix.id]);
      expect(history.edges[0]).toMatchObject({ from: fix.id, type: 'SUPERSEDES', to: old.id });
    });

    it('knownAt reads answer what was believed then, whatever later changed the validity (supersession, update, undo)', async () => {
      const { engram, clock } = await open();
      const t0 = clock.now();
      const scopes = ['t/a'];
      const seen = async (at: { knownAt: number; asOf: number }) =>
        (await engram.recall('deploy target', { scopes, ...at })).hits.map((h) => h.id).sort();
      // the claim had an end of its own when it was written
      const old = await engram.remember({
        scope: 't/a',
        layer: 'semantic',
        content: 'The deploy target is staging.',
        validFrom: t0 - 100 * DAY,
        validTo: t0 + 200 * DAY,
      });
      clock.advance(10 * DAY);
      const t1 = clock.now();
      const fix = await engram.remember({
        scope: 't/a',
        layer: 'semantic',
        content: 'The deploy target moved from staging to production.',
      });
      expect(fix.action).toBe('superseded');
      // before the correction the store believed staging held until its own end, not for ever
      expect(await seen({ knownAt: t1 - DAY, asOf: t0 + 100 * DAY })).toEqual([old.id]);
      expect(await seen({ knownAt: t1 - DAY, asOf: t0 + 300 * DAY })).toEqual([]);
      clock.advance(10 * DAY);
      await engram.unsupersede(old.id, { scope: 't/a' });
      // while the correction stood, staging was believed to end where production began
      expect(await seen({ knownAt: t1 + 5 * DAY, asOf: t1 + 5 * DAY })).toEqual([fix.id]);
      expect(await seen({ knownAt: clock.now(), asOf: t1 + 5 * DAY })).toEqual([fix.id, old.id].sort());
      clock.advance(10 * DAY);
      const t3 = clock.now();
      await engram.update(old.id, { validTo: t3 - 5 * DAY }, { scope: 't/a' });
      // the edit is known from t3 on: a day before it, staging was still believed current
      expect(await seen({ knownAt: t3 - DAY, asOf: t3 - DAY })).toContain(old.id);
      expect(await seen({ knownAt: t3, asOf: t3 - DAY })).not.toContain(old.id);
      // the three earlier beliefs still answer as they did
      expect(await seen({ knownAt: t1 - DAY, asOf: t0 + 300 * DAY })).toEqual([]);
      expect(await seen({ knownAt: t1 + 5 * DAY, asOf: t1 + 5 * DAY })).toEqual([fix.id]);
      const listed = await engram.list({ scopes, knownAt: t1 + 5 * DAY, asOf: t1 + 5 * DAY });
      expect(listed.items.map((r) => r.id)).toEqual([fix.id]);
    });

    // an edit of a record's end is known from when it was made: a knownAt read of before it still sees the record
    describe('knownAt reads of records held in memory judge what was believed then', () => {
      it('activation reaches a neighbour whose end was edited later', async () => {
        const { engram, clock } = await open();
        const t0 = clock.now();
        const mug = await engram.remember({ scope: 't/g', layer: 'semantic', content: 'A coffee mug holds hot drinks.' });
        const cup = await engram.remember({ scope: 't/g', layer: 'semantic', content: 'A container keeps things inside it.' });
        await engram.relate({ scope: 't/g', from: mug.id, type: 'is a', to: cup.id, weight: 0.8 });
        clock.advance(20 * DAY);
        await engram.update(cup.id, { validTo: t0 + 5 * DAY }, { scope: 't/g' });
        const reached = async (at: { knownAt: number; asOf: number }) =>
          (await engram.activate(mug.id, { scopes: ['t/g'], ...at })).ranked.map((r) => r.id);
        expect(await reached({ knownAt: t0 + 10 * DAY, asOf: t0 + 10 * DAY })).toEqual([cup.id]);
        expect(await reached({ knownAt: clock.now(), asOf: t0 + 10 * DAY })).toEqual([]);
      });

      it('a decision chain keeps a member whose end was edited later', async () => {
        const { engram, clock } = await open();
        const t0 = clock.now();
        const decided = await engram.remember({
          scope: 't/c',
          content: 'Decided to run the search cluster on three nodes.',
          decision: { intent: 'cluster size', rationale: 'survive one node loss' },
        });
        const outcome = await engram.remember({ scope: 't/c', content: 'One search node died and search stayed up.', follows: decided.id });
        clock.advance(20 * DAY);
        await engram.update(outcome.id, { validTo: t0 + 5 * DAY }, { scope: 't/c' });
        const chainOf = async (at: { knownAt: number; asOf: number }) => {
          const { hits } = await engram.recall('search cluster nodes', { scopes: ['t/c'], chains: true, ...at });
          return hits.find((h) => h.id === decided.id)?.chain?.map((m) => m.id) ?? [];
        };
        expect(await chainOf({ knownAt: t0 + 10 * DAY, asOf: t0 + 10 * DAY })).toEqual([decided.id, outcome.id]);
        expect(await chainOf({ knownAt: clock.now(), asOf: t0 + 10 * DAY })).toEqual([]);
      });

      it('a corrected turn names the correction that was believed to hold then, though its end was edited later', async () => {
        const { engram, clock } = await open();
        const source = (messageId: string) => ({ conversationId: 's1', messageId });
        const lisbon = await engram.remember({ scope: 't/k', content: 'user: I live in Lisbon.', capture: true, source: source('m1') });
        clock.advance(10 * DAY);
        const t1 = clock.now();
        await engram.remember({
          scope: 't/k',
          content: 'user: Actually I moved to Porto last month.',
          capture: true,
          source: source('m2'),
        });
        const porto = (await engram.list({ scopes: ['t/k'], layers: ['semantic'] })).items.find((r) => r.content.includes('Porto'));
        expect(porto).toBeDefined();
        clock.advance(20 * DAY);
        await engram.update(porto!.id, { validTo: t1 + 5 * DAY }, { scope: 't/k' });
        const correctionOf = async (at: { knownAt: number; asOf: number }) => {
          const { hits } = await engram.recall('Where do I live?', { scopes: ['t/k'], k: 12, trackAccess: false, ...at });
          const turn = hits.find((h) => h.id === lisbon.id || (h.why.sameAs ?? []).includes(lisbon.id));
          expect(turn).toBeDefined();
          return turn?.correctedBy?.id;
        };
        expect(await correctionOf({ knownAt: t1 + 10 * DAY, asOf: t1 + 10 * DAY })).toBe(porto!.id);
        expect(await correctionOf({ knownAt: clock.now(), asOf: t1 + 10 * DAY })).toBeUndefined();
      });
    });

    it('restating a fact merges into one record; forget and restore round-trip', async () => {
      const { engram } = await open();
      const first = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'Alice is allergic to peanuts.', tags: ['health'] });
      for (let i = 0; i < 4; i++) {
        expect(
          await engram.remember({
            scope: 't/a',
            layer: 'semantic',
            content: 'Alice is allergic to peanuts.',
            tags: i === 2 ? ['food'] : [],
          }),
        ).toEqual({
          id: first.id,
          action: 'merged',
          mergedInto: first.id,
        });
      }
      const record = await engram.get(first.id, { scopes: ['t/a'] });
      expect(record.mentionCount).toBe(5);
      expect(record.tags).toEqual(['health', 'food']);
      expect((await engram.stats({ scopes: ['t/a'] })).total).toBe(1);
      await engram.forget(first.id, { scope: 't/a' });
      expect((await engram.recall('peanuts allergy', { scopes: ['t/a'] })).hits).toEqual([]);
      await engram.restore(first.id, { scope: 't/a' });
      expect((await engram.recall('peanuts allergy', { scopes: ['t/a'] })).hits.map((h) => h.id)).toEqual([first.id]);
    });

    it('scopes hold: other scopes see nothing, by search, by id or through the graph', async () => {
      const { engram } = await open();
      const a = await engram.remember({ scope: 'acme/a', layer: 'semantic', content: 'The vault code is 4711.' });
      const b = await engram.remember({ scope: 'acme/b', layer: 'semantic', content: 'The vault code is 4711.' });
      expect((await engram.recall('vault code', { scopes: ['acme/b'] })).hits.map((h) => h.id)).toEqual([b.id]);
      expect((await engram.recall('vault code', { scopes: ['other/x'] })).hits).toEqual([]);
      const error = await engram.get(a.id, { scopes: ['acme/b'] }).catch((e: unknown) => e);
      expect(isEngramError(error) && error.code).toBe('NOT_FOUND');
      const relate = await engram.relate({ scope: 'acme/a', from: a.id, type: 'RELATED_TO', to: b.id }).catch((e: unknown) => e);
      expect(isEngramError(relate)).toBe(true);
      expect((await engram.stats({ scopes: ['acme/a', 'acme/b'] })).total).toBe(2);
    });

    it('graph: relate, list edges, activate neighbours, invalidate by supersession in time', async () => {
      const { engram } = await open();
      const mug = await engram.remember({ scope: 't/g', layer: 'semantic', content: 'A coffee mug holds hot drinks.' });
      const cup = await engram.remember({ scope: 't/g', layer: 'semantic', content: 'A container keeps things inside it.' });
      const related = await engram.relate({ scope: 't/g', from: mug.id, type: 'is a', to: cup.id, weight: 0.8 });
      expect(related.action).toBe('created');
      expect(related.edge).toMatchObject({ from: mug.id, type: 'IS_A', to: cup.id, weight: 0.8 });
      const again = await engram.relate({ scope: 't/g', from: mug.id, type: 'IS_A', to: cup.id, weight: 0.9 });
      expect(again.action).toBe('updated');
      const edges = await engram.edges(mug.id, { scopes: ['t/g'] });
      expect(edges.map((e) => [e.type, e.other, e.weight])).toEqual([['IS_A', cup.id, 0.9]]);
      const activation = await engram.activate(mug.id, { scopes: ['t/g'] });
      expect(activation.ranked.map((r) => r.id)).toContain(cup.id);
      const custom = await engram.registerRelation({ scope: 't/g', name: 'keeps warm', proposedBy: 'test' });
      expect(custom).toMatchObject({ name: 'KEEPS_WARM', builtIn: false });
      expect((await engram.relations({ scopes: ['t/g'] })).map((r) => r.name)).toContain('KEEPS_WARM');
    });

    it('the concept queue: remember queues extraction, processJobs drains it once into concepts', async () => {
      const { engram } = await open();
      await engram.remember(
        Array.from({ length: 4 }, (_, i) => ({
          scope: 't/q',
          layer: 'episodic' as const,
          content: `grasp the coffee mug, attempt ${i}`,
          perception: { objects: ['coffee_mug'], salience: 0.5, novelty: 0.1 },
          action: { tool: 'grasp' },
          outcome: { success: true },
        })),
      );
      expect((await engram.stats({ scopes: ['t/q'] })).jobs.pending).toBeGreaterThan(0);
      const drained = await engram.processJobs();
      expect(drained.failed).toBe(0);
      expect(drained.conceptsCreated).toBeGreaterThan(0);
      expect((await engram.stats({ scopes: ['t/q'] })).jobs).toMatchObject({ pending: 0, running: 0, failed: 0 });
      const concepts = await engram.store.findConcepts({ scopes: ['t/q'], names: ['coffee_mug'] });
      expect(concepts).toHaveLength(1);
      const refs = await engram.store.getConceptRefs({ scopes: ['t/q'], conceptIds: [concepts[0]!.id], layers: ['episodic'] });
      expect(refs).toHaveLength(4);
      expect((await engram.processJobs()).jobs).toBe(0);
    });

    it('the consolidation cycle does real work: grounds, promotes 7 of 8 with DERIVED_FROM edges, stores its report', async () => {
      const { engram } = await open(Date.UTC(2026, 2, 1));
      const episode = (tool: string, objects: string[], success: boolean, i: number) => ({
        scope: 'acme/robot',
        layer: 'episodic' as const,
        content: `${tool} ${objects.join(' ')} attempt ${i}: ${success ? 'worked' : 'failed'}`,
        importance: 0.3,
        perception: { objects, salience: 0.5 + (i % 3) * 0.1, novelty: 0.2 },
        action: { tool },
        outcome: { success },
      });
      const mug = [true, true, false, true, true, true, true, true].map((s, i) => episode('grasp', ['coffee_mug'], s, i));
      const box = [true, false, true, false, true, false, true, false, false, false].map((s, i) => episode('push', ['box'], s, i));
      const mugIds = (await engram.remember(mug)).map((r) => r.id);
      await engram.remember(box);
      const report = await engram.consolidate({ scope: 'acme/robot' });
      // the order itself is pinned in test/consolidation/cycle.test.ts
      expect(report.phases.map((p) => p.name)).toEqual([...PHASES]);
      // no phase may be a silent no-op on this backend: the ones with input examined it
      const examined = Object.fromEntries(report.phases.map((p) => [p.name, p.examined]));
      expect(examined.extract).toBeGreaterThan(0);
      expect(examined.ground).toBeGreaterThan(0);
      expect(examined.promote).toBeGreaterThan(0);
      const records = await engram.store.listMemories({ scopes: ['acme/robot'], limit: 10_000 });
      const promoted = records.filter((r: MemoryRecord) => r.layer === 'semantic' && r.data.category === 'promoted');
      expect(promoted.map((r) => r.data.name)).toEqual(['grasp + coffee_mug → success']);
      const edges = await engram.store.getEdges({ scopes: ['acme/robot'], ids: [promoted[0]!.id], types: ['DERIVED_FROM'] });
      expect(edges.map((e) => e.toId).sort()).toEqual([...mugIds].sort());
      expect(records.filter((r) => r.layer === 'statistical').map((r) => r.content)).toContain('coffee_mug success rate: 0.875 (7/8)');
      const last = await engram.store.getState('acme/robot', 'consolidate/report/last');
      expect((last?.value as { id?: string } | undefined)?.id).toBe(report.id);
      // a second run finds nothing new to promote
      await engram.consolidate({ scope: 'acme/robot' });
      const after = await engram.store.listMemories({ scopes: ['acme/robot'], layers: ['semantic'], limit: 10_000 });
      expect(after.filter((r) => r.data.category === 'promoted')).toHaveLength(1);
    });

    it('one consolidation per scope at a time: a concurrent second call is LOCKED', async () => {
      const { engram } = await open();
      await engram.remember({ scope: 't/c', layer: 'episodic', content: 'ran the nightly job' });
      const results = await Promise.allSettled([engram.consolidate({ scope: 't/c' }), engram.consolidate({ scope: 't/c' })]);
      const rejected = results.filter((r) => r.status === 'rejected');
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(rejected).toHaveLength(1);
      expect(((rejected[0] as PromiseRejectedResult).reason as { code?: string }).code).toBe('LOCKED');
    });
  });
}
