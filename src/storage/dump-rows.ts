/**
 * Row shapes shared by both stores' full ordered reads (`sqlite/sqlite-dump.ts`, `postgres/pg-dump.ts`).
 */
import type { Layer } from '../core/memory.js';
import type { AuditEntry, ConceptRefSet } from '../core/ports/store.js';
import type { Scope } from '../core/scope.js';

/** Groups ref rows ordered by (concept, layer, insertion) into sets. */
export function groupRefSets(scope: Scope, rows: readonly { concept_id: string; layer: Layer; ref_id: string }[]): ConceptRefSet[] {
  const sets: ConceptRefSet[] = [];
  for (const row of rows) {
    const last = sets[sets.length - 1];
    if (last !== undefined && last.conceptId === row.concept_id && last.layer === row.layer) last.refIds.push(row.ref_id);
    else sets.push({ scope, conceptId: row.concept_id, layer: row.layer, refIds: [row.ref_id] });
  }
  return sets;
}

export interface AuditRow {
  id: string;
  at: number;
  actor: string;
  action: string;
  scope: string;
  count: number;
  details: string;
}

/** An audit row as the port's entry (shared by both backends). */
export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: Number(row.at),
    actor: row.actor,
    action: row.action as AuditEntry['action'],
    scope: row.scope,
    count: Number(row.count),
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}


/** The items whose id is not in `stored`, first occurrence only (a batch may repeat an id). */
export function unseen<T extends { id: string }>(items: readonly T[], stored: ReadonlySet<string>): T[] {
  const seen = new Set(stored);
  const fresh: T[] = [];
  for (const item of items) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    fresh.push(item);
  }
  return fresh;
}
