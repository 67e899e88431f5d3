/**
 * Concept refs as both stores keep them (`concept_refs`: an insertion-ordered set per concept and
 * layer, capped), the checks both apply before writing one, and the lookup of concepts by name.
 */
import { EngramError, messages } from '../core/errors.js';
import type { Layer, MemoryStatus } from '../core/memory.js';
import { CONCEPT_REFS_CAP, type ConceptRef, type StoreReader } from '../core/ports/store.js';
import { assertReadScopes, type Scope } from '../core/scope.js';

/** A `concept_refs` row as both stores select it. */
export interface RefRow {
  scope: string;
  concept_id: string;
  layer: string;
  ref_id: string;
}

/** A row as the port's ref. */
export function toConceptRef(row: RefRow): ConceptRef {
  return { scope: row.scope, conceptId: row.concept_id, layer: row.layer as Layer, refId: row.ref_id };
}

/** ASCII-only lower-casing after trimming spaces, as the stored `concept_name` (SQLite's `lower()` folds ASCII only). */
export function conceptNameKey(text: string): string {
  return text.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** The cap of a ref set (default {@link CONCEPT_REFS_CAP}); anything but a positive integer is `INVALID_INPUT`. */
export function refCap(cap: number | undefined): number {
  const n = Math.floor(cap ?? CONCEPT_REFS_CAP);
  if (!(n > 0)) throw new EngramError('INVALID_INPUT', messages.invalidInput('the concept ref cap must be a positive integer'));
  return n;
}

/** Throws unless `found` (the distinct `ids` stored in `scope`) covers them all: refs never cross scopes. */
export function assertRefMembers(scope: string, ids: readonly string[], found: number): void {
  if (found !== new Set(ids).size) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        'a concept ref must connect a concept and a record that both exist in the same scope; write them in that scope first',
      ),
      { details: { scope } },
    );
  }
}

/** A lookup of concepts by name, as `StoreReader.findConcepts` takes it. */
export type ConceptNameQuery = Parameters<StoreReader['findConcepts']>[0];

/**
 * The lookup with its defaults applied (semantic, active, at most 1000) and the names as stored, or
 * `null` when it can match nothing; throws without a valid scope.
 */
export function resolveConceptQuery(query: ConceptNameQuery): {
  scopes: Scope[];
  names: string[];
  layers: Layer[];
  statuses: MemoryStatus[];
  limit: number;
} | null {
  const scopes = [...assertReadScopes(query.scopes)];
  const layers = [...(query.layers ?? ['semantic'])];
  const statuses = [...(query.statuses ?? ['active'])];
  const limit = Math.floor(query.limit ?? 1000);
  if (query.names.length === 0 || layers.length === 0 || statuses.length === 0 || !(limit > 0)) return null;
  return { scopes, names: query.names.map(conceptNameKey), layers, statuses, limit };
}
