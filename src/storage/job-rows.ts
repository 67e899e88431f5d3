/**
 * The job queue's row shape and the checks every store applies to a claim, shared by the SQLite and
 * PostgreSQL stores so both hand out jobs alike.
 */
import { EngramError, messages } from '../core/errors.js';
import type { ClaimJobsQuery, Job, JobBacklog, JobCounts, NewJob } from '../core/ports/store.js';
import { assertScope } from '../core/scope.js';
import { MAX_LEASE_MS } from '../core/schemas.js';

/** A job as both stores select it (drivers may return bigint columns as strings). */
export interface JobRow {
  seq: number | string;
  scope: string;
  kind: string;
  payload: string;
  dedupe_key: string | null;
  attempts: number | string;
  enqueued_at: number | string;
  lease_until: number | string | null;
  last_error: string | null;
}

/** The limit to claim, 0 when nothing can be; throws when the claim has no owner or lease. */
export function claimLimit(query: ClaimJobsQuery): number {
  const limit = Math.floor(query.limit);
  if (!(limit > 0) || query.kinds.length === 0) return 0;
  // a lease the other store could not write either (Infinity, a fraction, past a day) is refused alike
  if (query.owner.length === 0 || !(Number.isInteger(query.leaseMs) && query.leaseMs > 0 && query.leaseMs <= MAX_LEASE_MS)) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`claiming jobs needs an owner and a leaseMs of whole milliseconds from 1 to ${MAX_LEASE_MS}`),
    );
  }
  return limit;
}

/** The claimed job of a row: `attempts` as counted after this claim, `leaseUntil` as set by it. */
export function claimedJob(row: JobRow, attempts: number, leaseUntil: number): Job {
  return {
    id: String(row.seq),
    scope: row.scope,
    kind: row.kind,
    payload: JSON.parse(row.payload) as unknown,
    dedupeKey: row.dedupe_key,
    attempts,
    enqueuedAt: Number(row.enqueued_at),
    leaseUntil,
    lastError: row.last_error,
  };
}

/** Throws unless a job to enqueue names its scope and a kind. */
export function assertNewJob(job: NewJob): void {
  assertScope(job.scope);
  if (typeof job.kind !== 'string' || job.kind.length === 0)
    throw new EngramError('INVALID_INPUT', messages.invalidInput('a job needs a kind'));
}

/** The backlog of counted `(kind, status, n)` rows (drivers may return counts as strings). */
export function backlogOf(rows: readonly { kind: string; status: keyof JobCounts; n: number | string }[]): JobBacklog {
  const backlog: JobBacklog = { pending: 0, running: 0, failed: 0, byKind: {} };
  for (const { kind, status, n } of rows) {
    const counts = (backlog.byKind[kind] ??= { pending: 0, running: 0, failed: 0 });
    counts[status] += Number(n);
    backlog[status] += Number(n);
  }
  return backlog;
}
