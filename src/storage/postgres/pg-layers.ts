/**
 * SQL of the layer features on PostgreSQL: relation registry, concept refs (capped FIFO
 * sets), concept names, per-scope state documents and the background job queue. Same semantics as
 * `sqlite-layers.ts`; the queue is claimed with `FOR UPDATE SKIP LOCKED`, so any number of servers may
 * claim from it at once and each job goes to one of them.
 */
import { EngramError, messages } from '../../core/errors.js';
import type { Layer, MemoryRecord, MemoryStatus } from '../../core/memory.js';
import {
  CONCEPT_REFS_CAP,
  type ClaimJobsQuery,
  type ConceptRef,
  type ConceptRefQuery,
  type Job,
  type JobBacklog,
  type JobCounts,
  type NewJob,
  type StateEntry,
  type StateListOptions,
} from '../../core/ports/store.js';
import { assertRelationTenant, relationConflict, type RelationType } from '../../core/relations.js';
import { assertReadScopes, assertScope, tenantOf, type Scope } from '../../core/scope.js';
import { claimedJob, claimLimit, type JobRow } from '../job-rows.js';
import type { PgQueryable } from './pg-driver.js';
import { memoryColumns, rowToMemory, type MemoryRow, type Tables } from './pg-rows.js';

interface RelationRow {
  tenant: string;
  name: string;
  symmetric: boolean;
  built_in: boolean;
  proposed_by: string | null;
  description: string | null;
  registered_at: number;
}

/** The tenant column of the built-ins, which every tenant sees. */
const EVERY_TENANT = '';

function rowToRelation(row: RelationRow): RelationType {
  return {
    name: row.name,
    symmetric: row.symmetric === true,
    builtIn: row.built_in === true,
    proposedBy: row.proposed_by,
    description: row.description,
    registeredAt: Number(row.registered_at),
    tenant: row.tenant === EVERY_TENANT ? null : row.tenant,
  };
}

export async function readRelationTypes(db: PgQueryable, t: Tables, scopes: readonly Scope[]): Promise<RelationType[]> {
  const tenants = [...new Set(assertReadScopes(scopes).map(tenantOf))];
  return (
    await db.query<RelationRow>(
      `SELECT * FROM ${t.q('relation_types')} WHERE tenant = $1 OR tenant = ANY($2::text[]) ORDER BY name, tenant COLLATE "C"`,
      [EVERY_TENANT, tenants],
    )
  ).rows.map(rowToRelation);
}

export async function registerRelationType(db: PgQueryable, t: Tables, type: RelationType): Promise<RelationType> {
  const tenant = assertRelationTenant(type.tenant);
  const existing = (
    await db.query<RelationRow>(
      `SELECT * FROM ${t.q('relation_types')} WHERE name = $1 AND tenant IN ($2, $3) ORDER BY tenant COLLATE "C"`,
      [type.name, EVERY_TENANT, tenant],
    )
  ).rows[0];
  if (existing !== undefined) {
    if (existing.symmetric !== type.symmetric) throw relationConflict(type.name, existing.symmetric);
    return rowToRelation(existing);
  }
  await db.query(
    `INSERT INTO ${t.q('relation_types')} (tenant, name, "symmetric", built_in, proposed_by, description, registered_at) VALUES ($1, $2, $3, false, $4, $5, $6)`,
    [tenant, type.name, type.symmetric, type.proposedBy, type.description, type.registeredAt],
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

export async function readConceptRefs(db: PgQueryable, t: Tables, query: ConceptRefQuery): Promise<ConceptRef[]> {
  const scopes = [...assertReadScopes(query.scopes)];
  if (query.conceptIds.length === 0 || query.layers?.length === 0) return [];
  const layers = query.layers === undefined ? '' : ' AND layer = ANY($3::text[])';
  const rows = await db.query<RefRow>(
    `SELECT scope, concept_id, layer, ref_id FROM ${t.q('concept_refs')} WHERE scope = ANY($1::text[]) AND concept_id = ANY($2::text[])${layers} ORDER BY seq`,
    [scopes, [...query.conceptIds], ...(query.layers === undefined ? [] : [[...query.layers]])],
  );
  return rows.rows.map(toRef);
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
  return rows.rows.map(toRef);
}

/** ASCII-only lower-casing after trimming spaces, as the stored `concept_name`. */
export function asciiLower(text: string): string {
  return text.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
}

const MEMORY_COLUMNS = memoryColumns('m');

export async function readConcepts(
  db: PgQueryable,
  t: Tables,
  query: {
    scopes: readonly Scope[];
    names: readonly string[];
    layers?: readonly Layer[];
    statuses?: readonly MemoryStatus[];
    limit?: number;
  },
): Promise<MemoryRecord[]> {
  const scopes = [...assertReadScopes(query.scopes)];
  const layers = query.layers ?? ['semantic'];
  const statuses = query.statuses ?? ['active'];
  const limit = Math.floor(query.limit ?? 1000);
  if (query.names.length === 0 || layers.length === 0 || statuses.length === 0 || !(limit > 0)) return [];
  const rows = await db.query<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM ${t.memories} m
     WHERE m.scope = ANY($1::text[]) AND m.concept_name = ANY($2::text[]) AND m.layer = ANY($3::text[]) AND m.status = ANY($4::text[])
     ORDER BY m.recorded_at, m.id LIMIT $5`,
    [scopes, query.names.map(asciiLower), [...layers], [...statuses], limit],
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

export async function addConceptRefs(
  db: PgQueryable,
  t: Tables,
  input: { scope: Scope; conceptId: string; layer: Layer; refIds: readonly string[]; cap?: number },
): Promise<{ added: string[]; evicted: string[] }> {
  const scope = assertScope(input.scope);
  const cap = Math.floor(input.cap ?? CONCEPT_REFS_CAP);
  if (!(cap > 0)) throw new EngramError('INVALID_INPUT', messages.invalidInput('the concept ref cap must be a positive integer'));
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
  updatedAt: Number(row.updated_at),
});

function assertKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) {
    throw new EngramError('INVALID_INPUT', messages.invalidInput('a state key must be a non-empty string of at most 512 characters'));
  }
}

export async function readState(db: PgQueryable, t: Tables, scope: Scope, key: string): Promise<StateEntry | null> {
  assertScope(scope);
  assertKey(key);
  const row = (
    await db.query<StateRow>(`SELECT scope, key, value, updated_at FROM ${t.q('state')} WHERE scope = $1 AND key = $2`, [scope, key])
  ).rows[0];
  return row === undefined ? null : toState(row);
}

export async function listState(
  db: PgQueryable,
  t: Tables,
  scope: Scope,
  keyPrefix: string,
  limit: number,
  options: StateListOptions = {},
): Promise<StateEntry[]> {
  assertScope(scope);
  const n = Math.floor(limit);
  if (!(n > 0)) return [];
  const descending = options.order === 'desc';
  const params: unknown[] = [scope, keyPrefix.length, keyPrefix, n];
  const after = options.after !== undefined ? ` AND key ${descending ? '<' : '>'} $${params.push(options.after)}` : '';
  // left(): a literal prefix match, no LIKE wildcards
  const rows = await db.query<StateRow>(
    `SELECT scope, key, value, updated_at FROM ${t.q('state')} WHERE scope = $1 AND left(key, $2) = $3${after} ORDER BY key ${descending ? 'DESC' : 'ASC'} LIMIT $4`,
    params,
  );
  return rows.rows.map(toState);
}

export async function writeState(db: PgQueryable, t: Tables, scope: Scope, key: string, value: unknown, at: number): Promise<void> {
  assertScope(scope);
  assertKey(key);
  const json = value === undefined ? undefined : JSON.stringify(value);
  if (json === undefined)
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput('a state value must be JSON (not undefined); use deleteState to remove it'),
    );
  await db.query(
    `INSERT INTO ${t.q('state')} (scope, key, value, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (scope, key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [scope, key, json, at],
  );
}

export async function deleteState(db: PgQueryable, t: Tables, scope: Scope, key: string): Promise<boolean> {
  assertScope(scope);
  return (await db.query(`DELETE FROM ${t.q('state')} WHERE scope = $1 AND key = $2`, [scope, key])).rowCount > 0;
}

export async function enqueueJobs(db: PgQueryable, t: Tables, jobs: readonly NewJob[], at: number): Promise<number> {
  let queued = 0;
  for (const job of jobs) {
    assertScope(job.scope);
    if (typeof job.kind !== 'string' || job.kind.length === 0)
      throw new EngramError('INVALID_INPUT', messages.invalidInput('a job needs a kind'));
    const result = await db.query(
      `INSERT INTO ${t.q('jobs')} (scope, kind, payload, dedupe_key, status, attempts, run_after, enqueued_at)
       VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5) ON CONFLICT DO NOTHING`,
      [job.scope, job.kind, JSON.stringify(job.payload ?? null), job.dedupeKey ?? null, at],
    );
    queued += result.rowCount;
  }
  return queued;
}

/** Claims atomically: `FOR UPDATE SKIP LOCKED` hands each due job to one claimer, whatever the server. */
export async function claimJobs(db: PgQueryable, t: Tables, query: ClaimJobsQuery): Promise<Job[]> {
  const limit = claimLimit(query);
  if (limit === 0) return [];
  const scopes = query.scopes === 'all' ? null : [...assertReadScopes(query.scopes)];
  const leaseUntil = query.now + query.leaseMs;
  const jobs = t.q('jobs');
  const rows = await db.query<JobRow>(
    `WITH picked AS (
       SELECT seq FROM ${jobs}
       WHERE kind = ANY($1::text[]) AND ($2::text[] IS NULL OR scope = ANY($2::text[]))
         AND ((status = 'pending' AND run_after <= $3) OR (status = 'running' AND lease_until <= $3))
       ORDER BY seq LIMIT $4 FOR UPDATE SKIP LOCKED)
     UPDATE ${jobs} j SET status = 'running', owner = $5, lease_until = $6, attempts = j.attempts + 1
     FROM picked WHERE j.seq = picked.seq
     RETURNING j.seq, j.scope, j.kind, j.payload, j.dedupe_key, j.attempts, j.enqueued_at, j.lease_until, j.last_error`,
    [[...query.kinds], scopes, query.now, limit, query.owner, leaseUntil],
  );
  return rows.rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((row) => claimedJob(row, Number(row.attempts), leaseUntil));
}

const jobSeq = (id: string): number | null => (/^\d{1,15}$/.test(id) ? Number(id) : null);

export async function completeJobs(db: PgQueryable, t: Tables, ids: readonly string[], owner: string): Promise<number> {
  const seqs = ids.map(jobSeq).filter((s): s is number => s !== null);
  if (seqs.length === 0) return 0;
  return (await db.query(`DELETE FROM ${t.q('jobs')} WHERE status = 'running' AND owner = $1 AND seq = ANY($2::bigint[])`, [owner, seqs]))
    .rowCount;
}

export async function failJob(
  db: PgQueryable,
  t: Tables,
  id: string,
  owner: string,
  error: string,
  options: { now: number; maxAttempts?: number; retryAfterMs?: number },
): Promise<'retry' | 'failed' | 'lost'> {
  const seq = jobSeq(id);
  if (seq === null) return 'lost';
  const rows = await db.query<{ status: string }>(
    `UPDATE ${t.q('jobs')} SET
       status = CASE WHEN attempts >= $1 THEN 'failed' ELSE 'pending' END,
       run_after = CASE WHEN attempts >= $1 THEN run_after ELSE $2 END,
       owner = NULL, lease_until = NULL, last_error = $3
     WHERE seq = $4 AND status = 'running' AND owner = $5 RETURNING status`,
    [options.maxAttempts ?? 3, options.now + Math.max(0, options.retryAfterMs ?? 0), String(error).slice(0, 2000), seq, owner],
  );
  const status = rows.rows[0]?.status;
  return status === undefined ? 'lost' : status === 'failed' ? 'failed' : 'retry';
}

export async function jobBacklog(db: PgQueryable, t: Tables, scopes: readonly Scope[]): Promise<JobBacklog> {
  const allowed = [...assertReadScopes(scopes)];
  const rows = await db.query<{ kind: string; status: keyof JobCounts; n: number }>(
    `SELECT kind, status, count(*)::int AS n FROM ${t.q('jobs')} WHERE scope = ANY($1::text[]) GROUP BY kind, status ORDER BY kind`,
    [allowed],
  );
  const backlog: JobBacklog = { pending: 0, running: 0, failed: 0, byKind: {} };
  for (const { kind, status, n } of rows.rows) {
    const counts = (backlog.byKind[kind] ??= { pending: 0, running: 0, failed: 0 });
    counts[status] += Number(n);
    backlog[status] += Number(n);
  }
  return backlog;
}
