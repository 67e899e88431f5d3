/**
 * The temporal channel's read, shared by the stores: only the newest `limit` rows of a time window are
 * wanted, but ordering a whole window by (time, id) sorts every row in it (a year of a 1M scope took
 * 1.5 s on SQLite, 0.3-0.4 s on PostgreSQL). So a store first reads each scope's newest `limit` event
 * times backwards along its event-time index, and then runs the exact query from the bound this returns.
 */

/**
 * Where the exact (time, id) query may start: the `limit`-th newest of the scopes' newest event times,
 * so that it still sees every row tied with that one; the window's own start when there are fewer.
 */
export function windowBound(newestTimes: number[], limit: number, start: number): number {
  if (newestTimes.length < limit) return start;
  return newestTimes.sort((a, b) => b - a)[limit - 1] as number;
}
