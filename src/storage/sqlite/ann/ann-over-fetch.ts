/**
 * How many rows to ask an approximate index for, per row a search wants, so that one search usually
 * leaves enough after the post-filter (scopes, layers, status, time). An HNSW search's cost grows with
 * the rows asked for, and a second search after a short first one costs more than asking for a few more
 * at once; the share of rows that survived the filter lately, per scope, says how many more.
 */

/** The most rows asked for per row wanted (a search that keeps almost nothing grows k itself). */
export const MAX_OVER_FETCH = 4;
/** Weight of the newest search in the moving average of the share that survived. */
const SMOOTHING = 0.2;

/**
 * Per-scope moving average of the share of an index's rows that passed the post-filter.
 *
 * @example
 * ```ts
 * const overFetch = new OverFetch();
 * overFetch.note('acme/support', 116, 58); // half of what the index returned was filtered out
 * overFetch.factor('acme/support'); // 2: ask for twice as many next time
 * ```
 */
export class OverFetch {
  readonly #scopes = new Map<string, { share: number; factor: number }>();

  /** Rows to ask for per row wanted: 1 until a search was noted, at most {@link MAX_OVER_FETCH}. */
  factor(scope: string): number {
    return this.#scopes.get(scope)?.factor ?? 1;
  }

  /** Records that `survived` of the `fetched` rows a search of `scope` returned passed the post-filter. */
  note(scope: string, fetched: number, survived: number): void {
    if (!(fetched > 0)) return;
    const share = Math.min(1, Math.max(survived / fetched, 1 / MAX_OVER_FETCH));
    const previous = this.#scopes.get(scope)?.share;
    const mean = previous === undefined ? share : previous + SMOOTHING * (share - previous);
    this.#scopes.set(scope, { share: mean, factor: Math.min(MAX_OVER_FETCH, 1 / mean) });
  }
}
