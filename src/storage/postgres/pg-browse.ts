/**
 * Browsing and purging on PostgreSQL: keyset pages per scope (LATERAL over the scopes, each
 * an ordered scan of a `memories_browse_*` index, migration 6), scope discovery by a skip scan, and
 * the hard delete of purge.
 */
import { deleteBeliefs } from './pg-beliefs.js';
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
  mergeBrowsePages,
  NEVER_ACCESSED,
  UNSCORED_IMPORTANCE,
} from '../../core/browse/sort-key.js';
import type { PgQueryable } from './pg-driver.js';
import { memoryColumns, Params, patchAssignments, rowToMemory, visibilityClause, type MemoryRow, type Tables } from './pg-rows.js';

/** Sort expressions exactly as indexed by migration 6, and the type of their keys. */
const SORTS: Record<BrowseSort, { key: string; type: 'bigint' | 'float8' }> = {
  recordedAt: { key: 'm.recorded_at', type: 'bigint' },
  validFrom: { key: 'm.valid_from', type: 'bigint' },
  importance: { key: `coalesce(m.importance, ${UNSCORED_IMPORTANCE.toFixed(1)})`, type: 'float8' },
  accessedAt: { key: `coalesce(m.last_accessed_at, ${NEVER_ACCESSED})`, type: 'bigint' },
};

/** ASCII-only lower-casing in SQL, as `asciiLower` does. */
const fold = (expression: string): string => `translate(${expression}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

const COLUMNS = memoryColumns('m');

/** One page (see `StoreReader.browseMemories`). */
export async function browseMemories(db: PgQueryable, t: Tables, query: BrowseQuery): Promise<MemoryRecord[]> {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0) || query.layers?.length === 0 || query.statuses?.length === 0) return [];
  const { key, type } = SORTS[query.sort];
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const p = new Params();
  const scopeList = p.add([...scopes]);
  const where = ['m.scope = s.scope'];
  if (query.layers !== undefined) where.push(`m.layer = ANY(${p.add([...query.layers])}::text[])`);
  if (query.statuses !== undefined) where.push(`m.status = ANY(${p.add([...query.statuses])}::text[])`);
  if (query.tag !== undefined) where.push(`strpos(${fold('m.tags')}, ${p.add(jsonElementNeedle(query.tag))}) > 0`);
  if (query.entity !== undefined) where.push(`strpos(${fold('m.entities')}, ${p.add(jsonElementNeedle(query.entity))}) > 0`);
  if (query.text !== undefined) {
    // the content, the summary, or text the record keeps in data (past wordings, episode fields, claim)
    const needle = p.add(asciiLower(query.text));
    where.push(
      `(strpos(${fold('m.content')}, ${needle}) > 0 OR strpos(${fold("coalesce(m.summary, '')")}, ${needle}) > 0 OR strpos(${fold('m.data')}, ${p.add(jsonTextNeedle(query.text))}) > 0)`,
    );
  }
  if (query.validFrom !== undefined) where.push(`(m.valid_to IS NULL OR m.valid_to > ${p.add(query.validFrom)}::bigint)`);
  if (query.validTo !== undefined) where.push(`m.valid_from < ${p.add(query.validTo)}::bigint`);
  if (query.recordedFrom !== undefined) where.push(`m.recorded_at >= ${p.add(query.recordedFrom)}::bigint`);
  if (query.recordedTo !== undefined) where.push(`m.recorded_at < ${p.add(query.recordedTo)}::bigint`);
  if (query.visibleAt !== undefined) {
    const { now, ...filter } = query.visibleAt;
    where.push(`(${visibilityClause(filter, now, 'm', p, t)})`);
  }
  if (query.after !== undefined) {
    where.push(
      `(${key}, m.id) ${query.order === 'asc' ? '>' : '<'} (${p.add(query.after.key)}::${type}, ${p.add(query.after.id)}::text COLLATE "C")`,
    );
  }
  const size = p.add(limit);
  // per scope an ordered index scan of `limit` positions; the page's rows are then read in one go
  const rows = await db.query<MemoryRow>(
    `WITH positions AS (
       SELECT x.id, x.k FROM unnest(${scopeList}::text[]) AS s(scope) CROSS JOIN LATERAL (
         SELECT m.id, ${key} AS k FROM ${t.memories} m WHERE ${where.join(' AND ')} ORDER BY ${key} ${direction}, m.id ${direction} LIMIT ${size}
       ) x
       ORDER BY x.k ${direction}, x.id ${direction} LIMIT ${size}
     )
     SELECT ${COLUMNS} FROM positions JOIN ${t.memories} m ON m.id = positions.id ORDER BY positions.k ${direction}, positions.id ${direction}`,
    p.values,
  );
  return mergeBrowsePages([rows.rows.map(rowToMemory)], query.sort, query.order, limit);
}

/**
 * See `StoreReader.recentEpisodeHeads`: per scope along `memories_scope_layer_recorded`. The people are
 * found in the data's text (the first "people" array), so a row whose data is not JSON fails nothing.
 */
export async function recentEpisodeHeads(
  db: PgQueryable,
  t: Tables,
  query: { scopes: readonly Scope[]; limit: number },
): Promise<EpisodeHead[]> {
  const scopes = assertReadScopes(query.scopes);
  const limit = Math.floor(query.limit);
  if (!(limit > 0)) return [];
  const rows = await db.query<EpisodeHeadRow>(
    `SELECT x.head, x.people, x.t FROM unnest($1::text[]) AS s(scope) CROSS JOIN LATERAL (
       SELECT left(m.content, ${EPISODE_HEAD_CHARS}) AS head, substring(m.data from '"people":([[][^]]*[]])') AS people, m.recorded_at AS t
       FROM ${t.memories} m WHERE m.scope = s.scope AND m.layer = 'episodic' AND m.status = 'active'
       ORDER BY m.recorded_at DESC LIMIT $2
     ) x
     ORDER BY x.t DESC LIMIT $2`,
    [[...scopes], limit],
  );
  return mergeEpisodeHeads([rows.rows], limit);
}

/** Existing scopes by a skip scan over the scope index (one index seek per distinct scope). */
export async function listScopes(db: PgQueryable, t: Tables, selection: ScopeSelection): Promise<Scope[]> {
  const tenants = selection === 'all' ? undefined : new Set(selection.tenants);
  if (tenants !== undefined && tenants.size === 0) return [];
  const rows = await db.query<{ scope: string }>(
    `WITH RECURSIVE s(scope) AS (
       SELECT min(scope) FROM ${t.memories}
       UNION ALL SELECT (SELECT min(m.scope) FROM ${t.memories} m WHERE m.scope > s.scope) FROM s WHERE s.scope IS NOT NULL
     ) SELECT scope FROM s WHERE scope IS NOT NULL`,
  );
  return rows.rows
    .map((r) => r.scope)
    .filter((scope) => tenants === undefined || tenants.has(tenantOf(scope)))
    .sort(compareCodePoints);
}

/** Counts per scope, layer and status (see `StoreReader.summarizeScopes`). */
export async function summarizeScopes(db: PgQueryable, t: Tables, scopes: readonly Scope[]): Promise<ScopeSummary[]> {
  const allowed = assertReadScopes(scopes);
  const rows = await db.query<{ scope: string; layer: string; status: string; n: number }>(
    `SELECT scope, layer, status, count(*)::int AS n FROM ${t.memories} WHERE scope = ANY($1::text[]) GROUP BY 1, 2, 3`,
    [[...allowed]],
  );
  const byScope = new Map<string, ScopeSummary>();
  for (const row of rows.rows) {
    const n = Number(row.n);
    let summary = byScope.get(row.scope);
    if (summary === undefined) {
      summary = {
        scope: row.scope,
        total: 0,
        byLayer: Object.fromEntries(LAYERS.map((l) => [l, 0])),
        byStatus: Object.fromEntries(STATUSES.map((s) => [s, 0])),
      };
      byScope.set(row.scope, summary);
    }
    summary.total += n;
    summary.byLayer[row.layer] = (summary.byLayer[row.layer] ?? 0) + n;
    summary.byStatus[row.status] = (summary.byStatus[row.status] ?? 0) + n;
  }
  return [...byScope.values()].sort((a, b) => compareCodePoints(a.scope, b.scope));
}

/** Chunks and derived records of `ids`: a text pre-filter in SQL (no jsonb cast, which a damaged row would fail), then the exact check. */
export async function findDerived(db: PgQueryable, t: Tables, scope: Scope, ids: readonly string[]): Promise<MemoryRecord[]> {
  assertScope(scope);
  if (ids.length === 0) return [];
  const rows = await db.query<MemoryRow>(
    `SELECT ${COLUMNS} FROM ${t.memories} m WHERE m.scope = $1 AND (strpos(m.data, '"parentId":') > 0 OR strpos(m.provenance, '"derivedFrom":[]') = 0)`,
    [scope],
  );
  const wanted = new Set(ids);
  const found: MemoryRecord[] = [];
  for (const row of rows.rows) {
    const record = rowToMemory(row);
    const parent = (record.data as MemoryRecord['data'] | undefined)?.parentId;
    const evidence = (record.provenance as MemoryRecord['provenance'] | undefined)?.derivedFrom;
    if ((typeof parent === 'string' && wanted.has(parent)) || (Array.isArray(evidence) && evidence.some((id) => wanted.has(id))))
      found.push(record);
  }
  return found;
}

/**
 * The hard delete of purge, inside the caller's transaction: refs, edges, then the rows (their
 * tsvector and vector index entries with them, their belief intervals by trigger), logged in `vector_log` so every server's exact
 * vector cache drops them.
 */
export async function deleteMemories(db: PgQueryable, t: Tables, ids: readonly string[], scope: Scope): Promise<DeletedCounts> {
  assertScope(scope);
  const list = [...new Set(ids)];
  if (list.length === 0) return { records: 0, edges: 0, refs: 0, indexEntries: 0 };
  const refs = await db.query(
    `DELETE FROM ${t.q('concept_refs')} WHERE scope = $1 AND (concept_id = ANY($2::text[]) OR ref_id = ANY($2::text[]))`,
    [scope, list],
  );
  const edges = await db.query(`DELETE FROM ${t.edges} WHERE scope = $1 AND (from_id = ANY($2::text[]) OR to_id = ANY($2::text[]))`, [
    scope,
    list,
  ]);
  const deleted = await db.query<{ id: string }>(
    `WITH gone AS (DELETE FROM ${t.memories} WHERE scope = $1 AND id = ANY($2::text[]) RETURNING scope, id)
     INSERT INTO ${t.q('vector_log')} (scope, memory_id) SELECT scope, id FROM gone RETURNING memory_id AS id`,
    [scope, list],
  );
  const records = deleted.rows.length;
  // a reembed in progress holds the rows' vectors of the next model too
  await db.query(`DELETE FROM ${t.q('embedding_staging')} WHERE memory_id = ANY($1::text[])`, [deleted.rows.map((r) => r.id)]);
  // each row held one lexical (tsvector) and one vector entry
  return { records, edges: edges.rowCount, refs: refs.rowCount, indexEntries: records * 2 };
}

/**
 * Tombstones (see `StoreTransaction.tombstoneMemories`), inside the caller's transaction: refs and edges
 * go as in `deleteMemories`; the row stays with its patch applied, no lexemes, no vector (logged in
 * `vector_log` so every server's exact vector cache drops it) and no source key.
 */
export async function tombstoneMemories(
  db: PgQueryable,
  t: Tables,
  tombstones: readonly { id: string; patch: MemoryPatch }[],
  scope: Scope,
): Promise<DeletedCounts> {
  assertScope(scope);
  const list = [...new Set(tombstones.map((x) => x.id))];
  if (list.length === 0) return { records: 0, edges: 0, refs: 0, indexEntries: 0 };
  const refs = await db.query(
    `DELETE FROM ${t.q('concept_refs')} WHERE scope = $1 AND (concept_id = ANY($2::text[]) OR ref_id = ANY($2::text[]))`,
    [scope, list],
  );
  const edges = await db.query(`DELETE FROM ${t.edges} WHERE scope = $1 AND (from_id = ANY($2::text[]) OR to_id = ANY($2::text[]))`, [
    scope,
    list,
  ]);
  // an expired record is never visible, so what was believed of it goes with its content
  await deleteBeliefs(db, t, list, scope);
  let records = 0;
  let vectors = 0;
  for (const { id, patch } of tombstones) {
    const p = new Params();
    const assignments = patchAssignments(patch, p);
    const done = await db.query<{ had: boolean }>(
      `WITH old AS (SELECT embedding IS NOT NULL AS had FROM ${t.memories} WHERE scope = ${p.add(scope)} AND id = ${p.add(id)}),
       changed AS (UPDATE ${t.memories} SET ${[...assignments, `lexemes = ''::tsvector`, 'embedding = NULL', 'source_key = NULL'].join(', ')}
         WHERE scope = ${p.add(scope)} AND id = ${p.add(id)} RETURNING scope, id),
       logged AS (INSERT INTO ${t.q('vector_log')} (scope, memory_id) SELECT scope, id FROM changed)
       SELECT had FROM old`,
      p.values,
    );
    const row = done.rows[0];
    if (row === undefined) continue;
    records += 1;
    if (row.had) vectors += 1;
  }
  await db.query(`DELETE FROM ${t.q('embedding_staging')} WHERE memory_id = ANY($1::text[])`, [list]);
  return { records, edges: edges.rowCount, refs: refs.rowCount, indexEntries: records + vectors };
}

/** Appends one audit row. */
export async function appendAudit(db: PgQueryable, t: Tables, entry: AuditEntry): Promise<void> {
  await db.query(`INSERT INTO ${t.q('audit_log')} (id, at, actor, action, scope, count, details) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    entry.id,
    entry.at,
    entry.actor,
    entry.action,
    entry.scope,
    entry.count,
    JSON.stringify(entry.details),
  ]);
}
