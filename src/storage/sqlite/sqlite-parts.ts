/**
 * Part vectors in SQLite: `memory_parts` holds one blob a record (`part-vectors.ts`), `parts_pending`
 * the records still to be answered. Triggers of migration 24 keep both right on every write path: a
 * record inserted is pending, a content change drops its parts and makes it pending again, a delete
 * drops both.
 */
import type { PartsCandidate, PartVectors } from '../../core/ports/store.js';
import type { Scope } from '../../core/scope.js';
import { encodePartVectors } from '../part-vectors.js';
import { toCandidate, type CandidateRow } from '../staging-rows.js';
import type { ReadCache } from './read-cache.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { inList } from './sqlite-rows.js';

/** Migration 24: the tables and the triggers; every record stored before it is pending. */
export const PARTS_SCHEMA_SQL = `
  CREATE TABLE memory_parts (memory_rowid INTEGER PRIMARY KEY, parts BLOB NOT NULL);
  CREATE TABLE parts_pending (memory_rowid INTEGER PRIMARY KEY);
  INSERT INTO parts_pending (memory_rowid) SELECT rowid FROM memories;
  CREATE TRIGGER memories_parts_insert AFTER INSERT ON memories BEGIN
    INSERT OR IGNORE INTO parts_pending (memory_rowid) VALUES (new.rowid);
  END;
  CREATE TRIGGER memories_parts_content AFTER UPDATE OF content ON memories WHEN old.content IS NOT new.content BEGIN
    DELETE FROM memory_parts WHERE memory_rowid = new.rowid;
    INSERT OR IGNORE INTO parts_pending (memory_rowid) VALUES (new.rowid);
  END;
  CREATE TRIGGER memories_parts_delete AFTER DELETE ON memories BEGIN
    DELETE FROM memory_parts WHERE memory_rowid = old.rowid;
    DELETE FROM parts_pending WHERE memory_rowid = old.rowid;
  END;
`;

/** After a switch to another model: every part is of the old one, so all go and every record is pending. */
export const PARTS_RESET_SQL = `
  DELETE FROM memory_parts;
  INSERT OR IGNORE INTO parts_pending (memory_rowid) SELECT rowid FROM memories;
`;

/**
 * The stored part blobs of those of `ids` in `scopes`, by id. With a read cache that is on, each id's
 * blob (or its having none) is remembered until the next commit and only the ids not held are read:
 * reading ~260 blobs was two thirds of a LoCoMo recall's SQL time (2.1 of 3.4 ms).
 */
export function readPartBlobs(
  connection: SqliteConnection,
  scopes: readonly Scope[],
  ids: readonly string[],
  cache?: ReadCache,
): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  if (ids.length === 0 || scopes.length === 0) return out;
  const held = cache?.active === true ? cache : undefined;
  held?.sync(connection);
  const group = `parts\u0000${JSON.stringify(scopes)}`;
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const blob = held?.answer<Uint8Array>(group, id);
    if (blob === undefined) missing.push(id);
    else if (blob.length > 0) out.set(id, blob);
  }
  if (missing.length === 0) return out;
  const rows = connection.all<{ id: string; parts: Uint8Array }>(
    `SELECT m.id AS id, p.parts AS parts FROM memories m JOIN memory_parts p ON p.memory_rowid = m.rowid
     WHERE ${inList('m.id')} AND ${inList('m.scope')}`,
    JSON.stringify(missing),
    JSON.stringify(scopes),
  );
  for (const row of rows) out.set(row.id, row.parts);
  // an id with no row (no parts, another scope, gone) is remembered as having none
  if (held !== undefined) for (const id of missing) held.remember(group, id, out.get(id) ?? NO_PARTS);
  return out;
}

const NO_PARTS = new Uint8Array(0);

/** Stores the entries whose record still has their content (all checked before any is written); returns how many. */
export function writePartVectors(connection: SqliteConnection, entries: readonly PartVectors[], dimension: number): number {
  const blobs = entries.map((entry) => encodePartVectors(entry.parts, dimension));
  let answered = 0;
  entries.forEach((entry, index) => {
    const row = connection.get<{ rowid: number }>(
      'SELECT rowid FROM memories WHERE id = ? AND scope = ? AND content = ?',
      entry.id,
      entry.scope,
      entry.content,
    );
    if (row === undefined) return;
    if (entry.parts.length > 0) {
      connection.run('INSERT OR REPLACE INTO memory_parts (memory_rowid, parts) VALUES (?, ?)', row.rowid, blobs[index]);
    } else connection.run('DELETE FROM memory_parts WHERE memory_rowid = ?', row.rowid);
    connection.run('DELETE FROM parts_pending WHERE memory_rowid = ?', row.rowid);
    answered += 1;
  });
  return answered;
}

export function readPendingParts(connection: SqliteConnection, scopes: readonly Scope[] | 'all', limit: number): PartsCandidate[] {
  const n = Math.max(1, Math.floor(limit));
  const select = `SELECT m.id AS id, m.scope AS scope, m.layer AS layer, m.content AS content, m.data AS data
    FROM parts_pending p JOIN memories m ON m.rowid = p.memory_rowid`;
  const rows =
    scopes === 'all'
      ? connection.all<CandidateRow & { scope: string }>(`${select} ORDER BY p.memory_rowid LIMIT ?`, n)
      : connection.all<CandidateRow & { scope: string }>(
          `${select} WHERE ${inList('m.scope')} ORDER BY p.memory_rowid LIMIT ?`,
          JSON.stringify(scopes),
          n,
        );
  return rows.map((row) => ({ ...toCandidate(row), scope: row.scope }));
}

export function countPendingParts(connection: SqliteConnection, scopes: readonly Scope[]): number {
  if (scopes.length === 0) return 0;
  return (
    connection.get<{ n: number }>(
      `SELECT count(*) AS n FROM parts_pending p JOIN memories m ON m.rowid = p.memory_rowid WHERE ${inList('m.scope')}`,
      JSON.stringify(scopes),
    )?.n ?? 0
  );
}
