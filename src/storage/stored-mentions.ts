/**
 * The times a memory's text names (`mentionWindows` in `core/recall/mentioned-time.ts`), as both stores
 * keep them in the `mentions` column of `memories`: `<version>:<JSON [[start, end], …]>`, NULL until
 * `setMentions` stores them (a record written or edited since is pending: a trigger of each store clears
 * them when the text or the write time changes, whichever process edits it). A record a store decodes is
 * paired here with its column's text, read back by `Store.mentionsOf`; the times are parsed on first
 * use. Times stored under another `MENTIONS_VERSION`, or that do not parse, count as none stored: the
 * caller reads the text again.
 */
import type { MemoryRecord, WallClock } from '../core/memory.js';
import type { TimeSpan } from '../core/ports/store.js';
import { MENTIONS_VERSION } from '../core/recall/mentioned-time.js';

/** The column, beside the record's own columns. */
export const MENTIONS_COLUMN = 'mentions';

const PREFIX = `${MENTIONS_VERSION}:`;

/** Decoded records → their column's text, then its parsed times (`null`: none usable). */
const held = new WeakMap<MemoryRecord, string | readonly TimeSpan[] | null>();

/** The column's text for `spans`. */
export function encodeMentions(spans: readonly TimeSpan[]): string {
  return `${PREFIX}${JSON.stringify(spans.map((s) => [s.start, s.end]))}`;
}

/** Pairs a decoded record with its `mentions` column (anything but text is none stored). */
export function keepStoredMentions(record: MemoryRecord, value: unknown): void {
  if (typeof value === 'string') held.set(record, value);
}

/** The times stored for a record a store decoded, or undefined when none (usable) are. */
export function storedMentionsOf(record: MemoryRecord): readonly TimeSpan[] | undefined {
  const value = held.get(record);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return value;
  const spans = decodeMentions(value);
  held.set(record, spans);
  return spans ?? undefined;
}

function decodeMentions(text: string): readonly TimeSpan[] | null {
  if (!text.startsWith(PREFIX)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(PREFIX.length));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const spans: TimeSpan[] = [];
  for (const pair of parsed) {
    if (!Array.isArray(pair) || pair.length !== 2) return null;
    const [start, end] = pair as unknown[];
    if (typeof start !== 'number' || typeof end !== 'number' || !Number.isFinite(start) || !Number.isFinite(end)) return null;
    spans.push(Object.freeze({ start, end }));
  }
  return Object.freeze(spans);
}

/**
 * The writer's wall clock a record's `data` column holds (`data.wallClock`), for reading its text's
 * relative dates; undefined when it holds none, or when the column does not decode (read on UTC then).
 */
export function wallClockOfData(data: unknown): WallClock | undefined {
  if (typeof data !== 'string' || !data.includes('"wallClock"')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  const clock = (parsed as { wallClock?: unknown } | null)?.wallClock as Record<string, unknown> | undefined;
  if (typeof clock?.timeZone === 'string') return { timeZone: clock.timeZone };
  if (typeof clock?.timezoneOffsetMinutes === 'number' && Number.isFinite(clock.timezoneOffsetMinutes))
    return { timezoneOffsetMinutes: clock.timezoneOffsetMinutes };
  return undefined;
}
