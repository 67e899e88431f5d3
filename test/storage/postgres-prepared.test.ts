/**
 * The pool driver prepares the store's read statements once per session (a recall's neighbour read
 * spent more time planning than running): reads answer as before, the session keeps a bounded number of
 * them, `?prepare=off` (or `preparedStatements: 0`) keeps none, and a statement whose cached plan no
 * longer fits its table (another process migrated it) is run again unnamed instead of failing.
 */
import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { createPoolDriver } from '../../src/storage/postgres/pg-driver.js';
import { openPostgresStore, parsePostgresUrl, type PostgresStore } from '../../src/storage/postgres/index.js';
import { freshPgSchema, pgExec, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';

const url = pgTestUrl();

/** The names of the statements the store's one pooled session holds. */
async function preparedNames(store: PostgresStore): Promise<string[]> {
  const rows = await store.withDriver(
    async (db) => (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows,
  );
  return rows.map((r) => r.name);
}

describe('PostgreSQL URL parameters', () => {
  it('splits prepare=on|off off the URL and refuses anything else', () => {
    expect(parsePostgresUrl('postgres://u:p@localhost/db?schema=s&prepare=off')).toEqual({
      connectionString: 'postgres://u:p@localhost/db',
      schema: 's',
      prepare: false,
    });
    expect(parsePostgresUrl('postgres://u:p@localhost/db').prepare).toBe(true);
    expect(() => parsePostgresUrl('postgres://u:p@localhost/db?prepare=maybe')).toThrow(/prepare=maybe .* must be on or off/);
  });
});

if (url !== undefined) {
  describe('PostgreSQL server: prepared read statements', () => {
    const workload = async (engram: Engram): Promise<string[]> => {
      const scope = 'acme/prepared';
      await engram.remember([
        { scope, content: 'We moved the standup to nine thirty on Mondays.' },
        { scope, content: 'The staging database is refreshed every night.' },
        { scope, content: 'Priya owns the billing service migration.' },
      ]);
      const found: string[] = [];
      // the same reads again and again: from the second recall on, from prepared statements
      for (let i = 0; i < 8; i++) {
        const { hits } = await engram.recall('who owns the billing migration?', { scopes: [scope], k: 2 });
        found.push(hits.map((h) => h.content).join(' | '));
      }
      return found;
    };

    it('prepares reads once per session, bounded, and answers as unprepared reads do', async () => {
      const embedder = new HashEmbedder();
      const answers: string[][] = [];
      const held: string[][] = [];
      for (const [suffix, options] of [
        ['', {}],
        ['', { preparedStatements: 3 }],
        ['&prepare=off', {}],
      ] as const) {
        const { url: schemaUrl, drop } = freshPgSchema('prep');
        const store = await openPostgresStore({
          url: `${schemaUrl}${suffix}`,
          embedding: { name: embedder.name, dimension: embedder.dimension },
          poolSize: 1,
          ...options,
        });
        const engram = new Engram({ store, embedder });
        try {
          answers.push(await workload(engram));
          held.push(await preparedNames(store));
        } finally {
          await engram.close();
          await drop();
        }
      }
      const [all, three, none] = held;
      expect(all!.length).toBeGreaterThan(5);
      expect(all!.every((name) => /^engram_[0-9a-f]{24}$/.test(name))).toBe(true);
      expect(three).toHaveLength(3);
      expect(none).toEqual([]);
      // the same hits whatever was prepared (each store its own schema, so its own ids)
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    });

    it('runs a statement again unnamed when another process changed its table under the cached plan', async () => {
      const { schema, drop } = freshPgSchema('prep');
      const driver = await createPoolDriver({ connectionString: url, max: 1 });
      try {
        await pgExec(
          url,
          `CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".t (id int PRIMARY KEY, a text); INSERT INTO "${schema}".t VALUES (1, 'one')`,
        );
        const read = `SELECT * FROM "${schema}".t WHERE id = $1`;
        expect((await driver.query(read, [1])).rows).toEqual([{ id: 1, a: 'one' }]);
        // another session adds a column: the prepared plan's result type no longer matches (0A000)
        await pgExec(url, `ALTER TABLE "${schema}".t ADD COLUMN b text DEFAULT 'two'`);
        expect((await driver.query(read, [1])).rows).toEqual([{ id: 1, a: 'one', b: 'two' }]);
        // and stays usable
        expect((await driver.query(read, [1])).rows).toEqual([{ id: 1, a: 'one', b: 'two' }]);
      } finally {
        await driver.close();
        await drop();
      }
    });

    it('refuses a preparedStatements that is not a whole number ≥ 0', async () => {
      const embedder = new HashEmbedder();
      for (const bad of [-1, 1.5, Number.NaN])
        await expect(
          openPostgresStore({ url, embedding: { name: embedder.name, dimension: embedder.dimension }, preparedStatements: bad }),
        ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/preparedStatements must be a whole number/) });
    });
  });
} else {
  describe.skip(`PostgreSQL prepared statements (${PG_SKIP_REASON})`, () => {
    it('prepares read statements once per session', () => undefined);
  });
}
