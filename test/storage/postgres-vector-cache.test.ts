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
});
