/**
 * The stored mentioned times in SQLite (`../stored-mentions.ts`): the `mentions` column of `memories`
 * (migration 25), NULL while pending, found through a partial index of the pending rows. A trigger
 * (migration 30) makes a row pending again when its text or write time changes, so an edit by any
 * process, one that knows no such column included, is read again.
 */
import type { MentionsCandidate, TimeSpan } from '../../core/ports/store.js';
import { encodeMentions, MENTIONS_COLUMN, wallClockOfData } from '../stored-mentions.js';
import type { Scope } from '../../core/scope.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { inList } from './sqlite-rows.js';

/** The partial index of the rows whose mentioned times are not stored yet. */
export const MENTIONS_PENDING_INDEX = 'memories_mentions_pending';

/**
 * Migration 30: an edit of a row's text or of when it was written (`occurred_at`, else `valid_from`)
 * clears its stored times, whichever process wrote it. Only those columns fire it, so the fill's own
 * `UPDATE … SET mentions` never does.
 */
export const MENTIONS_PENDING_ON_EDIT_SQL = `
  CREATE TRIGGER memories_mentions_pending AFTER UPDATE OF content, occurred_at, valid_from ON memories
  WHEN new.${MENTIONS_COLUMN} IS NOT NULL
    AND (old.content IS NOT new.content OR old.occurred_at IS NOT new.occurred_at OR old.valid_from IS NOT new.valid_from)
  BEGIN
    UPDATE memories SET ${MENTIONS_COLUMN} = NULL WHERE rowid = new.rowid;
  END;
`;

/** Up to `limit` records of `scopes` (every scope for `'all'`) whose mentioned times are not stored yet. */
export function readPendingMentions(connection: SqliteConnection, scopes: readonly Scope[] | 'all', limit: number): MentionsCandidate[] {
  const n = Math.max(1, Math.floor(limit));
  const inScopes = scopes === 'all' ? '' : ` AND ${inList('scope')}`;
  return connection
    .allArrays(
      `SELECT id, scope, content, coalesce(occurred_at, valid_from), data FROM memories INDEXED BY ${MENTIONS_PENDING_INDEX}
       WHERE ${MENTIONS_COLUMN} IS NULL${inScopes} LIMIT ${n}`,
      ...(scopes === 'all' ? [] : [JSON.stringify(scopes)]),
    )
    .map(([id, scope, content, written, data]) => {
      const wallClock = wallClockOfData(data);
      return {
        id: id as string,
        scope: scope as string,
        content: content as string,
        written: Number(written),
        ...(wallClock !== undefined ? { wallClock } : {}),
      };
    });
}

/** How many records of `scopes` wait for their mentioned times (a count of the partial index's entries). */
export function countPendingMentions(connection: SqliteConnection, scopes: readonly Scope[]): number {
  if (scopes.length === 0) return 0;
  return (
    connection.get<{ n: number }>(
      `SELECT count(*) AS n FROM memories INDEXED BY ${MENTIONS_PENDING_INDEX} WHERE ${MENTIONS_COLUMN} IS NULL AND ${inList('scope')}`,
      JSON.stringify(scopes),
    )?.n ?? 0
  );
}

/** Stores each entry's times where its record still has that text and write time; returns how many were stored. */
export function writeMentions(
  connection: SqliteConnection,
  entries: readonly (MentionsCandidate & { mentions: readonly TimeSpan[] })[],
): number {
  let stored = 0;
  for (const entry of entries) {
    stored += connection.run(
      `UPDATE memories SET ${MENTIONS_COLUMN} = ?
       WHERE id = ? AND scope = ? AND content = ? AND coalesce(occurred_at, valid_from) = ? AND ${MENTIONS_COLUMN} IS NULL`,
      encodeMentions(entry.mentions),
      entry.id,
      entry.scope,
      entry.content,
      entry.written,
    );
  }
  return stored;
}
