/**
 * Reading times the way sources write them: epoch seconds (ChatGPT's `create_time`; milliseconds where they cannot be seconds), ISO 8601 text
 * (Claude.ai, mem0, Claude Code, front matter). Nothing is guessed: an unreadable time is no time.
 */
import { isInstant, parseIsoInstant } from '../../core/instant.js';

/** Seconds past this are after the year 9999, and as milliseconds after September 2001. */
const MS_FROM = 1e12;

/**
 * Epoch seconds (integer or fractional) to epoch ms, or undefined. A value too large to be seconds
 * (from 10^12, after the year 9999) that is an instant in milliseconds is taken as milliseconds: no
 * value can be read both ways.
 */
export function fromEpochSeconds(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const ms = Math.round(value * 1000);
  if (isInstant(ms)) return ms;
  return value >= MS_FROM && isInstant(Math.round(value)) ? Math.round(value) : undefined;
}

/** ISO 8601 text to epoch ms, or undefined. A `Date` (YAML front matter) is taken as it is. */
export function fromIso(value: unknown): number | undefined {
  if (value instanceof Date) return isInstant(value.getTime()) ? value.getTime() : undefined;
  if (typeof value !== 'string') return undefined;
  const ms = parseIsoInstant(value);
  return isInstant(ms) ? ms : undefined;
}

/** The reason recorded for a record that has no time and no `--default-time` to fall back on. */
export const NO_TIME_REASON = 'no timestamp in the source (pass --default-time ISO to import it with that time)';

/** The record's own time, else the default time, else undefined (the caller skips it with {@link NO_TIME_REASON}). */
export function timeOr(own: number | undefined, defaultTime: number | undefined): number | undefined {
  return own ?? defaultTime;
}
