/**
 * The concept-extraction jobs (seed 000): `remember` queues one job per new episode in its own
 * transaction; a drain claims jobs from the store's queue (so it survives restarts and several
 * processes share it), extracts concepts in small batches off the hot path, and completes the jobs.
 * The background worker that drains them on a timer lives outside core (`consolidation/`).
 */
import type { MemoryRecord } from '../memory.js';
import type { Job } from '../ports/store.js';
import { randomSuffix, type SystemPorts } from '../ports/system.js';
import type { Scope } from '../scope.js';
import { extractConcepts, type ConceptDeps } from './extract.js';

/** The job kind `remember` enqueues; payload `{ ids: string[] }` (records of the job's scope). */
export const CONCEPT_JOB_KIND = 'extract-concepts';
/** At most this many records per job. */
export const CONCEPT_JOB_SIZE = 16;

export interface DrainOptions {
  /** Stop after this many jobs (default: until the queue is empty). */
  limit?: number;
  /** Stop starting new batches after this long (default: no limit). */
  maxMs?: number;
  /** Jobs per batch (one short write transaction each; default 16). */
  batch?: number;
  /** Claim owner (default: a random one per call). */
  owner?: string;
  /** Only these scopes' jobs (default: every scope of the store). */
  scopes?: readonly Scope[] | 'all';
  /** Lease per claim (default 60 s); a crashed worker's jobs are re-claimed after it. */
  leaseMs?: number;
}

/** What a drain needs: the extraction's parts and the process's wall clock (leases), stopwatch and randomness. */
export interface ConceptJobDeps extends ConceptDeps, SystemPorts {}

/** What a drain did. */
export interface DrainReport {
  jobs: number;
  examined: number;
  conceptsCreated: number;
  refsAdded: number;
  failed: number;
}

/** A claim owner unique enough across processes. */
export function newWorkerOwner(ports: Pick<SystemPorts, 'wallClock' | 'random'>): string {
  return `worker:${ports.wallClock.now().toString(36)}:${randomSuffix(ports.random, 8)}`;
}

/**
 * Processes queued concept-extraction jobs now, batch by batch, until the queue is empty (or `limit`
 * / `maxMs`). A failing job is retried later (3 attempts) without stopping the others.
 *
 * @example
 * ```ts
 * const report = await drainConceptJobs({ store, embedder, clock, ...systemPorts }, { maxMs: 1000 });
 * ```
 */
export async function drainConceptJobs(deps: ConceptJobDeps, options: DrainOptions = {}): Promise<DrainReport> {
  const report: DrainReport = { jobs: 0, examined: 0, conceptsCreated: 0, refsAdded: 0, failed: 0 };
  const owner = options.owner ?? newWorkerOwner(deps);
  const started = deps.stopwatch.now();
  const batch = Math.max(1, Math.floor(options.batch ?? 16));
  const limit = options.limit ?? Infinity;
  while (report.jobs < limit && (options.maxMs === undefined || deps.stopwatch.now() - started < options.maxMs)) {
    const jobs = await deps.store.claimJobs({
      kinds: [CONCEPT_JOB_KIND],
      scopes: options.scopes ?? 'all',
      limit: Math.min(batch, limit - report.jobs),
      owner,
      leaseMs: options.leaseMs ?? 60_000,
      now: deps.wallClock.now(),
    });
    if (jobs.length === 0) break;
    await processBatch(deps, jobs, owner, report);
  }
  return report;
}

async function processBatch(deps: ConceptJobDeps, jobs: readonly Job[], owner: string, report: DrainReport): Promise<void> {
  report.jobs += jobs.length;
  try {
    const result = await extractConcepts(deps, await recordsOf(deps, jobs));
    report.examined += result.examined;
    report.conceptsCreated += result.conceptsCreated;
    report.refsAdded += result.refsAdded;
    await deps.store.completeJobs(
      jobs.map((j) => j.id),
      owner,
    );
    return;
  } catch {
    // one bad job must not sink the batch: retry each alone
  }
  for (const job of jobs) {
    try {
      const result = await extractConcepts(deps, await recordsOf(deps, [job]));
      report.examined += result.examined;
      report.conceptsCreated += result.conceptsCreated;
      report.refsAdded += result.refsAdded;
      await deps.store.completeJobs([job.id], owner);
    } catch (error) {
      report.failed++;
      await deps.store.failJob(job.id, owner, error instanceof Error ? error.message : String(error), {
        now: deps.wallClock.now(),
        retryAfterMs: 5_000,
      });
    }
  }
}

async function recordsOf(deps: ConceptDeps, jobs: readonly Job[]): Promise<MemoryRecord[]> {
  const byScope = new Map<Scope, string[]>();
  for (const job of jobs) {
    const ids = (job.payload as { ids?: unknown } | null)?.ids;
    if (!Array.isArray(ids)) continue;
    byScope.set(job.scope, [...(byScope.get(job.scope) ?? []), ...ids.filter((id): id is string => typeof id === 'string')]);
  }
  const records: MemoryRecord[] = [];
  for (const [scope, ids] of byScope) records.push(...(await deps.store.getMemories(ids, [scope])));
  return records;
}
