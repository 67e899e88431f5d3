/**
 * Concepts on PostgreSQL: their refs (capped, insertion-ordered sets per concept and layer) and lookup
 * by name.
 */
import type { Layer, MemoryRecord } from '../../core/memory.js';
import type { ConceptRef, ConceptRefQuery } from '../../core/ports/store.js';
import { assertReadScopes, assertScope, type Scope } from '../../core/scope.js';
import { assertRefMembers, refCap, resolveConceptQuery, toConceptRef, type ConceptNameQuery, type RefRow } from '../concept-ref-rows.js';
import type { PgQueryable } from './pg-driver.js';
import { memoryColumns, Params, rowToMemory, visibilityClause, type MemoryRow, type Tables } from './pg-rows.js';

export async function readConceptRefs(db: PgQueryable, t: Tables, query: ConceptRefQuery): Promise<ConceptRef[]> {
  const scopes = [...assertReadScopes(query.scopes)];
  if (query.conceptIds.length === 0 || query.layers?.length === 0) return [];
  const params = new Params();
  let where = `r.scope = ANY(${params.add(scopes)}::text[]) AND r.concept_id = ANY(${params.add([...query.conceptIds])}::text[])`;
  if (query.layers !== undefined) where += ` AND r.layer = ANY(${params.add([...query.layers])}::text[])`;
  // the ref's record is of the ref's scope (addConceptRefs checks it)
  const visible =
    query.visibleAt === undefined
      ? ''
      : ` AND EXISTS (SELECT 1 FROM ${t.memories} m WHERE m.id = r.ref_id AND m.scope = r.scope AND ${visibilityClause({}, query.visibleAt, 'm', params, t)})`;
  const rows = await db.query<RefRow>(
    `SELECT r.scope, r.concept_id, r.layer, r.ref_id FROM ${t.q('concept_refs')} r WHERE ${where}${visible} ORDER BY r.seq`,
    params.values,
  );
  return rows.rows.map(toConceptRef);
}

export async function readConceptsByRef(
  db: PgQueryable,
  t: Tables,
  query: { scopes: readonly Scope[]; refIds: readonly string[] },
): Promise<ConceptRef[]> {
  const scopes = [...assertReadScopes(query.scopes)];
  if (query.refIds.length === 0) return [];
  const rows = await db.query<RefRow>(
    `SELECT scope, concept_id, layer, ref_id FROM ${t.q('concept_refs')} WHERE scope = ANY($1::text[]) AND ref_id = ANY($2::text[]) ORDER BY seq`,
    [scopes, [...query.refIds]],
  );
  return rows.rows.map(toConceptRef);
}

const MEMORY_COLUMNS = memoryColumns('m');

export async function readConcepts(db: PgQueryable, t: Tables, query: ConceptNameQuery): Promise<MemoryRecord[]> {
  const lookup = resolveConceptQuery(query);
  if (lookup === null) return [];
  const rows = await db.query<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM ${t.memories} m
     WHERE m.scope = ANY($1::text[]) AND m.concept_name = ANY($2::text[]) AND m.layer = ANY($3::text[]) AND m.status = ANY($4::text[])
     ORDER BY m.recorded_at, m.id LIMIT $5`,
    [lookup.scopes, lookup.names, lookup.layers, lookup.statuses, lookup.limit],
  );
  return rows.rows.map(rowToMemory);
}

async function assertMembers(db: PgQueryable, t: Tables, scope: Scope, ids: readonly string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const found = Number(
    (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t.memories} WHERE scope = $1 AND id = ANY($2::text[])`, [
        scope,
        unique,
      ])
    ).rows[0]?.n ?? 0,
  );
  assertRefMembers(scope, unique, found);
}

export async function addConceptRefs(
  db: PgQueryable,
  t: Tables,
  input: { scope: Scope; conceptId: string; layer: Layer; refIds: readonly string[]; cap?: number },
): Promise<{ added: string[]; evicted: string[] }> {
  const scope = assertScope(input.scope);
  const cap = refCap(input.cap);
  if (input.refIds.length === 0) return { added: [], evicted: [] };
  await assertMembers(db, t, scope, [input.conceptId, ...input.refIds]);
  const added: string[] = [];
  for (const refId of input.refIds) {
    const inserted = await db.query(
      `INSERT INTO ${t.q('concept_refs')} (scope, concept_id, layer, ref_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [scope, input.conceptId, input.layer, refId],
    );
    if (inserted.rowCount > 0) added.push(refId);
  }
  const overflow = (
    await db.query<{ seq: number; ref_id: string }>(
      `SELECT seq, ref_id FROM ${t.q('concept_refs')} WHERE scope = $1 AND concept_id = $2 AND layer = $3 ORDER BY seq DESC OFFSET $4`,
      [scope, input.conceptId, input.layer, cap],
    )
  ).rows.reverse();
  if (overflow.length > 0) await db.query(`DELETE FROM ${t.q('concept_refs')} WHERE seq = ANY($1::bigint[])`, [overflow.map((r) => r.seq)]);
  const evicted = overflow.map((r) => r.ref_id);
  const evictedSet = new Set(evicted);
  return { added: added.filter((id) => !evictedSet.has(id)), evicted };
}

export async function moveConceptRefs(db: PgQueryable, t: Tables, fromRefId: string, toRefId: string, scope: Scope): Promise<number> {
  assertScope(scope);
  if (fromRefId === toRefId) return 0;
  await assertMembers(db, t, scope, [toRefId]);
  const refs = t.q('concept_refs');
  // where the set already holds the target, the old entry just goes
  await db.query(
    `DELETE FROM ${refs} r WHERE r.scope = $1 AND r.ref_id = $2 AND EXISTS (
       SELECT 1 FROM ${refs} o WHERE o.scope = r.scope AND o.concept_id = r.concept_id AND o.layer = r.layer AND o.ref_id = $3)`,
    [scope, fromRefId, toRefId],
  );
  return (await db.query(`UPDATE ${refs} SET ref_id = $1 WHERE scope = $2 AND ref_id = $3`, [toRefId, scope, fromRefId])).rowCount;
}

export async function removeConceptRefs(db: PgQueryable, t: Tables, refIds: readonly string[], scope: Scope): Promise<number> {
  assertScope(scope);
  if (refIds.length === 0) return 0;
  return (await db.query(`DELETE FROM ${t.q('concept_refs')} WHERE scope = $1 AND ref_id = ANY($2::text[])`, [scope, [...refIds]]))
    .rowCount;
}
