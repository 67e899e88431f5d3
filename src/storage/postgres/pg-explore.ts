/**
 * Reads for exploring a store on PostgreSQL: records recorded per day (an aggregate), the records decay
 * reaches next, and the concepts of some scopes. The same orders as the SQLite store's.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { DailyCount, DecayTiers } from '../../core/ports/store.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import { mostRecentDays } from '../../core/explore/overview.js';
import { DECAY_TIERS, soonestToDecay } from '../decay-order.js';
import type { PgQueryable } from './pg-driver.js';
import { memoryColumns, rowToMemory, type MemoryRow, type Tables } from './pg-rows.js';

const DAY_MS = 86_400_000;
const COLUMNS = memoryColumns('m');

/** See `StoreReader.countRecordedPerDay`. */
export async function countRecordedPerDay(
  db: PgQueryable,
  t: Tables,
  query: { scopes: readonly Scope[]; days: number },
): Promise<DailyCount[]> {
  const scopes = assertReadScopes(query.scopes);
  const days = Math.floor(query.days);
  if (!(days > 0)) return [];
  // over the (scope, layer, recorded_at) index (migration 8), in integer arithmetic; floor before 1970
  const rows = await db.query<{ day: string | number; layer: DailyCount['layer']; n: string | number }>(
    `SELECT layer, CASE WHEN recorded_at >= 0 THEN recorded_at / ${DAY_MS} ELSE -((${DAY_MS - 1} - recorded_at) / ${DAY_MS}) END AS day, count(*) AS n
     FROM ${t.memories} WHERE scope = ANY($1::text[]) GROUP BY 1, 2`,
    [[...scopes]],
  );
  return mostRecentDays(
    rows.rows.map((r) => ({ day: Number(r.day), layer: r.layer, count: Number(r.n) })),
    days,
  );
}

/**
 * See `StoreReader.nextToDecay`: per scope and importance tier an ordered scan of `memories_decay_order`
 * (migration 8) by last activity, stopping after `limit` matches; the tiers are merged by due instant.
 */
export async function nextToDecay(
  db: PgQueryable,
  t: Tables,
  query: { scopes: readonly Scope[]; idleMs: DecayTiers; limit: number },
): Promise<MemoryRecord[]> {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const tiers: MemoryRecord[][] = [];
  for (const tier of DECAY_TIERS) {
    const records: MemoryRecord[] = [];
    for (const scope of new Set(scopes)) {
      // the inner ordered scan of memories_decay_order stops early; the text pre-filters (concepts, chunk
      // parents; the caller checks exactly) stay outside it, where their guessed selectivity cannot turn it into a sort
      const rows = await db.query<MemoryRow>(
        `SELECT ${COLUMNS} FROM (
           SELECT * FROM ${t.memories} m
           WHERE m.scope = $1 AND m.status = 'active' AND NOT m.pinned AND m.layer IN ('episodic', 'semantic') AND ${tier}
           ORDER BY coalesce(m.last_accessed_at, m.recorded_at), m.id COLLATE "C" LIMIT $3
         ) m
         WHERE strpos(m.data, '"concept":true') = 0 AND strpos(m.data, '"isChunkParent":true') = 0
         ORDER BY coalesce(m.last_accessed_at, m.recorded_at), m.id COLLATE "C" LIMIT $2`,
        [scope, limit, limit * 10],
      );
      records.push(...rows.rows.map(rowToMemory));
    }
    tiers.push(records);
  }
  return soonestToDecay(tiers, query.idleMs, limit);
}

/** See `StoreReader.listConcepts`: over the concept-name index, not every record of the scopes. */
export async function listConcepts(
  db: PgQueryable,
  t: Tables,
  query: { scopes: readonly Scope[]; limit: number },
): Promise<MemoryRecord[]> {
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
