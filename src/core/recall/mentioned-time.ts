/**
 * Times a memory speaks of. A turn written on 4 October that says "yesterday I met some artists in
 * Boston" is about 3 October: a query asking about 3 October should find it, though the temporal
 * channel (which reads when memories happened) does not. The candidates' own date expressions are
 * read relative to when each was written; a candidate whose expression falls in the query's window
 * scores the share of the expression's span inside it ("yesterday" inside "October 2023": 1; "last
 * week" against one of its days: 1/7).
 */
import type { MemoryRecord } from '../memory.js';
import type { ChannelHit } from '../ports/store.js';
import { extractDates, type TemporalWindow } from '../text/index.js';

/**
 * The windows of `mentions`, remembered by record id with the text and time they were read from (a
 * store without a read cache hands out new objects for the same record on every read); the oldest
 * entry goes first once `MEMO_SIZE` are held.
 */
const MEMO_SIZE = 20_000;
const memo = new Map<string, { content: string; written: number; windows: readonly TemporalWindow[] }>();

/**
 * The windows a record's text names apart from the time it was written: "now", "today" or "this
 * month" say no more than the write time, which is the temporal channel's to match.
 */
function mentions(record: MemoryRecord): readonly TemporalWindow[] {
  const written = record.occurredAt ?? record.validFrom;
  const held = memo.get(record.id);
  if (held !== undefined && held.content === record.content && held.written === written) return held.windows;
  const windows = extractDates(record.content, written).filter((m) => !(m.start <= written && written < m.end));
  if (held === undefined && memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  memo.set(record.id, { content: record.content, written, windows });
  return windows;
}

/** Works out the windows of these records' texts now (remembered), so a later `mentionedTimeHits` of them finds them. */
export function readMentions(records: Iterable<MemoryRecord>): void {
  for (const record of records) mentions(record);
}

/** The records whose text names a time inside `window`, best first, scored 0..1 as above. */
export function mentionedTimeHits(records: Iterable<MemoryRecord>, window: { start: number; end: number }): ChannelHit[] {
  const hits: ChannelHit[] = [];
  for (const record of records) {
    let best = 0;
    for (const m of mentions(record)) {
      const span = m.end - m.start;
      const overlap = Math.min(m.end, window.end) - Math.max(m.start, window.start);
      if (span > 0 && overlap > 0) best = Math.max(best, overlap / span);
    }
    if (best > 0) hits.push({ id: record.id, score: best });
  }
  return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
