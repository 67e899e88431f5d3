/**
 * The PostgreSQL store's lexical candidates in a scope where a query's words are in most rows (a
 * speaker's name in every turn of a long chat). Its candidate statement ranked every row matching any
 * query word by ts_rank before its LIMIT: ~145 ms a search at 100,000 turns. Now the rows it ranks are
 * bounded (`RANKED_ROWS`): the rarest words find the candidates, ranked by all the words, and when they
 * find fewer than the first stage keeps, the newest rows with the frequent words fill the rest.
 *
 * Checked on the real server: each candidate statement the store runs is explained with its own
 * parameters (captured by a hook on the driver's pool), and no scan in it returns more than the bound;
 * where the rare words find enough rows, the hits are the SQLite store's on the same records.
 */
import pg from 'pg';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChannelHit, LexicalQuery } from '../../src/core/ports/store.js';
import { openPostgresStore, type PostgresStore } from '../../src/storage/postgres/index.js';
import { RANKED_ROWS, splitByFrequency } from '../../src/storage/postgres/pg-lexical.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { makeRecord, seededVector } from '../contract/store-fixtures.js';
import { freshPgSchema, PG_SKIP_REASON, pgTestUrl } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

const DIM = 8;
const EMBEDDING = { name: 'hash:8', dimension: DIM };
const SCOPE = 'acme/long-chat';
/** More rows than the bound, every one with "Ana" and "garden". */
const ROWS = RANKED_ROWS + 1_000;

/** Row `i`: every 200th mentions a zeppelin, every 20th a walrus. */
function content(i: number): string {
  return `Ana: note ${i} about the garden${i % 20 === 0 ? ' and the walrus' : ''}${i % 200 === 0 ? ' and a zeppelin' : ''}`;
}

interface Executed {
  readonly sql: string;
  readonly params: unknown[];
}

const executed: Executed[] = [];
type PoolQuery = (this: pg.Pool, text: unknown, values?: unknown) => unknown;
const poolPrototype = pg.Pool.prototype as unknown as { query: PoolQuery };
const originalQuery = poolPrototype.query;

/** The largest number of rows any node of `plan` produced (rows × loops). */
function widestNode(plan: Record<string, unknown>): number {
  const own = Number(plan['Actual Rows'] ?? 0) * Number(plan['Actual Loops'] ?? 1);
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return Math.max(own, ...children.map(widestNode));
}

describe.skipIf(pgTestUrl() === undefined)(
  `PostgreSQL lexical candidates where words are in most rows${pgTestUrl() === undefined ? ` (${PG_SKIP_REASON})` : ''}`,
  () => {
    let fresh: ReturnType<typeof freshPgSchema>;
    let postgres: PostgresStore;
    let sqlite: SqliteStore;
    let client: pg.Client;
    let cleanupDir: () => void;

    beforeAll(async () => {
      fresh = freshPgSchema('lexcand');
      postgres = await openPostgresStore({ url: fresh.url, embedding: EMBEDDING, vectors: 'exact' });
      const dir = tempDir();
      cleanupDir = dir.cleanup;
      sqlite = await openSqliteStore({ path: join(dir.dir, 'engram.db'), embedding: EMBEDDING });
      const records = Array.from({ length: ROWS }, (_, i) => ({
        record: makeRecord({ scope: SCOPE, content: content(i), tags: [], entities: [] }),
        embedding: seededVector(DIM, i + 1),
      }));
      for (const store of [postgres, sqlite]) await store.transaction((tx) => tx.insertMemories(records));
      client = new pg.Client({ connectionString: pgTestUrl() });
      await client.connect();
      poolPrototype.query = function query(this: pg.Pool, text: unknown, values?: unknown): unknown {
        if (typeof text === 'string') executed.push({ sql: text, params: Array.isArray(values) ? values : [] });
        // a prepared statement is handed over as its config ({ name, text, values })
        else if (typeof (text as { text?: unknown } | null)?.text === 'string') {
          const config = text as { text: string; values?: unknown };
          executed.push({ sql: config.text, params: Array.isArray(config.values) ? config.values : [] });
        }
        return originalQuery.call(this, text, values);
      };
    }, 120_000);

    afterAll(async () => {
      poolPrototype.query = originalQuery;
      await client?.end();
      await postgres?.close();
      await sqlite?.close();
      await fresh?.drop();
      cleanupDir?.();
    });

    /** Searches `terms` on PostgreSQL; returns its hits and the widest node of each candidate statement. */
    async function search(terms: string, limit = 10): Promise<{ hits: ChannelHit[]; widest: number[] }> {
      const query: LexicalQuery = { scopes: [SCOPE], terms: [{ term: terms }], limit, now: Date.now() };
      executed.length = 0;
      const hits = await postgres.lexicalSearch(query);
      const candidates = executed.filter(
        (e) => e.sql.includes('SELECT m.id, m.content, m.tags, m.entities, m.term_count') && e.sql.includes('@@'),
      );
      const widest: number[] = [];
      for (const statement of candidates) {
        const explained = await client.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`,
          statement.params,
        );
        widest.push(widestNode(explained.rows[0]!['QUERY PLAN'][0].Plan));
      }
      return { hits, widest };
    }

    const sqliteHits = (terms: string, limit = 10) =>
      sqlite.lexicalSearch({ scopes: [SCOPE], terms: [{ term: terms }], limit, now: Date.now() });

    it('splits the query words at the bound, rarest first', () => {
      const df = new Map([
        ['ana', 6000],
        ['zeppelin', 30],
        ['walrus', 300],
        ['garden', 6000],
      ]);
      expect(splitByFrequency(['ana', 'zeppelin', 'walrus'], df, 5000)).toEqual({ selective: ['zeppelin', 'walrus'], frequent: ['ana'] });
      expect(splitByFrequency(['ana', 'garden'], df, 5000)).toEqual({ selective: [], frequent: ['ana', 'garden'] });
      expect(splitByFrequency(['zeppelin', 'walrus'], df, 5000)).toEqual({ selective: ['zeppelin', 'walrus'], frequent: [] });
      expect(splitByFrequency(['ana', 'zeppelin'], df, 10_000)).toEqual({ selective: ['ana', 'zeppelin'], frequent: [] });
    });

    it('ranks the rare words’ rows by every word, as SQLite does, without ranking the rows every word is in', async () => {
      // 30 zeppelin rows; Ana and garden in all 6,000: the 30 are candidates, the newest others fill up
      const zeppelin = await search('Ana zeppelin garden');
      expect(zeppelin.widest.length).toBe(2);
      for (const rows of zeppelin.widest) expect(rows).toBeLessThanOrEqual(RANKED_ROWS);
      expect(zeppelin.hits.map((h) => h.id)).toEqual((await sqliteHits('Ana zeppelin garden')).map((h) => h.id));
      // every zeppelin row outranks every other: the full 30 are the top 30
      const top30 = await search('Ana zeppelin garden', 30);
      expect(top30.hits.every((h, i) => h.score > 0 && (i === 0 || h.score <= top30.hits[i - 1]!.score))).toBe(true);
      expect(top30.hits.map((h) => h.id)).toEqual((await sqliteHits('Ana zeppelin garden', 30)).map((h) => h.id));

      // 300 walrus rows are more than the first stage keeps (200): they alone are the candidates
      const walrus = await search('walrus garden');
      expect(walrus.widest.length).toBe(1);
      expect(walrus.widest[0]).toBeLessThanOrEqual(RANKED_ROWS);
      expect(walrus.hits.map((h) => h.id)).toEqual((await sqliteHits('walrus garden')).map((h) => h.id));
      expect(walrus.hits.map((h) => h.score)).toEqual((await sqliteHits('walrus garden')).map((h) => expect.closeTo(h.score, 9)));
    });

    it('answers a query of frequent words only from the newest rows with them', async () => {
      const frequent = await search('Ana garden', 10);
      expect(frequent.widest.length).toBe(1);
      expect(frequent.widest[0]).toBeLessThanOrEqual(RANKED_ROWS);
      expect(frequent.hits.length).toBe(10);
      const newest = new Set(
        (
          await client.query<{ id: string }>(`SELECT id FROM "${fresh.schema}".memories WHERE scope = $1 ORDER BY seq DESC LIMIT 200`, [
            SCOPE,
          ])
        ).rows.map((r) => r.id),
      );
      for (const hit of frequent.hits) expect(newest.has(hit.id)).toBe(true);
    });

    it('counts a word of a large scope once a minute, not with every refresh of its size', async () => {
      const counted = () =>
        executed.filter((e) => e.sql.includes('count(*)') && e.sql.includes('unnest')).flatMap((e) => e.params[1] as string[]);
      const sized = () => executed.some((e) => e.sql.includes('sum(term_count)'));
      await search('garden zeppelin');
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        // past the scope size's few seconds: the size is counted again, the words are not
        vi.setSystemTime(Date.now() + 10_000);
        await search('garden zeppelin');
        expect(sized()).toBe(true);
        expect(counted()).toEqual([]);
        await search('garden pelican');
        expect(sized()).toBe(false);
        expect(counted()).toEqual(["'pelican'"]);
        // past the minute: the words are counted again
        vi.setSystemTime(Date.now() + 61_000);
        await search('garden zeppelin');
        expect(counted().sort()).toEqual(["'garden'", "'zeppelin'"]);
      } finally {
        vi.useRealTimers();
      }
    });

    it('counts a word once when two searches ask for it at the same moment (a recall’s lexical and entity channels)', async () => {
      executed.length = 0;
      const query = (terms: string): LexicalQuery => ({ scopes: [SCOPE], terms: [{ term: terms }], limit: 10, now: Date.now() });
      const [both, one] = await Promise.all([postgres.lexicalSearch(query('Ana heron garden')), postgres.lexicalSearch(query('heron'))]);
      const counted = executed.filter((e) => e.sql.includes('unnest')).flatMap((e) => e.params[1] as string[]);
      expect(counted.filter((word) => word === "'heron'")).toHaveLength(1);
      // no row has the word: the second search ranks nothing, the first its other words' rows
      expect(one).toEqual([]);
      expect(both.length).toBe(10);
    });

    it('fills from the newest rows of all the scopes read, whatever their order', async () => {
      const second = 'acme/other-chat';
      await postgres.transaction((tx) =>
        tx.insertMemories(
          Array.from({ length: 300 }, (_, i) => ({
            record: makeRecord({ scope: second, content: `Ana: reply ${i} from the garden shed`, tags: [], entities: [] }),
            embedding: seededVector(DIM, 10_000 + i),
          })),
        ),
      );
      const ask = (scopes: string[]) => postgres.lexicalSearch({ scopes, terms: [{ term: 'Ana garden' }], limit: 50, now: Date.now() });
      const [one, other] = [await ask([SCOPE, second]), await ask([second, SCOPE])];
      expect(one.map((h) => h.id)).toEqual(other.map((h) => h.id));
      // the other scope's rows are the newest: the fill holds them, not only the first scope's
      const records = await postgres.getMemories(
        one.map((h) => h.id),
        [SCOPE, second],
      );
      expect(records.some((r) => r.scope === second)).toBe(true);
    });

    it('ranks every matching row while they are fewer than the bound (the statement of small scopes)', async () => {
      const rare = await search('zeppelin walrus');
      expect(rare.widest.length).toBe(1);
      expect(rare.hits.map((h) => h.id)).toEqual((await sqliteHits('zeppelin walrus')).map((h) => h.id));
    });
  },
);
