/**
 * Rows of `StoreReader.recentEpisodeHeads`, shared by both backends: each scope's newest episodes are
 * read along its (scope, layer, recorded_at) index, then merged newest first.
 */
import type { EpisodeHead } from '../core/ports/store.js';

/** A row as both backends select it: the content's start, the perceived people as JSON text, the recording time. */
export interface EpisodeHeadRow {
  head: string;
  people: string | null;
  t: number | string;
}

/** The newest `limit` of the scopes' rows (each list newest first), as heads. */
export function mergeEpisodeHeads(perScope: readonly (readonly EpisodeHeadRow[])[], limit: number): EpisodeHead[] {
  const rows = perScope.length === 1 ? [...(perScope[0] ?? [])] : perScope.flat().sort((a, b) => Number(b.t) - Number(a.t));
  return rows.slice(0, limit).map((row) => ({ head: row.head, people: peopleOf(row.people) }));
}

/** The strings of a JSON array; none for anything else (a damaged or unexpected value is not an error here). */
function peopleOf(json: string | null): string[] {
  if (json === null || json === '') return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}
