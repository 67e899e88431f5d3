/**
 * The order decay reaches records in, shared by the SQLite and PostgreSQL stores: each importance tier
 * is scanned by last activity (an index order), then the tiers are merged by due instant.
 */
import { lastActiveAt, type MemoryRecord } from '../core/memory.js';
import type { DecayTiers } from '../core/ports/store.js';

/** The importance tiers of decay as SQL over `m` (unscored counts as 1, as decay ranks it), lowest first. */
export const DECAY_TIERS = [
  'coalesce(m.importance, 1.0) < 0.5',
  'coalesce(m.importance, 1.0) >= 0.5 AND coalesce(m.importance, 1.0) < 0.7',
  'coalesce(m.importance, 1.0) >= 0.7',
] as const;

/** The `limit` records of `tiers` (records per entry of `DECAY_TIERS`) decay reaches first: last activity plus the tier's idle time, then id. */
export function soonestToDecay(tiers: readonly (readonly MemoryRecord[])[], idleMs: DecayTiers, limit: number): MemoryRecord[] {
  const idle = [idleMs.low, idleMs.medium, idleMs.high];
  const found = tiers.flatMap((records, i) => records.map((record) => ({ record, due: lastActiveAt(record) + (idle[i] ?? idleMs.high) })));
  return found
    .sort((a, b) => a.due - b.due || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0))
    .slice(0, limit)
    .map((f) => f.record);
}
