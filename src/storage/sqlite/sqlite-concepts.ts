/**
 * Concepts on SQLite: writing their refs (capped, insertion-ordered sets per concept and layer) and lookup
 * by name; reading refs is `sqlite-cached-reads.ts`. Plain synchronous functions over one connection,
 * called inside the caller's snapshot or write lock.
 */
import type { Layer, MemoryRecord } from '../../core/memory.js';
import { assertScope, type Scope } from '../../core/scope.js';
import { assertRefMembers, refCap, resolveConceptQuery, type ConceptNameQuery } from '../concept-ref-rows.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { inList, memoryColumns, rowToMemory, type MemoryRow } from './sqlite-rows.js';

const MEMORY_COLUMNS = memoryColumns('m');

export function readConcepts(connection: SqliteConnection, query: ConceptNameQuery): MemoryRecord[] {
  const lookup = resolveConceptQuery(query);
  if (lookup === null) return [];
  return connection
    .all<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE ${inList('m.scope')} AND ${inList('m.concept_name')} AND ${inList('m.layer')} AND ${inList('m.status')}
       ORDER BY m.recorded_at, m.id LIMIT ?`,
      JSON.stringify(lookup.scopes),
      JSON.stringify(lookup.names),
      JSON.stringify(lookup.layers),
      JSON.stringify(lookup.statuses),
      lookup.limit,
    )
    .map(rowToMemory);
}

function assertMembers(connection: SqliteConnection, scope: Scope, ids: readonly string[]): void {
  const unique = [...new Set(ids)];
  const found =
    connection.get<{ n: number }>(`SELECT count(*) AS n FROM memories WHERE scope = ? AND ${inList('id')}`, scope, JSON.stringify(unique))
      ?.n ?? 0;
  assertRefMembers(scope, unique, found);
}

export function addConceptRefs(
  connection: SqliteConnection,
  input: { scope: Scope; conceptId: string; layer: Layer; refIds: readonly string[]; cap?: number },
): { added: string[]; evicted: string[] } {
  const scope = assertScope(input.scope);
  const cap = refCap(input.cap);
  if (input.refIds.length === 0) return { added: [], evicted: [] };
  assertMembers(connection, scope, [input.conceptId, ...input.refIds]);
  const added: string[] = [];
  for (const refId of input.refIds) {
    const changed = connection.run(
      'INSERT OR IGNORE INTO concept_refs (scope, concept_id, layer, ref_id) VALUES (?, ?, ?, ?)',
      scope,
      input.conceptId,
      input.layer,
      refId,
    );
    if (changed > 0) added.push(refId);
  }
  const overflow = connection.all<{ seq: number; ref_id: string }>(
    `SELECT seq, ref_id FROM concept_refs WHERE scope = ? AND concept_id = ? AND layer = ?
     ORDER BY seq DESC LIMIT -1 OFFSET ?`,
    scope,
    input.conceptId,
    input.layer,
    cap,
  );
  overflow.reverse();
  for (const row of overflow) connection.run('DELETE FROM concept_refs WHERE seq = ?', row.seq);
  const evicted = overflow.map((r) => r.ref_id);
  const evictedSet = new Set(evicted);
  return { added: added.filter((id) => !evictedSet.has(id)), evicted };
}

export function moveConceptRefs(connection: SqliteConnection, fromRefId: string, toRefId: string, scope: Scope): number {
  assertScope(scope);
  if (fromRefId === toRefId) return 0;
  assertMembers(connection, scope, [toRefId]);
  // where the set already holds the target, the old entry just goes (the ref index named, as in
  // readConceptsByRef: the planner walked the scope's refs, 7.7 ms at 200,000 against 0.08)
  connection.run(
    `DELETE FROM concept_refs INDEXED BY concept_refs_ref WHERE scope = ? AND ref_id = ? AND EXISTS (
       SELECT 1 FROM concept_refs t WHERE t.scope = concept_refs.scope AND t.concept_id = concept_refs.concept_id
         AND t.layer = concept_refs.layer AND t.ref_id = ?)`,
    scope,
    fromRefId,
    toRefId,
  );
  return connection.run('UPDATE concept_refs SET ref_id = ? WHERE scope = ? AND ref_id = ?', toRefId, scope, fromRefId);
}

export function removeConceptRefs(connection: SqliteConnection, refIds: readonly string[], scope: Scope): number {
  assertScope(scope);
  if (refIds.length === 0) return 0;
  return connection.run(`DELETE FROM concept_refs WHERE scope = ? AND ${inList('ref_id')}`, scope, JSON.stringify(refIds));
}
