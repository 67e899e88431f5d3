/**
 * The WAL checkpoint thread (`wal-checkpointer.ts`): past its threshold a file store's checkpoints run
 * on a thread of their own, which keeps up with the writer (the log restarts, so it stays small), the
 * data is all there after a close in the middle of it, a small store never starts it, and a thread that
 * fails gives the writer its own checkpoints back with a warning.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { openConnection } from '../../src/storage/sqlite/sqlite-connection.js';
import { WalCheckpointer, type WalCheckpointUsage } from '../../src/storage/sqlite/wal-checkpointer.js';
import { T0, makeRecord, withVectors } from '../contract/store-fixtures.js';
import { CONTRACT_DIMENSION } from '../contract/store.contract.js';

const EMBEDDING = { name: 'contract', dimension: CONTRACT_DIMENSION };
const SCOPE = 'acme/wal';
const TEXT = 'a paragraph long enough to fill a few pages of the log when many of them are written at once. '.repeat(8);

/** Polls `usage()` until `done` holds (each poll yields to the event loop), failing after 10 s. */
async function until(usage: () => WalCheckpointUsage | undefined, done: (u: WalCheckpointUsage) => boolean): Promise<WalCheckpointUsage> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const now = usage();
    if (now !== undefined && done(now)) return now;
    if (Date.now() > deadline) throw new Error(`the checkpoint thread did not get there: ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('WAL checkpoints on their own thread', () => {
  let dir: string;
  let path: string;
  let store: SqliteStore | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-wal-'));
    path = join(dir, 'engram.db');
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function write(target: SqliteStore, batches: number, size: number, from = 0, text = TEXT): Promise<void> {
    for (let b = 0; b < batches; b++) {
      const records = Array.from({ length: size }, (_, i) =>
        makeRecord({ scope: SCOPE, content: `${from + b * size + i}: ${text}`, occurredAt: T0 + (from + b * size + i) * 1000 }),
      );
      await target.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, records)));
    }
  }

  it('past its threshold, checkpoints after the commits on its thread; the log restarts while the writer pauses', async () => {
    store = await openSqliteStore({ path, embedding: EMBEDDING, walCheckpointThreadBytes: 0 });
    const opened = store;
    expect(opened.walCheckpointUsage?.started).toBe(false);
    // 120 commits with a short pause after each (as an ingest prepares its next batch): the thread
    // catches up meanwhile, so the log starts again from its beginning and stays small
    for (let b = 0; b < 120; b++) {
      await write(opened, 1, 20, b * 20);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const usage = await until(
      () => opened.walCheckpointUsage,
      (u) => u.checkpoints > 0 && u.log === u.checkpointed,
    );
    expect(usage).toMatchObject({ started: true, errors: 0 });
    expect(usage.failure).toBeUndefined();
    // ~2,400 records of ~900 bytes wrote over 1,000 pages: a log that never restarted would hold them
    expect(statSync(`${path}-wal`).size).toBeLessThan(1000 * 4096);
    expect((await opened.stats([SCOPE])).total).toBe(2400);
  });

  it('a writer that never pauses is held by its backstop: the log stops growing at ~10,000 pages', async () => {
    store = await openSqliteStore({ path, embedding: EMBEDDING, walCheckpointThreadBytes: 0 });
    const opened = store;
    // ~55 MB of records in a tight loop: more than the backstop lets the log hold
    await write(opened, 80, 120, 0, TEXT.repeat(6));
    expect(statSync(`${path}-wal`).size).toBeLessThan(11_000 * 4096);
    const usage = await until(
      () => opened.walCheckpointUsage,
      (u) => u.checkpoints > 0,
    );
    expect(usage.errors).toBe(0);
    expect((await opened.stats([SCOPE])).total).toBe(80 * 120);
  }, 60_000);

  it('closing a store whose thread has been checkpointing loses nothing: the reopened store has every record', async () => {
    const first = await openSqliteStore({ path, embedding: EMBEDDING, walCheckpointThreadBytes: 0 });
    await write(first, 40, 25);
    expect(first.walCheckpointUsage?.started).toBe(true);
    await first.close();
    store = await openSqliteStore({ path, embedding: EMBEDDING });
    expect((await store.stats([SCOPE])).total).toBe(1000);
  });

  it('a store whose log stays below the threshold never starts the thread; Infinity never does', async () => {
    store = await openSqliteStore({ path, embedding: EMBEDDING });
    await write(store, 3, 5);
    expect(store.walCheckpointUsage).toMatchObject({ started: false, checkpoints: 0 });
    await store.close();
    store = await openSqliteStore({ path, embedding: EMBEDDING, walCheckpointThreadBytes: Infinity });
    await write(store, 60, 25, 15);
    expect(store.walCheckpointUsage).toMatchObject({ started: false, checkpoints: 0 });
    expect((await store.stats([SCOPE])).total).toBe(1515);
  });

  it('a read-only or in-memory store has none', async () => {
    const writable = await openSqliteStore({ path, embedding: EMBEDDING });
    await write(writable, 1, 2);
    const readonly = await openSqliteStore({ path, embedding: EMBEDDING, readonly: true });
    const memory = await openSqliteStore({ path: ':memory:', embedding: EMBEDDING });
    try {
      expect(readonly.walCheckpointUsage).toBeUndefined();
      expect(memory.walCheckpointUsage).toBeUndefined();
    } finally {
      await Promise.all([readonly.close(), memory.close(), writable.close()]);
    }
  });

  it('a thread that cannot open the database stops with a warning, and the writer checkpoints itself', async () => {
    const writer = await openConnection({ path, readonly: false, busyTimeoutMs: 1000 });
    const warnings: string[] = [];
    // the thread is pointed at a file that does not exist: its connection cannot open
    const checkpointer = new WalCheckpointer({
      path: join(dir, 'missing.db'),
      writer,
      startBytes: 0,
      logger: { info: () => undefined, warn: (message) => warnings.push(message) },
    });
    try {
      writer.exec('CREATE TABLE t (x)');
      await writer.beginImmediate();
      writer.run('INSERT INTO t VALUES (1)');
      writer.commit();
      const usage = await until(
        () => checkpointer.usage,
        (u) => u.failure !== undefined,
      );
      expect(usage.started).toBe(false);
      expect(warnings.join('\n')).toMatch(/checkpoint thread stopped .*the writer checkpoints itself/);
      // SQLite's own threshold again
      expect(writer.get<{ wal_autocheckpoint: number }>('PRAGMA wal_autocheckpoint')?.wal_autocheckpoint).toBe(1000);
      // and later commits do not start another thread
      await writer.beginImmediate();
      writer.run('INSERT INTO t VALUES (2)');
      writer.commit();
      expect(checkpointer.usage.started).toBe(false);
    } finally {
      await checkpointer.close();
      writer.close();
    }
  });

  it('refuses a negative threshold, naming the option', async () => {
    await expect(openSqliteStore({ path, embedding: EMBEDDING, walCheckpointThreadBytes: -1 })).rejects.toThrow(/walCheckpointThreadBytes/);
  });
});
