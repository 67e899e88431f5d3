/**
 * Reads for exploring a store on SQLite: records recorded per day (an aggregate), the records decay
 * reaches next, and the concepts of some scopes.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { DailyCount, DecayTiers } from '../../core/ports/store.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { arrayToMemoryRow, inList, memoryColumns, rowToMemory } from './sqlite-rows.js';

const DAY_MS = 86_400_000;
const COLUMNS = memoryColumns('m');

/** See `StoreReader.countRecordedPerDay`. */
export function countRecordedPerDay(connection: SqliteConnection, query: { scopes: readonly Scope[]; days: number }): DailyCount[] {
  const scopes = assertReadScopes(query.scopes);
  const days = Math.floor(query.days);
  if (!(days > 0)) return [];
  const rows = connection.all<{ day: number; layer: DailyCount['layer']; n: number }>(
    `WITH d AS (SELECT cast(floor(recorded_at / ${DAY_MS}.0) AS INTEGER) AS day, layer, count(*) AS n FROM memories WHERE ${inList('scope')} GROUP BY 1, 2)
     SELECT day, layer, n FROM d WHERE day IN (SELECT DISTINCT day FROM d ORDER BY day DESC LIMIT ?) ORDER BY day, layer`,
    JSON.stringify(scopes),
    days,
  );
  return rows.map((r) => ({ day: r.day, layer: r.layer, count: r.n }));
}

/** The order decay reaches records in, as SQL over `m` (bound: low, medium, high idle ms). */
export const DECAY_DUE = 'coalesce(m.last_accessed_at, m.recorded_at) + CASE WHEN coalesce(m.importance, 1.0) < 0.5 THEN ? WHEN coalesce(m.importance, 1.0) < 0.7 THEN ? ELSE ? END';

/** See `StoreReader.nextToDecay`. */
export function nextToDecay(connection: SqliteConnection, query: { scopes: readonly Scope[]; idleMs: DecayTiers; limit: number }): MemoryRecord[] {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  // text pre-filters leave concepts and chunk parents out without parsing JSON (the caller checks exactly)
  const rows = connection.allArrays(
    `SELECT ${COLUMNS} FROM memories m
     WHERE ${inList('m.scope')} AND m.status = 'active' AND m.layer IN ('episodic', 'semantic') AND m.pinned = 0
       AND instr(m.data, '"concept":true') = 0 AND instr(m.data, '"isChunkParent":true') = 0
     ORDER BY ${DECAY_DUE}, m.id LIMIT ?`,
    JSON.stringify(scopes),
    query.idleMs.low,
    query.idleMs.medium,
    query.idleMs.high,
    limit,
  );
  return rows.map((row) => rowToMemory(arrayToMemoryRow(row)));
}

/** See `StoreReader.listConcepts`: a scan of the concept-name index, not of the scopes' records. */
export function listConcepts(connection: SqliteConnection, query: { scopes: readonly Scope[]; limit: number }): MemoryRecord[] {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const rows = connection.allArrays(
    `SELECT ${COLUMNS} FROM memories m INDEXED BY memories_scope_concept_name
     WHERE ${inList('m.scope')} AND m.concept_name IS NOT NULL AND m.layer = 'semantic' AND m.status = 'active' AND json_valid(m.data) AND json_type(m.data, '$.concept') = 'true'
     ORDER BY m.salience DESC, m.id LIMIT ?`,
    JSON.stringify(scopes),
    limit,
  );
  return rows.map((row) => rowToMemory(arrayToMemoryRow(row)));
}
