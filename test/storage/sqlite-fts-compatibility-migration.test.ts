/**
 * Schema migration 29 on a store written before it: FTS5 held content, tags and entities as written
 * (full-width letters and ligatures as their own terms, CJK words spaced in content only), so a query,
 * read in compatibility form (NFKC) like PostgreSQL's lexemes, missed them. Once the store is opened
 * they are found by FTS5 and by the in-memory index alike, and later updates and deletes of the
 * re-indexed rows keep FTS5 consistent.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spaceCjkWords } from '../../src/core/text/index.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { LATEST_VERSION } from '../../src/storage/sqlite/sqlite-migrations.js';
import { DAY, T0, makeRecord, withVectors } from '../contract/store-fixtures.js';
import { CONTRACT_DIMENSION } from '../contract/store.contract.js';
import { tempDir } from '../helpers/temp.js';

const EMBEDDING = { name: 'contract-test:8', dimension: CONTRACT_DIMENSION };
const SCOPE = 'acme/a';
const NOW = T0 + 30 * DAY;

/** Turns a current store into the layout schema 28 wrote: FTS5 given the fields as stored, CJK content spaced. */
function downgradeToSchema28(path: string): void {
  const db = new Database(path);
  try {
    db.exec(`
      DROP TRIGGER memories_fts_insert;
      DROP TRIGGER memories_fts_delete;
      DROP TRIGGER memories_fts_update;
      INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
        SELECT 'delete', rowid, coalesce(lexical_text, content), coalesce(lexical_tags, tags), coalesce(lexical_entities, entities) FROM memories;
    `);
    const rows = db.prepare('SELECT rowid, content FROM memories').all() as { rowid: number; content: string }[];
    const setText = db.prepare('UPDATE memories SET lexical_text = ? WHERE rowid = ?');
    for (const row of rows) setText.run(spaceCjkWords(row.content), row.rowid);
    db.exec(`
      INSERT INTO memories_fts (rowid, content, tags, entities) SELECT rowid, coalesce(lexical_text, content), tags, entities FROM memories;
      CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, content, tags, entities) VALUES (new.rowid, coalesce(new.lexical_text, new.content), new.tags, new.entities);
      END;
      CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
          VALUES ('delete', old.rowid, coalesce(old.lexical_text, old.content), old.tags, old.entities);
      END;
      CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, entities, lexical_text ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
          VALUES ('delete', old.rowid, coalesce(old.lexical_text, old.content), old.tags, old.entities);
        INSERT INTO memories_fts (rowid, content, tags, entities) VALUES (new.rowid, coalesce(new.lexical_text, new.content), new.tags, new.entities);
      END;
      ALTER TABLE memories DROP COLUMN lexical_tags;
      ALTER TABLE memories DROP COLUMN lexical_entities;
      DELETE FROM schema_migrations WHERE version = 29;
    `);
  } finally {
    db.close();
  }
}

function ftsMatches(path: string, word: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?').get(`"${word}"`) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('SQLite migration 29 (full-text search in compatibility form)', () => {
  let temp: { dir: string; cleanup: () => void };
  let path: string;
  const stores: SqliteStore[] = [];
  beforeEach(() => {
    temp = tempDir();
    path = join(temp.dir, 'old.db');
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    temp.cleanup();
  });
  const open = async (threshold: number): Promise<SqliteStore> => {
    const store = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: threshold });
    stores.push(store);
    return store;
  };

  it('re-indexes rows written before it, so FTS5 and the in-memory index find them by their plain words', async () => {
    const records = [
      makeRecord({ scope: SCOPE, content: 'Ｔｅｓｌａ earnings memo for the board' }),
      makeRecord({ scope: SCOPE, content: 'The \ufb01nance report was late again', tags: ['ｈｏｌｉｄａｙ'], entities: ['Ｌｉｓｂｏｎ'] }),
      makeRecord({ scope: SCOPE, content: '昨日、新しいｉＰｈｏｎｅを買った' }),
      makeRecord({ scope: SCOPE, content: '数据库迁移在周五失败了。' }),
      makeRecord({ scope: SCOPE, content: 'The deploy failed on Friday.' }),
    ];
    const [tesla, finance, iphone, migration, deploy] = records.map((r) => r.id);
    const writer = await open(Infinity);
    await writer.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, records)));
    await writer.close();
    stores.length = 0;
    downgradeToSchema28(path);
    // before the migration FTS5 holds the forms as written: the plain words match nothing
    for (const word of ['tesla', 'finance', 'holiday', 'lisbon', 'iphone']) expect(ftsMatches(path, word), word).toBe(0);
    expect(ftsMatches(path, '迁移')).toBe(1);

    const fts = await open(Infinity);
    const indexed = await open(0);
    expect(await indexed.prepareLexicalIndex()).toBe(true);
    const search = async (word: string): Promise<string[]> => {
      const query = { scopes: [SCOPE], now: NOW, limit: 10, terms: [{ term: word }] };
      const hits = await fts.lexicalSearch(query);
      expect(await indexed.lexicalSearch(query), word).toEqual(hits);
      return hits.map((hit) => hit.id);
    };
    expect(await search('tesla')).toEqual([tesla]);
    expect(await search('Ｔｅｓｌａ')).toEqual([tesla]);
    expect(await search('finance')).toEqual([finance]);
    expect(await search('holiday')).toEqual([finance]);
    expect(await search('lisbon')).toEqual([finance]);
    expect(await search('iphone')).toEqual([iphone]);
    expect(await search('迁移')).toEqual([migration]);
    expect(await search('deploy')).toEqual([deploy]);

    // the re-indexed rows' FTS entries are replaced and removed like any other
    await fts.transaction(async (tx) => {
      await tx.updateMemory(tesla!, SCOPE, { content: 'Ｓｐａｃｅｘ launch notes', updatedAt: NOW });
      await tx.deleteMemories([finance!], SCOPE);
    });
    expect(await search('tesla')).toEqual([]);
    expect(await search('spacex')).toEqual([tesla]);
    expect(await search('holiday')).toEqual([]);
    expect(await search('finance')).toEqual([]);

    const migrated = new Database(path);
    try {
      expect(migrated.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: LATEST_VERSION });
      expect(migrated.prepare('SELECT count(*) AS n FROM memories WHERE lexical_text IS NOT NULL').get()).toEqual({ n: 3 });
      for (const word of ['tesla', 'finance', 'holiday', 'lisbon']) expect(ftsMatches(path, word), word).toBe(0);
      expect(() => migrated.exec("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')")).not.toThrow();
    } finally {
      migrated.close();
    }
  });
});
