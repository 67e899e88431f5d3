/**
 * The in-process vectors of the exact (no pgvector) PostgreSQL store: a scope is first read in pages
 * along its insertion order, so a large scope never arrives as one result; concurrent first searches
 * share one load; later changes arrive through the vector log.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openPgliteStore, type PostgresStore } from '../../src/storage/postgres/index.js';
import { VectorCache } from '../../src/storage/postgres/pg-vector-cache.js';
import { makeRecord, seededVector } from '../contract/store-fixtures.js';
import { closeSharedPglite, sharedPglite, uniqueSchema } from '../helpers/postgres.js';

const DIM = 8;
const SCOPE = 'acme/a';

describe('PostgreSQL vector cache (exact search without pgvector)', () => {
  let store: PostgresStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  afterAll(closeSharedPglite);

  const open = async () => {
    store = await openPgliteStore({
      pglite: await sharedPglite(),
      schema: uniqueSchema('vc'),
      embedding: { name: 'hash:8', dimension: DIM },
      vectors: 'exact',
    });
    return store;
  };

  it('loads a scope larger than a page completely, whatever the page size, and ranks as a one-page load does', async () => {
    const s = await open();
    const records = Array.from({ length: 23 }, () => makeRecord({ scope: SCOPE }));
    const vectors = records.map((_, i) => seededVector(DIM, i + 1));
    await s.transaction((tx) => tx.insertMemories(records.map((record, i) => ({ record, embedding: vectors[i]! }))));
    const query = seededVector(DIM, 99);
    const ranked = await s.withDriver(async (db, tables) => {
      const answers = [];
      for (const pageSize of [1, 5, 23, 5000]) {
        const cache = new VectorCache(DIM, { pageSize });
        await cache.sync(db, tables, SCOPE);
        expect(cache.size(SCOPE), `page size ${pageSize}`).toBe(records.length);
        answers.push(cache.top([SCOPE], query, 30).map((hit) => hit.id));
      }
      return answers;
    });
    expect(new Set(ranked[0])).toEqual(new Set(records.map((r) => r.id)));
    for (const answer of ranked) expect(answer).toEqual(ranked[0]);
  });

  it('concurrent first searches of a scope share one load, and later writes arrive through the log', async () => {
    const s = await open();
    const first = Array.from({ length: 7 }, () => makeRecord({ scope: SCOPE }));
    await s.transaction((tx) => tx.insertMemories(first.map((record, i) => ({ record, embedding: seededVector(DIM, i + 1) }))));
    await s.withDriver(async (db, tables) => {
      const cache = new VectorCache(DIM, { pageSize: 2 });
      let reads = 0;
      const counting = { ...db, query: (sql: string, params?: readonly unknown[]) => (reads++, db.query(sql, params)) } as typeof db;
      await Promise.all([cache.sync(counting, tables, SCOPE), cache.sync(counting, tables, SCOPE), cache.sync(counting, tables, SCOPE)]);
      // one load (the mark, four pages of two) and one catch-up per caller
      expect(reads).toBe(1 + 4 + 3);
      expect(cache.size(SCOPE)).toBe(7);
      const later = makeRecord({ scope: SCOPE });
      await s.transaction((tx) => tx.insertMemories([{ record: later, embedding: seededVector(DIM, 50) }]));
      await cache.sync(db, tables, SCOPE);
      expect(cache.size(SCOPE)).toBe(8);
      expect(cache.top([SCOPE], seededVector(DIM, 50), 1)[0]?.id).toBe(later.id);
    });
  });

  it('ranks a scope of several scan blocks exactly, also after purges move rows between blocks', async () => {
    const s = await open();
    // 2,300 vectors: three blocks of the SIMD scan (1,024 rows each)
    const records = Array.from({ length: 2300 }, () => makeRecord({ scope: SCOPE }));
    const vectors = records.map((_, i) => seededVector(DIM, i + 1));
    await s.transaction((tx) => tx.insertMemories(records.map((record, i) => ({ record, embedding: vectors[i]! }))));
    const cosine = (a: Float32Array, b: Float32Array) => {
      let dot = 0;
      let na = 0;
      let nb = 0;
      for (let i = 0; i < DIM; i++) {
        dot += a[i]! * b[i]!;
        na += a[i]! * a[i]!;
        nb += b[i]! * b[i]!;
      }
      return dot / Math.sqrt(na * nb);
    };
    const check = (cache: VectorCache, alive: ReadonlySet<number>) => {
      for (const seed of [4242, 4243, 4244, 4245]) {
        const query = seededVector(DIM, seed);
        const exact = [...alive]
          .map((i) => ({ id: records[i]!.id, score: cosine(vectors[i]!, query) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 100);
        const top = cache.top([SCOPE], query, 100);
        expect(top.map((h) => h.id).sort()).toEqual(exact.map((h) => h.id).sort());
        const want = new Map(exact.map((h) => [h.id, h.score]));
        for (const hit of top) expect(Math.abs(hit.score - want.get(hit.id)!)).toBeLessThan(1e-5);
      }
    };
    const purged = [0, 1023, 1024, 1500, 2048, 2299];
    await s.withDriver(async (db, tables) => {
      const simd = new VectorCache(DIM);
      const loop = new VectorCache(DIM, { simd: false });
      for (const cache of [simd, loop]) await cache.sync(db, tables, SCOPE);
      const all = new Set(records.map((_, i) => i));
      check(simd, all);
      check(loop, all);
      const patch = { content: '', tags: [], entities: [], summary: null, status: 'expired' as const, updatedAt: Date.now() };
      await s.transaction((tx) =>
        tx.tombstoneMemories(
          purged.map((i) => ({ id: records[i]!.id, patch })),
          SCOPE,
        ),
      );
      const alive = new Set([...all].filter((i) => !purged.includes(i)));
      for (const cache of [simd, loop]) {
        await cache.sync(db, tables, SCOPE);
        expect(cache.size(SCOPE)).toBe(alive.size);
        check(cache, alive);
      }
      // a vector written after the purges takes a freed slot and is found first for itself
      const later = makeRecord({ scope: SCOPE });
      await s.transaction((tx) => tx.insertMemories([{ record: later, embedding: seededVector(DIM, 9999) }]));
      await simd.sync(db, tables, SCOPE);
      expect(simd.top([SCOPE], seededVector(DIM, 9999), 1)[0]?.id).toBe(later.id);
    });
  });
});
