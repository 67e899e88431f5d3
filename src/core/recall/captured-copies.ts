/**
 * A captured turn and a claim captured from it say the same thing twice: the claim is a sentence of the
 * turn (`provenance.derivedFrom` names the turn, tag `captured`). When both would be hits, the better
 * ranked one is returned and the other spends no slot; its id is kept in the hit's `why.sameAs`.
 */
import type { MemoryRecord } from '../memory.js';
import { isEpisode, isFact } from '../record-kinds.js';
import { CAPTURED_TAG } from '../write/capture/index.js';

/** Whether `record` is a claim captured from a turn. */
function isCapturedClaim(record: MemoryRecord): boolean {
  return isFact(record) && record.tags.includes(CAPTURED_TAG) && record.provenance.derivedFrom.length > 0;
}

/**
 * For each record of `ranked` that has copies among them, their ids: a captured claim's turns, a turn's
 * claims captured from it.
 */
export function capturedCopies(ranked: readonly MemoryRecord[]): ReadonlyMap<string, readonly string[]> {
  const present = new Set(ranked.filter(isEpisode).map((r) => r.id));
  const copies = new Map<string, string[]>();
  const link = (a: string, b: string): void => {
    const list = copies.get(a);
    if (list === undefined) copies.set(a, [b]);
    else if (!list.includes(b)) list.push(b);
  };
  for (const record of ranked) {
    if (!isCapturedClaim(record)) continue;
    for (const turn of record.provenance.derivedFrom) {
      if (!present.has(turn)) continue;
      link(record.id, turn);
      link(turn, record.id);
    }
  }
  return copies;
}
