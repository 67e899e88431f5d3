/**
 * SQL of the layer features: relation registry, concept refs (capped FIFO sets), concept
 * names, per-scope state documents and the background job queue. Plain synchronous functions over one
 * connection; the reader, the transaction and the store call them inside their snapshot or write lock.
 */
import { EngramError, messages } from '../../core/errors.js';
import type { Layer, MemoryRecord, MemoryStatus } from '../../core/memory.js';
import type {
  ClaimJobsQuery,
  ConceptRef,
  ConceptRefQuery,
  Job,
  JobBacklog,
  JobCounts,
  NewJob,
  StateEntry,
  StateListOptions,
} from '../../core/ports/store.js';
import { CONCEPT_REFS_CAP } from '../../core/ports/store.js';
import { assertRelationTenant, relationConflict, type RelationType } from '../../core/relations.js';
import { assertReadScopes, assertScope, tenantOf, type Scope } from '../../core/scope.js';
import { claimedJob, claimLimit, type JobRow } from '../job-rows.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { inList, memoryColumns, rowToMemory, type MemoryRow } from './sqlite-rows.js';

interface RelationRow {
  tenant: string;
  name: string;
  symmetric: number;
  built_in: number;
  proposed_by: string | null;
  description: string | null;
  registered_at: number;
}

/** The tenant column of the built-ins, which every tenant sees. */
const EVERY_TENANT = '';

function rowToRelation(row: RelationRow): RelationType {
  return {
    name: row.name,
    symmetric: row.symmetric === 1,
    builtIn: row.built_in === 1,
    proposedBy: row.proposed_by,
    description: row.description,
    registeredAt: row.registered_at,
    tenant: row.tenant === EVERY_TENANT ? null : row.tenant,
  };
}

export function readRelationTypes(connection: SqliteConnection, scopes: readonly Scope[]): RelationType[] {
  const tenants = JSON.stringify([...new Set(assertReadScopes(scopes).map(tenantOf))]);
  return connection
    .all<RelationRow>(`SELECT * FROM relation_types WHERE tenant = '${EVERY_TENANT}' OR ${inList('tenant')} ORDER BY name, tenant`, tenants)
    .map(rowToRelation);
}

export function registerRelationType(connection: SqliteConnection, type: RelationType): RelationType {
  const tenant = assertRelationTenant(type.tenant);
  const existing =
    connection.get<RelationRow>('SELECT * FROM relation_types WHERE tenant = ? AND name = ?', EVERY_TENANT, type.name) ??
    connection.get<RelationRow>('SELECT * FROM relation_types WHERE tenant = ? AND name = ?', tenant, type.name);
  if (existing !== undefined) {
    if ((existing.symmetric === 1) !== type.symmetric) throw relationConflict(type.name, existing.symmetric === 1);
    return rowToRelation(existing);
  }
  connection.run(
    'INSERT INTO relation_types (tenant, name, symmetric, built_in, proposed_by, description, registered_at) VALUES (?, ?, ?, 0, ?, ?, ?)',
    tenant,
    type.name,
    type.symmetric ? 1 : 0,
    type.proposedBy,
    type.description,
    type.registeredAt,
  );
  return { ...type, builtIn: false, tenant };
}

interface RefRow {
  scope: string;
  concept_id: string;
  layer: string;
  ref_id: string;
}

const toRef = (row: RefRow): ConceptRef => ({ scope: row.scope, conceptId: row.concept_id, layer: row.layer as Layer, refId: row.ref_id });

export function readConceptRefs(connection: SqliteConnection, query: ConceptRefQuery): ConceptRef[] {
  const scopes = JSON.stringify(assertReadScopes(query.scopes));
  if (query.conceptIds.length === 0 || query.layers?.length === 0) return [];
  const layers = query.layers === undefined ? '' : ` AND ${inList('layer')}`;
  return connection
    .all<RefRow>(
      `SELECT scope, concept_id, layer, ref_id FROM concept_refs WHERE ${inList('scope')} AND ${inList('concept_id')}${layers} ORDER BY seq`,
      scopes,
      JSON.stringify(query.conceptIds),
      ...(query.layers === undefined ? [] : [JSON.stringify(query.layers)]),
    )
    .map(toRef);
}

export function readConceptsByRef(
  connection: SqliteConnection,
  query: { scopes: readonly Scope[]; refIds: readonly string[] },
): ConceptRef[] {
  const scopes = JSON.stringify(assertReadScopes(query.scopes));
  if (query.refIds.length === 0) return [];
  return connection
    .all<RefRow>(
      `SELECT scope, concept_id, layer, ref_id FROM concept_refs WHERE ${inList('scope')} AND ${inList('ref_id')} ORDER BY seq`,
      scopes,
      JSON.stringify(query.refIds),
    )
    .map(toRef);
}

/** ASCII-only lower-casing, matching SQLite's built-in `lower()`. */
export function asciiLower(text: string): string {
  return text.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
}

const MEMORY_COLUMNS = memoryColumns('m');

export function readConcepts(
  connection: SqliteConnection,
  query: {
    scopes: readonly Scope[];
    names: readonly string[];
    layers?: readonly Layer[];
    statuses?: readonly MemoryStatus[];
    limit?: number;
  },
): MemoryRecord[] {
  const scopes = JSON.stringify(assertReadScopes(query.scopes));
  const layers = query.layers ?? ['semantic'];
  const statuses = query.statuses ?? ['active'];
  const limit = Math.floor(query.limit ?? 1000);
  if (query.names.length === 0 || layers.length === 0 || statuses.length === 0 || !(limit > 0)) return [];
  return connection
    .all<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE ${inList('m.scope')} AND ${inList('m.concept_name')} AND ${inList('m.layer')} AND ${inList('m.status')}
       ORDER BY m.recorded_at, m.id LIMIT ?`,
      scopes,
      JSON.stringify(query.names.map(asciiLower)),
      JSON.stringify(layers),
      JSON.stringify(statuses),
      limit,
    )
    .map(rowToMemory);
}

function assertMembers(connection: SqliteConnection, scope: Scope, ids: readonly string[]): void {
  const unique = [...new Set(ids)];
  const found =
    connection.get<{ n: number }>(`SELECT count(*) AS n FROM memories WHERE scope = ? AND ${inList('id')}`, scope, JSON.stringify(unique))
      ?.n ?? 0;
  if (found !== unique.length) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        'a concept ref must connect a concept and a record that both exist in the same scope; write them in that scope first',
      ),
      { details: { scope } },
    );
  }
}

export function addConceptRefs(
  connection: SqliteConnection,
  input: { scope: Scope; conceptId: string; layer: Layer; refIds: readonly string[]; cap?: number },
): { added: string[]; evicted: string[] } {
  const scope = assertScope(input.scope);
  const cap = Math.floor(input.cap ?? CONCEPT_REFS_CAP);
  if (!(cap > 0)) throw new EngramError('INVALID_INPUT', messages.invalidInput('the concept ref cap must be a positive integer'));
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
  // where the set already holds the target, the old entry just goes
  connection.run(
    `DELETE FROM concept_refs WHERE scope = ? AND ref_id = ? AND EXISTS (
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

interface StateRow {
  scope: string;
  key: string;
  value: string;
  updated_at: number;
}

const toState = (row: StateRow): StateEntry => ({
  scope: row.scope,
  key: row.key,
  value: JSON.parse(row.value) as unknown,
  updatedAt: row.updated_at,
});

function assertKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) {
    throw new EngramError('INVALID_INPUT', messages.invalidInput('a state key must be a non-empty string of at most 512 characters'));
  }
}

export function readState(connection: SqliteConnection, scope: Scope, key: string): StateEntry | null {
  assertScope(scope);
  assertKey(key);
  const row = connection.get<StateRow>('SELECT scope, key, value, updated_at FROM state WHERE scope = ? AND key = ?', scope, key);
  return row === undefined ? null : toState(row);
}

export function listState(
  connection: SqliteConnection,
  scope: Scope,
  keyPrefix: string,
  limit: number,
  options: StateListOptions = {},
): StateEntry[] {
  assertScope(scope);
  const n = Math.floor(limit);
  if (!(n > 0)) return [];
  const descending = options.order === 'desc';
  const after = options.after !== undefined ? ` AND key ${descending ? '<' : '>'} ?` : '';
  // substr comparison: a literal prefix match, no LIKE wildcards
  return connection
    .all<StateRow>(
      `SELECT scope, key, value, updated_at FROM state WHERE scope = ? AND substr(key, 1, ?) = ?${after} ORDER BY key ${descending ? 'DESC' : 'ASC'} LIMIT ?`,
      scope,
      keyPrefix.length,
      keyPrefix,
      ...(options.after !== undefined ? [options.after] : []),
      n,
    )
    .map(toState);
}

export function writeState(connection: SqliteConnection, scope: Scope, key: string, value: unknown, at: number): void {
  assertScope(scope);
  assertKey(key);
  const json = value === undefined ? undefined : JSON.stringify(value);
  if (json === undefined)
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput('a state value must be JSON (not undefined); use deleteState to remove it'),
    );
  connection.run(
    'INSERT INTO state (scope, key, value, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    scope,
    key,
    json,
    at,
  );
}

export function deleteState(connection: SqliteConnection, scope: Scope, key: string): boolean {
  assertScope(scope);
  return connection.run('DELETE FROM state WHERE scope = ? AND key = ?', scope, key) > 0;
}

export function enqueueJobs(connection: SqliteConnection, jobs: readonly NewJob[], at: number): number {
  let queued = 0;
  for (const job of jobs) {
    assertScope(job.scope);
    if (typeof job.kind !== 'string' || job.kind.length === 0)
      throw new EngramError('INVALID_INPUT', messages.invalidInput('a job needs a kind'));
    queued += connection.run(
      `INSERT OR IGNORE INTO jobs (scope, kind, payload, dedupe_key, status, attempts, run_after, enqueued_at)
       VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)`,
      job.scope,
      job.kind,
      JSON.stringify(job.payload ?? null),
      job.dedupeKey ?? null,
      at,
      at,
    );
  }
  return queued;
}

export function claimJobs(connection: SqliteConnection, query: ClaimJobsQuery): Job[] {
  const limit = claimLimit(query);
  if (limit === 0) return [];
  const byScope = query.scopes === 'all' ? '' : ` AND ${inList('scope')}`;
  const rows = connection.all<JobRow>(
    `SELECT seq, scope, kind, payload, dedupe_key, attempts, enqueued_at, lease_until, last_error FROM jobs
     WHERE ${inList('kind')}${byScope}
       AND ((status = 'pending' AND run_after <= ?) OR (status = 'running' AND lease_until <= ?))
     ORDER BY seq LIMIT ?`,
    JSON.stringify(query.kinds),
    ...(query.scopes === 'all' ? [] : [JSON.stringify(assertReadScopes(query.scopes))]),
    query.now,
    query.now,
    limit,
  );
  const leaseUntil = query.now + query.leaseMs;
  return rows.map((row) => {
    connection.run(
      "UPDATE jobs SET status = 'running', owner = ?, lease_until = ?, attempts = attempts + 1 WHERE seq = ?",
      query.owner,
      leaseUntil,
      row.seq,
    );
    return claimedJob(row, Number(row.attempts) + 1, leaseUntil);
  });
}

export function completeJobs(connection: SqliteConnection, ids: readonly string[], owner: string): number {
  if (ids.length === 0) return 0;
  return connection.run(
    `DELETE FROM jobs WHERE status = 'running' AND owner = ? AND seq IN (SELECT CAST(value AS INTEGER) FROM json_each(?))`,
    owner,
    JSON.stringify(ids),
  );
}

export function failJob(
  connection: SqliteConnection,
  id: string,
  owner: string,
  error: string,
  options: { now: number; maxAttempts?: number; retryAfterMs?: number },
): 'retry' | 'failed' | 'lost' {
  const row = connection.get<{ attempts: number }>(
    "SELECT attempts FROM jobs WHERE seq = ? AND status = 'running' AND owner = ?",
    Number(id),
    owner,
  );
  if (row === undefined) return 'lost';
  const message = String(error).slice(0, 2000);
  if (row.attempts >= (options.maxAttempts ?? 3)) {
    connection.run(
      "UPDATE jobs SET status = 'failed', owner = NULL, lease_until = NULL, last_error = ? WHERE seq = ?",
      message,
      Number(id),
    );
    return 'failed';
  }
  connection.run(
    "UPDATE jobs SET status = 'pending', owner = NULL, lease_until = NULL, last_error = ?, run_after = ? WHERE seq = ?",
    message,
    options.now + Math.max(0, options.retryAfterMs ?? 0),
    Number(id),
  );
  return 'retry';
}

export function jobBacklog(connection: SqliteConnection, scopes: readonly Scope[]): JobBacklog {
  const allowed = JSON.stringify(assertReadScopes(scopes));
  const rows = connection.all<{ kind: string; status: keyof JobCounts; n: number }>(
    `SELECT kind, status, count(*) AS n FROM jobs WHERE ${inList('scope')} GROUP BY kind, status ORDER BY kind`,
    allowed,
  );
  const backlog: JobBacklog = { pending: 0, running: 0, failed: 0, byKind: {} };
  for (const { kind, status, n } of rows) {
    const counts = (backlog.byKind[kind] ??= { pending: 0, running: 0, failed: 0 });
    counts[status] += n;
    backlog[status] += n;
  }
  return backlog;
}
