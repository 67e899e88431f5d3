/**
 * The candidate of a recall and the final blend of its scores.
 */
import type { MemoryRecord } from '../memory.js';
import type { ChannelExplanation } from './fusion.js';
import type { RecallConfig } from './recall-config.js';

/** A memory on its way to becoming a hit. */
export interface Candidate {
  record: MemoryRecord;
  channels: Record<string, ChannelExplanation>;
  /** Weighted sum of normalised channel scores. */
  fused: number;
  /** `fused` after the neighbourhood and graph adjustments. */
  relevance: number;
  neighbourhood: number;
  recency: number;
  importance: number;
  activation: number;
  score: number;
}

const DAY = 86_400_000;

/**
 * The final blend (DESIGN §4, seed 004): relevance + recency (exponential decay since last access,
 * else since recorded) + importance (unscored = 1.0) + activation (recency × importance × relevance).
 */
export function blendScores(candidates: Candidate[], config: RecallConfig, now: number): Candidate[] {
  const halfLife = Math.max(1, config.recencyHalfLifeDays) * DAY;
  for (const c of candidates) {
    const since = c.record.lastAccessedAt ?? c.record.recordedAt;
    c.recency = Math.pow(0.5, Math.max(0, now - since) / halfLife);
    c.importance = c.record.importance ?? 1;
    c.activation = c.recency * c.importance * Math.max(0, c.relevance);
    c.score = c.relevance + config.recencyWeight * c.recency + config.importanceWeight * c.importance + config.activationWeight * c.activation;
  }
  return candidates.sort((a, b) => b.score - a.score || (a.record.id < b.record.id ? -1 : 1));
}
