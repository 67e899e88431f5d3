/**
 * Schema migration 14 on a store written before it: Chinese rows indexed as whole runs (one FTS term
 * per run, no lexical_text column) become findable by their words once the store is opened, and
 * English rows keep their FTS terms.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LATEST_VERSION } from '../../src/storage/sqlite/sqlite-migrations.js';
import { describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { tempDir } from '../helpers/temp.js';

/** Turns a current store into the layout schema 13 wrote: raw content in FTS5, no lexical_text. */
function downgradeToSchema13(path: string): void {
  const db = new Database(path);
  try {
    db.exec(`
      DROP TRIGGER memories_fts_insert;
      DROP TRIGGER memories_fts_delete;
      DROP TRIGGER memories_fts_update;
      INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
        SELECT 'delete', rowid, coalesce(lexical_text, content), tags, entities FROM memories;
      INSERT INTO memories_fts (rowid, content, tags, entities) SELECT rowid, content, tags, entities FROM memories;
      CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, content, tags, entities) VALUES (new.rowid, new.content, new.tags, new.entities);
      END;
      CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities) VALUES ('delete', old.rowid, old.content, old.tags, old.entities);
      END;
      CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, entities ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities) VALUES ('delete', old.rowid, old.content, old.tags, old.entities);
        INSERT INTO memories_fts (rowid, content, tags, entities) VALUES (new.rowid, new.content, new.tags, new.entities);
      END;
      ALTER TABLE memories DROP COLUMN lexical_text;
      DELETE FROM schema_migrations WHERE version = 14;
    `);
  } finally {
    db.close();
  }
}

describe('SQLite migration 14 (CJK words in full-text search)', () => {
  it('re-indexes Chinese rows written before it by their words; English rows are found as before', async () => {
    const temp = tempDir();
    const path = join(temp.dir, 'old.db');
    const lexicalOnly = { lexical: 1, semantic: 0, entity: 0, temporal: 0, graph: 0, affect: 0, neighbour: 0 };
    try {
      let engram = await Engram.open({ path, embedder: 'hash' });
      await engram.remember([
        { scope: 'acme/a', content: '数据库迁移在周五失败了。' },
        { scope: 'acme/a', content: 'The deploy failed on Friday.' },
      ]);
      await engram.close();
      downgradeToSchema13(path);

      const old = new Database(path, { readonly: true });
      // before the migration a Chinese run is one FTS term: a word inside it matches nothing
      expect(old.prepare(`SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH '"迁移"'`).get()).toEqual({ n: 0 });
      old.close();

      engram = await Engram.open({ path, embedder: 'hash' });
      try {
        const zh = await engram.recall('迁移', { scopes: ['acme/a'], weights: lexicalOnly });
        expect(zh.hits.filter((hit) => hit.why.channels.lexical !== undefined).map((hit) => hit.content)).toEqual([
          '数据库迁移在周五失败了。',
        ]);
        const en = await engram.recall('deploy', { scopes: ['acme/a'], weights: lexicalOnly });
        expect(en.hits.filter((hit) => hit.why.channels.lexical !== undefined).map((hit) => hit.content)).toEqual([
          'The deploy failed on Friday.',
        ]);
      } finally {
        await engram.close();
      }
      const migrated = new Database(path, { readonly: true });
      expect(migrated.prepare('SELECT version FROM schema_migrations WHERE version = 14').get()).toEqual({ version: 14 });
      expect(migrated.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: LATEST_VERSION });
      expect(migrated.prepare(`SELECT count(*) AS n FROM memories WHERE lexical_text IS NOT NULL`).get()).toEqual({ n: 1 });
      migrated.close();
    } finally {
      temp.cleanup();
    }
  });
});
