/**
 * The background job queue on PostgreSQL: claimed with `FOR UPDATE SKIP LOCKED`, so any number of servers
 * may claim from it at once and each job goes to one of them.
 */
import type { ClaimJobsQuery, Job, JobBacklog, JobCounts, NewJob } from '../../core/ports/store.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import { assertNewJob, backlogOf, claimedJob, claimLimit, type JobRow } from '../job-rows.js';
import type { PgQueryable } from './pg-driver.js';
import type { Tables } from './pg-rows.js';

/** Jobs per INSERT (four array parameters, whatever their number). */
const ENQUEUE_ROWS = 1000;

/**
 * Queues `jobs` in their order, skipping those whose dedupe key is already pending: one statement for up
 * to a thousand (a write batch spanning many scopes queues a job for each; one round trip a job was a
 * third of such a batch's time).
 */
export async function enqueueJobs(db: PgQueryable, t: Tables, jobs: readonly NewJob[], at: number): Promise<number> {
  for (const job of jobs) assertNewJob(job);
  let queued = 0;
  for (let start = 0; start < jobs.length; start += ENQUEUE_ROWS) {
    const slice = jobs.slice(start, start + ENQUEUE_ROWS);
    const result = await db.query(
      `INSERT INTO ${t.q('jobs')} (scope, kind, payload, dedupe_key, status, attempts, run_after, enqueued_at)
       SELECT j.scope, j.kind, j.payload, j.dedupe_key, 'pending', 0, $5, $5
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS j(scope, kind, payload, dedupe_key, i)
       ORDER BY j.i
       ON CONFLICT DO NOTHING`,
      [
        slice.map((job) => job.scope),
        slice.map((job) => job.kind),
        slice.map((job) => JSON.stringify(job.payload ?? null)),
        slice.map((job) => job.dedupeKey ?? null),
        at,
      ],
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
  return backlogOf(rows.rows);
}
