/**
 * The background job queue on SQLite: enqueue (deduplicated by key), claim with a lease (inside the
 * store's write lock, so each job goes to one claimer), complete, fail with retry, backlog.
 */
import type { ClaimJobsQuery, Job, JobBacklog, JobCounts, NewJob } from '../../core/ports/store.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import { assertNewJob, backlogOf, claimedJob, claimLimit, type JobRow } from '../job-rows.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { inList } from './sqlite-rows.js';

export function enqueueJobs(connection: SqliteConnection, jobs: readonly NewJob[], at: number): number {
  let queued = 0;
  for (const job of jobs) {
    assertNewJob(job);
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
  return backlogOf(rows);
}
