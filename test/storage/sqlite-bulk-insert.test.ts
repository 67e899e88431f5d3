/**
 * The SQLite write path in bulk: `insertMemories` writes many rows per statement, and
 * `recentEmbeddings` finds a scope's newest vectors from the end of the table. Both must give what the
 * row-at-a-time forms gave: every record and vector, in order, all or nothing.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryRecord, NewMemory } from '../../src/core/memory.js';
import { newRecord } from '../../src/core/record-factory.js';
import { isEngramError } from '../../src/core/errors.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { tempDir } from '../helpers/temp.js';

const DIMENSION = 8;
const T0 = Date.UTC(2025, 0, 1);
const MAIN = 'acme/main';
const OTHER = 'acme/other';

/** A unit vector that points mostly along axis `i % DIMENSION`, distinct for every i. */
function vectorOf(i: number): Float32Array {
  const v = new Float32Array(DIMENSION).fill(0.01 * ((i % 7) + 1));
  v[i % DIMENSION] = 1 + i / 1000;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function memory(i: number, scope = MAIN, overrides: Partial<MemoryRecord> = {}): NewMemory {
  const record = {
    ...newRecord({ now: T0 + i, scope, layer: 'episodic', content: `bulk note number ${i} about topic ${i % 5}` }),
    ...overrides,
  };
  return { record, embedding: vectorOf(i) };
}

describe('SQLite bulk writes', () => {
  let cleanup: () => void;
  let store: SqliteStore;
  beforeEach(async () => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    store = await openSqliteStore({ path: join(temp.dir, 'engram.db'), embedding: { name: 'test-bulk', dimension: DIMENSION } });
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  it('writes every record of a large insertMemories call with its vector, searchable inside and after the transaction', async () => {
    const memories = Array.from({ length: 70 }, (_, i) => memory(i));
    const inside = await store.transaction(async (tx) => {
      await tx.insertMemories(memories);
      return tx.vectorSearch({ scopes: [MAIN], now: T0 + 1000, limit: 1, vector: vectorOf(45) });
    });
    expect(inside[0]?.id).toBe(memories[45]?.record.id);
    const stored = await store.getMemories(
      memories.map((m) => m.record.id),
      [MAIN],
    );
    expect(stored.map((r) => r.content)).toEqual(memories.map((m) => m.record.content));
    const embeddings = await store.getEmbeddings(
      MAIN,
      memories.map((m) => m.record.id),
    );
    for (const m of memories) expect([...(embeddings.get(m.record.id) ?? [])]).toEqual([...m.embedding]);
    const hits = await store.lexicalSearch({ scopes: [MAIN], now: T0 + 1000, limit: 100, terms: [{ term: 'bulk' }] });
    expect(hits).toHaveLength(70);
  });

  it('writes nothing of an insertMemories call when one of its rows is refused', async () => {
    await store.transaction((tx) => tx.insertMemories([memory(0)]));
    const taken = (await store.listMemories({ scopes: [MAIN], limit: 10 }))[0] as MemoryRecord;
    const memories = Array.from({ length: 40 }, (_, i) => memory(i + 1));
    // the same id twice: the unique index refuses the 31st row
    memories[30] = { record: { ...(memories[30] as NewMemory).record, id: taken.id }, embedding: vectorOf(31) };
    const failure = await store
      .transaction(async (tx) => {
        await tx.insertMemories(memories);
      })
      .catch((error: unknown) => error);
    expect(isEngramError(failure)).toBe(true);
    expect((await store.stats([MAIN])).total).toBe(1);
  });

  it('reads the newest vectors of a scope newest first, also when other scopes wrote many rows since', async () => {
    const main = Array.from({ length: 40 }, (_, i) => memory(i));
    await store.transaction((tx) => tx.insertMemories(main));
    // more rows of another scope after them than the window walked back from the end
    await store.transaction((tx) => tx.insertMemories(Array.from({ length: 200 }, (_, i) => memory(1000 + i, OTHER))));
    const expected = main
      .slice(-10)
      .reverse()
      .map((m) => [...m.embedding]);
    // 40 rows, fewer than the window for 10 (80): read by the scope's index
    const read = await store.transaction((tx) => tx.recentEmbeddings(MAIN, 10));
    expect(read.map((v) => [...v])).toEqual(expected);
    // more than the window for 4 (32): walked back from the end, where only the other scope's rows are
    const few = await store.transaction((tx) => tx.recentEmbeddings(MAIN, 4));
    expect(few.map((v) => [...v])).toEqual(expected.slice(0, 4));
    // and from the end of the table, with rows just written in the same transaction
    const fresh = Array.from({ length: 12 }, (_, i) => memory(2000 + i));
    const newest = await store.transaction(async (tx) => {
      await tx.insertMemories(fresh);
      return tx.recentEmbeddings(MAIN, 5);
    });
    expect(newest.map((v) => [...v])).toEqual(
      fresh
        .slice(-5)
        .reverse()
        .map((m) => [...m.embedding]),
    );
  });

  it('reads vectors from the part of a chunk that holds them: across two chunks, around tombstoned rows', async () => {
    // 1,100 rows: sqlite-vec's first chunk (1,024 slots) fills and a second begins
    const main = Array.from({ length: 1100 }, (_, i) => memory(i));
    for (let i = 0; i < main.length; i += 275) await store.transaction((tx) => tx.insertMemories(main.slice(i, i + 275)));
    // tombstones inside the newest window, in both chunks: their vectors go, their neighbours' stay
    const gone = new Set([1099, 1050, 1023, 1000, 990]);
    const patch = { content: '', tags: [], entities: [], summary: null, status: 'expired' as const, updatedAt: T0 + 5000 };
    await store.transaction((tx) =>
      tx.tombstoneMemories(
        [...gone].map((i) => ({ id: (main[i] as NewMemory).record.id, patch })),
        MAIN,
      ),
    );
    // the 150 newest rows; a tombstoned row is still a row, but has no vector to give
    const recent = await store.recentEmbeddings(MAIN, 150);
    expect(recent.map((v) => [...v])).toEqual(
      main
        .slice(-150)
        .filter((_, k) => !gone.has(950 + k))
        .reverse()
        .map((m) => [...m.embedding]),
    );
    // rows scattered over both chunks, some tombstoned, read in one call
    const asked = [5, 400, 990, 1000, 1001, 1022, 1023, 1024, 1025, 1098, 1099].map((i) => (main[i] as NewMemory).record.id);
    const embeddings = await store.getEmbeddings(MAIN, asked);
    expect([...embeddings.keys()].sort()).toEqual(
      [5, 400, 1001, 1022, 1024, 1025, 1098].map((i) => (main[i] as NewMemory).record.id).sort(),
    );
    for (const [id, vector] of embeddings) expect([...vector]).toEqual([...(main.find((m) => m.record.id === id) as NewMemory).embedding]);
  });
});
