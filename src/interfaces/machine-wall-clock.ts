/**
 * The wall clock of the machine this process runs on, for the dates a query names ("yesterday"): the
 * CLI, the hooks and the MCP server run on the user's own machine, so its time zone is the user's.
 */
import { isTimeZone } from '../core/text/index.js';

/** A wall clock the recall and context options take: an IANA zone, or a fixed UTC offset. */
export type MachineWallClock = { timeZone: string } | { timezoneOffsetMinutes: number };

/**
 * This machine's IANA time zone; when the runtime cannot name it (a POSIX `TZ` such as "EST+5"), its
 * UTC offset at `at` (epoch ms, default now).
 *
 * @example
 * ```ts
 * // TZ=Europe/Lisbon
 * machineWallClock(); // { timeZone: 'Europe/Lisbon' }
 * ```
 */
export function machineWallClock(at?: number): MachineWallClock {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone as string | undefined;
  if (zone !== undefined && isTimeZone(zone)) return { timeZone: zone };
  const instant = at !== undefined && Number.isFinite(at) ? at : Date.now();
  // -0 for UTC would print as 0 anyway
  return { timezoneOffsetMinutes: -new Date(instant).getTimezoneOffset() || 0 };
}
