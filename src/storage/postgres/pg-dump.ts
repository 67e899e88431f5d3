/**
 * PostgreSQL's full ordered reads and raw restores (the dump and the migrator): one scope at a time,
 * in code-point order (`COLLATE "C"`), as the SQLite store orders them.
 */
import type { Edge } from '../../core/memory.js';
import type { AuditEntry, ConceptRef } from '../../core/ports/store.js';
import { assertReadScopes, assertScope, type Scope } from '../../core/scope.js';
import type { PgQueryable } from './pg-driver.js';
import { EDGE_COLUMNS, parseVectorText, rowToEdge, type EdgeRow, type Tables } from './pg-rows.js';
import { refCursor, refPage, toAuditEntry, type AuditRow, type RefRow } from '../dump-rows.js';

const pageSize = (limit: number): number => Math.max(0, Math.min(100_000, Math.floor(limit)));

export async function listEdges(db: PgQueryable, t: Tables, query: { scope: Scope; afterId?: string; limit: number }): Promise<Edge[]> {
  assertScope(query.scope);
  const limit = pageSize(query.limit);
  if (limit === 0) return [];
  const rows = await db.query<EdgeRow>(
    `SELECT ${EDGE_COLUMNS} FROM ${t.edges} WHERE scope = $1 AND id > $2 ORDER BY id COLLATE "C" LIMIT $3`,
    [query.scope, query.afterId ?? '', limit],
  );
  return rows.rows.map(rowToEdge);
}

export async function listConceptRefs(
  db: PgQueryable,
  t: Tables,
  query: { scopes: readonly Scope[]; after?: string; limit: number },
): Promise<{ refs: ConceptRef[]; next: string | null }> {
  const scopes = assertReadScopes(query.scopes);
  const limit = pageSize(query.limit);
  if (limit === 0) return { refs: [], next: query.after ?? null };
  const rows = await db.query<RefRow & { seq: string | number }>(
    `SELECT seq, scope, concept_id, layer, ref_id FROM ${t.q('concept_refs')} WHERE scope = ANY($1::text[]) AND seq > $2 ORDER BY seq LIMIT $3`,
    [[...scopes], refCursor(query.after), limit],
  );
  return refPage(rows.rows, limit);
}

export async function getEmbeddings(db: PgQueryable, t: Tables, scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>> {
  assertScope(scope);
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; e: string }>(
    `SELECT id, embedding::text AS e FROM ${t.memories} WHERE scope = $1 AND id = ANY($2::text[])`,
    [scope, [...ids]],
  );
  return new Map(rows.rows.map((r) => [r.id, parseVectorText(r.e)]));
}

export async function listAudit(
  db: PgQueryable,
  t: Tables,
  query: { scope: Scope; afterId?: string; limit: number },
): Promise<AuditEntry[]> {
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
