/**
 * The exploring reads (engine-explore.contract.ts) on every backend: a SQLite file, PGlite with
 * pgvector, and the PostgreSQL server when `ENGRAM_TEST_PG_URL` is set (else skipped, saying so).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openPgliteStore, openPostgresStore, type PgliteLike } from '../../src/storage/postgres/index.js';
import { closeSharedPglite, dropPgSchema, pgExec, pgTestUrl, PG_SKIP_REASON, resetEngramSchema, sharedPglite, uniqueSchema, withSchema } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';
import { runExploreContract } from './engine-explore.contract.js';

beforeAll(async () => {
  await sharedPglite();
}, 120_000);
afterAll(closeSharedPglite);

runExploreContract({
  name: 'SQLite file',
  open: async (clock) => tempEngram({ clock }),
});

const pgliteSchema = uniqueSchema('x');
afterAll(async () => (await sharedPglite()).query(`DROP SCHEMA IF EXISTS "${pgliteSchema}" CASCADE`));
runExploreContract({
  name: 'PGlite + pgvector',
  async open(clock) {
    const pglite: PgliteLike = await sharedPglite();
    const embedder = new HashEmbedder();
    const store = await openPgliteStore({ pglite, schema: pgliteSchema, embedding: { name: embedder.name, dimension: embedder.dimension } });
    const engram = new Engram({ store, embedder, clock });
    return {
      engram,
      cleanup: async () => {
        await engram.close();
        await resetEngramSchema((sql) => pglite.query(sql), pgliteSchema);
      },
    };
  },
});

const url = pgTestUrl();
if (url !== undefined) {
  const schema = uniqueSchema('x');
  afterAll(() => dropPgSchema(url, schema));
  runExploreContract({
    name: 'PostgreSQL server',
    async open(clock) {
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({ url: withSchema(url, schema), embedding: { name: embedder.name, dimension: embedder.dimension }, poolSize: 4 });
      const engram = new Engram({ store, embedder, clock });
      return {
        engram,
        cleanup: async () => {
          await engram.close();
          await resetEngramSchema((sql) => pgExec(url, sql), schema);
        },
      };
    },
  });
} else {
  describe.skip(`Exploring reads over PostgreSQL server (${PG_SKIP_REASON})`, () => {
    it('runs the explore contract against the PostgreSQL server', () => undefined);
  });
}
