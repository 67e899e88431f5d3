/**
 * Reads for exploring a store on PostgreSQL: records recorded per day (an aggregate), the records decay
 * reaches next, and the concepts of some scopes. The same orders as the SQLite store's.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { DailyCount, DecayTiers } from '../../core/ports/store.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import { mostRecentDays } from '../../core/explore/overview.js';
import type { PgQueryable } from './pg-driver.js';
import { memoryColumns, rowToMemory, type MemoryRow, type Tables } from './pg-rows.js';

const DAY_MS = 86_400_000;
const COLUMNS = memoryColumns('m');

/** See `StoreReader.countRecordedPerDay`. */
export async function countRecordedPerDay(db: PgQueryable, t: Tables, query: { scopes: readonly Scope[]; days: number }): Promise<DailyCount[]> {
  const scopes = assertReadScopes(query.scopes);
  const days = Math.floor(query.days);
  if (!(days > 0)) return [];
  // over the (scope, layer, recorded_at) index (migration 8)
  const rows = await db.query<{ day: string | number; layer: DailyCount['layer']; n: string | number }>(
    `SELECT layer, floor(recorded_at / ${DAY_MS}.0)::bigint AS day, count(*) AS n FROM ${t.memories} WHERE scope = ANY($1::text[]) GROUP BY 1, 2`,
    [[...scopes]],
  );
  return mostRecentDays(rows.rows.map((r) => ({ day: Number(r.day), layer: r.layer, count: Number(r.n) })), days);
}

/** The importance tiers of decay as SQL over `m` (unscored counts as 1, as decay ranks it). */
const TIERS = ['coalesce(m.importance, 1.0) < 0.5', 'coalesce(m.importance, 1.0) >= 0.5 AND coalesce(m.importance, 1.0) < 0.7', 'coalesce(m.importance, 1.0) >= 0.7'] as const;

/**
 * See `StoreReader.nextToDecay`: per scope and importance tier an ordered scan of `memories_decay_order`
 * (migration 8) by last activity, stopping after `limit` matches; the tiers are merged by due instant.
 */
export async function nextToDecay(db: PgQueryable, t: Tables, query: { scopes: readonly Scope[]; idleMs: DecayTiers; limit: number }): Promise<MemoryRecord[]> {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const idle = [query.idleMs.low, query.idleMs.medium, query.idleMs.high];
  const found: { record: MemoryRecord; due: number }[] = [];
  for (const scope of new Set(scopes)) {
    for (const [i, tier] of TIERS.entries()) {
      // text pre-filters leave concepts and chunk parents out without a jsonb cast (the caller checks exactly)
      const rows = await db.query<MemoryRow>(
        `SELECT ${COLUMNS} FROM ${t.memories} m
         WHERE m.scope = $1 AND m.status = 'active' AND NOT m.pinned AND m.layer IN ('episodic', 'semantic') AND ${tier}
           AND strpos(m.data, '"concept":true') = 0 AND strpos(m.data, '"isChunkParent":true') = 0
         ORDER BY coalesce(m.last_accessed_at, m.recorded_at), m.id COLLATE "C" LIMIT $2`,
        [scope, limit],
      );
      for (const record of rows.rows.map(rowToMemory)) found.push({ record, due: (record.lastAccessedAt ?? record.recordedAt) + (idle[i] as number) });
    }
  }
  return found
    .sort((a, b) => a.due - b.due || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0))
    .slice(0, limit)
    .map((f) => f.record);
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
