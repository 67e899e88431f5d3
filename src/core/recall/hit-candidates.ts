/**
 * The candidates that can become hits. Some records take part in a recall without being answers: a
 * chunked document's parent stands for its chunks, an extracted concept is an index node (a bare name)
 * that spreads activation, a persona or profile schema is a setting of its scope. They stay candidates
 * through fusion, the neighbourhood and graph spreading, and leave before the hits are ranked, so they
 * never take a hit's place nor a rank in a channel.
 */
import type { MemoryRecord } from '../memory.js';
import { isChunkParent, isConcept } from '../record-kinds.js';
import { isScopeSetting } from '../scope-settings.js';
import type { ChannelExplanation } from './fusion.js';
import type { Candidate } from './scoring.js';

/** Whether a record can be a recall hit (not a chunk parent, concept, persona or profile schema). */
export function canBeHit(record: MemoryRecord): boolean {
  return !isChunkParent(record) && !isConcept(record) && !isScopeSetting(record);
}

/**
 * The candidates that can be hits, in their order, with each channel's rank recomputed among them:
 * 1-based, by the channel's score (highest first; ties keep the channel's own order, then id). A
 * record that scores in a channel without being in its list (an entity share, an affect match) is
 * ranked there too, after the listed ones it ties with.
 */
export function hitCandidates(candidates: readonly Candidate[]): Candidate[] {
  const kept = candidates.filter((c) => canBeHit(c.record));
  const byChannel = new Map<string, { index: number; explanation: ChannelExplanation }[]>();
  kept.forEach((c, index) => {
    for (const [channel, explanation] of Object.entries(c.channels)) {
      const listed = byChannel.get(channel);
      if (listed === undefined) byChannel.set(channel, [{ index, explanation }]);
      else listed.push({ index, explanation });
    }
  });
  const ranks = kept.map(() => new Map<string, number>());
  for (const [channel, entries] of byChannel) {
    entries.sort(
      (a, b) =>
        b.explanation.score - a.explanation.score ||
        listedRank(a.explanation) - listedRank(b.explanation) ||
        byId(kept[a.index] as Candidate, kept[b.index] as Candidate),
    );
    entries.forEach(({ index }, i) => (ranks[index] as Map<string, number>).set(channel, i + 1));
  }
  return kept.map((c, i) => {
    const rankOf = ranks[i] as Map<string, number>;
    const channels: Record<string, ChannelExplanation> = {};
    for (const [channel, explanation] of Object.entries(c.channels)) channels[channel] = { ...explanation, rank: rankOf.get(channel) ?? 0 };
    return { ...c, channels };
  });
}

/** The rank the channel gave, unranked (0) last. */
function listedRank(explanation: ChannelExplanation): number {
  return explanation.rank > 0 ? explanation.rank : Infinity;
}

function byId(a: Candidate, b: Candidate): number {
  return a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
}
