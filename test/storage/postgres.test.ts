/**
 * The PostgreSQL store: the shared contract on PGlite with pgvector (always, in-process), on PGlite
 * without pgvector (the exact `real[]` fallback), and on the machine's PostgreSQL server when
 * `ENGRAM_TEST_PG_URL` is set; then what only PostgreSQL has.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/core/errors.js';
import { openPgliteStore, openPostgresStore, type PostgresStore, type PostgresStoreOptions } from '../../src/storage/postgres/index.js';
import { CONTRACT_DIMENSION, expectCode, runStoreContract, type StoreFixture } from '../contract/store.contract.js';
import { makeRecord, withVectors } from '../contract/store-fixtures.js';
import { closeSharedPglite, dropPgSchema, pgTestUrl, PG_SKIP_REASON, sharedPglite, uniqueSchema, withSchema } from '../helpers/postgres.js';

afterAll(closeSharedPglite);

const EMBEDDER = { name: 'contract-test:8', dimension: CONTRACT_DIMENSION };

/** PGlite cannot read outside a transaction while one is open: it is a single session. */
const PGLITE_SKIPS = {
  'reads outside a transaction do not see its uncommitted writes':
    'PGlite is one session, so a read outside an open transaction waits for it (a server runs it on another pooled session; covered by the PostgreSQL server run)',
};

function pgliteFixture(extra: Partial<PostgresStoreOptions> = {}) {
  return async (embedding: { name: string; dimension: number }): Promise<StoreFixture> => {
    const pglite = await sharedPglite();
    const schema = uniqueSchema('c');
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
        await pglite.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      },
    };
    return fixture;
  };
}

runStoreContract({ name: 'PGlite + pgvector (HNSW above 20k, exact below)', createStore: pgliteFixture(), skip: PGLITE_SKIPS });
runStoreContract({ name: 'PGlite + pgvector, every search through HNSW', createStore: pgliteFixture({ annThreshold: 0 }), skip: PGLITE_SKIPS });
runStoreContract({ name: 'PGlite without pgvector (exact real[] search)', createStore: pgliteFixture({ vectors: 'exact' }), skip: PGLITE_SKIPS });

const url = pgTestUrl();

function serverFixture(base: string) {
  return async (embedding: { name: string; dimension: number }): Promise<StoreFixture> => {
    const schema = uniqueSchema('c');
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
        await dropPgSchema(base, schema);
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
    expect(await reopened.withDriver(async (db, tables) => (await db.query(`SELECT version FROM ${tables.migrations} ORDER BY version`)).rows)).toEqual([
      { version: 1 },
      { version: 2 },
    ]);
    await reopened.close();
  });

  it('refuses an invalid schema name with a clear message', async () => {
    const pglite = await sharedPglite();
    const error = await openPgliteStore({ pglite, schema: 'Bad-Name"; drop', embedding: EMBEDDER }).catch((e: unknown) => e);
    expect(isEngramError(error) && error.code).toBe('INVALID_INPUT');
    expect(String((error as Error).message)).toMatch(/lower-case identifier/);
  });

  it('concurrent claimers never get the same job', async () => {
    const { store } = await open();
    await store.transaction((tx) =>
      tx.enqueueJobs(Array.from({ length: 30 }, (_, i) => ({ scope: 'acme/a', kind: 'k', payload: { i } })), 1),
    );
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, w) => store.claimJobs({ kinds: ['k'], scopes: 'all', limit: 10, owner: `w${w}`, leaseMs: 60_000, now: 2 })),
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
      await a.transaction((tx) => tx.enqueueJobs(Array.from({ length: 40 }, (_, i) => ({ scope: 'acme/a', kind: 'k', payload: { i } })), 1));
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, w) => (w % 2 === 0 ? a : b).claimJobs({ kinds: ['k'], scopes: ['acme/a'], limit: 7, owner: `w${w}`, leaseMs: 60_000, now: 2 })),
      );
      const ids = claims.flat().map((j) => j.id);
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      const locks = await Promise.all([a.acquireJobLock('consolidate:acme/a', 'a', 60_000), b.acquireJobLock('consolidate:acme/a', 'b', 60_000)]);
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
    const error = await openPostgresStore({ url: 'postgres://engram:engram@127.0.0.1:1/none', embedding: EMBEDDER }).catch((e: unknown) => e);
    expect(isEngramError(error) && error.code).toBe('STORAGE_UNAVAILABLE');
  });
});
