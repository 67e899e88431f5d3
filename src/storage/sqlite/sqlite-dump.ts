/**
 * SQLite's full ordered reads and raw restores (the dump and the migrator): one scope at a time, in
 * code-point order (SQLite's BINARY collation compares UTF-8 bytes, which is code-point order).
 */
import type { Edge } from '../../core/memory.js';
import type { AuditEntry, ConceptRef } from '../../core/ports/store.js';
import { assertReadScopes, assertScope, type Scope } from '../../core/scope.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { EDGE_COLUMNS, inList, rowToEdge, type EdgeRow } from './sqlite-rows.js';
import { refCursor, refPage, toAuditEntry, type AuditRow, type RefRow } from '../dump-rows.js';

const pageSize = (limit: number): number => Math.max(0, Math.min(100_000, Math.floor(limit)));

export function listEdges(connection: SqliteConnection, query: { scope: Scope; afterId?: string; limit: number }): Edge[] {
  assertScope(query.scope);
  const limit = pageSize(query.limit);
  if (limit === 0) return [];
  return connection
    .all<EdgeRow>(
      `SELECT ${EDGE_COLUMNS} FROM edges WHERE scope = ? AND id > ? ORDER BY id LIMIT ?`,
      query.scope,
      query.afterId ?? '',
      limit,
    )
    .map(rowToEdge);
}

export function listConceptRefs(
  connection: SqliteConnection,
  query: { scopes: readonly Scope[]; after?: string; limit: number },
): { refs: ConceptRef[]; next: string | null } {
  const scopes = assertReadScopes(query.scopes);
  const limit = pageSize(query.limit);
  if (limit === 0) return { refs: [], next: query.after ?? null };
  const rows = connection.all<RefRow & { seq: number }>(
    `SELECT seq, scope, concept_id, layer, ref_id FROM concept_refs WHERE ${inList('scope')} AND seq > ? ORDER BY seq LIMIT ?`,
    JSON.stringify(scopes),
    refCursor(query.after),
    limit,
  );
  return refPage(rows, limit);
}

export function getEmbeddings(connection: SqliteConnection, scope: Scope, ids: readonly string[]): Map<string, Float32Array> {
  assertScope(scope);
  if (ids.length === 0) return new Map();
  const rows = connection.all<{ id: string; embedding: Buffer }>(
    `SELECT m.id AS id, v.embedding AS embedding FROM memories m JOIN memory_vectors v ON v.rowid = m.rowid WHERE m.scope = ? AND ${inList('m.id')}`,
    scope,
    JSON.stringify(ids),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      new Float32Array(r.embedding.buffer.slice(r.embedding.byteOffset, r.embedding.byteOffset + r.embedding.byteLength)),
    ]),
  );
}

export function listAudit(connection: SqliteConnection, query: { scope: Scope; afterId?: string; limit: number }): AuditEntry[] {
  assertScope(query.scope);
  const limit = pageSize(query.limit);
  if (limit === 0) return [];
  return connection
    .all<AuditRow>(
      'SELECT id, at, actor, action, scope, count, details FROM audit_log WHERE scope = ? AND id > ? ORDER BY id LIMIT ?',
      query.scope,
      query.afterId ?? '',
      limit,
    )
    .map(toAuditEntry);
}

/** Ids among `ids` already stored in `table` (any scope). */
export function storedIds(connection: SqliteConnection, table: 'memories' | 'edges' | 'audit_log', ids: readonly string[]): Set<string> {
  if (ids.length === 0) return new Set();
  return new Set(connection.all<{ id: string }>(`SELECT id FROM ${table} WHERE ${inList('id')}`, JSON.stringify(ids)).map((r) => r.id));
}
