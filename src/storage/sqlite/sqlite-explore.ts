/**
 * Reads for exploring a store on SQLite: records recorded per day (an aggregate), the records decay
 * reaches next, and the concepts of some scopes.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { DailyCount, DecayTiers } from '../../core/ports/store.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import { mostRecentDays } from '../../core/explore/overview.js';
import { DECAY_TIERS, soonestToDecay } from '../decay-order.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { arrayToMemory, inList, memoryColumns } from './sqlite-rows.js';

const DAY_MS = 86_400_000;
const COLUMNS = memoryColumns('m');

/** See `StoreReader.countRecordedPerDay`. */
export function countRecordedPerDay(connection: SqliteConnection, query: { scopes: readonly Scope[]; days: number }): DailyCount[] {
  const scopes = assertReadScopes(query.scopes);
  const days = Math.floor(query.days);
  if (!(days > 0)) return [];
  // integer division over the (scope, layer, recorded_at) index alone (migration 11), in index order; floor before 1970
  const rows = connection.all<{ day: number; layer: DailyCount['layer']; n: number }>(
    `SELECT layer, CASE WHEN recorded_at >= 0 THEN recorded_at / ${DAY_MS} ELSE -((${DAY_MS - 1} - recorded_at) / ${DAY_MS}) END AS day, count(*) AS n
     FROM memories INDEXED BY memories_scope_layer_recorded WHERE ${inList('scope')} GROUP BY layer, day`,
    JSON.stringify(scopes),
  );
  return mostRecentDays(
    rows.map((r) => ({ day: r.day, layer: r.layer, count: r.n })),
    days,
  );
}

/**
 * See `StoreReader.nextToDecay`: per scope and importance tier an ordered scan of `memories_decay_order`
 * (migration 11) by last activity, which stops after `limit` matches; the tiers are then merged by due
 * instant (last activity plus the tier's idle time).
 */
export function nextToDecay(
  connection: SqliteConnection,
  query: { scopes: readonly Scope[]; idleMs: DecayTiers; limit: number },
): MemoryRecord[] {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const tiers = DECAY_TIERS.map((tier) =>
    [...new Set(scopes)].flatMap((scope) =>
      // text pre-filters leave concepts and chunk parents out without parsing JSON (the caller checks exactly)
      connection
        .allArrays(
          `SELECT ${COLUMNS} FROM memories m INDEXED BY memories_decay_order
           WHERE m.scope = ? AND m.status = 'active' AND m.pinned = 0 AND m.layer IN ('episodic', 'semantic') AND ${tier}
             AND instr(m.data, '"concept":true') = 0 AND instr(m.data, '"isChunkParent":true') = 0
           ORDER BY coalesce(m.last_accessed_at, m.recorded_at), m.id LIMIT ?`,
          scope,
          limit,
        )
        .map((row) => arrayToMemory(row)),
    ),
  );
  return soonestToDecay(tiers, query.idleMs, limit);
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
  return rows.map((row) => arrayToMemory(row));
}
