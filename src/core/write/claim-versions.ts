/**
 * Valid time along a supersession chain: the past versions a claim about an earlier time meets.
 */
import type { MemoryRecord } from '../memory.js';
import type { StoreTransaction } from '../ports/store.js';

/** How many past versions a claim about an earlier time is compared with, at most. */
const MAX_PAST_VERSIONS = 32;
/** How many SUPERSEDES links are followed from a current claim back into its history. */
const MAX_CHAIN_HOPS = 8;

/**
 * The records linked to `ids` by SUPERSEDES edges (either direction, transitively: the versions of the
 * same claims), other than `ids` themselves; at most `MAX_PAST_VERSIONS`, nearest links first. Reads only.
 */
export async function linkedVersions(tx: StoreTransaction, scope: MemoryRecord['scope'], ids: readonly string[]): Promise<MemoryRecord[]> {
  const seen = new Set(ids);
  const found: MemoryRecord[] = [];
  let frontier = [...ids];
  for (let hop = 0; hop < MAX_CHAIN_HOPS && frontier.length > 0 && found.length < MAX_PAST_VERSIONS; hop += 1) {
    const next: string[] = [];
    for (const edge of await tx.getEdges({ scopes: [scope], ids: frontier, types: ['SUPERSEDES'] })) {
      for (const end of [edge.fromId, edge.toId]) {
        if (seen.has(end) || next.length + found.length >= MAX_PAST_VERSIONS) continue;
        seen.add(end);
        next.push(end);
      }
    }
    const records = await tx.getMemories(next, [scope]);
    found.push(...records);
    frontier = records.map((r) => r.id);
  }
  return found;
}

/**
 * Is `candidate` a version that a claim starting at `validFrom` (before now) must be placed among: one
 * the store holds as true for some time at or after that instant (current, or history whose end comes
 * after it), not already superseded by `record`?
 */
export function heldSince(candidate: MemoryRecord, record: MemoryRecord): boolean {
  if (candidate.status !== 'active' && candidate.status !== 'superseded') return false;
  if (candidate.data.supersededBy === record.id) return false;
  return candidate.validTo === null || candidate.validTo > record.validFrom;
}
