/**
 * Recall's side of corrections of captured episodes (`core/corrections.ts`): an episode whose captured
 * claim a later claim superseded says something no longer true, so it ranks after the candidates
 * nothing corrected (as in the context) and its hit names what corrected it.
 */
import { correctedClaimsOf, readCorrections, type CorrectedClaims, type Correction } from '../corrections.js';
import type { TimeFilter } from '../memory.js';
import type { StoreReader } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { isEpisode } from '../record-kinds.js';
import type { Candidate } from './scoring.js';

/**
 * `ranked` with its corrected episodes moved after the others (each group in its order), and their
 * corrections by episode id. `indexOf` gives a scope's index of corrected captured claims (the engine
 * keeps it per scope while the store's generation of its superseded claims holds); one read of the correcting claims
 * follows when any episode was corrected.
 */
export async function rankCorrected(
  store: Pick<StoreReader, 'findDerived' | 'getMemories' | 'getBeliefs' | 'listMemories'>,
  ranked: readonly Candidate[],
  read: { scopes: readonly Scope[]; now: number; time: TimeFilter },
  indexOf: (scope: Scope) => Promise<CorrectedClaims | null> = (scope) => correctedClaimsOf(store, scope),
): Promise<{ ranked: readonly Candidate[]; corrections: ReadonlyMap<string, Correction> }> {
  const episodes = ranked.filter((c) => isEpisode(c.record)).map((c) => ({ id: c.record.id, scope: c.record.scope }));
  if (episodes.length === 0) return { ranked, corrections: new Map() };
  const time = {
    ...(read.time.asOf !== undefined ? { asOf: read.time.asOf } : {}),
    ...(read.time.knownAt !== undefined ? { knownAt: read.time.knownAt } : {}),
  };
  const corrections = await readCorrections(store, read.scopes, episodes, read.now, indexOf, time);
  if (corrections.size === 0) return { ranked, corrections };
  const corrected = (c: Candidate): boolean => corrections.has(c.record.id);
  return { ranked: [...ranked.filter((c) => !corrected(c)), ...ranked.filter(corrected)], corrections };
}
