/**
 * The PostgreSQL store: the shared contract on PGlite with pgvector (always, in-process), on PGlite
 * without pgvector (the exact `real[]` fallback), and on the machine's PostgreSQL server when
 * `ENGRAM_TEST_PG_URL` is set; then what only PostgreSQL has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/core/errors.js';
import { openPgliteStore, openPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../../src/storage/postgres/index.js';
import { MIGRATIONS } from '../../src/storage/postgres/pg-migrations.js';
import { CONTRACT_DIMENSION, expectCode, runStoreContract, type StoreFixture } from '../contract/store.contract.js';
import { makeRecord, T0, vectorOf, withVectors } from '../contract/store-fixtures.js';
import {
  closeSharedPglite,
  dropPgSchema,
  pgExec,
  pgTestUrl,
  PG_SKIP_REASON,
  resetEngramSchema,
  sharedPglite,
  uniqueSchema,
  withSchema,
} from '../helpers/postgres.js';

// starting PGlite (WASM) takes seconds; do it once, before the first test's clock starts
beforeAll(async () => {
  await sharedPglite();
}, 120_000);
afterAll(closeSharedPglite);

const EMBEDDER = { name: 'contract-test:8', dimension: CONTRACT_DIMENSION };

/** PGlite cannot read outside a transaction while one is open: it is a single session. */
const PGLITE_SKIPS = {
  'reads outside a transaction do not see its uncommitted writes':
    'PGlite is one session, so a read outside an open transaction waits for it (a server runs it on another pooled session; covered by the PostgreSQL server run)',
};

/**
 * One schema per contract run, emptied after each test (creating a schema per test costs seconds of DDL).
 * The first test of a run opens a new schema, so every run starts fresh.
 */
function pgliteFixture(extra: Partial<PostgresStoreOptions> = {}) {
  const schema = uniqueSchema('c');
  afterAll(async () => (await sharedPglite()).query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  return async (embedding: { name: string; dimension: number }): Promise<StoreFixture> => {
    const pglite = await sharedPglite();
    const open = () => openPgliteStore({ pglite, schema, embedding, accessFlushMs: 20, ...extra });
    const fixture: StoreFixture = {
      store: await open(),
      async reopen() {
        await fixture.store.close();
        fixture.store = await open();
        return fixture.store;
      },
      async destroy() {
        await fixture.store.close();
        await resetEngramSchema((sql) => pglite.query(sql), schema);
      },
    };
    return fixture;
  };
}

/**
 * The variants differ from the main PGlite run only in how vectors are stored and searched, so they run
 * the tests that touch vectors and skip the rest (run above on the same SQL) to keep the suite fast.
 */
const NOT_ABOUT_VECTORS = [
  'getMemories follows the order of ids and skips missing and out-of-scope ones',
  'every read requires at least one valid scope',
  'lexical search ranks by BM25, best first, with positive scores',
  'lexical search stems words',
  'lexical search covers tags and entities',
  'lexical search never fails on hostile input',
  'lexical term weights change the ranking',
  'transactions in one process do not interleave',
  'duplicate ids and source keys are conflicts, and a failed write changes nothing',
  'findBySourceKey maps known keys of that scope to ids',
  'findClaims returns active claims by subject and layer, newest first',
  'edges: inserted, found from either end, filtered by type, same scope only',
  'stats count by layer and status within the given scopes',
  'listMemories paginates by id with layer and status filters',
  'recordAccess is eventually visible and survives close and reopen',
  'metadata values roundtrip',
  'close is idempotent and later calls fail',
  'relation registry: built-ins are present with their direction',
  'relation registry: run-time types persist, are idempotent, and refuse a direction change',
  'concept refs: insertion order, no duplicates, FIFO eviction past the cap',
  'concept refs: the default cap is 200 per layer, layers are separate sets',
  'concept refs: same scope only, scoped reads, move and remove',
  'findConcepts matches names case-insensitively within scopes, layers and statuses',
  'updateEdge changes weight and metadata within its scope',
  'state documents: set, replace, list by literal prefix, delete, per scope',
  'job queue: enqueue in a transaction, dedupe, claim oldest first with a lease, complete',
  'job queue: expired leases are re-claimable, failures retry then give up',
  'job queue survives reopen',
  'job locks: one holder at a time, renewable, expiring',
];
const vectorsOnly = (variant: string) => ({
  ...PGLITE_SKIPS,
  ...Object.fromEntries(
    NOT_ABOUT_VECTORS.map((name) => [name, `not about vectors: same SQL as the main PGlite run, only ${variant} differs`]),
  ),
});

runStoreContract({ name: 'PGlite + pgvector (HNSW above 20k, exact below)', createStore: pgliteFixture(), skip: PGLITE_SKIPS });
runStoreContract({
  name: 'PGlite + pgvector, every search through HNSW',
  createStore: pgliteFixture({ annThreshold: 0 }),
  skip: vectorsOnly('HNSW search'),
});
runStoreContract({
  name: 'PGlite without pgvector (exact search, real[])',
  createStore: pgliteFixture({ vectors: 'exact' }),
  skip: vectorsOnly('the real[] storage'),
});

const url = pgTestUrl();

function serverFixture(base: string) {
  const schema = uniqueSchema('c');
  afterAll(() => dropPgSchema(base, schema));
  return async (embedding: { name: string; dimension: number }): Promise<StoreFixture> => {
    const open = () => openPostgresStore({ url: withSchema(base, schema), embedding, poolSize: 4, accessFlushMs: 20 });
    const fixture: StoreFixture = {
      store: await open(),
      async reopen() {
        await fixture.store.close();
        fixture.store = await open();
        return fixture.store;
      },
      async destroy() {
        await fixture.store.close();
        await resetEngramSchema((sql) => pgExec(base, sql), schema);
      },
    };
    return fixture;
  };
}

if (url !== undefined) {
  runStoreContract({ name: 'PostgreSQL server', createStore: serverFixture(url) });
} else {
  describe.skip(`Store contract: PostgreSQL server (${PG_SKIP_REASON})`, () => {
    it('runs the store contract against the PostgreSQL server', () => undefined);
  });
}

describe('PostgreSQL store specifics (PGlite)', () => {
  const open = async (extra: Partial<PostgresStoreOptions> = {}): Promise<{ store: PostgresStore; schema: string }> => {
    const pglite = await sharedPglite();
    const schema = extra.schema ?? uniqueSchema('s');
    return { store: await openPgliteStore({ pglite, schema, embedding: EMBEDDER, ...extra }), schema };
  };

  it('declares its capabilities: pgvector gives an ANN index, the fallback does not', async () => {
    const { store } = await open();
    const { store: exact } = await open({ vectors: 'exact' });
    expect(store.capabilities.annIndex).toBe(true);
    expect(store.vectorStorage).toBe('pgvector');
    expect(exact.capabilities.annIndex).toBe(false);
    expect(exact.vectorStorage).toBe('array');
    await store.close();
    await exact.close();
  });

  it('refuses to reopen with another embedder name or dimension, then reopens with the right one', async () => {
    const { store, schema } = await open();
    const record = makeRecord();
    await store.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, [record])));
    await store.close();
    const pglite = await sharedPglite();
    await expectCode(openPgliteStore({ pglite, schema, embedding: { name: 'other:8', dimension: 8 } }), 'EMBEDDING_MODEL_MISMATCH');
    await expectCode(openPgliteStore({ pglite, schema, embedding: { name: EMBEDDER.name, dimension: 9 } }), 'EMBEDDING_DIMENSION_MISMATCH');
    const reopened = await openPgliteStore({ pglite, schema, embedding: EMBEDDER });
    expect(await reopened.getMemories([record.id], [record.scope])).toStrictEqual([record]);
    expect(
      await reopened.withDriver(async (db, tables) => (await db.query(`SELECT version FROM ${tables.migrations} ORDER BY version`)).rows),
    ).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    await reopened.close();
  });

  it('a NUL character reaching the store (text or JSON) is INVALID_INPUT saying so, and nothing is written', async () => {
    const { store } = await open();
    const writes = [
      makeRecord({ content: 'before\u0000after' }),
      makeRecord({ sourceKey: 'c-1\u0000m-1' }),
      makeRecord({ data: { properties: { note: 'x\u0000' } } }),
    ];
    for (const record of writes) {
      const error = await store
        .transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, [makeRecord(), record])))
        .catch((e: unknown) => e);
      expect(isEngramError(error) && error.code).toBe('INVALID_INPUT');
      expect(String((error as Error).message)).toMatch(/NUL character \(U\+0000\)/);
    }
    expect((await store.stats([writes[0]!.scope])).total).toBe(0);
    await store.close();
  });

  it('refuses an invalid schema name with a clear message', async () => {
    const pglite = await sharedPglite();
    const error = await openPgliteStore({ pglite, schema: 'Bad-Name"; drop', embedding: EMBEDDER }).catch((e: unknown) => e);
    expect(isEngramError(error) && error.code).toBe('INVALID_INPUT');
    expect(String((error as Error).message)).toMatch(/lower-case identifier/);
  });

  it('without pgvector, the exact-search cache of each process follows other writers (vector_log)', async () => {
    const { store: a, schema } = await open({ vectors: 'exact' });
    const pglite = await sharedPglite();
    const b = await openPgliteStore({ pglite, schema, embedding: EMBEDDER });
    const search = async (store: PostgresStore, v: Float32Array) =>
      (await store.vectorSearch({ scopes: ['acme/a'], now: T0 + 1, limit: 1, vector: v })).map((h) => h.id);
    const [x, y] = [makeRecord({ recordedAt: T0, validFrom: T0 }), makeRecord({ recordedAt: T0, validFrom: T0 })];
    await a.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, [x!], [vectorOf(CONTRACT_DIMENSION, 1)])));
    expect(await search(b, vectorOf(CONTRACT_DIMENSION, 1))).toEqual([x!.id]);
    await a.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, [y!], [vectorOf(CONTRACT_DIMENSION, 0, 1)])));
    expect(await search(b, vectorOf(CONTRACT_DIMENSION, 0, 1))).toEqual([y!.id]);
    await a.transaction((tx) => tx.updateEmbedding(x!.id, 'acme/a', vectorOf(CONTRACT_DIMENSION, 0, 0, 1)));
    expect(await search(b, vectorOf(CONTRACT_DIMENSION, 0, 0, 1))).toEqual([x!.id]);
    // a rolled-back embedding change is not served from the writer's own cache either
    await expect(
      a.transaction(async (tx) => {
        await tx.updateEmbedding(y!.id, 'acme/a', vectorOf(CONTRACT_DIMENSION, 0, 0, 0, 1));
        expect(
          await tx.vectorSearch({ scopes: ['acme/a'], now: T0 + 1, limit: 1, vector: vectorOf(CONTRACT_DIMENSION, 0, 0, 0, 1) }),
        ).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const [hit] = await a.vectorSearch({ scopes: ['acme/a'], now: T0 + 1, limit: 1, vector: vectorOf(CONTRACT_DIMENSION, 0, 1) });
    expect(hit).toMatchObject({ id: y!.id, score: expect.closeTo(1, 5) });
    await a.close();
    await b.close();
  });

  it('concurrent claimers never get the same job', async () => {
    const { store } = await open();
    await store.transaction((tx) =>
      tx.enqueueJobs(
        Array.from({ length: 30 }, (_, i) => ({ scope: 'acme/a', kind: 'k', payload: { i } })),
        1,
      ),
    );
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, w) =>
        store.claimJobs({ kinds: ['k'], scopes: 'all', limit: 10, owner: `w${w}`, leaseMs: 60_000, now: 2 }),
      ),
    );
    const ids = claims.flat().map((j) => j.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    await store.close();
  });
});

describe.skipIf(url === undefined)(`PostgreSQL server specifics${url === undefined ? ` (${PG_SKIP_REASON})` : ''}`, () => {
  it('two stores (two pools, as two servers) claim disjoint jobs and hold one job lock between them', async () => {
    const schema = uniqueSchema('s');
    const target = withSchema(url!, schema);
    const [a, b] = await Promise.all([
      openPostgresStore({ url: target, embedding: EMBEDDER, poolSize: 4 }),
      openPostgresStore({ url: target, embedding: EMBEDDER, poolSize: 4 }),
    ]);
    try {
      expect(a.capabilities.multiProcess).toBe(true);
      await a.transaction((tx) =>
        tx.enqueueJobs(
          Array.from({ length: 40 }, (_, i) => ({ scope: 'acme/a', kind: 'k', payload: { i } })),
          1,
        ),
      );
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, w) =>
          (w % 2 === 0 ? a : b).claimJobs({ kinds: ['k'], scopes: ['acme/a'], limit: 7, owner: `w${w}`, leaseMs: 60_000, now: 2 }),
        ),
      );
      const ids = claims.flat().map((j) => j.id);
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      const locks = await Promise.all([
        a.acquireJobLock('consolidate:acme/a', 'a', 60_000),
        b.acquireJobLock('consolidate:acme/a', 'b', 60_000),
      ]);
      expect(locks.filter(Boolean)).toHaveLength(1);
      // writers from both serialise: 20 read-increment-write transactions lose no update
      const [counter] = [makeRecord({ mentionCount: 0 })];
      await a.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, [counter!])));
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).transaction(async (tx) => {
            const [current] = await tx.getMemories([counter!.id], ['acme/a']);
            await tx.updateMemory(counter!.id, 'acme/a', { mentionCount: current!.mentionCount + 1, updatedAt: 1 });
          }),
        ),
      );
      expect((await b.getMemories([counter!.id], ['acme/a']))[0]!.mentionCount).toBe(20);
    } finally {
      await a.close();
      await b.close();
      await dropPgSchema(url!, schema);
    }
  });

  it('an unreachable server is STORAGE_UNAVAILABLE with a clear message', async () => {
    const error = await openPostgresStore({ url: 'postgres://engram:engram@127.0.0.1:1/none', embedding: EMBEDDER }).catch(
      (e: unknown) => e,
    );
    expect(isEngramError(error) && error.code).toBe('STORAGE_UNAVAILABLE');
    // the hint is PostgreSQL's (the server and the URL), not a SQLite file's (path, permissions, locks)
    expect((error as Error).message).toMatch(
      /could not be reached .*ECONNREFUSED.*Check that the server is running and that the URL's host, port/,
    );
    expect((error as Error).message).not.toMatch(/exclusive lock/);
  });
});
