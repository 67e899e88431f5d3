/**
 * Row shapes shared by both stores' full ordered reads (`sqlite/sqlite-dump.ts`, `postgres/pg-dump.ts`).
 */
import { EngramError, messages } from '../core/errors.js';
import type { AuditEntry, ConceptRef } from '../core/ports/store.js';
import { toConceptRef, type RefRow } from './concept-ref-rows.js';

export type { RefRow } from './concept-ref-rows.js';

/** The insertion position a page starts after (0: the start); anything else is `INVALID_INPUT`. */
export function refCursor(after: string | undefined): number {
  if (after === undefined) return 0;
  const seq = Number(after);
  if (!Number.isSafeInteger(seq) || seq < 0)
    throw new EngramError('INVALID_INPUT', messages.invalidInput('the concept ref cursor must be the "next" of a previous page'));
  return seq;
}

/** A page of refs from rows ordered by `seq`, with the cursor of the next page. */
export function refPage(rows: readonly (RefRow & { seq: string | number })[], limit: number): { refs: ConceptRef[]; next: string | null } {
  const refs = rows.map(toConceptRef);
  const last = rows[rows.length - 1];
  return { refs, next: rows.length < limit || last === undefined ? null : String(last.seq) };
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
