/**
 * The consolidation report (a contract): `{ phases: [{ name, examined, created, updated,
 * durationMs, note }] }`, stored and returned for every run. A phase that examined nothing or
 * changed nothing says so in `note`.
 */
import type { Scope } from '../core/scope.js';
import type { PhaseName } from './config.js';

export interface PhaseReport {
  name: PhaseName;
  examined: number;
  created: number;
  updated: number;
  durationMs: number;
  note: string;
  /** Ids created (capped), for tracing. */
  ids?: string[];
  /** Ids of the claims this phase superseded (capped at 50). */
  superseded?: string[];
  /** Ids of the duplicates this phase merged away (status deleted, `mergedInto` the older claim; capped). */
  merged?: string[];
  /** Ids of the records this phase decayed (capped). */
  decayed?: string[];
  /** Ids of the decayed records this phase expired (capped). */
  expired?: string[];
  /** recombine: BRIDGES edges created. */
  bridges?: number;
  /** insight: insights created. */
  insights?: number;
  /** affect: cautions raised. */
  cautions?: number;
}

/** What the dream phases count, per phase and for the whole report. */
export const TALLIES = ['bridges', 'insights', 'cautions'] as const;
export type Tally = (typeof TALLIES)[number];

/** What a phase changed besides what it created, as listed in its report. */
export const CHANGE_LISTS = ['superseded', 'merged', 'decayed', 'expired'] as const;
export type ChangeList = (typeof CHANGE_LISTS)[number];

/** Why a cycle ran. */
export type ConsolidationTrigger = 'on-demand' | 'session-end' | 'threshold' | 'schedule';

export interface ConsolidationReport {
  id: string;
  scope: Scope;
  trigger: ConsolidationTrigger;
  sessionId?: string;
  startedAt: string;
  finishedAt: string;
  /** True when this run continued a cycle that was interrupted. */
  resumed: boolean;
  /** BRIDGES edges recombine created in this run (0 when it did not run or found none). */
  bridges: number;
  /** Insights the insight phase created in this run. */
  insights: number;
  /** Cautions the affect phase raised in this run. */
  cautions: number;
  phases: PhaseReport[];
}

/** Running counters of one phase. */
export interface PhaseCounters {
  examined: number;
  created: number;
  updated: number;
  ids: string[];
  /** Details for the note (e.g. "3 merged"). */
  details: Record<string, number>;
  /** A reason the phase did not run (e.g. below the reflection threshold). */
  skipped?: string;
  /** Ids changed, by kind of change (capped at `MAX_REPORTED_IDS` each). */
  changed?: Partial<Record<ChangeList, string[]>>;
  /** Bridges, insights or cautions this phase made. */
  tally?: Partial<Record<Tally, number>>;
}

/** Adds to a phase's tally of bridges, insights or cautions. */
export function addTally(counters: PhaseCounters, kind: Tally, count = 1): void {
  counters.tally ??= {};
  counters.tally[kind] = (counters.tally[kind] ?? 0) + count;
}

/** The report totals of the tallies over the phases that ran. */
export function reportTallies(phases: readonly PhaseReport[]): Record<Tally, number> {
  const totals: Record<Tally, number> = { bridges: 0, insights: 0, cautions: 0 };
  for (const phase of phases) for (const kind of TALLIES) totals[kind] += phase[kind] ?? 0;
  return totals;
}

/** Notes that the phase changed `id` (superseded, merged, decayed, expired), keeping at most `MAX_REPORTED_IDS` per kind. */
export function noteChanged(counters: PhaseCounters, kind: ChangeList, id: string): void {
  counters.changed ??= {};
  const list = (counters.changed[kind] ??= []);
  if (list.length < MAX_REPORTED_IDS && !list.includes(id)) list.push(id);
}

/** The changed-id lists of a phase's report (only those that are not empty). */
export function changedLists(counters: PhaseCounters): Partial<Record<ChangeList, string[]>> {
  const lists: Partial<Record<ChangeList, string[]>> = {};
  for (const kind of CHANGE_LISTS) {
    const ids = counters.changed?.[kind];
    if (ids !== undefined && ids.length > 0) lists[kind] = ids.slice(0, MAX_REPORTED_IDS);
  }
  return lists;
}

export function emptyCounters(): PhaseCounters {
  return { examined: 0, created: 0, updated: 0, ids: [], details: {}, changed: {} };
}

/** The note of a finished phase: what it did, or explicitly that it did nothing. */
export function phaseNote(name: PhaseName, c: PhaseCounters, unit: string): string {
  if (c.skipped !== undefined) return `skipped: ${c.skipped}`;
  const details = Object.entries(c.details)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  if (c.examined === 0) return `examined nothing: no ${unit} to look at`;
  if (c.created === 0 && c.updated === 0) return `examined ${c.examined} ${unit}; changed nothing`;
  return `examined ${c.examined} ${unit}${details.length > 0 ? `; ${details}` : ''}`;
}

export const MAX_REPORTED_IDS = 50;
