/**
 * Context reads of the SQLite store: conversational neighbours (by thread) and time windows.
 */
import { visibilityBounds, visibleAsBelieved, type MemoryRecord } from '../../core/memory.js';
import { beliefsEndingAfter } from './sqlite-beliefs.js';
import type { ChannelHit, NeighbourQuery, TemporalQuery } from '../../core/ports/store.js';
import { assertReadScopes } from '../../core/scope.js';
import { neighbourBounds } from '../neighbour-reads.js';
import { windowBound } from '../temporal-reads.js';
import type { SqliteConnection } from './sqlite-connection.js';
import type { ReadCache } from './read-cache.js';
import { arrayToMemory, inList, memoryColumns, visibilityClause } from './sqlite-rows.js';

const COLUMNS = memoryColumns('m');

/**
 * Neighbours of each id in its thread (or, for an unthreaded episode, in time). Each side is one indexed
 * range read of ids; then the rows of the neighbours found are read once each (neighbouring anchors
 * share most of theirs) and decoded, except those the caller already holds (`query.known`). With a read
 * cache that is on, a short thread is walked in its order held there instead (`cachedThreadSides`).
 */
export function readNeighbours(
  connection: SqliteConnection,
  query: NeighbourQuery,
  cache?: ReadCache,
): Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }> {
  const { scopes, window, gap, anchorCondition } = neighbourBounds(query);
  const result = new Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>();
  if (window === 0) return result;
  cache?.sync(connection);
  const anchors = connection.all<{ id: string; scope: string; thread: string | null; occurred_at: number | null }>(
    `SELECT id, scope, thread, occurred_at FROM memories WHERE ${inList('id')} AND ${inList('scope')} AND ${anchorCondition}`,
    JSON.stringify(query.ids),
    JSON.stringify(scopes),
  );
  const visibility = visibilityClause(query, query.now, 'm');
  const ids = (rows: unknown[][]): string[] => rows.map((row) => row[0] as string);
  // Thread order: records without an event time first, then by (occurred_at, id). Each side is read as
  // row-value ranges on the (scope, thread, occurred_at, id) index, so it seeks to the anchor instead of
  // scanning and sorting the thread (coalesce() in the comparison kept the index from seeking). The
  // index is named: for the records without an event time (read for every anchor fewer than `window`
  // turns from its thread's start) the planner took the scope's valid_from index instead, walking the
  // whole scope and sorting (0.1 ms a read in a 600-turn LoCoMo scope, 24 ms in a 100,000-turn one,
  // against 0.002-0.003 ms on the thread index).
  const read = (
    timed: boolean,
    comparison: '<' | '>' | null,
    order: 'ASC' | 'DESC',
    after: readonly unknown[],
    limit: number,
  ): string[] => {
    if (limit <= 0) return [];
    const range = comparison === null ? '' : timed ? ` AND (m.occurred_at, m.id) ${comparison} (?, ?)` : ` AND m.id ${comparison} ?`;
    return ids(
      connection.allArrays(
        `SELECT m.id FROM memories m INDEXED BY memories_thread
         WHERE m.scope = ? AND m.thread = ? AND m.occurred_at IS ${timed ? 'NOT NULL' : 'NULL'}${range} AND ${visibility.sql}
         ORDER BY m.occurred_at ${order}, m.id ${order} LIMIT ${sqlLimit(limit)}`,
        ...after,
        ...visibility.params,
      ),
    );
  };
  // An unthreaded episode's side: the episodes of its scope without a thread, in event-time order,
  // no further than the gap (on the partial (scope, occurred_at, id) index of unthreaded episodes).
  const readUnthreaded = (scope: string, at: number, id: string, comparison: '<' | '>'): string[] =>
    ids(
      connection.allArrays(
        `SELECT m.id FROM memories m
         WHERE m.scope = ? AND m.thread IS NULL AND m.layer = 'episodic' AND m.occurred_at IS NOT NULL
           AND (m.occurred_at, m.id) ${comparison} (?, ?) AND m.occurred_at ${comparison === '<' ? '>=' : '<='} ? AND ${visibility.sql}
         ORDER BY m.occurred_at ${comparison === '<' ? 'DESC' : 'ASC'}, m.id ${comparison === '<' ? 'DESC' : 'ASC'} LIMIT ${sqlLimit(window)}`,
        scope,
        at,
        id,
        comparison === '<' ? at - gap : at + gap,
        ...visibility.params,
      ),
    );
  const found = new Map<string, { before: string[]; after: string[] }>();
  const held = new Map<string, MemoryRecord>();
  for (const anchor of anchors) {
    if (anchor.thread !== null && cache?.active === true) {
      const sides = cachedThreadSides(connection, cache, query, window, anchor as { id: string; scope: string; thread: string }, held);
      if (sides !== null) {
        found.set(anchor.id, sides);
        continue;
      }
    }
    if (anchor.thread === null) {
      if (anchor.occurred_at === null) continue;
      if (cache?.active === true) {
        const sides = cachedUnthreadedSides(
          connection,
          cache,
          query,
          window,
          gap,
          anchor as { id: string; scope: string; occurred_at: number },
          held,
        );
        if (sides !== null) {
          found.set(anchor.id, sides);
          continue;
        }
      }
      const before = readUnthreaded(anchor.scope, anchor.occurred_at, anchor.id, '<');
      found.set(anchor.id, { before: before.reverse(), after: readUnthreaded(anchor.scope, anchor.occurred_at, anchor.id, '>') });
      continue;
    }
    const where = [anchor.scope, anchor.thread];
    let before: string[];
    let after: string[];
    if (anchor.occurred_at !== null) {
      const timedBefore = read(true, '<', 'DESC', [...where, anchor.occurred_at, anchor.id], window);
      before = [...timedBefore, ...read(false, null, 'DESC', where, window - timedBefore.length)];
      after = read(true, '>', 'ASC', [...where, anchor.occurred_at, anchor.id], window);
    } else {
      before = read(false, '<', 'DESC', [...where, anchor.id], window);
      const untimedAfter = read(false, '>', 'ASC', [...where, anchor.id], window);
      after = [...untimedAfter, ...read(true, null, 'ASC', where, window - untimedAfter.length)];
    }
    found.set(anchor.id, { before: before.reverse(), after });
  }
  const records = neighbourRecords(connection, found, query.known, cache, held);
  const recordsOf = (list: readonly string[]): MemoryRecord[] => list.flatMap((id) => records.get(id) ?? []);
  for (const [id, { before, after }] of found) result.set(id, { before: recordsOf(before), after: recordsOf(after) });
  return result;
}

/** Threads up to this many rows are kept in the read cache in thread order; longer ones are read by range. */
const CACHED_THREAD_ROWS = 256;

/**
 * An anchor's neighbours from its thread's order held in the read cache (read whole, once per database
 * version, when it has at most `CACHED_THREAD_ROWS` rows): the `window` visible records on each side,
 * walking away from the anchor, as the range reads find them. Thread order is the index's: records
 * without an event time first by id, then by (occurred_at, id); visibility is core's rule, of which the
 * SQL clause is the same. Null when the thread is longer (the caller reads it by range). The records
 * the walk needed are added to `held`. The caller has synced the cache in this snapshot.
 */
function cachedThreadSides(
  connection: SqliteConnection,
  cache: ReadCache,
  query: NeighbourQuery,
  window: number,
  anchor: { id: string; scope: string; thread: string },
  held: Map<string, MemoryRecord>,
): { before: string[]; after: string[] } | null {
  const key = `${anchor.scope}\u0000${anchor.thread}`;
  let order = cache.answer<readonly string[] | null>('thread', key);
  if (order === undefined) {
    const ids = connection
      .allArrays(
        `SELECT m.id FROM memories m INDEXED BY memories_thread WHERE m.scope = ? AND m.thread = ?
         ORDER BY m.occurred_at, m.id LIMIT ${CACHED_THREAD_ROWS + 1}`,
        anchor.scope,
        anchor.thread,
      )
      .map((row) => row[0] as string);
    order = cache.remember('thread', key, ids.length > CACHED_THREAD_ROWS ? null : ids);
  }
  if (order === null) return null;
  const at = order.indexOf(anchor.id);
  if (at < 0) return null;
  return walkOrder(connection, cache, query, window, order, at, held);
}

/**
 * Scopes with up to this many timed unthreaded episodes keep their order in the read cache; a scope
 * with more is read by range (a LoCoMo conversation written without threads holds 400-700 turns).
 */
const CACHED_UNTHREADED_ROWS = 2048;

/**
 * An unthreaded episode's neighbours from its scope's timed unthreaded episodes held in the read cache
 * in (occurred_at, id) order (read whole, once per database version, when there are at most
 * `CACHED_UNTHREADED_ROWS`): the `window` visible episodes on each side within `gap` of the anchor's
 * time, walking away from it, as the range reads (`readUnthreaded`) find them. Null when the scope holds
 * more (the caller reads by range). The records the walk needed are added to `held`.
 */
function cachedUnthreadedSides(
  connection: SqliteConnection,
  cache: ReadCache,
  query: NeighbourQuery,
  window: number,
  gap: number,
  anchor: { id: string; scope: string; occurred_at: number },
  held: Map<string, MemoryRecord>,
): { before: string[]; after: string[] } | null {
  const order = unthreadedOrder(connection, cache, anchor.scope);
  if (order === null) return null;
  const { ids, times } = order;
  const at = ids.indexOf(anchor.id);
  if (at < 0) return null;
  const from = anchor.occurred_at - gap;
  const to = anchor.occurred_at + gap;
  return walkOrder(connection, cache, query, window, ids, at, held, (i) => (times[i] as number) >= from && (times[i] as number) <= to);
}

/**
 * A scope's timed unthreaded episodes in (occurred_at, id) order, from the read cache (read once a
 * database version), or null when the scope holds more than `CACHED_UNTHREADED_ROWS`.
 */
function unthreadedOrder(
  connection: SqliteConnection,
  cache: ReadCache,
  scope: string,
): { ids: readonly string[]; times: readonly number[] } | null {
  const ids = cache.answer<readonly string[] | null>('unthreaded', scope);
  const times = cache.answer<readonly number[] | null>('unthreaded-time', scope);
  if (ids !== undefined && times !== undefined) return ids === null || times === null ? null : { ids, times };
  const rows = connection.allArrays(
    `SELECT m.id, m.occurred_at FROM memories m
     WHERE m.scope = ? AND m.thread IS NULL AND m.layer = 'episodic' AND m.occurred_at IS NOT NULL
     ORDER BY m.occurred_at, m.id LIMIT ${CACHED_UNTHREADED_ROWS + 1}`,
    scope,
  );
  if (rows.length > CACHED_UNTHREADED_ROWS) {
    cache.remember('unthreaded', scope, null);
    cache.remember('unthreaded-time', scope, null);
    return null;
  }
  return {
    ids: cache.remember(
      'unthreaded',
      scope,
      rows.map((row) => row[0] as string),
    ),
    times: cache.remember(
      'unthreaded-time',
      scope,
      rows.map((row) => row[1] as number),
    ),
  };
}

/**
 * The `window` visible records on each side of `order[at]`, walking away from it (and, with `within`,
 * only while it holds), reading the records it needs in bulk; visibility is core's rule, of which the
 * range reads' SQL clause is the same. The records read are added to `held`.
 */
function walkOrder(
  connection: SqliteConnection,
  cache: ReadCache,
  query: NeighbourQuery,
  window: number,
  order: readonly string[],
  at: number,
  held: Map<string, MemoryRecord>,
  within: (index: number) => boolean = () => true,
): { before: string[]; after: string[] } {
  const recordOf = (id: string): MemoryRecord | undefined => held.get(id) ?? query.known?.get(id) ?? cache.get(id);
  const bounds = visibilityBounds(query, query.now);
  const beliefs = bounds.historic ? beliefsEndingAfter(connection, query.scopes, bounds.knownAt) : undefined;
  const readMissing = (ids: readonly string[]): void => {
    for (const record of recordsById(
      connection,
      ids.filter((id) => recordOf(id) === undefined),
      cache,
    ))
      held.set(record.id, record);
  };
  // the run of entries from `i` away from the anchor that the walk may reach
  const reach = (i: number, step: -1 | 1, most = Infinity): string[] => {
    if (i < 0 || i >= order.length || !within(i)) return [];
    let end = i;
    while (Math.abs(end - i) + 1 < most && end + step >= 0 && end + step < order.length && within(end + step)) end += step;
    return step < 0 ? order.slice(end, i + 1) : order.slice(i, end + 1);
  };
  // what the walk most likely needs: the window on each side, and as much again for records it skips
  readMissing([...reach(at, -1, 2 * window + 1), ...reach(at + 1, 1, 2 * window)]);
  const side = (step: -1 | 1): string[] => {
    const ids: string[] = [];
    for (let i = at + step; i >= 0 && i < order.length && ids.length < window && within(i); i += step) {
      const id = order[i] as string;
      let record = recordOf(id);
      if (record === undefined) {
        // many invisible records in a row: the rest of this side (as far as the walk may go) at once
        readMissing(reach(i, step));
        record = recordOf(id);
      }
      if (record === undefined) continue;
      held.set(id, record);
      const { status, recordedAt, validFrom, validTo, invalidatedAt } = record;
      if (visibleAsBelieved(bounds, status, recordedAt, validFrom, validTo, invalidatedAt, beliefs?.get(id))) ids.push(id);
    }
    return ids;
  };
  return { before: side(-1).reverse(), after: side(1) };
}

/** The records of every neighbour found: the caller's own where it holds them, else read and decoded once. */
function neighbourRecords(
  connection: SqliteConnection,
  found: ReadonlyMap<string, { before: readonly string[]; after: readonly string[] }>,
  known: ReadonlyMap<string, MemoryRecord> | undefined,
  cache: ReadCache | undefined,
  read: ReadonlyMap<string, MemoryRecord>,
): Map<string, MemoryRecord> {
  const records = new Map<string, MemoryRecord>();
  const missing = new Set<string>();
  for (const { before, after } of found.values())
    for (const id of [...before, ...after]) {
      const held = known?.get(id) ?? read.get(id) ?? cache?.get(id);
      if (held !== undefined) records.set(id, held);
      else missing.add(id);
    }
  for (const record of recordsById(connection, [...missing], cache)) records.set(record.id, record);
  return records;
}

/** The rows of `ids` (already known to be visible to the read), decoded and offered to the cache. */
function recordsById(connection: SqliteConnection, ids: readonly string[], cache: ReadCache | undefined): MemoryRecord[] {
  if (ids.length === 0) return [];
  return connection.allArrays(`SELECT ${COLUMNS} FROM memories m WHERE ${inList('m.id')}`, JSON.stringify(ids)).map((row) => {
    const record = arrayToMemory(row);
    return cache === undefined ? record : cache.keep(record);
  });
}

/**
 * A row count written into the SQL text rather than bound: with a bound `LIMIT ?` SQLite walked the
 * whole index range of a neighbour read before stopping (~40-60 µs a read on a LoCoMo store against
 * ~9 µs with the literal), and a recall makes ~120 of them. The window is a small integer, so the
 * statement cache holds one text per size.
 */
function sqlLimit(n: number): string {
  return String(Math.max(0, Math.floor(n)));
}

/** Records whose event time falls in the window, most recent first. */
export function readTemporal(connection: SqliteConnection, query: TemporalQuery): ChannelHit[] {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0) || query.layers?.length === 0 || !(query.end > query.start)) return [];
  const visibility = visibilityClause(query, query.now, 'm');
  const layers = query.layers === undefined ? '' : ` AND ${inList('m.layer')}`;
  const layerParams = query.layers === undefined ? [] : [JSON.stringify(query.layers)];
  // each scope's newest `limit` event times along the event-time index, then the exact order from
  // their bound on (`temporal-reads.ts`)
  const newest: number[] = [];
  for (const scope of scopes) {
    const times = connection.all<{ t: number }>(
      `SELECT coalesce(m.occurred_at, m.valid_from) AS t FROM memories m
       WHERE m.scope = ?${layers} AND coalesce(m.occurred_at, m.valid_from) >= ? AND coalesce(m.occurred_at, m.valid_from) < ?
         AND ${visibility.sql}
       ORDER BY coalesce(m.occurred_at, m.valid_from) DESC LIMIT ${sqlLimit(limit)}`,
      scope,
      ...layerParams,
      query.start,
      query.end,
      ...visibility.params,
    );
    for (const { t } of times) newest.push(t);
  }
  if (newest.length === 0) return [];
  const from = windowBound(newest, limit, query.start);
  const rows = connection.all<{ id: string; t: number }>(
    `SELECT m.id AS id, coalesce(m.occurred_at, m.valid_from) AS t FROM memories m
     WHERE ${inList('m.scope')}${layers} AND coalesce(m.occurred_at, m.valid_from) >= ? AND coalesce(m.occurred_at, m.valid_from) < ?
       AND ${visibility.sql}
     ORDER BY t DESC, m.id DESC LIMIT ?`,
    JSON.stringify(scopes),
    ...layerParams,
    from,
    query.end,
    ...visibility.params,
    limit,
  );
  const span = query.end - query.start;
  // closer to the window's centre scores higher, 0.5..1
  const centre = query.start + span / 2;
  return rows.map((r) => ({ id: r.id, score: 1 - Math.min(0.5, Math.abs(r.t - centre) / span) }));
}
