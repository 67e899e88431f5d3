import { instantFromText, parseIsoInstant } from '../../core/instant.js';
import { machineWallClock, type MachineWallClock } from '../machine-wall-clock.js';

/**
 * The wall clock the CLI reads a query's dates on ("on May 1" is a local day): `--time-zone` when given,
 * else this machine's time zone, else (a zone the runtime cannot name) its UTC offset at a date flag's
 * instant (default now), as a time without an offset is read as local time.
 *
 * @example
 * ```ts
 * // TZ=America/New_York
 * localWallClock(undefined, '2024-05-01T12:00:00Z'); // { timeZone: 'America/New_York' }
 * localWallClock('Europe/Lisbon'); // { timeZone: 'Europe/Lisbon' }
 * ```
 */
export function localWallClock(timeZone: string | undefined, at?: string): MachineWallClock {
  if (timeZone !== undefined) return { timeZone };
  const given = instantFromText(at);
  // an invalid flag is the engine's to refuse
  return machineWallClock(given === undefined ? undefined : typeof given === 'number' ? given : parseIsoInstant(given));
}
