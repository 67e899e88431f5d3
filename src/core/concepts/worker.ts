/**
 * The concept-extraction worker (seed 000): `remember` queues one job per new episode in its own
 * transaction; the worker claims jobs from the store's queue (so it survives restarts and several
 * processes share it), extracts concepts in small batches off the hot path, and completes the jobs.
 */
import type { MemoryRecord } from '../memory.js';
import type { Job } from '../ports/store.js';
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

/** What a drain did. */
export interface DrainReport {
  jobs: number;
  examined: number;
  conceptsCreated: number;
  refsAdded: number;
  failed: number;
}

/** A claim owner unique enough across processes. */
export function newWorkerOwner(): string {
  return `worker:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Processes queued concept-extraction jobs now, batch by batch, until the queue is empty (or `limit`
 * / `maxMs`). A failing job is retried later (3 attempts) without stopping the others.
 *
 * @example
 * ```ts
 * const report = await drainConceptJobs({ store, embedder, clock }, { maxMs: 1000 });
 * ```
 */
export async function drainConceptJobs(deps: ConceptDeps, options: DrainOptions = {}): Promise<DrainReport> {
  const report: DrainReport = { jobs: 0, examined: 0, conceptsCreated: 0, refsAdded: 0, failed: 0 };
  const owner = options.owner ?? newWorkerOwner();
  const started = Date.now();
  const batch = Math.max(1, Math.floor(options.batch ?? 16));
  const limit = options.limit ?? Infinity;
  while (report.jobs < limit && (options.maxMs === undefined || Date.now() - started < options.maxMs)) {
    const jobs = await deps.store.claimJobs({
      kinds: [CONCEPT_JOB_KIND],
      scopes: options.scopes ?? 'all',
      limit: Math.min(batch, limit - report.jobs),
      owner,
      leaseMs: options.leaseMs ?? 60_000,
      now: Date.now(),
    });
    if (jobs.length === 0) break;
    await processBatch(deps, jobs, owner, report);
  }
  return report;
}

async function processBatch(deps: ConceptDeps, jobs: readonly Job[], owner: string, report: DrainReport): Promise<void> {
  report.jobs += jobs.length;
  try {
    const result = await extractConcepts(deps, await recordsOf(deps, jobs));
    report.examined += result.examined;
    report.conceptsCreated += result.conceptsCreated;
    report.refsAdded += result.refsAdded;
    await deps.store.completeJobs(jobs.map((j) => j.id), owner);
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
      await deps.store.failJob(job.id, owner, error instanceof Error ? error.message : String(error), { now: Date.now(), retryAfterMs: 5_000 });
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

/**
 * Runs `drainConceptJobs` in the background: wakes when notified (a write queued work) or every
 * `idleMs`, yields to the event loop between batches so it never holds up `remember` for long.
 */
export class BackgroundWorker {
  readonly #deps: ConceptDeps;
  readonly #idleMs: number;
  readonly #owner = newWorkerOwner();
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  /** Waiting for work (a notify ends it) rather than pausing between batches (only stop ends that). */
  #idling = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastError: unknown;

  readonly #duty: number;
  /** Other queued work (importance recovery) done when there is no concept job; returns jobs done. */
  readonly #also: ((owner: string) => Promise<number>) | undefined;

  /**
   * `idleMs`: how often an idle worker looks for work (it is also woken by `notify`). `duty`: the share
   * of wall time the worker may spend working while there is a backlog (default 0.5): after a batch
   * that took t ms it pauses t·(1−duty)/duty ms, so writers always find the store free most of the time.
   */
  constructor(deps: ConceptDeps, options: { idleMs?: number; duty?: number; also?: (owner: string) => Promise<number> } = {}) {
    this.#deps = deps;
    this.#also = options.also;
    this.#idleMs = options.idleMs ?? 1_000;
    this.#duty = Math.min(1, Math.max(0.05, options.duty ?? 0.5));
  }

  get running(): boolean {
    return this.#running;
  }

  /** The last failure of the loop itself (store unavailable, …), if any. */
  get lastError(): unknown {
    return this.#lastError;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** New work was queued: skip the idle wait. */
  notify(): void {
    if (this.#idling) this.#wake?.();
  }

  /** Stops after the batch in flight; resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let did = 0;
      const started = Date.now();
      try {
        did = (await drainConceptJobs(this.#deps, { owner: this.#owner, limit: 1, batch: 1 })).jobs;
        if (did === 0 && this.#also !== undefined) did = await this.#also(this.#owner);
        this.#lastError = undefined;
      } catch (error) {
        this.#lastError = error;
      }
      if (!this.#running) break;
      this.#idling = did === 0;
      if (did > 0) await this.#idle(Math.max(1, ((Date.now() - started) * (1 - this.#duty)) / this.#duty));
      else await this.#idle(this.#idleMs);
      this.#idling = false;
    }
  }

  /** Waits `ms`, or less when notified or stopped (so `stop()` never waits on an unref'd timer). */
  #idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        if (this.#timer !== undefined) clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#wake = undefined;
        resolve();
      };
      this.#wake = done;
      this.#timer = setTimeout(done, ms);
      (this.#timer as { unref?: () => void }).unref?.();
    });
  }
}
