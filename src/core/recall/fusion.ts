/**
 * Weighted reciprocal-rank fusion of channel results (DESIGN §4).
 */
import type { ChannelHit } from '../ports/store.js';

/** A channel's contribution to one hit, reported in `why`. */
export interface ChannelExplanation {
  rank: number;
  score: number;
  /** Lexical channel: the idf-weighted share of the query's terms the memory contains. */
  coverage?: number;
}

export interface FusedHit {
  id: string;
  fused: number;
  channels: Record<string, ChannelExplanation>;
}

export interface FusionInput {
  channel: string;
  weight: number;
  hits: readonly ChannelHit[];
}

/** RRF's k: damps the head so a single channel cannot dominate (Cormack et al. use 60). */
export const RRF_K = 60;

/**
 * Fuses ranked lists: `fused = Σ weight / (RRF_K + rank)` with 1-based ranks; ties break by id for
 * determinism. Channels with weight 0 still appear in explanations but do not score.
 */
export function reciprocalRankFusion(inputs: readonly FusionInput[], rrfK: number = RRF_K): FusedHit[] {
  const byId = new Map<string, FusedHit>();
  for (const input of inputs) {
    input.hits.forEach((hit, index) => {
      const rank = index + 1;
      let fused = byId.get(hit.id);
      if (fused === undefined) {
        fused = { id: hit.id, fused: 0, channels: {} };
        byId.set(hit.id, fused);
      }
      fused.fused += input.weight / (rrfK + rank);
      fused.channels[input.channel] = { rank, score: hit.score, ...(hit.coverage !== undefined ? { coverage: Number(hit.coverage.toFixed(4)) } : {}) };
    });
  }
  return [...byId.values()].sort((a, b) => b.fused - a.fused || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
