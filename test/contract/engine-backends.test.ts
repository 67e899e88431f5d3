/**
 * The engine contract (engine.contract.ts, with its text part and the exploring reads of
 * engine-explore.contract.ts) on every backend: a SQLite file, PGlite with pgvector, and
 * the PostgreSQL server when `ENGRAM_TEST_PG_URL` is set (else skipped, saying so).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openPgliteStore, openPostgresStore } from '../../src/storage/postgres/index.js';
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
import { runEngineContract, type EngineContractOptions } from './engine.contract.js';
import { runEngineTextContract } from './engine-text.contract.js';
import { runExploreContract } from './engine-explore.contract.js';

// starting PGlite (WASM) takes seconds; do it once, before the first test's clock starts
beforeAll(async () => {
  await sharedPglite();
}, 120_000);
afterAll(closeSharedPglite);

/** The engine contract, its text part and the exploring reads, on one backend. */
function runBoth(options: EngineContractOptions): void {
  runEngineContract(options);
  runEngineTextContract(options);
  runExploreContract(options);
}

runBoth({
  name: 'SQLite file',
  async open(clock) {
    const { engram, cleanup } = await tempEngram({ clock });
    return { engram, cleanup };
  },
});

/** One schema per backend run, emptied after each test (no DDL per test). */
const pgliteSchema = uniqueSchema('e');
afterAll(async () => (await sharedPglite()).query(`DROP SCHEMA IF EXISTS "${pgliteSchema}" CASCADE`));
runBoth({
  name: 'PGlite + pgvector',
  async open(clock) {
    const pglite = await sharedPglite();
    const embedder = new HashEmbedder();
    const store = await openPgliteStore({
      pglite,
      schema: pgliteSchema,
      embedding: { name: embedder.name, dimension: embedder.dimension },
    });
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
  const schema = uniqueSchema('e');
  afterAll(() => dropPgSchema(url, schema));
  runBoth({
    name: 'PostgreSQL server',
    async open(clock) {
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({
        url: withSchema(url, schema),
        embedding: { name: embedder.name, dimension: embedder.dimension },
        poolSize: 4,
      });
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
  describe.skip(`Engine over PostgreSQL server (${PG_SKIP_REASON})`, () => {
    it('runs the engine contract against the PostgreSQL server', () => undefined);
  });
}
