/** Time filters on edges: the same instants as the read, applied to both time axes of an edge. */
import type { Edge, TimeFilter } from '../memory.js';

/** Is `edge` part of the graph as of the filter's instants (default: now)? */
export function isEdgeVisible(edge: Edge, filter: TimeFilter, now: number): boolean {
  const knownAt = filter.knownAt ?? now;
  const asOf = filter.asOf ?? filter.knownAt ?? now;
  if (edge.recordedAt > knownAt) return false;
  if (edge.invalidatedAt !== null && edge.invalidatedAt <= knownAt) return false;
  if (edge.validFrom > asOf) return false;
  if (edge.validTo !== null && edge.validTo <= asOf) return false;
  return true;
}
