/**
 * Valid time along a supersession chain: the past versions a claim about an earlier time meets, and the
 * ends of the versions a claim superseded when its own start moves.
 */
import { EngramError, messages } from '../errors.js';
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

/**
 * A claim whose start moved (`update` of `validFrom`) moves the ends it set: each version it superseded
 * ends where it now starts (never past the end that version had of its own, `data.validToBefore`, nor
 * before its own start); a version it follows as a later successor (`applyLaterSuccessor`), which ended
 * at its old start, ends at the new one. Versions whose end something else set are left as they are.
 */
export async function followValidFrom(tx: StoreTransaction, before: MemoryRecord, validFrom: number, now: number): Promise<void> {
  if (validFrom === before.validFrom) return;
  const edges = (await tx.getEdges({ scopes: [before.scope], ids: [before.id], types: ['SUPERSEDES'] })).filter(
    (e) => e.fromId === before.id && e.invalidatedAt === null,
  );
  const predecessors = await tx.getMemories([...new Set(edges.map((e) => e.toId))], [before.scope]);
  // a start before a version it superseded began would leave that version no time and the one before it
  // overlapping: refused (the transaction is rolled back), as a start past the end is
  const passed = predecessors.find(
    (old) => old.status === 'superseded' && old.data.supersededBy === before.id && validFrom <= old.validFrom,
  );
  if (passed !== undefined) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        `update: validFrom (${new Date(validFrom).toISOString()}) must be after ${new Date(passed.validFrom).toISOString()}, when the version this memory superseded began (${passed.id}); move that version's validFrom first, or unsupersede it`,
      ),
      { details: { field: 'validFrom', id: passed.id } },
    );
  }
  for (const old of predecessors) {
    const end = endAfterMove(old, before, validFrom);
    if (end !== undefined && end !== old.validTo) await tx.updateMemory(old.id, old.scope, { validTo: end, updatedAt: now });
  }
}

/** The end of `old` once the claim that ended it (`by`) starts at `validFrom`, or undefined when `by` did not set it. */
function endAfterMove(old: MemoryRecord, by: MemoryRecord, validFrom: number): number | undefined {
  const start = Math.max(validFrom, old.validFrom);
  if (old.status === 'superseded' && old.data.supersededBy === by.id) {
    // the formula of applySupersession with the new start
    const own = typeof old.data.validToBefore === 'number' ? old.data.validToBefore : null;
    return own !== null ? Math.min(own, start) : start;
  }
  // a claim recorded late about an earlier time: it held until `by` began
  if (old.status === 'active' && old.validTo === by.validFrom) return start;
  return undefined;
}
