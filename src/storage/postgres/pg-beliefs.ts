/**
 * PostgreSQL's belief intervals (`memory_beliefs`): kept when a patch changes a record's validity, read
 * by `knownAt` reads, dumped and restored, deleted with their record by triggers (migration 30), so a
 * purge by any process, one that knows no intervals included, takes them.
 */
import { endedBeliefs, type BeliefInterval, type StoredBelief } from '../../core/memory.js';
import type { MemoryPatch } from '../../core/ports/store.js';
import { assertReadScopes, assertScope, type Scope } from '../../core/scope.js';
import { BELIEF_COLUMNS, beliefsById, changesValidity, patchedValidity, type BeliefRow } from '../belief-rows.js';
import type { PgQueryable } from './pg-driver.js';
import type { Tables } from './pg-rows.js';

/**
 * Migration 30: the intervals left by records already deleted go, and from now on a deleted record's
 * go with it (once a statement, through the deleted rows), all of them with a TRUNCATE of the records.
 * The trigger functions live in the schema, so schemas sharing a database keep their own.
 */
export function beliefsOnDeleteSql(t: Tables): string {
  return `
    DELETE FROM ${t.beliefs} b WHERE NOT EXISTS (SELECT 1 FROM ${t.memories} m WHERE m.id = b.memory_id);

    CREATE FUNCTION ${t.q('beliefs_on_memory_delete')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM ${t.beliefs} b USING deleted d WHERE b.memory_id = d.id;
      RETURN NULL;
    END $$;
    CREATE TRIGGER beliefs_on_memory_delete AFTER DELETE ON ${t.memories} REFERENCING OLD TABLE AS deleted
      FOR EACH STATEMENT EXECUTE FUNCTION ${t.q('beliefs_on_memory_delete')}();

    CREATE FUNCTION ${t.q('beliefs_on_memory_truncate')}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM ${t.beliefs};
      RETURN NULL;
    END $$;
    CREATE TRIGGER beliefs_on_memory_truncate AFTER TRUNCATE ON ${t.memories}
      FOR EACH STATEMENT EXECUTE FUNCTION ${t.q('beliefs_on_memory_truncate')}();
  `;
}

interface ValidityRow {
  valid_from: string | number;
  valid_to: string | number | null;
  invalidated_at: string | number | null;
  recorded_at: string | number;
  known_from: string | number | null;
}

const instant = (value: string | number | null): number | null => (value === null ? null : Number(value));

/**
 * Before `patch` applies to record `id` of `scope`: keeps the belief it ends (what the store believed
 * of the record's validity since its last change), so `knownAt` reads of before `patch.updatedAt` still
 * answer it. Call inside the write that applies the patch.
 */
export async function keepEndedBeliefs(db: PgQueryable, t: Tables, id: string, scope: Scope, patch: MemoryPatch): Promise<void> {
  if (!changesValidity(patch)) return;
  const row = (
    await db.query<ValidityRow>(
      `SELECT valid_from, valid_to, invalidated_at, recorded_at,
         (SELECT max(known_to) FROM ${t.beliefs} b WHERE b.memory_id = m.id) AS known_from
       FROM ${t.memories} m WHERE id = $1 AND scope = $2 FOR UPDATE`,
      [id, scope],
    )
  ).rows[0];
  if (row === undefined) return;
  const before = { validFrom: Number(row.valid_from), validTo: instant(row.valid_to), invalidatedAt: instant(row.invalidated_at) };
  const knownFrom = instant(row.known_from) ?? Number(row.recorded_at);
  for (const b of endedBeliefs(before, patchedValidity(before, patch), knownFrom, patch.updatedAt)) {
    await db.query(`INSERT INTO ${t.beliefs} (${BELIEF_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`, [
      id,
      scope,
      b.validFrom,
      b.validTo,
      b.knownFrom,
      b.knownTo,
    ]);
  }
}

/** The belief intervals of records `ids` in `scopes`, oldest first; records without one are absent. */
export async function getBeliefs(
  db: PgQueryable,
  t: Tables,
  ids: readonly string[],
  scopes: readonly Scope[],
): Promise<Map<string, BeliefInterval[]>> {
  const allowed = assertReadScopes(scopes);
  if (ids.length === 0) return new Map();
  const rows = await db.query<BeliefRow>(
    `SELECT ${BELIEF_COLUMNS} FROM ${t.beliefs} WHERE memory_id = ANY($1::text[]) AND scope = ANY($2::text[]) ORDER BY memory_id, known_to`,
    [[...ids], [...allowed]],
  );
  return beliefsById(rows.rows);
}

/** Inserts belief intervals as given, each only where its record is stored in its scope; one already stored is left. Returns how many were inserted. */
export async function restoreBeliefs(db: PgQueryable, t: Tables, beliefs: readonly StoredBelief[]): Promise<number> {
  let inserted = 0;
  for (const b of beliefs) {
    assertScope(b.scope);
    const result = await db.query(
      `INSERT INTO ${t.beliefs} (${BELIEF_COLUMNS})
       SELECT $1, $2, $3::bigint, $4::bigint, $5::bigint, $6::bigint WHERE EXISTS (SELECT 1 FROM ${t.memories} WHERE id = $1 AND scope = $2)
       ON CONFLICT DO NOTHING`,
      [b.memoryId, b.scope, b.validFrom, b.validTo, b.knownFrom, b.knownTo],
    );
    inserted += result.rowCount;
  }
  return inserted;
}

/** Deletes the belief intervals of records `ids` of `scope` whose rows stay (expiry); a deleted row's go by trigger. */
export async function deleteBeliefs(db: PgQueryable, t: Tables, ids: readonly string[], scope: Scope): Promise<void> {
  if (ids.length > 0) await db.query(`DELETE FROM ${t.beliefs} WHERE scope = $1 AND memory_id = ANY($2::text[])`, [scope, [...ids]]);
}
