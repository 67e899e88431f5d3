import { instantFromText, parseIsoInstant } from '../../core/instant.js';

/**
 * Minutes east of UTC of this machine's time zone at a date flag's instant (default now): the CLI reads
 * a time without an offset as local time, so the dates a query names ("on May 1") are local days too.
 *
 * @example
 * ```ts
 * // TZ=America/New_York
 * localOffsetMinutes('2024-05-01T12:00:00Z'); // -240
 * ```
 */
export function localOffsetMinutes(at?: string): number {
  const given = instantFromText(at);
  const ms = given === undefined ? Date.now() : typeof given === 'number' ? given : parseIsoInstant(given);
  // an invalid flag is the engine's to refuse; -0 for UTC would print as 0 anyway
  return -new Date(Number.isFinite(ms) ? ms : Date.now()).getTimezoneOffset() || 0;
}
