/**
 * Context reads of the SQLite store: conversational neighbours (by thread) and time windows.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { ChannelHit, NeighbourQuery, TemporalQuery } from '../../core/ports/store.js';
import { assertReadScopes } from '../../core/scope.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { arrayToMemoryRow, inList, memoryColumns, rowToMemory, visibilityClause } from './sqlite-rows.js';

const COLUMNS = memoryColumns('m');
const MAX_WINDOW = 10;

/** Neighbours of each id in its thread; one indexed range read per side. */
export function readNeighbours(connection: SqliteConnection, query: NeighbourQuery): Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }> {
  const scopes = assertReadScopes(query.scopes);
  const window = Math.max(0, Math.min(MAX_WINDOW, Math.floor(query.window)));
  const result = new Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>();
  if (query.ids.length === 0 || window === 0) return result;
  const anchors = connection.all<{ id: string; scope: string; thread: string; occurred_at: number | null }>(
    `SELECT id, scope, thread, occurred_at FROM memories WHERE ${inList('id')} AND ${inList('scope')} AND thread IS NOT NULL`,
    JSON.stringify(query.ids),
    JSON.stringify(scopes),
  );
  const visibility = visibilityClause(query, query.now, 'm');
  // Thread order: records without an event time first, then by (occurred_at, id). Each side is read as
  // row-value ranges on the (scope, thread, occurred_at, id) index, so it seeks to the anchor instead of
  // scanning and sorting the thread (coalesce() in the comparison kept the index from seeking).
  const read = (timed: boolean, comparison: '<' | '>' | null, order: 'ASC' | 'DESC', after: readonly unknown[], limit: number): MemoryRecord[] => {
    if (limit <= 0) return [];
    const range =
      comparison === null ? '' : timed ? ` AND (m.occurred_at, m.id) ${comparison} (?, ?)` : ` AND m.id ${comparison} ?`;
    return connection
      .allArrays(
        `SELECT ${COLUMNS} FROM memories m
         WHERE m.scope = ? AND m.thread = ? AND m.occurred_at IS ${timed ? 'NOT NULL' : 'NULL'}${range} AND ${visibility.sql}
         ORDER BY m.occurred_at ${order}, m.id ${order} LIMIT ?`,
        ...after,
        ...visibility.params,
        limit,
      )
      .map((row) => rowToMemory(arrayToMemoryRow(row)));
  };
  for (const anchor of anchors) {
    const where = [anchor.scope, anchor.thread];
    let before: MemoryRecord[];
    let after: MemoryRecord[];
    if (anchor.occurred_at !== null) {
      const timedBefore = read(true, '<', 'DESC', [...where, anchor.occurred_at, anchor.id], window);
      before = [...timedBefore, ...read(false, null, 'DESC', where, window - timedBefore.length)];
      after = read(true, '>', 'ASC', [...where, anchor.occurred_at, anchor.id], window);
    } else {
      before = read(false, '<', 'DESC', [...where, anchor.id], window);
      const untimedAfter = read(false, '>', 'ASC', [...where, anchor.id], window);
      after = [...untimedAfter, ...read(true, null, 'ASC', where, window - untimedAfter.length)];
    }
    result.set(anchor.id, { before: before.reverse(), after });
  }
  return result;
}

/** Records whose event time falls in the window, most recent first. */
export function readTemporal(connection: SqliteConnection, query: TemporalQuery): ChannelHit[] {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0) || query.layers?.length === 0 || !(query.end > query.start)) return [];
  const visibility = visibilityClause(query, query.now, 'm');
  const layers = query.layers === undefined ? '' : ` AND ${inList('m.layer')}`;
  const rows = connection.all<{ id: string; t: number }>(
    `SELECT m.id AS id, coalesce(m.occurred_at, m.valid_from) AS t FROM memories m
     WHERE ${inList('m.scope')}${layers} AND coalesce(m.occurred_at, m.valid_from) >= ? AND coalesce(m.occurred_at, m.valid_from) < ?
       AND ${visibility.sql}
     ORDER BY t DESC, m.id DESC LIMIT ?`,
    JSON.stringify(scopes),
    ...(query.layers === undefined ? [] : [JSON.stringify(query.layers)]),
    query.start,
    query.end,
    ...visibility.params,
    limit,
  );
  const span = query.end - query.start;
  // closer to the window's centre scores higher, 0.5..1
  const centre = query.start + span / 2;
  return rows.map((r) => ({ id: r.id, score: 1 - Math.min(0.5, Math.abs(r.t - centre) / span) }));
}
