/**
 * The SQLite read connection's record cache (`record-cache.ts`): records read again come from it, a
 * commit by this store, another store on the same file or another process drops it, the scope rule
 * holds for held records, and the records it hands out cannot be changed by a caller.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { RecordCache } from '../../src/storage/sqlite/record-cache.js';
import { T0, makeRecord, withVectors } from '../contract/store-fixtures.js';
import { CONTRACT_DIMENSION } from '../contract/store.contract.js';

const EMBEDDING = { name: 'contract', dimension: CONTRACT_DIMENSION };

describe('SQLite record cache', () => {
  let dir: string;
  let path: string;
  let store: SqliteStore;
  let other: SqliteStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-record-cache-'));
    path = join(dir, 'engram.db');
    store = await openSqliteStore({ path, embedding: EMBEDDING });
    other = await openSqliteStore({ path, embedding: EMBEDDING });
  });
  afterEach(async () => {
    await Promise.all([store.close(), other.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  async function insert(contents: readonly string[], scope = 'acme/a', thread = 't1'): Promise<string[]> {
    const records = contents.map((content, i) => makeRecord({ scope, content, occurredAt: T0 + i * 1000, data: { context: { sessionId: thread } } }));
    await store.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, records)));
    return records.map((r) => r.id);
  }

  it('hands back the same records without reading them again while nothing is committed', async () => {
    const ids = await insert(['first note', 'second note', 'third note']);
    const first = await store.getMemories(ids, ['acme/a']);
    const second = await store.getMemories([...ids].reverse(), ['acme/a']);
    expect(second.map((r) => r.id)).toEqual([...ids].reverse());
    // the same objects: the second read was answered from the cache
    for (const record of second) expect(first).toContain(record);
    const usage = store.recordCacheUsage;
    expect(usage?.hits).toBe(3);
    expect(usage?.records).toBe(3);
  });

  it('drops what it holds when this store, another store on the file or another process commits', async () => {
    const [id] = await insert(['the kettle is blue']);
    const read = async () => (await store.getMemories([id as string], ['acme/a']))[0]?.content;
    expect(await read()).toBe('the kettle is blue');

    await store.transaction((tx) => tx.updateMemory(id as string, 'acme/a', { content: 'the kettle is red', updatedAt: T0 + 1 }));
    expect(await read()).toBe('the kettle is red');

    await other.transaction((tx) => tx.updateMemory(id as string, 'acme/a', { content: 'the kettle is green', updatedAt: T0 + 2 }));
    expect(await read()).toBe('the kettle is green');

    execFileSync(process.execPath, [
      '-e',
      `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(path)}); db.prepare("UPDATE memories SET content = 'the kettle is black' WHERE id = ?").run(${JSON.stringify(id)}); db.close();`,
    ]);
    expect(await read()).toBe('the kettle is black');
  });

  it('keeps the scope rule for records it holds', async () => {
    const [a] = await insert(['a note of scope a'], 'acme/a');
    const [b] = await insert(['a note of scope b'], 'acme/b');
    expect(await store.getMemories([a as string, b as string], ['acme/a', 'acme/b'])).toHaveLength(2);
    // both are held now; a read naming one scope still gets only that scope's record
    const onlyA = await store.getMemories([a as string, b as string], ['acme/a']);
    expect(onlyA.map((r) => r.id)).toEqual([a]);
    expect(await store.getMemories([b as string], ['acme/c'])).toEqual([]);
  });

  it('hands out frozen records, nested values included', async () => {
    const [id] = await insert(['a frozen note']);
    const [record] = await store.getMemories([id as string], ['acme/a']);
    expect(() => {
      (record as { content: string }).content = 'changed';
    }).toThrow(TypeError);
    expect(record?.data.context?.sessionId).toBe('t1');
    expect(() => {
      (record?.data.context as Record<string, unknown>)['sessionId'] = 't2';
    }).toThrow(TypeError);
    expect(() => (record?.tags as string[]).push('x')).toThrow(TypeError);
    const [again] = await store.getMemories([id as string], ['acme/a']);
    expect(again?.content).toBe('a frozen note');
  });

  it('serves the neighbours of a thread from the records it holds, and reads them again after a commit', async () => {
    const ids = await insert(['one', 'two', 'three', 'four', 'five']);
    await store.getMemories(ids, ['acme/a']);
    const before = store.recordCacheUsage?.hits ?? 0;
    const query = { scopes: ['acme/a'], ids: [ids[2] as string], window: 2, now: T0 + 10_000 };
    const found = await store.getNeighbours(query);
    expect(found.get(ids[2] as string)?.before.map((r) => r.content)).toEqual(['one', 'two']);
    expect(found.get(ids[2] as string)?.after.map((r) => r.content)).toEqual(['four', 'five']);
    expect((store.recordCacheUsage?.hits ?? 0) - before).toBe(4);

    await other.transaction((tx) => tx.updateMemory(ids[3] as string, 'acme/a', { content: 'FOUR', updatedAt: T0 + 1 }));
    const changed = await store.getNeighbours(query);
    expect(changed.get(ids[2] as string)?.after.map((r) => r.content)).toEqual(['FOUR', 'five']);
  });
});

describe('RecordCache limits', () => {
  it('lets the oldest records go past its count or character budget', () => {
    const cache = new RecordCache({ records: 3, chars: 40 });
    const records = ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc', 'dddddddddd'].map((content) => makeRecord({ content }));
    for (const record of records) cache.keep(record);
    expect(cache.usage.records).toBe(3);
    expect(cache.get(records[0]?.id as string)).toBeUndefined();
    expect(cache.get(records[3]?.id as string)?.content).toBe('dddddddddd');
    cache.keep(makeRecord({ content: 'x'.repeat(25) }));
    expect(cache.usage.chars).toBeLessThanOrEqual(40);
    expect(cache.usage.records).toBe(2);
    // a record larger than the whole budget is handed back frozen and not kept
    const huge = cache.keep(makeRecord({ content: 'y'.repeat(41) }));
    expect(Object.isFrozen(huge)).toBe(true);
    expect(cache.usage.records).toBe(2);
  });
});
