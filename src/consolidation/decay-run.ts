/**
 * The decay phase on its own (seed 001's `memory_decay`): run for real as a one-phase cycle under the
 * scope's consolidation lock, or as a dry run that applies the same policy to the same records and
 * writes nothing. Either way the answer is the decay phase's report.
 */
import type { Store } from '../core/ports/store.js';
import type { Scope } from '../core/scope.js';
import type { DecayConfig } from './decay-policy.js';
import { decayVerdicts } from './decay-policy.js';
import { scanRecords } from './phase-context.js';
import { decays } from './phases/decay.js';
import { changedLists, emptyCounters, noteChanged, phaseNote, type ConsolidationReport, type PhaseReport } from './report.js';

/** What `decay` returns: the decay phase's report, whether it was a dry run, and how many changed. */
export interface DecayReport extends PhaseReport {
  scope: Scope;
  dryRun: boolean;
  /** The stored consolidation run (null for a dry run). */
  runId: string | null;
  /** Totals (the id lists stop at 50). */
  counts: { decayed: number; expired: number };
}

/** The decay report of a one-phase consolidation run. */
export function decayReportOf(report: ConsolidationReport): DecayReport {
  const phase = report.phases.find((p) => p.name === 'decay') as PhaseReport;
  const count = (word: string): number => Number(new RegExp(`(\\d+) ${word}`).exec(phase.note)?.[1] ?? 0);
  return {
    ...phase,
    scope: report.scope,
    dryRun: false,
    runId: report.id,
    counts: { decayed: count('decayed'), expired: count('expired') },
  };
}

/** What the decay phase would do to `scope` at `now`, without writing. */
export async function previewDecay(
  deps: { store: Store; decay: DecayConfig; pageSize: number; elapsed: () => number },
  scope: Scope,
  now: number,
): Promise<DecayReport> {
  const counters = emptyCounters();
  const counts = { decayed: 0, expired: 0 };
  for await (const page of scanRecords(deps.store, {
    scope,
    layers: ['episodic', 'semantic'],
    statuses: ['active', 'decayed'],
    pageSize: deps.pageSize,
  })) {
    const judged = page.filter(decays);
    counters.examined += judged.length;
    for (const { r, verdict } of await decayVerdicts(deps.store, scope, judged, now, deps.decay)) {
      const kind = verdict.action === 'decay' ? 'decayed' : 'expired';
      counts[kind] += 1;
      counters.updated += 1;
      counters.details[kind] = (counters.details[kind] ?? 0) + 1;
      noteChanged(counters, kind, r.id);
    }
  }
  return {
    name: 'decay',
    examined: counters.examined,
    created: 0,
    updated: counters.updated,
    durationMs: Math.round(deps.elapsed()),
    note: `dry run: ${phaseNote('decay', counters, 'records')}`,
    ...changedLists(counters),
    scope,
    dryRun: true,
    runId: null,
    counts,
  };
}
