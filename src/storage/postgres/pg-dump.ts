/**
 * PostgreSQL's full ordered reads and raw restores (the dump and the migrator): one scope at a time,
 * in code-point order (`COLLATE "C"`), as the SQLite store orders them.
 */
import type { Edge, Layer } from '../../core/memory.js';
import type { AuditEntry, ConceptRefSet } from '../../core/ports/store.js';
import { assertScope, type Scope } from '../../core/scope.js';
import type { PgQueryable } from './pg-driver.js';
import { EDGE_COLUMNS, parseVectorText, rowToEdge, type EdgeRow, type Tables } from './pg-rows.js';
import { groupRefSets, toAuditEntry, type AuditRow } from '../dump-rows.js';

const pageSize = (limit: number): number => Math.max(0, Math.min(100_000, Math.floor(limit)));

export async function listEdges(db: PgQueryable, t: Tables, query: { scope: Scope; afterId?: string; limit: number }): Promise<Edge[]> {
  assertScope(query.scope);
  const limit = pageSize(query.limit);
  if (limit === 0) return [];
  const rows = await db.query<EdgeRow>(`SELECT ${EDGE_COLUMNS} FROM ${t.edges} WHERE scope = $1 AND id > $2 ORDER BY id COLLATE "C" LIMIT $3`, [
    query.scope,
    query.afterId ?? '',
    limit,
  ]);
  return rows.rows.map(rowToEdge);
}

export async function listConceptRefSets(
  db: PgQueryable,
  t: Tables,
  query: { scope: Scope; after?: { conceptId: string; layer: Layer }; limit: number },
): Promise<ConceptRefSet[]> {
  assertScope(query.scope);
  const limit = pageSize(query.limit);
  if (limit === 0) return [];
  const after = query.after ?? { conceptId: '', layer: '' };
  const rows = await db.query<{ concept_id: string; layer: Layer; ref_id: string }>(
    `WITH sets AS (
       SELECT DISTINCT concept_id, layer COLLATE "C" AS layer FROM ${t.q('concept_refs')}
       WHERE scope = $1 AND (concept_id > $2 OR (concept_id = $2 AND layer COLLATE "C" > $3))
       ORDER BY 1, 2 LIMIT $4)
     SELECT r.concept_id, r.layer, r.ref_id FROM ${t.q('concept_refs')} r JOIN sets s ON s.concept_id = r.concept_id AND s.layer = r.layer
     WHERE r.scope = $1 ORDER BY r.concept_id, r.layer COLLATE "C", r.seq`,
    [query.scope, after.conceptId, after.layer, limit],
  );
  return groupRefSets(query.scope, rows.rows);
}

export async function getEmbeddings(db: PgQueryable, t: Tables, scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>> {
  assertScope(scope);
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; e: string }>(`SELECT id, embedding::text AS e FROM ${t.memories} WHERE scope = $1 AND id = ANY($2::text[])`, [scope, [...ids]]);
  return new Map(rows.rows.map((r) => [r.id, parseVectorText(r.e)]));
}

export async function listAudit(db: PgQueryable, t: Tables, query: { scope: Scope; afterId?: string; limit: number }): Promise<AuditEntry[]> {
  assertScope(query.scope);
  const limit = pageSize(query.limit);
  if (limit === 0) return [];
  const rows = await db.query<AuditRow>(
    `SELECT id, at, actor, action, scope, count, details FROM ${t.q('audit_log')} WHERE scope = $1 AND id > $2 ORDER BY id COLLATE "C" LIMIT $3`,
    [query.scope, query.afterId ?? '', limit],
  );
  return rows.rows.map(toAuditEntry);
}

/** Ids among `ids` already stored in `table` (any scope). */
export async function storedIds(db: PgQueryable, table: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set((await db.query<{ id: string }>(`SELECT id FROM ${table} WHERE id = ANY($1::text[])`, [[...ids]])).rows.map((r) => r.id));
}
