/**
 * The sleep cycle: runs the phases in order under the store-level lock of the scope (one
 * cycle per scope at a time, across processes), checkpoints every batch, resumes an interrupted
 * cycle where it stopped, and stores and returns a report in which every phase says what it did —
 * or that it did nothing.
 */
import { EngramError } from '../core/errors.js';
import type { Scope } from '../core/scope.js';
import { newId } from '../core/write/new-record.js';
import { REEMBED_LOCK } from '../core/reembed/run-reembed.js';
import { randomSuffix } from '../core/ports/system.js';
import { PHASES, type PhaseName } from './config.js';
import type { ConsolidationDeps, PhaseContext } from './phase-context.js';
import { dedupPhase, supersedePhase } from './phases/claims.js';
import { compressPhase } from './phases/compress.js';
import { decayPhase } from './phases/decay.js';
import { extractPhase } from './phases/extract.js';
import { groundPhase } from './phases/ground.js';
import { promotePhase } from './phases/promote.js';
import { reflectPhase } from './phases/reflect.js';
import { recombinePhase } from './phases/recombine.js';
import { insightPhase } from './phases/insight.js';
import { affectPhase } from './phases/affect.js';
import {
  changedLists,
  emptyCounters,
  MAX_REPORTED_IDS,
  phaseNote,
  reportTallies,
  type ConsolidationReport,
  type ConsolidationTrigger,
  type PhaseCounters,
  type PhaseReport,
} from './report.js';
import { renewLease } from '../core/lease-renewal.js';

/** State keys of the cycle (per scope). */
export const RUN_KEY = 'consolidate/run';
export const LAST_REPORT_KEY = 'consolidate/report/last';
export const LAST_RUN_KEY = 'consolidate/last-run';

const RUNNERS: Record<PhaseName, { run: (ctx: PhaseContext) => Promise<void>; unit: string }> = {
  dedup: { run: dedupPhase, unit: 'claims' },
  supersede: { run: supersedePhase, unit: 'claims' },
  extract: { run: extractPhase, unit: 'episodes' },
  ground: { run: groundPhase, unit: 'concepts and concept pairs' },
  promote: { run: promotePhase, unit: 'promotion candidates' },
  recombine: { run: recombinePhase, unit: 'sampled memories' },
  insight: { run: insightPhase, unit: 'recombined groups' },
  reflect: { run: reflectPhase, unit: 'important memories' },
  affect: { run: affectPhase, unit: 'emotional memories and concepts' },
  decay: { run: decayPhase, unit: 'records' },
  compress: { run: compressPhase, unit: 'episodes' },
};

export interface ConsolidateInput {
  scope: Scope;
  /** Phases to run (in the cycle's order whatever the order given); all when absent. */
  phases?: readonly PhaseName[];
  trigger?: ConsolidationTrigger;
  sessionId?: string;
}

/** The checkpoint of a cycle in progress (a state document of the scope). */
interface RunDocument {
  id: string;
  phases: PhaseName[];
  trigger: ConsolidationTrigger;
  sessionId?: string;
  now: number;
  startedAt: number;
  lastRunAt: number;
  done: PhaseReport[];
  current?: { name: PhaseName; cursor: unknown; counters: PhaseCounters; elapsedMs: number };
}

/** Runs one consolidation cycle of `input.scope`; throws `LOCKED` while another cycle holds the scope. */
export async function runConsolidation(deps: ConsolidationDeps, input: ConsolidateInput): Promise<ConsolidationReport> {
  const { store, clock, config, wallClock, stopwatch } = deps;
  const lockName = `consolidate:${input.scope}`;
  const owner = `cycle:${newId(wallClock.now())}:${randomSuffix(deps.random, 6)}`;
  // whole milliseconds, as reports and the resumable run document have always held them
  const elapsedSince = (started: number): number => Math.round(stopwatch.now() - started);
  if (!(await store.acquireJobLock(lockName, owner, config.lockTtlMs))) {
    throw new EngramError(
      'LOCKED',
      `Another consolidation cycle is running for scope "${input.scope}". Wait for it to finish (or, if its process died, for its lease to expire after ${Math.ceil(config.lockTtlMs / 1000)} s) and run again.`,
      {
        details: { scope: input.scope },
      },
    );
  }
  // a reembed takes its lease first and then looks for cycles, so one of the two always sees the other
  if ((await store.vectorStaging.liveJobLocks(REEMBED_LOCK)).some((h) => h.name === REEMBED_LOCK)) {
    await store.releaseJobLock(lockName, owner);
    throw new EngramError(
      'LOCKED',
      'The store is being moved to another embedding model (engram reembed): consolidate again when it has finished.',
      {
        details: { scope: input.scope },
      },
    );
  }
  // a renewal that finds the lease taken stops the cycle before its next write
  const lease = renewLease(store, lockName, owner, config.lockTtlMs, deps.heartbeat);
  const lostError = (): EngramError =>
    new EngramError(
      'LOCKED',
      `The consolidation lock of scope "${input.scope}" was lost (lease expired): the cycle stops here and resumes on the next run.`,
      {
        details: { scope: input.scope },
      },
    );
  try {
    const requested = PHASES.filter((p) => input.phases === undefined || input.phases.includes(p));
    const previous = (await store.getState(input.scope, RUN_KEY))?.value as RunDocument | undefined;
    const lastRun = (await store.getState(input.scope, LAST_RUN_KEY))?.value as { at?: number } | undefined;
    const resumable = previous !== undefined && previous !== null && sameList(previous.phases, requested);
    const run: RunDocument = resumable
      ? previous
      : {
          id: newId(clock.now()),
          phases: [...requested],
          trigger: input.trigger ?? 'on-demand',
          ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
          now: clock.now(),
          startedAt: wallClock.now(),
          lastRunAt: typeof lastRun?.at === 'number' ? lastRun.at : 0,
          done: [],
        };
    if (!resumable) await store.transaction((tx) => tx.setState(input.scope, RUN_KEY, run, run.now));
    const shared = new Map<string, unknown>();
    for (const name of run.phases) {
      if (run.done.some((p) => p.name === name)) continue;
      const resumeHere = run.current?.name === name ? run.current : undefined;
      const counters = resumeHere?.counters ?? emptyCounters();
      const started = stopwatch.now() - (resumeHere?.elapsedMs ?? 0);
      let batchIndex = 0;
      const ctx: PhaseContext = {
        deps,
        scope: input.scope,
        now: run.now,
        trigger: run.trigger,
        ...(run.sessionId !== undefined ? { sessionId: run.sessionId } : {}),
        explicit: input.phases !== undefined && input.phases.includes(name),
        lastRunAt: run.lastRunAt,
        counters,
        shared,
        cursor: resumeHere?.cursor,
        batch: async (work, cursor) => {
          if (lease.lost) throw lostError();
          const snapshot = structuredClone(counters);
          try {
            await store.transaction(async (tx) => {
              await work(tx);
              run.current = { name, cursor, counters, elapsedMs: elapsedSince(started) };
              await tx.setState(input.scope, RUN_KEY, run, run.now);
            });
          } catch (error) {
            Object.assign(counters, snapshot);
            throw error;
          }
          ctx.cursor = cursor;
          await lease.renew();
          if (lease.lost) throw lostError();
          batchIndex += 1;
          await deps.hooks?.afterBatch?.(name, batchIndex);
        },
      };
      await RUNNERS[name].run(ctx);
      const report: PhaseReport = {
        name,
        examined: counters.examined,
        created: counters.created,
        updated: counters.updated,
        durationMs: elapsedSince(started),
        note: phaseNote(name, counters, RUNNERS[name].unit),
        ...(counters.ids.length > 0 ? { ids: counters.ids.slice(0, MAX_REPORTED_IDS) } : {}),
        ...changedLists(counters),
        ...(counters.tally ?? {}),
      };
      run.done.push(report);
      delete run.current;
      await store.transaction((tx) => tx.setState(input.scope, RUN_KEY, run, run.now));
    }
    const report: ConsolidationReport = {
      id: run.id,
      scope: input.scope,
      trigger: run.trigger,
      ...(run.sessionId !== undefined ? { sessionId: run.sessionId } : {}),
      startedAt: new Date(run.startedAt).toISOString(),
      finishedAt: new Date(wallClock.now()).toISOString(),
      resumed: resumable,
      ...reportTallies(run.done),
      phases: run.done,
    };
    await store.transaction(async (tx) => {
      await tx.setState(input.scope, LAST_REPORT_KEY, report, run.now);
      await tx.setState(input.scope, `consolidate/report/${run.id}`, report, run.now);
      if (run.phases.length === PHASES.length || run.phases.includes('promote'))
        await tx.setState(input.scope, LAST_RUN_KEY, { at: run.now, id: run.id }, run.now);
      await tx.deleteState(input.scope, RUN_KEY);
    });
    return report;
  } finally {
    // a renewal still in flight must not take the lease back after it is released
    await lease.stop();
    await store.releaseJobLock(lockName, owner);
  }
}

/** The last stored report of a scope, or null. */
export async function lastConsolidationReport(deps: Pick<ConsolidationDeps, 'store'>, scope: Scope): Promise<ConsolidationReport | null> {
  return ((await deps.store.getState(scope, LAST_REPORT_KEY))?.value as ConsolidationReport | undefined) ?? null;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
