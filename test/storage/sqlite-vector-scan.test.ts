/**
 * The in-memory vector index on small scopes: the same hits as sqlite-vec's KNN with the SIMD kernel
 * and with the JS loop, through other connections' writes, and within its memory budget.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelHit } from '../../src/core/ports/store.js';
import { dot, simdAvailable, VectorArena } from '../../src/core/simd-scan.js';
import { openSqliteStore, type SqliteStore, type SqliteStoreConfig } from '../../src/storage/sqlite/index.js';
import { DAY, T0, makeRecord, seededVector, withVectors } from '../contract/store-fixtures.js';
import { tempDir } from '../helpers/temp.js';

/** Not a multiple of 4 or 8: the kernel's rows are padded. */
const DIM = 37;
/** Scores may differ by float32 rounding of the summation order (sqlite-vec, SIMD lanes, JS doubles). */
const SCORE_DIGITS = 5;

describe('WebAssembly SIMD scan', () => {
  it('is available on this runtime', () => {
    expect(simdAvailable()).toBe(true);
  });

  it('gives the JS loop’s dot products for every dimension, across arena growth', () => {
    for (const dimension of [1, 3, 4, 7, 8, 9, 37, 384, 385]) {
      const rows = 300;
      const vectors = Array.from({ length: rows }, (_, i) => seededVector(dimension, i + 1));
      const query = seededVector(dimension, 1000);
      const results = [true, false].map((simd) => {
        const arena = new VectorArena(dimension, { simd });
        expect(arena.simd).toBe(simd);
        // small blocks first, so later ones grow the memory under the earlier ones
        const offsets = vectors.map(() => arena.allocate(arena.stride * 4) as number);
        vectors.forEach((vector, i) => arena.write(offsets[i]!, 0, vector));
        arena.setQuery(query);
        return offsets.map((offset) => arena.scan(offset, 1)[0]!);
      });
      vectors.forEach((vector, i) => {
        const expected = dot(vector, 0, query, dimension);
        expect(results[0]![i]).toBeCloseTo(expected, 6);
        expect(results[1]![i]).toBeCloseTo(expected, 12);
      });
    }
  });

  it('reuses a block uncleared when asked, and a written row still scans exactly (its padding cleared)', () => {
    for (const simd of [true, false]) {
      const dimension = 13; // stride 16: three floats of padding a row
      const arena = new VectorArena(dimension, { simd });
      const bytes = 4 * arena.stride * 4;
      const first = arena.allocate(bytes) as number;
      // whatever a previous user left, padding included (NaN: 0 × NaN is NaN, so padding must be cleared)
      arena.floats.fill(Number.NaN, first / 4, (first + bytes) / 4);
      arena.release(first, bytes);
      const reused = arena.allocate(bytes, { zeroed: false }) as number;
      expect(reused).toBe(first);
      expect(arena.floats[reused / 4 + arena.stride - 1]).toBeNaN();
      const vector = seededVector(dimension, 5);
      const query = seededVector(dimension, 6);
      arena.write(reused, 0, vector);
      arena.setQuery(query);
      expect(arena.scan(reused, 1)[0]).toBeCloseTo(dot(vector, 0, query, dimension), 6);
      // the default clears what it hands back
      arena.release(reused, bytes);
      const cleared = arena.allocate(bytes) as number;
      expect([...arena.floats.subarray(cleared / 4, (cleared + bytes) / 4)].every((x) => x === 0)).toBe(true);
    }
  });
});

describe('small scopes in the in-memory index', () => {
  const SCOPES = ['tenant/a', 'tenant/b', 'tenant/c'];
  const SIZES = [40, 300, 1500];
  let dir: string;
  let cleanup: () => void;
  const stores: SqliteStore[] = [];
  const open = async (extra: Partial<SqliteStoreConfig>): Promise<SqliteStore> => {
    const store = await openSqliteStore({
      path: join(dir, 'engram.db'),
      embedding: { name: 'seeded:37', dimension: DIM },
      vectorIndex: 'exact',
      ...extra,
    });
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    ({ dir, cleanup } = tempDir('engram-vector-scan-'));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    cleanup();
  });

  function expectSameHits(expected: ChannelHit[], actual: ChannelHit[]): void {
    expect(actual.map((h) => h.id)).toEqual(expected.map((h) => h.id));
    expected.forEach((hit, i) => expect(actual[i]!.score).toBeCloseTo(hit.score, SCORE_DIGITS));
  }

  const search = (store: SqliteStore, scopes: readonly string[], seed: number, limit = 10) =>
    store.vectorSearch({ scopes: [...scopes], now: T0 + DAY, limit, vector: seededVector(DIM, seed) });

  /** Fills the scopes through `store`; every 50th vector is zero, every 9th record deleted. */
  async function fill(store: SqliteStore): Promise<Map<string, string[]>> {
    const ids = new Map<string, string[]>();
    let seed = 1;
    for (const [s, scope] of SCOPES.entries()) {
      const records = Array.from({ length: SIZES[s]! }, (_, i) => makeRecord({ scope, status: i % 9 === 4 ? 'deleted' : 'active' }));
      const vectors = records.map((_, i) => (i % 50 === 7 ? new Float32Array(DIM) : seededVector(DIM, seed++)));
      await store.transaction((tx) => tx.insertMemories(withVectors(DIM, records, vectors)));
      ids.set(
        scope,
        records.map((r) => r.id),
      );
    }
    return ids;
  }

  it('gives sqlite-vec’s hits with the SIMD kernel and with the JS loop, and follows other connections’ writes', async () => {
    const sqliteVec = await open({ memoryIndexThreshold: Infinity });
    const simd = await open({ memoryIndexWarmup: 0 });
    const js = await open({ memoryIndexWarmup: 0, simdScan: false });
    const ids = await fill(sqliteVec);
    const queries: Array<{ scopes: string[]; limit: number }> = [
      ...SCOPES.map((scope) => ({ scopes: [scope], limit: 10 })),
      { scopes: SCOPES, limit: 25 },
      { scopes: ['tenant/a'], limit: 60 }, // more than the scope holds: zero vectors score 0
    ];
    const compare = async (seeds: readonly number[]): Promise<void> => {
      for (const { scopes, limit } of queries) {
        for (const seed of seeds) {
          const expected = await search(sqliteVec, scopes, seed, limit);
          expect(expected.length).toBeGreaterThan(0);
          expectSameHits(expected, await search(simd, scopes, seed, limit));
          expectSameHits(expected, await search(js, scopes, seed, limit));
        }
      }
    };
    await compare([5_001, 5_002, 5_003, 12, 700]);
    expect(simd.vectorIndexUsage).toMatchObject({ scopes: 3, simd: true, evictions: 0 });
    expect(js.vectorIndexUsage).toMatchObject({ scopes: 3, simd: false });

    // written through another connection between searches: inserts, re-embeds, forgets, hard deletes
    const b = ids.get('tenant/b')!;
    const fresh = Array.from({ length: 30 }, () => makeRecord({ scope: 'tenant/b' }));
    await sqliteVec.transaction(async (tx) => {
      await tx.insertMemories(
        withVectors(DIM, fresh, [new Float32Array(DIM), ...fresh.slice(1).map((_, i) => seededVector(DIM, 9_000 + i))]),
      );
      await tx.updateEmbedding(b[3]!, 'tenant/b', seededVector(DIM, 8_888));
      await tx.updateEmbedding(b[8]!, 'tenant/b', new Float32Array(DIM));
      await tx.updateMemory(b[10]!, 'tenant/b', { status: 'deleted', updatedAt: T0 });
      await tx.deleteMemories(b.slice(20, 60), 'tenant/b');
    });
    await compare([9_001, 8_888, 5_001, 12]);
    expect((await search(simd, ['tenant/b'], 8_888))[0]!.id).toBe(b[3]);
    expect((await search(js, ['tenant/b'], 9_001))[0]!.id).toBe(fresh[2]!.id);
  });

  it('serves a small scope written in the open transaction from the transaction', async () => {
    const store = await open({ memoryIndexWarmup: 0 });
    await fill(store);
    await search(store, ['tenant/a'], 1);
    expect(store.vectorIndexUsage.scopes).toBe(1);
    const fresh = makeRecord({ scope: 'tenant/a' });
    await store
      .transaction(async (tx) => {
        await tx.insertMemories(withVectors(DIM, [fresh], [seededVector(DIM, 4_242)]));
        const hits = await tx.vectorSearch({ scopes: ['tenant/a'], now: T0 + DAY, limit: 3, vector: seededVector(DIM, 4_242) });
        expect(hits[0]).toEqual({ id: fresh.id, score: expect.closeTo(1, SCORE_DIGITS) });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await search(store, ['tenant/a'], 4_242)).map((h) => h.id)).not.toContain(fresh.id);
  });

  it('scores the vectors the transaction wrote as it last wrote them: inserted, re-embedded, deleted', async () => {
    const store = await open({ memoryIndexWarmup: 0 });
    const ids = await fill(store);
    const a = ids.get('tenant/a')!;
    await search(store, ['tenant/a'], 1);
    const fresh = Array.from({ length: 12 }, () => makeRecord({ scope: 'tenant/a' }));
    const seeds = [4_301, 4_302, 4_303, 4_304, 12, 5_001];
    const inside: ChannelHit[][] = [];
    await store.transaction(async (tx) => {
      await tx.insertMemories(
        withVectors(
          DIM,
          fresh,
          fresh.map((_, i) => seededVector(DIM, 4_300 + i)),
        ),
      );
      // a row written in this transaction gets another vector, one is deleted, a committed one re-embedded
      await tx.updateEmbedding(fresh[1]!.id, 'tenant/a', seededVector(DIM, 4_304));
      await tx.deleteMemories([fresh[3]!.id], 'tenant/a');
      await tx.updateEmbedding(a[5]!, 'tenant/a', seededVector(DIM, 4_302));
      for (const seed of seeds)
        inside.push(await tx.vectorSearch({ scopes: ['tenant/a'], now: T0 + DAY, limit: 8, vector: seededVector(DIM, seed) }));
    });
    // the same searches once committed, from the committed vectors
    for (const [i, seed] of seeds.entries()) expectSameHits(await search(store, ['tenant/a'], seed, 8), inside[i]!);
    expect(
      inside[3]!
        .slice(0, 2)
        .map((h) => h.id)
        .sort(),
    ).toEqual([fresh[1]!.id, fresh[4]!.id].sort());
    expect(inside.flat().map((h) => h.id)).not.toContain(fresh[3]!.id);
  });

  it('drops the least recently searched small scopes past its budget, and answers the same', async () => {
    const sqliteVec = await open({ memoryIndexThreshold: Infinity });
    await fill(sqliteVec);
    // tenant/b (300 rows in a 320-row block of 40 floats: 50 KiB) fits, b and c together do not
    const budgeted = await open({ memoryIndexWarmup: 0, memoryIndexBudgetMb: 0.25 });
    const budgetBytes = 0.25 * 2 ** 20;
    const check = async (scopes: string[], seed: number): Promise<void> =>
      expectSameHits(await search(sqliteVec, scopes, seed), await search(budgeted, scopes, seed));

    await check(['tenant/a'], 1);
    await check(['tenant/b'], 2);
    expect(budgeted.vectorIndexUsage).toMatchObject({ scopes: 2, evictions: 0 });
    await check(['tenant/c'], 3); // 1,500 rows: 2 blocks, 1024 + 512 rows, 240 KiB
    expect(budgeted.vectorIndexUsage.evictions).toBe(2);
    expect(budgeted.vectorIndexUsage.scopes).toBe(1);
    expect(budgeted.vectorIndexUsage.evictableBytes).toBeLessThanOrEqual(budgetBytes);

    // one search holds all its scopes, the next one trims back to the budget
    await check(SCOPES, 4);
    expect(budgeted.vectorIndexUsage.scopes).toBe(3);
    await check(['tenant/a'], 5);
    expect(budgeted.vectorIndexUsage.evictableBytes).toBeLessThanOrEqual(budgetBytes);
    expect(budgeted.vectorIndexUsage.scopes).toBeLessThan(3);

    const none = await open({ memoryIndexWarmup: 0, memoryIndexBudgetMb: 0 });
    expectSameHits(await search(sqliteVec, SCOPES, 6), await search(none, SCOPES, 6));
    expect(none.vectorIndexUsage).toMatchObject({ scopes: 0, bytes: 0 });
  });

  it('waits for the warm-up before loading a small scope', async () => {
    const sqliteVec = await open({ memoryIndexThreshold: Infinity });
    await fill(sqliteVec);
    const warming = await open({ memoryIndexWarmup: 2 });
    for (let seed = 1; seed <= 4; seed++) {
      expectSameHits(await search(sqliteVec, ['tenant/c'], seed), await search(warming, ['tenant/c'], seed));
      expect(warming.vectorIndexUsage.scopes).toBe(seed <= 2 ? 0 : 1);
    }
  });
});
