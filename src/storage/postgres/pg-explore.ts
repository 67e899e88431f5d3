/**
 * Reads for exploring a store on PostgreSQL: records recorded per day (an aggregate), the records decay
 * reaches next, and the concepts of some scopes. The same orders as the SQLite store's.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { DailyCount, DecayTiers } from '../../core/ports/store.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import type { PgQueryable } from './pg-driver.js';
import { memoryColumns, rowToMemory, type MemoryRow, type Tables } from './pg-rows.js';

const DAY_MS = 86_400_000;
const COLUMNS = memoryColumns('m');

/** See `StoreReader.countRecordedPerDay`. */
export async function countRecordedPerDay(db: PgQueryable, t: Tables, query: { scopes: readonly Scope[]; days: number }): Promise<DailyCount[]> {
  const scopes = assertReadScopes(query.scopes);
  const days = Math.floor(query.days);
  if (!(days > 0)) return [];
  const rows = await db.query<{ day: string | number; layer: DailyCount['layer']; n: string | number }>(
    `WITH d AS (SELECT floor(recorded_at / ${DAY_MS}.0)::bigint AS day, layer, count(*) AS n FROM ${t.memories} WHERE scope = ANY($1::text[]) GROUP BY 1, 2)
     SELECT day, layer, n FROM d WHERE day IN (SELECT DISTINCT day FROM d ORDER BY day DESC LIMIT $2) ORDER BY day, layer COLLATE "C"`,
    [[...scopes], days],
  );
  return rows.rows.map((r) => ({ day: Number(r.day), layer: r.layer, count: Number(r.n) }));
}

/** See `StoreReader.nextToDecay`. */
export async function nextToDecay(db: PgQueryable, t: Tables, query: { scopes: readonly Scope[]; idleMs: DecayTiers; limit: number }): Promise<MemoryRecord[]> {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const { low, medium, high } = query.idleMs;
  // text pre-filters leave concepts and chunk parents out without a jsonb cast (the caller checks exactly)
  const rows = await db.query<MemoryRow>(
    `SELECT ${COLUMNS} FROM ${t.memories} m
     WHERE m.scope = ANY($1::text[]) AND m.status = 'active' AND m.layer IN ('episodic', 'semantic') AND NOT m.pinned
       AND strpos(m.data, '"concept":true') = 0 AND strpos(m.data, '"isChunkParent":true') = 0
     ORDER BY coalesce(m.last_accessed_at, m.recorded_at)
       + CASE WHEN coalesce(m.importance, 1.0) < 0.5 THEN $2::bigint WHEN coalesce(m.importance, 1.0) < 0.7 THEN $3::bigint ELSE $4::bigint END,
       m.id COLLATE "C"
     LIMIT $5`,
    [[...scopes], Math.round(low), Math.round(medium), Math.round(high), limit],
  );
  return rows.rows.map(rowToMemory);
}

/** See `StoreReader.listConcepts`: over the concept-name index, not every record of the scopes. */
export async function listConcepts(db: PgQueryable, t: Tables, query: { scopes: readonly Scope[]; limit: number }): Promise<MemoryRecord[]> {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const rows = await db.query<MemoryRow>(
    `SELECT ${COLUMNS} FROM ${t.memories} m
     WHERE m.scope = ANY($1::text[]) AND m.concept_name IS NOT NULL AND m.layer = 'semantic' AND m.status = 'active' AND strpos(m.data, '"concept":true') > 0
     ORDER BY m.salience DESC, m.id COLLATE "C" LIMIT $2`,
    [[...scopes], limit],
  );
  return rows.rows.map(rowToMemory).filter((r) => (r.data as MemoryRecord['data'] | undefined)?.concept === true);
}
