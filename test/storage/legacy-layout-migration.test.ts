/**
 * Upgrading a store of the old layout: API keys kept in metadata (an index document plus one entry per
 * hash, where concurrent creators had dropped some keys from the index) and relation types registered
 * without a tenant. Each database is built at the current schema, then turned back into the old layout
 * with plain SQL and reopened, so the migration runs on it.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ApiKeys } from '../../src/interfaces/http/index.js';
import type { Store, StoredApiKey } from '../../src/core/ports/store.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { makeEdge, makeRecord, withVectors } from '../contract/store-fixtures.js';
import { freshPgSchema, pgTestUrl } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { MIGRATIONS as PG_MIGRATIONS } from '../../src/storage/postgres/pg-migrations.js';

// the PostgreSQL migration that introduced the api_keys table and tenant-owned relation types
const PG_KEYS_VERSION = (PG_MIGRATIONS.find((m) => m.name.startsWith('API keys as rows')) as { version: number }).version;

const EMBEDDING = { name: 'contract-test:8', dimension: 8 };

async function sha256Hex(text: string): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('hex');
}

/** Keys as the old code wrote them: the index lost the third, whose hash entry still authenticated. */
async function legacyMeta(): Promise<{ rows: [string, string][]; orphanKey: string; ids: string[] }> {
  const listed: StoredApiKey = {
    id: 'key_00000000000000a1',
    hash: 'a'.repeat(64),
    tenant: 'acme',
    label: 'listed',
    createdAt: 1_000,
    revokedAt: null,
  };
  const revoked: StoredApiKey = {
    id: 'key_00000000000000a2',
    hash: 'b'.repeat(64),
    tenant: 'acme',
    label: null,
    createdAt: 2_000,
    revokedAt: 2_500,
  };
  const orphanId = 'key_00000000000000a3';
  const orphanKey = `egk_${'o'.repeat(43)}`;
  const orphan: StoredApiKey = {
    id: orphanId,
    hash: await sha256Hex(orphanKey),
    tenant: 'globex',
    label: null,
    createdAt: 3_000,
    revokedAt: null,
  };
  const rows: [string, string][] = [
    ['api_keys', JSON.stringify([listed, { ...revoked, revokedAt: null }])],
    [`api_key:${listed.hash}`, JSON.stringify(listed)],
    [`api_key:${revoked.hash}`, JSON.stringify(revoked)], // revoked after the index was last written
    [`api_key:${orphan.hash}`, JSON.stringify(orphan)],
  ];
  return { rows, orphanKey, ids: [listed.id, revoked.id, orphan.id] };
}

/** Memories of acme and globex, and a globex edge of type SUPPLIES. */
async function seed(store: Store): Promise<void> {
  const [a1, a2, g1, g2] = [
    makeRecord({ scope: 'acme/a' }),
    makeRecord({ scope: 'acme/a' }),
    makeRecord({ scope: 'globex/a' }),
    makeRecord({ scope: 'globex/a' }),
  ];
  await store.transaction(async (tx) => {
    await tx.insertMemories(withVectors(EMBEDDING.dimension, [a1, a2, g1, g2]));
    await tx.insertEdges([makeEdge('globex/a', g1.id, g2.id, { type: 'SUPPLIES' }), makeEdge('acme/a', a1.id, a2.id)]);
  });
}

/** Old registered types: one named by its proposer's tenant, one used by globex's edges, one traceable to no tenant. */
const LEGACY_TYPES: [string, string | null][] = [
  ['OWNS', 'tenant:acme'],
  ['SUPPLIES', 'agent:x'],
  ['ORPHANED', null],
];

async function expectUpgraded(store: Store, orphanKey: string, ids: string[]): Promise<void> {
  const keys = new ApiKeys(store, { presenceTtlMs: 0 });
  const listed = await keys.list();
  expect(listed.map((k) => [k.id, k.revokedAt !== null])).toEqual([
    [ids[0], false],
    [ids[1], true],
    [ids[2], false],
  ]);
  expect(await keys.verify(orphanKey)).toEqual({ keyId: ids[2], tenant: 'globex' });
  await keys.revoke(ids[2] as string);
  expect(await keys.verify(orphanKey)).toBeNull();
  expect(await store.getMeta('api_keys')).toBeNull();

  const registered = (scope: string) => store.getRelationTypes([scope]).then((types) => types.filter((t) => !t.builtIn).map((t) => t.name));
  // a type nobody can be traced to stays with every tenant of the store, so none loses one it relied on
  expect(await registered('acme/a')).toEqual(['ORPHANED', 'OWNS']);
  expect(await registered('globex/a')).toEqual(['ORPHANED', 'SUPPLIES']);
  expect(await registered('initech/a')).toEqual([]);
}

describe('upgrading the old key and relation layout', () => {
  it('SQLite: every old key (orphans too) becomes a row; old types go to the tenants that own or use them', async () => {
    const { dir, cleanup } = tempDir();
    const path = `${dir}/old.db`;
    try {
      const store = await openSqliteStore({ path, embedding: EMBEDDING });
      await seed(store);
      await store.close();
      const { rows, orphanKey, ids } = await legacyMeta();
      const db = new Database(path);
      db.exec(`
        DROP TABLE api_keys;
        CREATE TABLE old_types (name TEXT PRIMARY KEY, symmetric INTEGER NOT NULL, built_in INTEGER NOT NULL, proposed_by TEXT, description TEXT, registered_at INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO old_types SELECT name, symmetric, built_in, proposed_by, description, registered_at FROM relation_types;
        DROP TABLE relation_types;
        ALTER TABLE old_types RENAME TO relation_types;
        DELETE FROM schema_migrations WHERE version = 8;
      `);
      for (const [key, value] of rows) db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(key, value);
      for (const [name, by] of LEGACY_TYPES) db.prepare('INSERT INTO relation_types VALUES (?, 0, 0, ?, NULL, 5)').run(name, by);
      db.close();

      const upgraded = await openSqliteStore({ path, embedding: EMBEDDING });
      try {
        await expectUpgraded(upgraded, orphanKey, ids);
      } finally {
        await upgraded.close();
      }
    } finally {
      cleanup();
    }
  });

  it.skipIf(pgTestUrl() === undefined)(
    'PostgreSQL server: the same upgrade',
    async () => {
      const { url, schema, drop } = freshPgSchema('legacy');
      try {
        const store = await openPostgresStore({ url, embedding: EMBEDDING, poolSize: 2 });
        await seed(store);
        await store.close();
        const { rows, orphanKey, ids } = await legacyMeta();
        const parsed = new URL(url);
        parsed.searchParams.delete('schema');
        const client = new pg.Client({ connectionString: parsed.toString() });
        await client.connect();
        try {
          const q = (name: string) => `"${schema}"."${name}"`;
          await client.query(`
          DROP TABLE ${q('api_keys')};
          DELETE FROM ${q('relation_types')} WHERE NOT built_in;
          ALTER TABLE ${q('relation_types')} DROP CONSTRAINT relation_types_pkey;
          ALTER TABLE ${q('relation_types')} DROP COLUMN tenant;
          ALTER TABLE ${q('relation_types')} ADD PRIMARY KEY (name);
          DELETE FROM ${q('schema_migrations')} WHERE version = ${PG_KEYS_VERSION};
        `);
          for (const [key, value] of rows) await client.query(`INSERT INTO ${q('meta')} (key, value) VALUES ($1, $2)`, [key, value]);
          for (const [name, by] of LEGACY_TYPES) {
            await client.query(
              `INSERT INTO ${q('relation_types')} (name, "symmetric", built_in, proposed_by, description, registered_at) VALUES ($1, false, false, $2, NULL, 5)`,
              [name, by],
            );
          }
        } finally {
          await client.end();
        }
        const upgraded = await openPostgresStore({ url, embedding: EMBEDDING, poolSize: 2 });
        try {
          await expectUpgraded(upgraded, orphanKey, ids);
        } finally {
          await upgraded.close();
        }
      } finally {
        await drop();
      }
    },
    60_000,
  );
});
