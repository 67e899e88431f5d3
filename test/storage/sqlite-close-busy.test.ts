/**
 * Closing a store while another process holds the write lock: the access counts it still has to save
 * are best effort, so the close waits a moment and lets them go instead of failing the command that is
 * done (a prompt hook that only read).
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempEngram } from '../helpers/temp.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('SQLite close under another writer', () => {
  it('lets pending access counts go after about a second instead of failing with BUSY; they are saved when the lock is free', async () => {
    const first = await tempEngram();
    cleanups.push(first.cleanup);
    const [note] = await first.engram.remember([{ scope: 't/a', content: 'The spare key is under the blue pot.' }]);
    await first.engram.close();

    const { Engram } = await import('../../src/index.js');
    const reader = await Engram.open({ path: first.path, embedder: 'hash' });
    await reader.recall('spare key', { scopes: ['t/a'] }); // an access, queued
    const other = new Database(first.path);
    other.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    try {
      await expect(reader.close()).resolves.toBeUndefined();
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(5000);

    // with the lock free, a close saves them
    const again = await Engram.open({ path: first.path, embedder: 'hash' });
    cleanups.push(() => again.close());
    await again.recall('spare key', { scopes: ['t/a'] });
    await again.close();
    const check = await Engram.open({ path: first.path, embedder: 'hash' });
    cleanups.push(() => check.close());
    expect((await check.get(note!.id, { scopes: ['t/a'] })).accessCount).toBe(1);
  });
});
