/**
 * The engine contract (engine.contract.ts) on every backend: a SQLite file, PGlite with pgvector, and
 * the PostgreSQL server when `ENGRAM_TEST_PG_URL` is set (else skipped, saying so).
 */
import { afterAll, describe, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openPgliteStore, openPostgresStore } from '../../src/storage/postgres/index.js';
import { closeSharedPglite, dropPgSchema, pgTestUrl, PG_SKIP_REASON, sharedPglite, uniqueSchema, withSchema } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';
import { runEngineContract } from './engine.contract.js';

afterAll(closeSharedPglite);

runEngineContract({
  name: 'SQLite file',
  async open(clock) {
    const { engram, cleanup } = await tempEngram({ clock });
    return { engram, cleanup };
  },
});

runEngineContract({
  name: 'PGlite + pgvector',
  async open(clock) {
    const pglite = await sharedPglite();
    const schema = uniqueSchema('e');
    const embedder = new HashEmbedder();
    const store = await openPgliteStore({ pglite, schema, embedding: { name: embedder.name, dimension: embedder.dimension } });
    const engram = new Engram({ store, embedder, clock });
    return {
      engram,
      cleanup: async () => {
        await engram.close();
        await pglite.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      },
    };
  },
});

const url = pgTestUrl();
if (url !== undefined) {
  runEngineContract({
    name: 'PostgreSQL server',
    async open(clock) {
      const schema = uniqueSchema('e');
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({ url: withSchema(url, schema), embedding: { name: embedder.name, dimension: embedder.dimension }, poolSize: 4 });
      const engram = new Engram({ store, embedder, clock });
      return {
        engram,
        cleanup: async () => {
          await engram.close();
          await dropPgSchema(url, schema);
        },
      };
    },
  });
} else {
  describe.skip(`Engine over PostgreSQL server (${PG_SKIP_REASON})`, () => {
    it('runs the engine contract against the PostgreSQL server', () => undefined);
  });
}
