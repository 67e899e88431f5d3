/**
 * Source keys: the JSON-array encoding, and the SQLite migration that rewrites keys of the first
 * (NUL-joined) encoding so re-ingesting a source written before it stays idempotent.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceKeyOf, upgradeSourceKey } from '../../src/core/write/new-record.js';
import { Engram } from '../../src/index.js';
import { LATEST_VERSION } from '../../src/storage/sqlite/sqlite-migrations.js';
import { tempDir } from '../helpers/temp.js';

describe('sourceKeyOf', () => {
  it('holds no NUL character and tells apart sources whose parts would join alike', () => {
    const keys = [
      sourceKeyOf({ conversationId: 'a', messageId: 'b,c' }),
      sourceKeyOf({ conversationId: 'a,b', messageId: 'c' }),
      sourceKeyOf({ conversationId: 'a"', messageId: '"b' }),
      sourceKeyOf({ conversationId: 'a', messageId: '"b' }),
      sourceKeyOf({ uri: 'file:///notes.md', messageId: '1' }),
      sourceKeyOf({ conversationId: '会話 🚀', messageId: 'مرحبا' }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).not.toContain('\u0000');
    expect(sourceKeyOf({ conversationId: 'c-1', messageId: 'm-7' })).toBe('["c-1","m-7"]');
    expect(sourceKeyOf({ conversationId: 'c-1' })).toBeNull();
    expect(sourceKeyOf(undefined)).toBeNull();
  });

  it('maps a key of the first encoding to the key the same source has now', () => {
    expect(upgradeSourceKey('c-1\u0000m-7')).toBe(sourceKeyOf({ conversationId: 'c-1', messageId: 'm-7' }));
    expect(upgradeSourceKey('会話 🚀\u0000مرحبا')).toBe(sourceKeyOf({ conversationId: '会話 🚀', messageId: 'مرحبا' }));
    expect(upgradeSourceKey('["c-1","m-7"]')).toBe('["c-1","m-7"]');
  });
});

describe('SQLite migration of NUL-joined source keys', () => {
  let dir: string;
  let cleanup: () => void;
  let path: string;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    path = join(dir, 'engram.db');
  });
  afterEach(() => cleanup());

  const scope = 'acme/hooks';
  const sources = [
    { conversationId: 'session-1', messageId: 'uuid-1' },
    { conversationId: '会話 🚀', messageId: 'مرحبا' },
  ];

  /** Writes sourced episodes, then turns the file back into one written before the migration. */
  async function legacyFile(): Promise<string[]> {
    const engram = await Engram.open({ path, embedder: 'hash' });
    const ids: string[] = [];
    for (const [i, source] of sources.entries())
      ids.push((await engram.remember({ scope, content: `turn ${i} of the session`, source })).id);
    await engram.close();
    const raw = new Database(path);
    try {
      const legacy = raw.prepare('UPDATE memories SET source_key = ? WHERE id = ?');
      for (const [i, source] of sources.entries()) legacy.run(`${source.conversationId}\u0000${source.messageId}`, ids[i]);
      raw.prepare('DELETE FROM schema_migrations WHERE version = 7').run();
    } finally {
      raw.close();
    }
    return ids;
  }

  it('rewrites every legacy key on open, and re-ingesting the same source is still idempotent', async () => {
    const ids = await legacyFile();
    const engram = await Engram.open({ path, embedder: 'hash' });
    try {
      for (const [i, source] of sources.entries()) {
        const again = await engram.remember({ scope, content: `turn ${i} of the session, sent again`, source });
        expect(again).toMatchObject({ id: ids[i], action: 'unchanged' });
      }
    } finally {
      await engram.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      const rows = raw.prepare('SELECT source_key FROM memories ORDER BY rowid').all() as { source_key: string }[];
      expect(rows.map((r) => r.source_key)).toEqual(sources.map((s) => sourceKeyOf(s)));
      expect(raw.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: LATEST_VERSION });
    } finally {
      raw.close();
    }
  });
});
