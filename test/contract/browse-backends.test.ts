/**
 * Browse and purge (engine-browse.contract.ts) on every backend: a SQLite file, PGlite with pgvector,
 * and the PostgreSQL server when `ENGRAM_TEST_PG_URL` is set (else skipped, saying so).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openPgliteStore, openPostgresStore, type PgliteLike } from '../../src/storage/postgres/index.js';
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
import { tempEngram } from '../helpers/temp.js';
import { runBrowseContract, type AuditRow } from './engine-browse.contract.js';

beforeAll(async () => {
  await sharedPglite();
}, 120_000);
afterAll(closeSharedPglite);

runBrowseContract({
  name: 'SQLite file',
  async open(clock) {
    const { engram, path, cleanup } = await tempEngram({ clock });
    const read = <T>(fn: (db: Database.Database) => T): T => {
      const db = new Database(path, { readonly: true });
      try {
        return fn(db);
      } finally {
        db.close();
      }
    };
    return {
      engram,
      cleanup,
      auditRows: async () =>
        read((db) => db.prepare('SELECT actor, action, scope, count, details FROM audit_log ORDER BY seq').all() as AuditRow[]),
      everyRowText: async () =>
        read((db) => {
          const tables = db
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'")
            .all() as { name: string }[];
          return tables
            .map(({ name }) =>
              JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all(), (_k, v: unknown) =>
                Buffer.isBuffer(v) ? Buffer.from(v).toString('latin1') : v,
              ),
            )
            .join('\n');
        }),
    };
  },
});

/** Rows as text of every table of a schema, through any query function. */
async function schemaText(query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>, schema: string): Promise<string> {
  const tables = (
    await query(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = '${schema}' AND table_type = 'BASE TABLE'`)
  ).rows.map((r) => String(r.t));
  const parts: string[] = [];
  for (const table of tables) parts.push(JSON.stringify((await query(`SELECT t::text AS r FROM "${schema}"."${table}" t`)).rows));
  // the lexical index answers through the GIN index too
  parts.push(
    JSON.stringify(
      (await query(`SELECT id FROM "${schema}".memories WHERE lexemes @@ '${'zqxjvorbluntide'}'::tsquery`)).rows.map(
        () => 'zqxjvorbluntide',
      ),
    ),
  );
  return parts.join('\n');
}

const pgliteSchema = uniqueSchema('b');
afterAll(async () => (await sharedPglite()).query(`DROP SCHEMA IF EXISTS "${pgliteSchema}" CASCADE`));
runBrowseContract({
  name: 'PGlite + pgvector',
  async open(clock) {
    const pglite: PgliteLike = await sharedPglite();
    const embedder = new HashEmbedder();
    const store = await openPgliteStore({
      pglite,
      schema: pgliteSchema,
      embedding: { name: embedder.name, dimension: embedder.dimension },
    });
    const engram = new Engram({ store, embedder, clock });
    const query = async (sql: string) => (await pglite.query(sql)) as { rows: Record<string, unknown>[] };
    return {
      engram,
      cleanup: async () => {
        await engram.close();
        await resetEngramSchema((sql) => pglite.query(sql), pgliteSchema);
      },
      auditRows: async () =>
        (await query(`SELECT actor, action, scope, count, details FROM "${pgliteSchema}".audit_log ORDER BY seq`))
          .rows as unknown as AuditRow[],
      everyRowText: () => schemaText(query, pgliteSchema),
    };
  },
});

const url = pgTestUrl();
if (url !== undefined) {
  const schema = uniqueSchema('b');
  afterAll(() => dropPgSchema(url, schema));
  runBrowseContract({
    name: 'PostgreSQL server',
    async open(clock) {
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({
        url: withSchema(url, schema),
        embedding: { name: embedder.name, dimension: embedder.dimension },
        poolSize: 4,
      });
      const engram = new Engram({ store, embedder, clock });
      const query = async (sql: string) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query(sql)) as { rows: Record<string, unknown>[] };
        } finally {
          await client.end();
        }
      };
      return {
        engram,
        cleanup: async () => {
          await engram.close();
          await resetEngramSchema((sql) => pgExec(url, sql), schema);
        },
        auditRows: async () =>
          (await query(`SELECT actor, action, scope, count, details FROM "${schema}".audit_log ORDER BY seq`))
            .rows as unknown as AuditRow[],
        everyRowText: () => schemaText(query, schema),
      };
    },
  });
} else {
  describe.skip(`Browse and purge over PostgreSQL server (${PG_SKIP_REASON})`, () => {
    it('runs the browse contract against the PostgreSQL server', () => undefined);
  });
}
