/**
 * A pending importance (null while the LLM scores it) must not stay pending forever
 * when the process that wrote the record dies before the score lands. `remember` queues a recovery
 * job in the write's own transaction, runnable only after a grace period; by then the in-process
 * follow-up has normally filled the score and the job completes without work. Otherwise the job
 * scores what is still pending — with the LLM when one is configured, else with the deterministic
 * heuristic — in whichever process drains the queue next.
 */
import type { MemoryRecord } from '../memory.js';
import type { Clock } from '../ports/clock.js';
import type { Job, NewJob, Store, StoreTransaction } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { scoreImportance } from '../write/salience/index.js';
import type { LlmAssist } from './llm-assist.js';

/** The job kind; payload `{ ids: string[] }` (records of the job's scope). */
export const IMPORTANCE_JOB_KIND = 'score-importance';
/** How long the in-process follow-up has before the recovery job may run. */
export const IMPORTANCE_GRACE_MS = 5 * 60_000;
const JOB_SIZE = 64;

export interface ImportanceRecoveryDeps {
  store: Store;
  clock: Clock;
  /** The clock of the job queue's leases (real time even when `clock` is moved). */
  wallClock: Clock;
  assist: LlmAssist;
}

/**
 * Queues recovery for records written with a pending importance, runnable from `runAfter` (wall-clock
 * epoch ms). Call inside the write transaction, so the record and its recovery commit together.
 */
export async function enqueueImportanceRecovery(
  tx: StoreTransaction,
  records: readonly Pick<MemoryRecord, 'id' | 'scope' | 'importance'>[],
  runAfter: number,
): Promise<void> {
  const byScope = new Map<Scope, string[]>();
  for (const record of records)
    if (record.importance === null) byScope.set(record.scope, [...(byScope.get(record.scope) ?? []), record.id]);
  if (byScope.size === 0) return;
  const jobs: NewJob[] = [...byScope].flatMap(([scope, ids]) =>
    Array.from({ length: Math.ceil(ids.length / JOB_SIZE) }, (_, i) => ({
      scope,
      kind: IMPORTANCE_JOB_KIND,
      payload: { ids: ids.slice(i * JOB_SIZE, (i + 1) * JOB_SIZE) },
    })),
  );
  await tx.enqueueJobs(jobs, runAfter);
}

/** What a recovery drain did. */
export interface ImportanceRecoveryReport {
  jobs: number;
  /** Records that were still pending and got a score now. */
  scored: number;
}

/**
 * Claims due recovery jobs and scores every record of theirs whose importance is still pending.
 * A record a person scored meanwhile, or the follow-up already filled, is left alone.
 */
export async function drainImportanceJobs(
  deps: ImportanceRecoveryDeps,
  options: { owner: string; limit?: number; scopes?: readonly Scope[] | 'all'; now?: number; leaseMs?: number },
): Promise<ImportanceRecoveryReport> {
  const report: ImportanceRecoveryReport = { jobs: 0, scored: 0 };
  const limit = options.limit ?? Infinity;
  while (report.jobs < limit) {
    const jobs = await deps.store.claimJobs({
      kinds: [IMPORTANCE_JOB_KIND],
      scopes: options.scopes ?? 'all',
      limit: Math.min(16, limit - report.jobs),
      owner: options.owner,
      leaseMs: options.leaseMs ?? 120_000,
      now: options.now ?? deps.wallClock.now(),
    });
    if (jobs.length === 0) break;
    report.jobs += jobs.length;
    for (const job of jobs) {
      try {
        report.scored += await recoverJob(deps, job);
        await deps.store.completeJobs([job.id], options.owner);
      } catch (error) {
        await deps.store.failJob(job.id, options.owner, error instanceof Error ? error.message : String(error), {
          now: deps.wallClock.now(),
          retryAfterMs: 60_000,
        });
      }
    }
  }
  return report;
}

async function recoverJob(deps: ImportanceRecoveryDeps, job: Job): Promise<number> {
  const raw = (job.payload as { ids?: unknown } | null)?.ids;
  const ids = Array.isArray(raw) ? raw.filter((id): id is string => typeof id === 'string') : [];
  const pending = (await deps.store.getMemories(ids, [job.scope])).filter((r) => r.importance === null);
  if (pending.length === 0) return 0;
  const scores = new Map<string, number>();
  for (const record of pending) {
    const llm = await deps.assist.scoreImportance(record.content);
    scores.set(
      record.id,
      llm ?? scoreImportance(record.content, record.emotion !== null ? { emotionIntensity: record.emotion.intensity } : {}),
    );
  }
  let scored = 0;
  await deps.store.transaction(async (tx) => {
    for (const record of await tx.getMemories([...scores.keys()], [job.scope])) {
      const importance = scores.get(record.id);
      if (record.importance !== null || importance === undefined) continue;
      await tx.updateMemory(record.id, record.scope, { importance, updatedAt: deps.clock.now() });
      scored++;
    }
  });
  return scored;
}
