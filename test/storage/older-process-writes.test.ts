/**
 * Writes by a process that predates a column or a table (a rolling upgrade: an older Engram still runs
 * beside this one, with its own SQL): the triggers of migration 30 keep the stored mentioned times
 * and the belief intervals right whoever writes. The older process is stood for by plain SQL on
 * another connection that names only the columns it knew. On a SQLite file, PGlite, and the
 * PostgreSQL server when `ENGRAM_TEST_PG_URL` is set.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/store.js';
import { mentionWindows } from '../../src/core/recall/mentioned-time.js';
import { openPgliteStore, openPostgresStore, type PostgresStore } from '../../src/storage/postgres/index.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { DAY, T0, makeRecord, withVectors } from '../contract/store-fixtures.js';
import { closeSharedPglite, dropPgSchema, pgTestUrl, sharedPglite, uniqueSchema, withSchema } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

const DIM = 8;
const EMBEDDING = { name: 'hash:8', dimension: DIM };
const A = 'acme/a';

/** A store, and SQL run beside it as another process would: `{table}` names a table, `?` a parameter. */
interface Backend {
  store: Store;
  raw(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Closes the store and opens it again (migrating what is pending). */
  reopen(): Promise<void>;
  /** The statements that take migration 30 away again, as a store of schema 28/29 had it. */
  readonly undoMigration30: string[];
  close(): Promise<void>;
}

function postgresBackend(open: () => Promise<PostgresStore>, drop: () => Promise<void>): () => Promise<Backend> {
  return async () => {
    let store = await open();
    const backend: Backend = {
      get store() {
        return store;
      },
      raw: (sql, params = []) =>
        store.withDriver(async (db, tables) => {
          let n = 0;
          const text = sql.replace(/\{(\w+)\}/g, (_, name: string) => tables.q(name)).replace(/\?/g, () => `$${++n}`);
          return (await db.query<Record<string, unknown>>(text, params)).rows;
        }),
      async reopen() {
        await store.close();
        store = await open();
      },
      undoMigration30: [
        'DROP FUNCTION {mentions_pending_on_edit}() CASCADE',
        'DROP FUNCTION {beliefs_on_memory_delete}() CASCADE',
        'DROP FUNCTION {beliefs_on_memory_truncate}() CASCADE',
        'DELETE FROM {schema_migrations} WHERE version = 30',
      ],
      async close() {
        await store.close();
        await drop();
      },
    };
    return backend;
  };
}

const backends: Array<[string, (() => Promise<Backend>) | undefined]> = [
  [
    'SQLite file',
    async () => {
      const { dir, cleanup } = tempDir();
      const path = join(dir, 'engram.db');
      const open = () => openSqliteStore({ path, embedding: EMBEDDING });
      let store = await open();
      const other = new Database(path);
      return {
        get store() {
          return store;
        },
        raw: async (sql, params = []) => {
          const statement = other.prepare(sql.replace(/\{(\w+)\}/g, '$1'));
          if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
          statement.run(...params);
          return [];
        },
        async reopen() {
          await store.close();
          store = await open();
        },
        undoMigration30: [
          'DROP TRIGGER memories_mentions_pending',
          'DROP TRIGGER memories_beliefs_delete',
          'DELETE FROM schema_migrations WHERE version = 30',
        ],
        async close() {
          other.close();
          await store.close();
          cleanup();
        },
      };
    },
  ],
  [
    'PGlite',
    (() => {
      const schema = uniqueSchema('op');
      return postgresBackend(
        async () => openPgliteStore({ pglite: await sharedPglite(), schema, embedding: EMBEDDING }),
        async () => void (await (await sharedPglite()).query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)),
      );
    })(),
  ],
  [
    'PostgreSQL server',
    pgTestUrl() === undefined
      ? undefined
      : (() => {
          const base = pgTestUrl() as string;
          const schema = uniqueSchema('op');
          return postgresBackend(
            () => openPostgresStore({ url: withSchema(base, schema), embedding: EMBEDDING }),
            () => dropPgSchema(base, schema),
          );
        })(),
  ],
];

// starting PGlite (WASM) takes seconds; do it once, before the first test's clock starts
beforeAll(async () => {
  await sharedPglite();
}, 120_000);
afterAll(closeSharedPglite);

const WRITTEN = T0 + 10 * DAY;

for (const [name, open] of backends) {
  describe.skipIf(open === undefined)(`writes by an older process (${name})`, () => {
    const insert = async (store: Store, count: number) => {
      const records = Array.from({ length: count }, (_, i) =>
        makeRecord({ scope: A, content: `Yesterday the outage number ${i} hit the checkout.`, occurredAt: WRITTEN }),
      );
      await store.transaction((tx) => tx.insertMemories(withVectors(DIM, records)));
      return records;
    };
    /** Stores the mentioned times of every pending record, as the background fill does. */
    const fill = async (store: Store) => {
      const pending = await store.pendingMentions!({ scopes: 'all', limit: 100 });
      return store.setMentions!(pending.map((c) => ({ ...c, mentions: mentionWindows(c.content, c.written) })));
    };
    const pendingIds = async (store: Store) => new Set((await store.pendingMentions!({ scopes: 'all', limit: 100 })).map((c) => c.id));

    it('an edit of the text or of when it happened makes the stored mentioned times pending; other edits and the fill do not', async () => {
      const backend = await open!();
      try {
        const [text, occurred, validFrom, other] = await insert(backend.store, 4);
        expect(await fill(backend.store)).toBe(4);
        expect(await pendingIds(backend.store)).toEqual(new Set());
        // SQL of a process that knows no `mentions` column
        await backend.raw('UPDATE {memories} SET content = ?, updated_at = ? WHERE id = ?', [
          'The checkout was calm.',
          WRITTEN + 1,
          text!.id,
        ]);
        await backend.raw('UPDATE {memories} SET occurred_at = ? WHERE id = ?', [WRITTEN - 30 * DAY, occurred!.id]);
        await backend.raw('UPDATE {memories} SET occurred_at = NULL, valid_from = ? WHERE id = ?', [WRITTEN - 3 * DAY, validFrom!.id]);
        await backend.raw('UPDATE {memories} SET salience = ?, content = content WHERE id = ?', [0.9, other!.id]);
        expect(await pendingIds(backend.store)).toEqual(new Set([text!.id, occurred!.id, validFrom!.id]));
        const [edited, kept] = await backend.store.getMemories([text!.id, other!.id], [A]);
        expect(backend.store.mentionsOf!(edited!)).toBeUndefined();
        expect(backend.store.mentionsOf!(kept!)).toEqual(mentionWindows(other!.content, WRITTEN));
        // the fill stores what the texts name now, and its own write leaves them stored
        expect(await fill(backend.store)).toBe(3);
        expect(await pendingIds(backend.store)).toEqual(new Set());
        const [refilled, moved] = await backend.store.getMemories([text!.id, occurred!.id], [A]);
        expect(backend.store.mentionsOf!(refilled!)).toEqual([]);
        expect(backend.store.mentionsOf!(moved!)).toEqual(mentionWindows(occurred!.content, WRITTEN - 30 * DAY));
      } finally {
        await backend.close();
      }
    });

    it("a delete takes the record's belief intervals; those left before migration 30 go when it applies", async () => {
      const backend = await open!();
      try {
        const [kept, purged, before] = await insert(backend.store, 3);
        for (const [i, record] of [kept, purged, before].entries()) {
          await backend.store.transaction((tx) => tx.updateMemory(record!.id, A, { validTo: WRITTEN + DAY, updatedAt: WRITTEN + i + 1 }));
        }
        const intervals = async (id: string) =>
          Number((await backend.raw('SELECT count(*) AS n FROM {memory_beliefs} WHERE memory_id = ?', [id]))[0]!.n);
        expect(await intervals(purged!.id)).toBe(1);
        // a purge by a process that knows no intervals
        await backend.raw('DELETE FROM {memories} WHERE id = ?', [purged!.id]);
        expect(await intervals(purged!.id)).toBe(0);
        expect((await backend.store.getBeliefs([kept!.id], [A])).get(kept!.id)).toHaveLength(1);

        // a store as an older release left it: no triggers, and a purge that kept the intervals
        for (const sql of backend.undoMigration30) await backend.raw(sql);
        await backend.raw('DELETE FROM {memories} WHERE id = ?', [before!.id]);
        expect(await intervals(before!.id)).toBe(1);
        await backend.reopen();
        expect(await intervals(before!.id)).toBe(0);
        expect((await backend.store.getBeliefs([kept!.id], [A])).get(kept!.id)).toHaveLength(1);
        await backend.raw('DELETE FROM {memories} WHERE id = ?', [kept!.id]);
        expect(await intervals(kept!.id)).toBe(0);
      } finally {
        await backend.close();
      }
    });
  });
}
