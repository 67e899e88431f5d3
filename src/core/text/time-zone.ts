/**
 * UTC offsets of IANA time zones ("Europe/Lisbon") at an instant, from `Intl.DateTimeFormat`: its tz data
 * ships with the runtime, so the answer is deterministic and needs no I/O (which zone the machine is in
 * is the interfaces' to read, never the core's).
 */

/** One formatter per zone: creating one costs ~50 µs, reading an instant with it several µs. */
const formatters = new Map<string, Intl.DateTimeFormat>();
/** Offsets already read, by zone and instant: a parse asks for the same few midnights many times. */
const offsets = new Map<string, number>();
const MAX_CACHED_OFFSETS = 4096;

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Whether the runtime knows `name` as an IANA time zone (case does not matter; "UTC" and links such as
 * "Asia/Calcutta" count).
 *
 * @example
 * ```ts
 * isTimeZone('Europe/Lisbon'); // true
 * isTimeZone('Europe/Atlantis'); // false
 * ```
 */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 100) return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Milliseconds east of UTC of `timeZone` at `instant` (epoch ms). Throws a RangeError for a zone the
 * runtime does not know: check with `isTimeZone` first.
 *
 * @example
 * ```ts
 * zoneOffsetMs('America/New_York', Date.UTC(2026, 2, 8, 12)); // -14_400_000 (EDT, after the spring change)
 * ```
 */
export function zoneOffsetMs(timeZone: string, instant: number): number {
  const key = `${timeZone} ${instant}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const offset = readOffsetMs(timeZone, instant);
  if (offsets.size >= MAX_CACHED_OFFSETS) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

function readOffsetMs(timeZone: string, instant: number): number {
  const fields: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const wall = new Date(0);
  wall.setUTCFullYear(fields.year ?? 1970, (fields.month ?? 1) - 1, fields.day ?? 1);
  wall.setUTCHours(fields.hour ?? 0, fields.minute ?? 0, fields.second ?? 0, 0);
  // the formatter shows whole seconds: compare with the instant's own whole second
  return wall.getTime() - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a wall-clock time (`wall`: the wall fields read as UTC, in ms) has in `timeZone`. A time
 * that occurs twice (the hour repeated when clocks go back) is its first occurrence; one that does not
 * occur (the hour skipped when clocks go forward) is read with the offset before the change, as a
 * JavaScript Date does, so a skipped midnight is the instant the day begins.
 *
 * @example
 * ```ts
 * zoneInstant('Europe/Lisbon', Date.UTC(2026, 2, 30)); // Date.UTC(2026, 2, 29, 23): midnight WEST is 23:00 UTC
 * ```
 */
export function zoneInstant(timeZone: string, wall: number): number {
  // offsets a day either side of the wall time bracket any change that could touch it
  const before = zoneOffsetMs(timeZone, wall - 86_400_000);
  const after = zoneOffsetMs(timeZone, wall + 86_400_000);
  const candidates = [wall - before, wall - after].filter((instant, i) => zoneOffsetMs(timeZone, instant) === (i === 0 ? before : after));
  // none valid: the time falls in a skipped hour, which the offset before the change maps past the gap
  return candidates.length === 0 ? wall - before : Math.min(...candidates);
}
