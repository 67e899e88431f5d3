/**
 * The stored mentioned times in PostgreSQL (`../stored-mentions.ts`): the `mentions` column of
 * `memories` (migration 25), NULL while pending, found through a partial index of the pending rows. A
 * trigger (migration 30) makes a row pending again when its text or write time changes, so an edit by
 * any process, one that knows no such column included, is read again.
 */
import type { MentionsCandidate, TimeSpan } from '../../core/ports/store.js';
import { encodeMentions, MENTIONS_COLUMN, wallClockOfData } from '../stored-mentions.js';
import type { Scope } from '../../core/scope.js';
import type { PgQueryable } from './pg-driver.js';
import type { Tables } from './pg-rows.js';

/** Migration 25: the column (NULL in every row: all pending) and the partial index of the pending rows. */
export function mentionsSchemaSql(t: Tables): string {
  return `
    ALTER TABLE ${t.memories} ADD COLUMN ${MENTIONS_COLUMN} text;
    CREATE INDEX memories_mentions_pending ON ${t.memories} (seq) WHERE ${MENTIONS_COLUMN} IS NULL;
  `;
}

/** Migration 27: the stored times of an older date reader (`MENTIONS_VERSION`) are pending again. */
export function mentionsResetSql(t: Tables): string {
  return `UPDATE ${t.memories} SET ${MENTIONS_COLUMN} = NULL WHERE ${MENTIONS_COLUMN} IS NOT NULL`;
}

/**
 * Migration 26: the pending rows by scope too, so a scoped drain and `stats`' count read only their
 * scopes' pending rows (with the index by `seq` alone they walked every scope's, e.g. all of them just
 * after migration 25).
 */
export function mentionsByScopeSql(t: Tables): string {
  return `CREATE INDEX memories_mentions_pending_scope ON ${t.memories} (scope, seq) WHERE ${MENTIONS_COLUMN} IS NULL;`;
}

/**
 * Migration 30: an edit of a row's text or of when it was written (`occurred_at`, else `valid_from`)
 * clears its stored times in the row written, whichever process writes it. Only those columns fire it,
 * so the fill's own `UPDATE … SET mentions` never does.
 */
export function mentionsPendingOnEditSql(t: Tables): string {
  const fn = t.q('mentions_pending_on_edit');
  return `
    CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.${MENTIONS_COLUMN} := NULL;
      RETURN NEW;
    END $$;
    CREATE TRIGGER mentions_pending_on_edit BEFORE UPDATE OF content, occurred_at, valid_from ON ${t.memories}
      FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content OR OLD.occurred_at IS DISTINCT FROM NEW.occurred_at
        OR OLD.valid_from IS DISTINCT FROM NEW.valid_from)
      EXECUTE FUNCTION ${fn}();
  `;
}

/** Up to `limit` records of `scopes` (every scope for `'all'`) whose mentioned times are not stored yet, in write order. */
export async function readPendingMentions(
  db: PgQueryable,
  t: Tables,
  scopes: readonly Scope[] | 'all',
  limit: number,
): Promise<MentionsCandidate[]> {
  const params: unknown[] = [Math.max(1, Math.floor(limit))];
  const inScopes = scopes === 'all' ? '' : ` AND scope = ANY($${params.push([...scopes])}::text[])`;
  const rows = await db.query<{ id: string; scope: string; content: string; written: string | number; data: string }>(
    `SELECT id, scope, content, coalesce(occurred_at, valid_from) AS written, data FROM ${t.memories}
     WHERE ${MENTIONS_COLUMN} IS NULL${inScopes} ORDER BY seq LIMIT $1`,
    params,
  );
  return rows.rows.map((r) => {
    const wallClock = wallClockOfData(r.data);
    return { id: r.id, scope: r.scope, content: r.content, written: Number(r.written), ...(wallClock !== undefined ? { wallClock } : {}) };
  });
}

/** How many records of `scopes` wait for their mentioned times. */
export async function countPendingMentions(db: PgQueryable, t: Tables, scopes: readonly Scope[]): Promise<number> {
  const row = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${t.memories} WHERE ${MENTIONS_COLUMN} IS NULL AND scope = ANY($1::text[])`,
    [[...scopes]],
  );
  return Number(row.rows[0]?.n ?? 0);
}

/** Stores each entry's times where its record still has that text and write time (one statement); returns how many were stored. */
export async function writeMentions(
  db: PgQueryable,
  t: Tables,
  entries: readonly (MentionsCandidate & { mentions: readonly TimeSpan[] })[],
): Promise<number> {
  if (entries.length === 0) return 0;
  const result = await db.query(
    `UPDATE ${t.memories} m SET ${MENTIONS_COLUMN} = u.mentions
     FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[]) AS u (id, scope, content, written, mentions)
     WHERE m.id = u.id AND m.scope = u.scope AND m.content = u.content
       AND coalesce(m.occurred_at, m.valid_from) = u.written AND m.${MENTIONS_COLUMN} IS NULL`,
    [
      entries.map((e) => e.id),
      entries.map((e) => e.scope),
      entries.map((e) => e.content),
      entries.map((e) => e.written),
      entries.map((e) => encodeMentions(e.mentions)),
    ],
  );
  return result.rowCount;
}
