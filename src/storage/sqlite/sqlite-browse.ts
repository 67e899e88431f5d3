/**
 * Browsing and purging on SQLite: keyset pages per scope over the `memories_browse_*`
 * indexes (migration 10), scope discovery by a skip scan, and the hard delete of purge.
 */
import { deleteBeliefs } from './sqlite-beliefs.js';
import { LAYERS, STATUSES, type MemoryRecord } from '../../core/memory.js';
import {
  EPISODE_HEAD_CHARS,
  type AuditEntry,
  type BrowseQuery,
  type BrowseSort,
  type DeletedCounts,
  type EpisodeHead,
  type MemoryPatch,
  type ScopeSelection,
  type ScopeSummary,
} from '../../core/ports/store.js';
import { mergeEpisodeHeads, type EpisodeHeadRow } from '../episode-heads.js';
import { assertReadScopes, assertScope, tenantOf, type Scope } from '../../core/scope.js';
import {
  asciiLower,
  compareCodePoints,
  jsonElementNeedle,
  jsonTextNeedle,
  mergeBrowseKeys,
  mergeBrowsePages,
  NEVER_ACCESSED,
  UNSCORED_IMPORTANCE,
} from '../../core/browse/sort-key.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { arrayToMemory, inList, memoryColumns, patchAssignments, visibilityClause } from './sqlite-rows.js';

/** The sort expression and the index that serves it; the expressions match migration 10 exactly. */
const SORTS: Record<BrowseSort, { key: string; index: string }> = {
  recordedAt: { key: 'm.recorded_at', index: 'memories_browse_recorded' },
  validFrom: { key: 'm.valid_from', index: 'memories_browse_valid' },
  importance: { key: `coalesce(m.importance, ${UNSCORED_IMPORTANCE.toFixed(1)})`, index: 'memories_browse_importance' },
  accessedAt: { key: `coalesce(m.last_accessed_at, ${NEVER_ACCESSED})`, index: 'memories_browse_accessed' },
};

const COLUMNS = memoryColumns('m');

/** One page (see `StoreReader.browseMemories`): each scope scanned in index order, then merged. */
export function browseMemories(connection: SqliteConnection, query: BrowseQuery): MemoryRecord[] {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0) || query.layers?.length === 0 || query.statuses?.length === 0) return [];
  const { key, index } = SORTS[query.sort];
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const clauses = ['m.scope = ?'];
  const params: unknown[] = [];
  if (query.layers !== undefined) {
    clauses.push(inList('m.layer'));
    params.push(JSON.stringify(query.layers));
  }
  if (query.statuses !== undefined) {
    clauses.push(inList('m.status'));
    params.push(JSON.stringify(query.statuses));
  }
  // lower() folds ASCII only, like asciiLower
  if (query.tag !== undefined) {
    clauses.push('instr(lower(m.tags), ?) > 0');
    params.push(jsonElementNeedle(query.tag));
  }
  if (query.entity !== undefined) {
    clauses.push('instr(lower(m.entities), ?) > 0');
    params.push(jsonElementNeedle(query.entity));
  }
  if (query.text !== undefined) {
    // the content, the summary, or text the record keeps in data (past wordings, episode fields, claim)
    clauses.push("(instr(lower(m.content), ?) > 0 OR instr(lower(coalesce(m.summary, '')), ?) > 0 OR instr(lower(m.data), ?) > 0)");
    params.push(asciiLower(query.text), asciiLower(query.text), jsonTextNeedle(query.text));
  }
  if (query.validFrom !== undefined) {
    clauses.push('(m.valid_to IS NULL OR m.valid_to > ?)');
    params.push(query.validFrom);
  }
  if (query.validTo !== undefined) {
    clauses.push('m.valid_from < ?');
    params.push(query.validTo);
  }
  if (query.recordedFrom !== undefined) {
    clauses.push('m.recorded_at >= ?');
    params.push(query.recordedFrom);
  }
  if (query.recordedTo !== undefined) {
    clauses.push('m.recorded_at < ?');
    params.push(query.recordedTo);
  }
  if (query.visibleAt !== undefined) {
    const { now, ...filter } = query.visibleAt;
    const visible = visibilityClause(filter, now, 'm');
    clauses.push(`(${visible.sql})`);
    params.push(...visible.params);
  }
  if (query.after !== undefined) {
    clauses.push(`(${key}, m.id) ${query.order === 'asc' ? '>' : '<'} (?, ?)`);
    params.push(query.after.key, query.after.id);
  }
  // INDEXED BY: the ordered scan stops after `limit` rows; a filter index would read and sort the scope
  const scan = (columns: string) =>
    `SELECT ${columns} FROM memories m INDEXED BY ${index} WHERE ${clauses.join(' AND ')} ORDER BY ${key} ${direction}, m.id ${direction} LIMIT ?`;
  if (scopes.length === 1) {
    const rows = connection.allArrays(scan(COLUMNS), scopes[0], ...params, limit);
    return mergeBrowsePages([rows.map((row) => arrayToMemory(row))], query.sort, query.order, limit);
  }
  // several scopes: merge the positions first, then decode only the rows of the page
  const positions = scan(`m.rowid AS rowid, ${key} AS key, m.id AS id`);
  const winners = mergeBrowseKeys(
    scopes.map((scope) => connection.all<{ rowid: number; key: number; id: string }>(positions, scope, ...params, limit)),
    query.order,
    limit,
  );
  if (winners.length === 0) return [];
  const rows = connection.allArrays(
    `SELECT m.rowid, ${COLUMNS} FROM memories m WHERE m.rowid IN (SELECT value FROM json_each(?))`,
    JSON.stringify(winners.map((w) => w.rowid)),
  );
  const byRowid = new Map(rows.map((row) => [row[0] as number, arrayToMemory(row.slice(1))]));
  return winners.flatMap((w) => byRowid.get(w.rowid) ?? []);
}

/**
 * Existing scopes by a skip scan over the scope index: one index seek per distinct scope, however many
 * records each holds.
 */
export function listScopes(connection: SqliteConnection, selection: ScopeSelection): Scope[] {
  const tenants = selection === 'all' ? undefined : new Set(selection.tenants);
  if (tenants !== undefined && tenants.size === 0) return [];
  const rows = connection.all<{ scope: string }>(
    `WITH RECURSIVE s(scope) AS (
       SELECT min(scope) FROM memories
       UNION ALL SELECT (SELECT min(scope) FROM memories WHERE scope > s.scope) FROM s WHERE s.scope IS NOT NULL
     ) SELECT scope FROM s WHERE scope IS NOT NULL`,
  );
  return rows
    .map((r) => r.scope)
    .filter((scope) => tenants === undefined || tenants.has(tenantOf(scope)))
    .sort(compareCodePoints);
}

/** Counts per scope, layer and status (see `StoreReader.summarizeScopes`). */
export function summarizeScopes(connection: SqliteConnection, scopes: readonly Scope[]): ScopeSummary[] {
  const allowed = assertReadScopes(scopes);
  const rows = connection.all<{ scope: string; layer: string; status: string; n: number }>(
    `SELECT scope, layer, status, count(*) AS n FROM memories WHERE ${inList('scope')} GROUP BY scope, layer, status`,
    JSON.stringify(allowed),
  );
  const byScope = new Map<string, ScopeSummary>();
  for (const { scope, layer, status, n } of rows) {
    let summary = byScope.get(scope);
    if (summary === undefined) {
      summary = {
        scope,
        total: 0,
        byLayer: Object.fromEntries(LAYERS.map((l) => [l, 0])),
        byStatus: Object.fromEntries(STATUSES.map((s) => [s, 0])),
      };
      byScope.set(scope, summary);
    }
    summary.total += n;
    summary.byLayer[layer] = (summary.byLayer[layer] ?? 0) + n;
    summary.byStatus[status] = (summary.byStatus[status] ?? 0) + n;
  }
  return [...byScope.values()].sort((a, b) => compareCodePoints(a.scope, b.scope));
}

/**
 * Chunks and derived records of `ids` in `scope`: a text pre-filter in SQL (no JSON parsing, so a
 * damaged row cannot fail it), then the exact check on the decoded records.
 */
export function findDerived(connection: SqliteConnection, scope: Scope, ids: readonly string[]): MemoryRecord[] {
  assertScope(scope);
  if (ids.length === 0) return [];
  const rows = connection.allArrays(
    `SELECT ${COLUMNS} FROM memories m WHERE m.scope = ? AND (instr(m.data, '"parentId":') > 0 OR instr(m.provenance, '"derivedFrom":[]') = 0)`,
    scope,
  );
  const wanted = new Set(ids);
  const found: MemoryRecord[] = [];
  for (const row of rows) {
    const record = arrayToMemory(row);
    const parent = (record.data as MemoryRecord['data'] | undefined)?.parentId;
    const evidence = (record.provenance as MemoryRecord['provenance'] | undefined)?.derivedFrom;
    if ((typeof parent === 'string' && wanted.has(parent)) || (Array.isArray(evidence) && evidence.some((id) => wanted.has(id))))
      found.push(record);
  }
  return found;
}

/**
 * Deletes the concept refs and edges of the records in `list` (a JSON array of ids) within `scope`, by
 * either end. One statement per end: with `a IN (…) OR b IN (…)` the planner read every ref and edge of
 * the scope (23 and 32 ms at 200,000 of each, for any number of ids); each end alone seeks its index.
 */
function deleteLinks(connection: SqliteConnection, scope: Scope, list: string): { refs: number; edges: number } {
  const refs =
    connection.run(`DELETE FROM concept_refs WHERE scope = ? AND ${inList('concept_id')}`, scope, list) +
    connection.run(`DELETE FROM concept_refs INDEXED BY concept_refs_ref WHERE scope = ? AND ${inList('ref_id')}`, scope, list);
  const edges =
    connection.run(`DELETE FROM edges INDEXED BY edges_scope_from WHERE scope = ? AND ${inList('from_id')}`, scope, list) +
    connection.run(`DELETE FROM edges INDEXED BY edges_scope_to WHERE scope = ? AND ${inList('to_id')}`, scope, list);
  return { refs, edges };
}

/**
 * The hard delete of purge, inside the caller's write transaction: refs, edges, vectors (logged in
 * `vector_changes` so in-memory and persisted vector indexes drop them), then the rows (their FTS
 * entries and belief intervals go with them by trigger). The writer runs with `secure_delete`, which zeroes the freed bytes.
 */
export function deleteMemories(connection: SqliteConnection, ids: readonly string[], scope: Scope): DeletedCounts & { rowids: number[] } {
  assertScope(scope);
  if (ids.length === 0) return { records: 0, edges: 0, refs: 0, indexEntries: 0, rowids: [] };
  const unique = [...new Set(ids)];
  const list = JSON.stringify(unique);
  const rowids = connection
    .all<{ rowid: number }>(`SELECT rowid FROM memories WHERE scope = ? AND ${inList('id')}`, scope, list)
    .map((r) => r.rowid);
  if (rowids.length === 0) return { records: 0, edges: 0, refs: 0, indexEntries: 0, rowids };
  const { refs, edges } = deleteLinks(connection, scope, list);
  let vectors = 0;
  for (const rowid of rowids) {
    vectors += connection.run('DELETE FROM memory_vectors WHERE rowid = ?', BigInt(rowid));
    // a reembed in progress holds the row's vector of the next model too
    connection.run('DELETE FROM embedding_staging WHERE memory_rowid = ?', rowid);
    connection.run('INSERT INTO vector_changes (scope, memory_rowid) VALUES (?, ?)', scope, rowid);
  }
  // the rows' FTS entries (one a record) and belief intervals go with them by trigger
  const records = connection.run(`DELETE FROM memories WHERE scope = ? AND ${inList('id')}`, scope, list);
  return { records, edges, refs, indexEntries: records + vectors, rowids };
}

/**
 * Tombstones (see `StoreTransaction.tombstoneMemories`), inside the caller's write transaction: refs,
 * edges and vectors go as in `deleteMemories`; the row stays with its patch applied (the FTS and
 * lexical-index triggers follow the blanked content) and no source key.
 */
export function tombstoneMemories(
  connection: SqliteConnection,
  tombstones: readonly { id: string; patch: MemoryPatch }[],
  scope: Scope,
): DeletedCounts & { rowids: number[] } {
  assertScope(scope);
  const ids = [...new Set(tombstones.map((t) => t.id))];
  if (ids.length === 0) return { records: 0, edges: 0, refs: 0, indexEntries: 0, rowids: [] };
  const list = JSON.stringify(ids);
  const rows = connection.all<{ rowid: number; id: string }>(
    `SELECT rowid, id FROM memories WHERE scope = ? AND ${inList('id')}`,
    scope,
    list,
  );
  if (rows.length === 0) return { records: 0, edges: 0, refs: 0, indexEntries: 0, rowids: [] };
  const { refs, edges } = deleteLinks(connection, scope, list);
  // an expired record is never visible, so what was believed of it goes with its content
  deleteBeliefs(connection, ids, scope);
  let vectors = 0;
  const patches = new Map(tombstones.map((t) => [t.id, t.patch]));
  for (const { rowid, id } of rows) {
    vectors += connection.run('DELETE FROM memory_vectors WHERE rowid = ?', BigInt(rowid));
    connection.run('DELETE FROM embedding_staging WHERE memory_rowid = ?', rowid);
    connection.run('INSERT INTO vector_changes (scope, memory_rowid) VALUES (?, ?)', scope, rowid);
    const { sql, params } = patchAssignments(patches.get(id) as MemoryPatch);
    connection.run(`UPDATE memories SET ${sql.length > 0 ? `${sql}, ` : ''}source_key = NULL WHERE rowid = ?`, ...params, rowid);
  }
  // each row's FTS entry is rewritten from the blank content by the update trigger
  return { records: rows.length, edges, refs, indexEntries: rows.length + vectors, rowids: rows.map((r) => r.rowid) };
}

/** Appends one audit row. */
export function appendAudit(connection: SqliteConnection, entry: AuditEntry): void {
  connection.run(
    'INSERT INTO audit_log (id, at, actor, action, scope, count, details) VALUES (?, ?, ?, ?, ?, ?, ?)',
    entry.id,
    entry.at,
    entry.actor,
    entry.action,
    entry.scope,
    entry.count,
    JSON.stringify(entry.details),
  );
}

/**
 * After a purge commits: merges the FTS index into one segment (dropping the deleted rows' terms,
 * whose pages secure_delete zeroes) and truncates the WAL. Call outside a transaction on the writer.
 * Returns whether the WAL was fully checkpointed (another process's open read can hold it).
 */
export async function scrubAfterDelete(connection: SqliteConnection): Promise<boolean> {
  await connection.beginImmediate();
  try {
    connection.run("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')");
    connection.commit();
  } catch (error) {
    connection.rollbackQuietly();
    throw error;
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = connection.get<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)');
    if (result === undefined || result.busy === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** See `StoreReader.recentEpisodeHeads`: per scope along `memories_scope_layer_recorded`, then merged. */
export function recentEpisodeHeads(connection: SqliteConnection, query: { scopes: readonly Scope[]; limit: number }): EpisodeHead[] {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const perScope = scopes.map((scope) =>
    connection.all<EpisodeHeadRow>(
      `SELECT substr(m.content, 1, ${EPISODE_HEAD_CHARS}) AS head,
              CASE WHEN json_valid(m.data) THEN json_extract(m.data, '$.perception.people') END AS people,
              m.recorded_at AS t
       FROM memories m WHERE m.scope = ? AND m.layer = 'episodic' AND m.status = 'active'
       ORDER BY m.recorded_at DESC LIMIT ?`,
      scope,
      limit,
    ),
  );
  return mergeEpisodeHeads(perScope, limit);
}
