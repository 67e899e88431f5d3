/**
 * Belief intervals as both stores keep them (`BeliefInterval` in core): the change of validity a
 * record patch makes, and the row shape read back. Ids and instants only, never text.
 */
import type { BeliefInterval, MemoryRecord } from '../core/memory.js';
import type { MemoryPatch } from '../core/ports/store.js';

/** A belief interval row as the drivers return it (PostgreSQL's bigint may come back as a string). */
export interface BeliefRow {
  readonly memory_id: string;
  readonly valid_from: number | string;
  readonly valid_to: number | string | null;
  readonly known_from: number | string;
  readonly known_to: number | string;
}

/** The columns of a belief interval row, in the order `beliefParams` gives them. */
export const BELIEF_COLUMNS = 'memory_id, scope, valid_from, valid_to, known_from, known_to';

/** Whether a patch may change the record's validity (so the store keeps the belief it ends). */
export function changesValidity(patch: MemoryPatch): boolean {
  return patch.validFrom !== undefined || patch.validTo !== undefined || patch.invalidatedAt !== undefined;
}

/** The validity fields a record has once `patch` applies to `before`. */
export function patchedValidity(
  before: Pick<MemoryRecord, 'validFrom' | 'validTo' | 'invalidatedAt'>,
  patch: MemoryPatch,
): Pick<MemoryRecord, 'validFrom' | 'validTo' | 'invalidatedAt'> {
  return {
    validFrom: patch.validFrom ?? before.validFrom,
    validTo: patch.validTo !== undefined ? patch.validTo : before.validTo,
    invalidatedAt: patch.invalidatedAt !== undefined ? patch.invalidatedAt : before.invalidatedAt,
  };
}

/** Decodes a belief row. */
export function rowToBelief(row: BeliefRow): BeliefInterval {
  return {
    validFrom: Number(row.valid_from),
    validTo: row.valid_to === null ? null : Number(row.valid_to),
    knownFrom: Number(row.known_from),
    knownTo: Number(row.known_to),
  };
}

/** Belief rows grouped by record, in the order read. */
export function beliefsById(rows: readonly BeliefRow[]): Map<string, BeliefInterval[]> {
  const out = new Map<string, BeliefInterval[]>();
  for (const row of rows) {
    const list = out.get(row.memory_id);
    if (list === undefined) out.set(row.memory_id, [rowToBelief(row)]);
    else list.push(rowToBelief(row));
  }
  return out;
}
