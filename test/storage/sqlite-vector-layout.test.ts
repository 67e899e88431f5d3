/**
 * The vector table's layout (`src/storage/sqlite/vector-table.ts`): sqlite-vec allocates a scope's
 * vectors a chunk at a time, so a store of many small scopes (one per user, say) paid for 1,024 slots a
 * scope. New stores use chunks of 32 with an index on the chunks' partition; an existing store in the
 * old layout is moved on its first open under schema 23, keeping every rowid and vector.
 */
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runReembed } from '../../src/core/reembed/index.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { relayoutPays } from '../../src/storage/sqlite/sqlite-migrations.js';
import { VECTOR_CHUNK_SIZE } from '../../src/storage/sqlite/vector-table.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function openRaw(path: string): Database.Database {
  const db = new Database(path);
  sqliteVec.load(db);
  return db;
}

/**
 * Puts a store's 256-d vector table back in the layout before schema 23 (sqlite-vec's default chunks of
 * 1,024, no partition index); `unmigrated` also forgets that schema 23 was applied.
 */
function toOldLayout(path: string, options: { unmigrated: boolean }): void {
  const db = openRaw(path);
  try {
    db.exec(`
      CREATE TEMP TABLE kept AS SELECT rowid AS r, scope, embedding FROM memory_vectors;
      DROP TABLE memory_vectors;
      CREATE VIRTUAL TABLE memory_vectors USING vec0 (scope TEXT PARTITION KEY, embedding FLOAT[256] distance_metric=cosine);
      INSERT INTO memory_vectors (rowid, scope, embedding) SELECT r, scope, embedding FROM temp.kept;
    `);
    if (options.unmigrated) db.exec('DELETE FROM schema_migrations WHERE version = 23');
  } finally {
    db.close();
  }
}

interface Layout {
  readonly definition: string;
  readonly chunks: number;
  readonly chunkBytes: number;
  readonly partitionIndex: boolean;
  readonly vectors: Map<number, string>;
}

function layoutOf(path: string): Layout {
  const db = openRaw(path);
  try {
    const definition = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'memory_vectors'").get() as { sql: string }).sql;
    const { chunks, bytes } = db
      .prepare('SELECT count(*) AS chunks, sum(length(vectors)) AS bytes FROM memory_vectors_vector_chunks00')
      .get() as {
      chunks: number;
      bytes: number;
    };
    const partitionIndex = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'memory_vectors_chunks_partition'").get() !== undefined;
    const vectors = new Map(
      (
        db.prepare('SELECT rowid, scope, hex(embedding) AS hex FROM memory_vectors').all() as {
          rowid: number;
          scope: string;
          hex: string;
        }[]
      ).map((row) => [row.rowid, `${row.scope}:${row.hex}`]),
    );
    return { definition, chunks, chunkBytes: bytes, partitionIndex, vectors };
  } finally {
    db.close();
  }
}

async function storeOfSmallScopes(path: string, scopes: number): Promise<string[]> {
  const engram = await Engram.open({ path, embedder: 'hash' });
  try {
    const written = await engram.remember(
      Array.from({ length: scopes * 2 }, (_, i) => ({
        scope: `acme/user-${i % scopes}`,
        content: i < scopes ? `User ${i} keeps a sourdough starter named Bubbles.` : `User ${i - scopes} cycles to work on Tuesdays.`,
      })),
    );
    return written.map((w) => w.id);
  } finally {
    await engram.close();
  }
}

describe('the vector table', () => {
  it('gives a new store chunks of 32, so a small scope takes 32 slots, not 1,024', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'engram.db');
    await storeOfSmallScopes(path, 120);
    const layout = layoutOf(path);
    expect(layout.definition).toMatch(new RegExp(`chunk_size=${VECTOR_CHUNK_SIZE}`));
    expect(layout.partitionIndex).toBe(true);
    expect(layout.vectors.size).toBe(240);
    // one chunk a scope, each of 32 slots of the hash embedder's 256 float32 values
    expect(layout.chunks).toBe(120);
    expect(layout.chunkBytes).toBe(120 * VECTOR_CHUNK_SIZE * 256 * 4);

    // a scope's vectors are searched on its own partition: the text's own vector comes first
    const engram = await Engram.open({ path, embedder: 'hash' });
    cleanups.push(() => engram.close());
    const text = 'User 77 keeps a sourdough starter named Bubbles.';
    const { hits } = await engram.recall(text, { scopes: ['acme/user-77'], k: 2, weights: { lexical: 0 } });
    expect(hits.map((h) => h.content)).toEqual([text, 'User 77 cycles to work on Tuesdays.']);
    expect(hits[0]?.why.channels.semantic?.score).toBeCloseTo(1, 5);
  });

  it('moves a store in the old layout on its next open, keeping every rowid and vector', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'engram.db');
    const ids = await storeOfSmallScopes(path, 40);
    const before = await (async () => {
      const engram = await Engram.open({ path, embedder: 'hash' });
      try {
        return (await engram.recall('cycles to work', { scopes: ['acme/user-3', 'acme/user-9'], k: 4 })).hits.map((h) => h.id);
      } finally {
        await engram.close();
      }
    })();
    const raw = openRaw(path);
    const changes = (raw.prepare('SELECT count(*) AS n FROM vector_changes').get() as { n: number }).n;
    raw.close();
    // as schema 22 left it, and schema 23 not applied yet
    toOldLayout(path, { unmigrated: true });
    const old = layoutOf(path);
    expect(old.definition).not.toMatch(/chunk_size/);
    expect(old.partitionIndex).toBe(false);
    expect(old.chunkBytes).toBe(40 * 1024 * 256 * 4);

    const engram = await Engram.open({ path, embedder: 'hash' });
    cleanups.push(() => engram.close());
    const moved = layoutOf(path);
    expect(moved.definition).toMatch(new RegExp(`chunk_size=${VECTOR_CHUNK_SIZE}`));
    expect(moved.partitionIndex).toBe(true);
    expect(moved.chunkBytes).toBe(40 * VECTOR_CHUNK_SIZE * 256 * 4);
    expect(moved.vectors).toEqual(old.vectors);
    const check = openRaw(path);
    expect((check.prepare('SELECT count(*) AS n FROM vector_changes').get() as { n: number }).n).toBe(changes);
    check.close();
    expect((await engram.recall('cycles to work', { scopes: ['acme/user-3', 'acme/user-9'], k: 4 })).hits.map((h) => h.id)).toEqual(before);
    // and it keeps taking writes in the new layout
    const added = await engram.remember({ scope: 'acme/user-3', content: 'User 3 bought a cargo bike.' });
    expect(ids).not.toContain(added.id);
    expect((await engram.recall('cargo bike', { scopes: ['acme/user-3'], k: 1 })).hits[0]?.id).toBe(added.id);
  });

  it('moves a store on open only where the copy takes a few seconds: small, or mostly empty chunks', () => {
    expect(relayoutPays(20_000, 20 * 1024)).toBe(true);
    // one scope of 100,000 vectors fills its chunks: the copy (~15 s) would buy little
    expect(relayoutPays(100_000, 98 * 1024)).toBe(false);
    // 2,000 scopes of 20: 2,000 chunks of 1,024 slots for 40,000 vectors
    expect(relayoutPays(40_000, 2_000 * 1024)).toBe(true);
    expect(relayoutPays(40_000, 40 * 1024)).toBe(false);
    // longer copies would keep other processes waiting past their busy timeout, however empty the chunks
    expect(relayoutPays(100_000, 5_000 * 1024)).toBe(false);
  });

  it('is made anew by a reembed, so a store that kept its old chunks moves to the new ones', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, 'engram.db');
    await storeOfSmallScopes(path, 30);
    // the old layout, as a large store keeps it past schema 23
    toOldLayout(path, { unmigrated: false });
    expect(layoutOf(path).definition).not.toMatch(/chunk_size/);
    const source = new HashEmbedder();
    const target = new HashEmbedder({ dimension: 64 });
    const store = await openSqliteStore({ path, embedding: { name: source.name, dimension: source.dimension } });
    try {
      const report = await runReembed({ store, source, target, owner: 'reembed:layout-test:1:a' }, { batchSize: 20 });
      expect(report).toMatchObject({ changed: true, vectors: 60 });
    } finally {
      await store.close();
    }
    const moved = layoutOf(path);
    expect(moved.definition).toMatch(/FLOAT\[64\]/);
    expect(moved.definition).toMatch(new RegExp(`chunk_size=${VECTOR_CHUNK_SIZE}`));
    expect(moved.partitionIndex).toBe(true);
    expect(moved.chunkBytes).toBe(30 * VECTOR_CHUNK_SIZE * 64 * 4);
  });
});
