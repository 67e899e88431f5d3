/**
 * The PostgreSQL store keeps the planner's statistics of its memories table current after bulk
 * inserts, instead of leaving a freshly loaded schema to be planned as if empty until autovacuum runs
 * (the real server: autovacuum's timing is the server's, so the test reads pg_class directly).
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../src/storage/postgres/index.js';
import { makeRecord, seededVector } from '../contract/store-fixtures.js';
import { freshPgSchema, PG_SKIP_REASON, pgTestUrl } from '../helpers/postgres.js';

const DIM = 8;
const SCOPE = 'acme/bulk';

describe.skipIf(pgTestUrl() === undefined)(
  `PostgreSQL planner statistics after bulk inserts${pgTestUrl() === undefined ? ` (${PG_SKIP_REASON})` : ''}`,
  () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('analyses the memories table once a thousand rows were inserted, not before', async () => {
      const fresh = freshPgSchema('stats');
      cleanups.push(fresh.drop);
      const store: PostgresStore = await openPostgresStore({
        url: fresh.url,
        embedding: { name: 'hash:8', dimension: DIM },
        vectors: 'exact',
      });
      cleanups.push(() => store.close());
      const client = new pg.Client({ connectionString: pgTestUrl() });
      await client.connect();
      cleanups.push(() => client.end());
      const estimatedRows = async (): Promise<number> =>
        Number(
          (
            await client.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = $1::regclass`, [
              `"${fresh.schema}"."memories"`,
            ])
          ).rows[0]?.n,
        );
      const insert = async (count: number, from: number): Promise<void> => {
        const records = Array.from({ length: count }, () => makeRecord({ scope: SCOPE }));
        await store.transaction((tx) =>
          tx.insertMemories(records.map((record, i) => ({ record, embedding: seededVector(DIM, from + i + 1) }))),
        );
      };
      await insert(600, 0);
      // never analysed (-1 since PostgreSQL 14; autovacuum waits for a larger change and a minute's nap)
      expect(await estimatedRows()).toBeLessThan(600);
      await insert(300, 600);
      expect(await estimatedRows()).toBeLessThan(600);
      // the thousandth row since the last analysis: the store analyses at once
      await insert(150, 900);
      expect(await estimatedRows()).toBe(1050);
      // the next refresh waits for another thousand rows (at least a fifth of the table)
      await insert(500, 1050);
      expect(await estimatedRows()).toBe(1050);
    });
  },
);
