/**
 * After a reembed of a SQLite store whose scope is large enough for the HNSW index, the index is
 * rebuilt for the new model before the run ends (under its lease), and searches use it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { runReembed } from '../../src/core/reembed/index.js';
import { loadUsearch } from '../../src/storage/sqlite/ann/ann-library.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { tempDir } from '../helpers/temp.js';

const usearchProblem = (await loadUsearch()) === undefined ? 'the optional dependency usearch does not load here' : null;
const SCOPE = 'acme/large';
const silent = { info: () => undefined, warn: () => undefined };

describe.skipIf(usearchProblem !== null)(
  `reembed rebuilds the HNSW index${usearchProblem === null ? '' : ` (skipped: ${usearchProblem})`}`,
  { timeout: 60_000 },
  () => {
    it('for the new model, before the run returns', async () => {
      const { dir, cleanup } = tempDir();
      const path = join(dir, 'engram.db');
      const open = (embedder: HashEmbedder): Promise<SqliteStore> =>
        openSqliteStore({
          path,
          embedding: { name: embedder.name, dimension: embedder.dimension },
          memoryIndexThreshold: 100,
          memoryIndexWarmup: 0,
          vectorIndex: 'hnsw',
          logger: silent,
        });
      const source = new HashEmbedder();
      const target = new HashEmbedder({ dimension: 64 });
      const store = await open(source);
      const engram = new Engram({ store, embedder: source });
      let moved: SqliteStore | undefined;
      try {
        await engram.remember(
          Array.from({ length: 300 }, (_, i) => ({
            scope: SCOPE,
            content: `Shipment ${i} left warehouse ${i % 9} on a ${['red', 'blue', 'green'][i % 3]} truck.`,
          })),
        );
        expect(await store.prepareVectorIndex([SCOPE])).toEqual([SCOPE]);
        const report = await runReembed(
          {
            store,
            source,
            target,
            owner: 'reembed:test:1:a',
            afterSwitch: async () => {
              moved = await open(target);
              return moved.vectorStaging.rebuildVectorIndex();
            },
          },
          { batchSize: 50 },
        );
        expect(report).toMatchObject({ changed: true, vectors: 300, indexed: [SCOPE] });
        const manifests = readdirSync(`${path}.ann`).filter((f) => f.endsWith('.json'));
        const embedders = manifests.map(
          (f) => (JSON.parse(readFileSync(join(`${path}.ann`, f), 'utf8')) as { embedder: { name: string } }).embedder.name,
        );
        expect(embedders).toContain('hash:64');
        const [query] = await target.embed(['Shipment 42 left warehouse 6 on a red truck.']);
        const hits = await (moved as SqliteStore).vectorSearch({
          scopes: [SCOPE],
          vector: query as Float32Array,
          limit: 1,
          now: Date.now(),
        });
        const [top] = await (moved as SqliteStore).getMemories([hits[0]?.id as string], [SCOPE]);
        expect(top?.content).toContain('Shipment 42 ');
        expect(existsSync(`${path}.ann`)).toBe(true);
      } finally {
        await engram.close();
        await moved?.close();
        cleanup();
      }
    });
  },
);
