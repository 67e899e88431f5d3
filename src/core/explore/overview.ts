/**
 * The overview of some scopes: counts by layer and status, growth by day of recording, the records
 * decay reaches next and the job backlog. Every part is an aggregate or a bounded read, so it stays
 * fast however many records the scopes hold.
 */
import { LAYERS, STATUSES, type Layer, type MemoryRecord } from '../memory.js';
import { iso } from '../memory-view.js';
import type { DailyCount, DecayTiers, StoreReader, JobBacklog } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { cutText } from '../text/cut-text.js';

/** Most days of growth returned (the most recent days that have records). */
export const GROWTH_DAYS = 365;
/** Decay candidates returned. */
export const DECAY_CANDIDATES = 20;
/** Longest content of a decay candidate, in characters. */
export const EXCERPT_CHARS = 200;

const DAY_MS = 86_400_000;

/** A record decay reaches soon, as the overview shows it. */
export interface DecayCandidate {
  id: string;
  scope: string;
  layer: Layer;
  /** The content, cut to 200 characters. */
  content: string;
  salience: number;
  importance: number | null;
  accessCount: number;
  /** Last access, or null when never accessed (decay then counts from recordedAt). */
  accessedAt: string | null;
  recordedAt: string;
  /** When the next decay phase run at or after this instant decays it (may be past: overdue). */
  dueAt: string;
}

export interface OverviewCounts {
  totals: { total: number; byLayer: Record<string, number>; byStatus: Record<string, number> };
  /** Records recorded per UTC day (any status today), oldest day first; days without records are absent. */
  growth: { day: string; byLayer: Record<string, number>; total: number }[];
  decayCandidates: DecayCandidate[];
  pendingJobs: { total: number; byKind: Record<string, number>; failed: number };
}

/** How the decay policy is applied: its tier idle times, and a record's exact due instant (null: never decays). */
export interface DecayPolicyView {
  idleMs: DecayTiers;
  dueAt(record: MemoryRecord): number | null;
}

/** Counts, growth, decay candidates and jobs of `scopes`. */
export async function overviewCounts(
  store: StoreReader & { jobBacklog(scopes: readonly Scope[]): Promise<JobBacklog> },
  scopes: readonly Scope[],
  decay: DecayPolicyView,
): Promise<OverviewCounts> {
  const [summaries, daily, soon, jobs] = await Promise.all([
    store.summarizeScopes(scopes),
    store.countRecordedPerDay({ scopes, days: GROWTH_DAYS }),
    // the store orders by tier only; emotion and exemptions are weighed here, on a wider sample
    store.nextToDecay({ scopes, idleMs: decay.idleMs, limit: DECAY_CANDIDATES * 5 }),
    store.jobBacklog(scopes),
  ]);
  const totals = { total: 0, byLayer: zeros(LAYERS), byStatus: zeros(STATUSES) };
  for (const s of summaries) {
    totals.total += s.total;
    for (const [k, v] of Object.entries(s.byLayer)) totals.byLayer[k] = (totals.byLayer[k] ?? 0) + v;
    for (const [k, v] of Object.entries(s.byStatus)) totals.byStatus[k] = (totals.byStatus[k] ?? 0) + v;
  }
  const days = new Map<number, { day: string; byLayer: Record<string, number>; total: number }>();
  for (const { day, layer, count } of daily) {
    let entry = days.get(day);
    if (entry === undefined) {
      entry = { day: (iso(day * DAY_MS) ?? '').slice(0, 10), byLayer: zeros(LAYERS), total: 0 };
      days.set(day, entry);
    }
    entry.byLayer[layer] = (entry.byLayer[layer] ?? 0) + count;
    entry.total += count;
  }
  const growth = [...days.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  const decayCandidates = soon
    .map((record) => ({ record, due: decay.dueAt(record) }))
    .filter((x): x is { record: MemoryRecord; due: number } => x.due !== null)
    .sort((a, b) => a.due - b.due || (a.record.id < b.record.id ? -1 : 1))
    .slice(0, DECAY_CANDIDATES)
    .map(({ record, due }) => candidate(record, due));
  const byKind: Record<string, number> = {};
  for (const [kind, counts] of Object.entries(jobs.byKind))
    if (counts.pending + counts.running > 0) byKind[kind] = counts.pending + counts.running;
  return { totals, growth, decayCandidates, pendingJobs: { total: jobs.pending + jobs.running, byKind, failed: jobs.failed } };
}

function candidate(record: MemoryRecord, due: number): DecayCandidate {
  return {
    id: record.id,
    scope: record.scope,
    layer: record.layer,
    content: excerpt(record.content),
    salience: record.salience,
    importance: record.importance,
    accessCount: record.accessCount,
    accessedAt: iso(record.lastAccessedAt),
    recordedAt: iso(record.recordedAt) ?? '',
    dueAt: iso(due) ?? '',
  };
}

/** The counts of the `days` most recent days among `counts`, per (day, layer) summed over scopes, oldest day first (what stores return from `countRecordedPerDay`). */
export function mostRecentDays(counts: readonly DailyCount[], days: number): DailyCount[] {
  const kept = new Set([...new Set(counts.map((c) => c.day))].sort((a, b) => b - a).slice(0, days));
  const merged = new Map<string, DailyCount>();
  for (const c of counts) {
    if (!kept.has(c.day)) continue;
    const key = `${c.day}\u0000${c.layer}`;
    const entry = merged.get(key);
    if (entry === undefined) merged.set(key, { ...c });
    else entry.count += c.count;
  }
  return [...merged.values()].sort((a, b) => a.day - b.day || (a.layer < b.layer ? -1 : a.layer > b.layer ? 1 : 0));
}

/** The first 200 characters (code points) of a text, cut where a grapheme ends, with an ellipsis when cut. */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const chars = Array.from(typeof text === 'string' ? text : '');
  return chars.length <= max ? chars.join('') : `${cutText(chars.join(''), chars.slice(0, max - 1).join('').length)}…`;
}

function zeros(keys: readonly string[]): Record<string, number> {
  return Object.fromEntries(keys.map((k) => [k, 0]));
}
