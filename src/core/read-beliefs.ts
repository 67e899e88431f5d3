/**
 * The belief intervals a read judges records held in memory by (`isVisible`'s `history`): read only
 * when the read names its `knownAt`, so a read of now judges records as they are and costs no extra read.
 */
import type { BeliefInterval, TimeFilter } from './memory.js';
import type { StoreReader } from './ports/store.js';
import type { Scope } from './scope.js';

const NONE: ReadonlyMap<string, readonly BeliefInterval[]> = new Map();

/**
 * The belief intervals of records `ids` in `scopes` when `filter` names a `knownAt`, else none (no read).
 *
 * @example
 * ```ts
 * const beliefs = await readBeliefs(store, ids, scopes, { knownAt });
 * const visible = records.filter((r) => isVisible(r, { knownAt }, now, beliefs.get(r.id)));
 * ```
 */
export async function readBeliefs(
  store: Pick<StoreReader, 'getBeliefs'>,
  ids: readonly string[],
  scopes: readonly Scope[],
  filter: Pick<TimeFilter, 'knownAt'>,
): Promise<ReadonlyMap<string, readonly BeliefInterval[]>> {
  if (filter.knownAt === undefined || ids.length === 0) return NONE;
  return store.getBeliefs(ids, scopes);
}
