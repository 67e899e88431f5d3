/**
 * The redaction contract (redact.contract.ts) on a SQLite file (whose bytes are checked after
 * `redact`) and on the PostgreSQL server when `ENGRAM_TEST_PG_URL` is set (else skipped, saying so).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { createRedactor, Engram } from '../../src/index.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { dropPgSchema, pgExec, pgTestUrl, PG_SKIP_REASON, resetEngramSchema, uniqueSchema, withSchema } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { runRedactContract } from './redact.contract.js';

runRedactContract({
  name: 'SQLite file',
  async open(redaction) {
    const { dir, cleanup } = tempDir();
    const path = join(dir, 'engram.db');
    try {
      const engram = await Engram.open({ path, embedder: 'hash', ...(redaction !== undefined ? { redaction } : {}) });
      return {
        engram,
        files: () => [path, `${path}-wal`],
        cleanup: async () => {
          await engram.close();
          cleanup();
        },
      };
    } catch (error) {
      cleanup();
      throw error;
    }
  },
  readFiles: (files) => Buffer.concat(files.filter((f) => existsSync(f)).map((f) => readFileSync(f))),
});

const url = pgTestUrl();
const schema = uniqueSchema('r');
if (url !== undefined) afterAll(() => dropPgSchema(url, schema));
runRedactContract({
  name: 'PostgreSQL server',
  ...(url === undefined ? { skip: PG_SKIP_REASON } : {}),
  async open(redaction) {
    // a bad pattern is refused before a connection is opened
    if (redaction !== undefined) createRedactor(redaction);
    const embedder = new HashEmbedder();
    const store = await openPostgresStore({
      url: withSchema(url as string, schema),
      embedding: { name: embedder.name, dimension: embedder.dimension },
      poolSize: 2,
    });
    const engram = new Engram({ store, embedder, ...(redaction !== undefined ? { redaction } : {}) });
    return {
      engram,
      cleanup: async () => {
        await engram.close();
        await resetEngramSchema((sql) => pgExec(url as string, sql), schema);
      },
    };
  },
});
