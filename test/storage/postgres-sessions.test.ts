/**
 * One query at a time per pg client: callers run a transaction's reads in parallel (Promise.all over
 * one session), and pg warns, then (pg 9) fails, when a client gets a query while one is running.
 * pg warns once per process, so this file watches every warning from its first test to its last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { createPoolDriver } from '../../src/storage/postgres/pg-driver.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { freshPgSchema, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';

const url = pgTestUrl();
const warnings: string[] = [];
const onWarning = (warning: Error): void => void warnings.push(warning.message);
const parallelQueryWarnings = (): string[] => warnings.filter((w) => w.includes('already executing a query'));
/** Warnings are emitted on a later tick than the query that caused them. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

if (url !== undefined) {
  describe('PostgreSQL server: one query at a time per client', () => {
    beforeAll(() => void process.on('warning', onWarning));
    afterAll(() => void process.off('warning', onWarning));

    it('queries issued in parallel inside a transaction run in turn, each with its own answer', async () => {
      const driver = await createPoolDriver({ connectionString: url, max: 2 });
      try {
        const answers = await driver.transaction((session) =>
          Promise.all([
            session.query<{ n: number }>('SELECT 1 AS n FROM pg_sleep(0.02)'),
            session.query<{ n: number }>('SELECT 2 AS n'),
            session.query<{ n: number }>('SELECT $1::int AS n', [3]),
          ]),
        );
        expect(answers.map((a) => a.rows[0]?.n)).toEqual([1, 2, 3]);
        await settle();
        expect(parallelQueryWarnings()).toEqual([]);
      } finally {
        await driver.close();
      }
    });

    it('a failing query in a parallel batch rolls the transaction back and leaves the client usable', async () => {
      const driver = await createPoolDriver({ connectionString: url, max: 1 });
      try {
        const batch = driver.transaction((session) =>
          Promise.all([
            session.query('SELECT 1 FROM pg_sleep(0.01)'),
            session.query('SELECT * FROM no_such_table_here'),
            session.query('SELECT 3'),
          ]),
        );
        await expect(batch).rejects.toMatchObject({ code: '42P01' });
        const after = await driver.transaction((session) => session.query<{ n: number }>('SELECT 4 AS n'));
        expect(after.rows[0]?.n).toBe(4);
        await settle();
        expect(parallelQueryWarnings()).toEqual([]);
      } finally {
        await driver.close();
      }
    });

    it('an engine workload (claims, supersession, recall) on one pooled session raises no parallel-query warning', async () => {
      const { url: schemaUrl, drop } = freshPgSchema('s');
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({
        url: schemaUrl,
        embedding: { name: embedder.name, dimension: embedder.dimension },
        poolSize: 1,
      });
      const engram = new Engram({ store, embedder });
      try {
        const scope = 'acme/sessions';
        await engram.remember({ scope, layer: 'semantic', content: 'The water tank holds eighty liters.' });
        await engram.remember({ scope, layer: 'semantic', content: 'The water tank holds ninety liters.' });
        await engram.remember({
          scope,
          content: 'We refilled the tank this morning.',
          source: { conversationId: 'c-1', messageId: 'm-1' },
        });
        const { hits } = await engram.recall('water tank', { scopes: [scope] });
        expect(hits.length).toBeGreaterThan(0);
        await settle();
        expect(parallelQueryWarnings()).toEqual([]);
      } finally {
        await engram.close();
        await drop();
      }
    });
  });
} else {
  describe.skip(`PostgreSQL client sessions (${PG_SKIP_REASON})`, () => {
    it('runs queries of one client one at a time', () => undefined);
  });
}
