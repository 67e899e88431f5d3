/**
 * SQLite's belief intervals (`memory_beliefs`): kept when a patch changes a record's validity, read by
 * `knownAt` reads, dumped and restored, deleted with their record by a trigger (migration 30), so a
 * purge by any process, one that knows no intervals included, takes them.
 */
import { endedBeliefs, type BeliefInterval, type StoredBelief } from '../../core/memory.js';
import type { MemoryPatch } from '../../core/ports/store.js';
import { assertReadScopes, assertScope, type Scope } from '../../core/scope.js';
import { BELIEF_COLUMNS, beliefsById, changesValidity, patchedValidity, type BeliefRow } from '../belief-rows.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { BELIEFS_TABLE, inList } from './sqlite-rows.js';

/**
 * Migration 30: the intervals left by records already deleted go, and a record's go with it from now on.
 * Ids are unique across scopes, so the id alone names a record's intervals.
 */
export const BELIEFS_ON_DELETE_SQL = `
  DELETE FROM ${BELIEFS_TABLE} WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = ${BELIEFS_TABLE}.memory_id);
  CREATE TRIGGER memories_beliefs_delete AFTER DELETE ON memories BEGIN
    DELETE FROM ${BELIEFS_TABLE} WHERE memory_id = old.id;
  END;
`;

const INSERT_BELIEF_SQL = `INSERT OR IGNORE INTO ${BELIEFS_TABLE} (${BELIEF_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`;

interface ValidityRow {
  valid_from: number;
  valid_to: number | null;
  invalidated_at: number | null;
  recorded_at: number;
  known_from: number | null;
}

/**
 * Before `patch` applies to record `id` of `scope`: keeps the belief it ends (what the store believed
 * of the record's validity since its last change), so `knownAt` reads of before `patch.updatedAt` still
 * answer it. Call inside the write that applies the patch.
 */
export function keepEndedBeliefs(connection: SqliteConnection, id: string, scope: Scope, patch: MemoryPatch): void {
  if (!changesValidity(patch)) return;
  const row = connection.get<ValidityRow>(
    `SELECT valid_from, valid_to, invalidated_at, recorded_at,
       (SELECT max(known_to) FROM ${BELIEFS_TABLE} b WHERE b.memory_id = m.id) AS known_from
     FROM memories m WHERE id = ? AND scope = ?`,
    id,
    scope,
  );
  if (row === undefined) return;
  const before = { validFrom: row.valid_from, validTo: row.valid_to, invalidatedAt: row.invalidated_at };
  for (const b of endedBeliefs(before, patchedValidity(before, patch), row.known_from ?? row.recorded_at, patch.updatedAt))
    connection.run(INSERT_BELIEF_SQL, id, scope, b.validFrom, b.validTo, b.knownFrom, b.knownTo);
}

/** The belief intervals of records `ids` in `scopes`, oldest first; records without one are absent. */
export function getBeliefs(connection: SqliteConnection, ids: readonly string[], scopes: readonly Scope[]): Map<string, BeliefInterval[]> {
  assertReadScopes(scopes);
  if (ids.length === 0) return new Map();
  return beliefsById(
    connection.all<BeliefRow>(
      `SELECT ${BELIEF_COLUMNS} FROM ${BELIEFS_TABLE} WHERE ${inList('memory_id')} AND ${inList('scope')} ORDER BY memory_id, known_to`,
      JSON.stringify(ids),
      JSON.stringify(scopes),
    ),
  );
}

/** The belief intervals of `scopes` that ended after `knownAt`, by record: what `visibleAsBelieved` needs for a read at `knownAt`. */
export function beliefsEndingAfter(connection: SqliteConnection, scopes: readonly Scope[], knownAt: number): Map<string, BeliefInterval[]> {
  return beliefsById(
    connection.all<BeliefRow>(
      `SELECT ${BELIEF_COLUMNS} FROM ${BELIEFS_TABLE} WHERE ${inList('scope')} AND known_to > ? ORDER BY memory_id, known_to`,
      JSON.stringify(scopes),
      knownAt,
    ),
  );
}

/** Whether any record of `scopes` changed its validity after `knownAt` (so a `knownAt` read must consult the intervals). */
export function changedAfter(connection: SqliteConnection, scopes: readonly Scope[], knownAt: number): boolean {
  return (
    connection.get(`SELECT 1 FROM ${BELIEFS_TABLE} WHERE ${inList('scope')} AND known_to > ? LIMIT 1`, JSON.stringify(scopes), knownAt) !==
    undefined
  );
}

/** Inserts belief intervals as given, each only where its record is stored in its scope; one already stored is left. Returns how many were inserted. */
export function restoreBeliefs(connection: SqliteConnection, beliefs: readonly StoredBelief[]): number {
  let inserted = 0;
  for (const b of beliefs) {
    assertScope(b.scope);
    inserted += connection.run(
      `INSERT OR IGNORE INTO ${BELIEFS_TABLE} (${BELIEF_COLUMNS})
       SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM memories WHERE id = ? AND scope = ?)`,
      b.memoryId,
      b.scope,
      b.validFrom,
      b.validTo,
      b.knownFrom,
      b.knownTo,
      b.memoryId,
      b.scope,
    );
  }
  return inserted;
}

/** Deletes the belief intervals of records `ids` of `scope` whose rows stay (expiry); a deleted row's go by trigger. */
export function deleteBeliefs(connection: SqliteConnection, ids: readonly string[], scope: Scope): void {
  if (ids.length > 0) connection.run(`DELETE FROM ${BELIEFS_TABLE} WHERE scope = ? AND ${inList('memory_id')}`, scope, JSON.stringify(ids));
}
