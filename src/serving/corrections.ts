/**
 * The context's side of corrections of captured episodes (`core/corrections.ts`): a corrected episode
 * is marked with what corrected it and comes after the episodes nothing corrected.
 */
import type { Correction } from '../core/corrections.js';
import type { EpisodeEntry } from './types.js';

/** The episodes with their corrections marked, those nothing corrected first (each group in its order). */
export function markCorrections(episodes: readonly EpisodeEntry[], corrections: ReadonlyMap<string, Correction>): EpisodeEntry[] {
  const marked = episodes.map((e) => {
    const correction = corrections.get(e.id);
    return correction !== undefined ? { ...e, correctedBy: correction } : e;
  });
  return [...marked.filter((e) => e.correctedBy === undefined), ...marked.filter((e) => e.correctedBy !== undefined)];
}
