/**
 * PostgreSQL's part-blob cache: a process keeps the part blobs it read while their scope's generation
 * (`parts_generation`, raised by triggers on every change) holds. Checked on PGlite and, when configured,
 * the real server: what the cache reads, and that a second store (as a second server process) changing
 * parts, content, records or scopes is seen by the first on its next read.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../../src/core/vectors.js';
import { openPgliteStore, openPostgresStore, type PostgresStore } from '../../src/storage/postgres/index.js';
import type { PgQueryable } from '../../src/storage/postgres/pg-driver.js';
import { PartBlobCache } from '../../src/storage/postgres/pg-parts.js';
import { makeRecord, seededVector } from '../contract/store-fixtures.js';
import { closeSharedPglite, dropPgSchema, pgTestUrl, sharedPglite, uniqueSchema, withSchema } from '../helpers/postgres.js';

const DIM = 8;
const A = 'acme/a';
const B = 'acme/b';
const EMBEDDING = { name: 'hash:8', dimension: DIM };

function unit(seed: number): Float32Array {
  const v = seededVector(DIM, seed);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Two stores over one schema, as two server processes; `close` drops the schema. */
type Pair = { first: PostgresStore; second: PostgresStore; close: () => Promise<void> };

const backends: Array<[string, (() => Promise<Pair>) | undefined]> = [
  [
    'PGlite',
    async () => {
      const pglite = await sharedPglite();
      const schema = uniqueSchema('pc');
      const first = await openPgliteStore({ pglite, schema, embedding: EMBEDDING });
      const second = await openPgliteStore({ pglite, schema, embedding: EMBEDDING });
      return { first, second, close: async () => (await second.close(), await first.close()) };
    },
  ],
  [
    'PostgreSQL server',
    pgTestUrl() === undefined
      ? undefined
      : async () => {
          const base = pgTestUrl() as string;
          const schema = uniqueSchema('pc');
          const first = await openPostgresStore({ url: withSchema(base, schema), embedding: EMBEDDING });
          const second = await openPostgresStore({ url: withSchema(base, schema), embedding: EMBEDDING });
          return {
            first,
            second,
            close: async () => {
              await second.close();
              await first.close();
              await dropPgSchema(base, schema);
            },
          };
        },
  ],
];

afterAll(closeSharedPglite);

for (const [name, open] of backends) {
  describe.skipIf(open === undefined)(`PostgreSQL part-blob cache (${name})`, () => {
    const insert = async (store: PostgresStore, scope: string, count: number) => {
      const records = Array.from({ length: count }, () => makeRecord({ scope }));
      await store.transaction((tx) => tx.insertMemories(records.map((record, i) => ({ record, embedding: seededVector(DIM, i + 1) }))));
      return records;
    };
    const setParts = (store: PostgresStore, record: { id: string; scope: string; content: string }, parts: Float32Array[]) =>
      store.transaction((tx) => tx.setPartVectors([{ id: record.id, scope: record.scope, content: record.content, parts }]));

    it('reads blobs once, then only the generations, until a change to the scope; never across scopes', async () => {
      const pair = await open!();
      try {
        const [one, two] = await insert(pair.first, A, 2);
        await setParts(pair.first, one!, [unit(1), unit(2)]);
        await pair.first.withDriver(async (db, tables) => {
          const statements: string[] = [];
          const counting: PgQueryable = {
            query: (sql, params) => (statements.push(sql.includes('parts_generation') ? 'generation' : 'blobs'), db.query(sql, params)),
            exec: (sql) => db.exec(sql),
          };
          const cache = new PartBlobCache();
          const read = (scopes: string[]) => cache.read(counting, tables, { scopes, ids: [one!.id, two!.id, 'missing'] });
          const first = await read([A]);
          expect([...first.keys()]).toEqual([one!.id]);
          expect(statements.splice(0)).toEqual(['generation', 'blobs']);
          // held: the record with parts and the one without; only the unknown id is asked again
          expect([...(await read([A])).keys()]).toEqual([one!.id]);
          expect(statements.splice(0)).toEqual(['generation', 'blobs']);
          const known = (scopes: string[]) => cache.read(counting, tables, { scopes, ids: [one!.id, two!.id] });
          expect((await known([A])).get(one!.id)).toEqual(first.get(one!.id));
          expect(statements.splice(0)).toEqual(['generation']);
          // another scope never gets them, and its read does not disturb this scope's
          expect((await known([B])).size).toBe(0);
          expect(statements.splice(0)).toEqual(['generation', 'blobs']);
          // a change by another process raises the generation: read again, new blobs
          await setParts(pair.second, two!, [unit(3), unit(4)]);
          expect([...(await known([A])).keys()].sort()).toEqual([one!.id, two!.id].sort());
          expect(statements.splice(0)).toEqual(['generation', 'blobs']);
          expect((await known([A])).size).toBe(2);
          expect(statements.splice(0)).toEqual(['generation']);
        });
      } finally {
        await pair.close();
      }
    });

    it("follows another process's replaced parts, content edits, deletes and reembed resets", async () => {
      const pair = await open!();
      try {
        const [one, two, three] = await insert(pair.first, A, 3);
        const ids = [one!.id, two!.id, three!.id];
        const query = unit(10);
        const scores = () => pair.first.partScores({ scopes: [A], ids, vector: query });
        for (const record of [one, two, three]) await setParts(pair.second, record!, [unit(10), unit(11)]);
        expect([...(await scores()).values()].map((s) => Number(s.toFixed(2)))).toEqual([1, 1, 1]);
        await setParts(pair.second, one!, [unit(12), unit(13)]);
        expect((await scores()).get(one!.id)).toBeCloseTo(
          Math.max(cosineSimilarity(unit(12), query), cosineSimilarity(unit(13), query)),
          2,
        );
        await pair.second.transaction((tx) =>
          tx.updateMemory(two!.id, A, { content: 'edited. now two sentences.', updatedAt: two!.updatedAt + 1 }),
        );
        expect((await scores()).has(two!.id)).toBe(false);
        await pair.second.transaction((tx) => tx.deleteMemories([three!.id], A));
        expect((await scores()).has(three!.id)).toBe(false);
        expect((await scores()).has(one!.id)).toBe(true);
        // a model switch drops every part
        await pair.second.withDriver(async (db, tables) => db.exec(`DELETE FROM ${tables.q('memory_parts')}`));
        expect((await scores()).size).toBe(0);
        // and a TRUNCATE (a tool emptying the table) is seen too
        await setParts(pair.second, one!, [unit(10), unit(14)]);
        expect((await scores()).size).toBe(1);
        await pair.second.withDriver(async (db, tables) => db.exec(`TRUNCATE ${tables.q('memory_parts')}`));
        expect((await scores()).size).toBe(0);
      } finally {
        await pair.close();
      }
    });

    it('a record moved to another scope leaves the first scope and its parts follow it', async () => {
      const pair = await open!();
      try {
        const [moved] = await insert(pair.first, A, 1);
        await setParts(pair.first, moved!, [unit(20), unit(21)]);
        const read = (scope: string) => pair.first.partScores({ scopes: [scope], ids: [moved!.id], vector: unit(20) });
        expect((await read(A)).size).toBe(1);
        expect((await read(B)).size).toBe(0);
        // no API moves a record; a direct update stands for any tool that does
        await pair.second.withDriver(async (db, tables) =>
          db.query(`UPDATE ${tables.memories} SET scope = $1 WHERE id = $2`, [B, moved!.id]),
        );
        expect((await read(A)).size).toBe(0);
        expect((await read(B)).size).toBe(1);
      } finally {
        await pair.close();
      }
    });

    it('lets everything go past its budget, and still answers right', async () => {
      const pair = await open!();
      try {
        const records = await insert(pair.first, A, 6);
        for (const [i, record] of records.entries()) await setParts(pair.first, record, [unit(30 + i), unit(40 + i)]);
        await pair.first.withDriver(async (db, tables) => {
          const small = new PartBlobCache(100);
          const ids = records.map((r) => r.id);
          const direct = await new PartBlobCache().read(db, tables, { scopes: [A], ids });
          for (let round = 0; round < 3; round++) expect(await small.read(db, tables, { scopes: [A], ids })).toEqual(direct);
        });
      } finally {
        await pair.close();
      }
    });
  });
}
