/**
 * What both stores' neighbour reads share: the bounds of a `NeighbourQuery` and the SQL condition that
 * picks its anchors (threaded records, and unthreaded episodes when a gap is given).
 */
import type { NeighbourQuery } from '../core/ports/store.js';
import { assertReadScopes, type Scope } from '../core/scope.js';

/** Neighbours per side, at most. */
const MAX_WINDOW = 10;

export interface NeighbourBounds {
  scopes: readonly Scope[];
  /** Neighbours per side (0 when nothing is to be read). */
  window: number;
  /** Largest event-time distance between unthreaded neighbours (0: unthreaded episodes have none). */
  gap: number;
  /** SQL over the memories columns: may this row anchor a neighbour read? */
  anchorCondition: string;
}

export function neighbourBounds(query: NeighbourQuery): NeighbourBounds {
  const scopes = assertReadScopes(query.scopes);
  const window = query.ids.length === 0 ? 0 : Math.max(0, Math.min(MAX_WINDOW, Math.floor(query.window)));
  const gap = Math.max(0, query.gapMs ?? 0);
  const unthreaded = gap > 0 ? ` OR (thread IS NULL AND layer = 'episodic' AND occurred_at IS NOT NULL)` : '';
  return { scopes, window, gap, anchorCondition: `(thread IS NOT NULL${unthreaded})` };
}
