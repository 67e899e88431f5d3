/**
 * Times a memory speaks of. A turn written on 4 October that says "yesterday I met some artists in
 * Boston" is about 3 October: a query asking about 3 October should find it, though the temporal
 * channel (which reads when memories happened) does not. The candidates' own date expressions are
 * read relative to when each was written; a candidate whose expression falls in the query's window
 * scores the share of the expression's span inside it ("yesterday" inside "October 2023": 1; "last
 * week" against one of its days: 1/7).
 *
 * Reading a text's dates costs ~0.1 ms, and a dated query reads a couple of hundred candidates'. So a
 * store may keep each record's times (`Store.mentionsOf`), worked out off the write path by
 * `fillMentions` (the background worker and `processJobs` run it); what it does not hold yet is read
 * here, as before, and remembered for a while.
 */
import type { MemoryData, MemoryRecord, WallClock } from '../memory.js';
import type { Stopwatch } from '../ports/stopwatch.js';
import type { ChannelHit, Store, TimeSpan } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { extractDates } from '../text/index.js';

export type { TimeSpan };

/**
 * The version of what `mentionWindows` finds: raise it whenever the date reader finds other dates in
 * the same text (its patterns, chrono's version), with a store migration that forgets the stored ones.
 * A store hands back only times stored under this version.
 */
export const MENTIONS_VERSION = 3;
// 2 (7 December 2026): ranges join both ends ("between 2019 and 2021"), years 1000-2999, clamped days
// 3 (7 December 2026, later): quarters and halves, 29 February without a year, a future-tense sentence's
//   bare day forward, "for tomorrow" as a day (not a duration); the writer's wall clock (`data.wallClock`) where the write gave one

/** When a record was written, for reading its relative dates ("yesterday"): its event time, else its validity start. */
export function writtenAt(record: Pick<MemoryRecord, 'occurredAt' | 'validFrom'>): number {
  return record.occurredAt ?? record.validFrom;
}

/**
 * The times a text written at `written` names apart from that time itself: "now", "today" or "this
 * month" say no more than the write time, which is the temporal channel's to match.
 */
export function mentionWindows(content: string, written: number, wallClock?: WallClock): TimeSpan[] {
  return extractDates(content, written, wallClock ?? {})
    .filter((m) => !(m.start <= written && written < m.end))
    .map((m) => ({ start: m.start, end: m.end }));
}

/** The times a store holds for a record it returned (`Store.mentionsOf`), if any. */
export type StoredMentions = (record: MemoryRecord) => readonly TimeSpan[] | undefined;

/**
 * The windows of `mentions`, remembered by record id with the text and time they were read from (a
 * store without a read cache hands out new objects for the same record on every read); the oldest
 * entry goes first once `MEMO_SIZE` are held.
 */
const MEMO_SIZE = 20_000;
const memo = new Map<string, { content: string; written: number; windows: readonly TimeSpan[] }>();

/** The times a record's text names (`mentionWindows`): the store's when it holds them, else read now and remembered. */
function mentions(record: MemoryRecord, stored: StoredMentions | undefined): readonly TimeSpan[] {
  const kept = stored?.(record);
  if (kept !== undefined) return kept;
  const written = writtenAt(record);
  const held = memo.get(record.id);
  if (held !== undefined && held.content === record.content && held.written === written) return held.windows;
  const windows = mentionWindows(record.content, written, (record.data as MemoryData | undefined)?.wallClock);
  if (held === undefined && memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(record.id, { content: record.content, written, windows });
  return windows;
}

/** Works out the times of these records' texts now (remembered), so a later `mentionedTimeHits` of them finds them. */
export function readMentions(records: Iterable<MemoryRecord>, stored?: StoredMentions): void {
  for (const record of records) mentions(record, stored);
}

/** The records whose text names a time inside `window`, best first, scored 0..1 as above. */
export function mentionedTimeHits(records: Iterable<MemoryRecord>, window: TimeSpan, stored?: StoredMentions): ChannelHit[] {
  const hits: ChannelHit[] = [];
  for (const record of records) {
    let best = 0;
    for (const m of mentions(record, stored)) {
      const span = m.end - m.start;
      const overlap = Math.min(m.end, window.end) - Math.max(m.start, window.start);
      if (span > 0 && overlap > 0) best = Math.max(best, overlap / span);
    }
    if (best > 0) hits.push({ id: record.id, score: best });
  }
  return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Records read, read for their dates and stored per batch. */
export const MENTION_BATCH = 256;

/** What a fill did: how many records had their mentioned times stored. */
export interface FillMentionsReport {
  records: number;
}

/**
 * Stores the mentioned times of records of `scopes` (default every scope) whose store holds none yet
 * (written or edited since), batch by batch, until none is left (or `limit` records, or `maxMs`). A store that keeps none
 * (`Store.pendingMentions` absent) answers 0. A batch whose records were all edited meanwhile ends the
 * run; they are read again next time.
 *
 * @example
 * ```ts
 * const { records } = await fillMentions({ store, stopwatch }, { maxMs: 1000 });
 * ```
 */
export async function fillMentions(
  deps: { store: Store; stopwatch: Stopwatch },
  options: { scopes?: readonly Scope[] | 'all'; limit?: number; maxMs?: number; batch?: number } = {},
): Promise<FillMentionsReport> {
  const { store, stopwatch } = deps;
  const report: FillMentionsReport = { records: 0 };
  if (store.pendingMentions === undefined || store.setMentions === undefined) return report;
  const started = stopwatch.now();
  const batch = Math.max(1, Math.floor(options.batch ?? MENTION_BATCH));
  const limit = options.limit ?? Infinity;
  while (report.records < limit && (options.maxMs === undefined || stopwatch.now() - started < options.maxMs)) {
    const pending = await store.pendingMentions({ scopes: options.scopes ?? 'all', limit: Math.min(batch, limit - report.records) });
    if (pending.length === 0) break;
    const answered = await store.setMentions(
      pending.map((candidate) => ({ ...candidate, mentions: mentionWindows(candidate.content, candidate.written, candidate.wallClock) })),
    );
    report.records += answered;
    if (answered === 0) break;
  }
  return report;
}
