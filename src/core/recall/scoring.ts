/**
 * The candidate of a recall and the final blend of its scores.
 */
import type { MemoryRecord } from '../memory.js';
import type { ChannelExplanation } from './fusion.js';
import type { RecallConfig } from './recall-config.js';

/** A memory on its way to becoming a hit; each stage of recall returns new candidates, never edits one. */
export interface Candidate {
  readonly record: MemoryRecord;
  readonly channels: Readonly<Record<string, ChannelExplanation>>;
  /** Weighted sum of normalised channel scores. */
  readonly fused: number;
  /** `fused` after the neighbourhood and graph adjustments. */
  readonly relevance: number;
  readonly neighbourhood: number;
  readonly recency: number;
  readonly importance: number;
  readonly activation: number;
  readonly score: number;
  /** Set by the persona stage when a persona re-ranked the candidates. */
  readonly persona?: PersonaExplanation;
}

/** Why the persona moved a hit: the factor its score was scaled by and what matched. */
export interface PersonaExplanation {
  /** Score multiplier: 1 + weight × affinity (1 = unmoved). */
  factor: number;
  /** -1..1: the sum over dispositions of (2·value − 1) × match. */
  affinity: number;
  /** What matched, e.g. `curiosity 0.9: tag ml`. */
  matched: string[];
}

/** A candidate no channel returned (a neighbour, or a record the graph reached), at `relevance`. */
export function reachedCandidate(record: MemoryRecord, relevance: number): Candidate {
  return { record, channels: {}, fused: relevance, relevance, neighbourhood: 0, recency: 0, importance: 0, activation: 0, score: 0 };
}

const DAY = 86_400_000;

/**
 * The final blend (seed 004): relevance + recency (exponential decay since last access,
 * else since recorded) + importance (unscored = 1.0) + activation (recency × importance × relevance).
 */
export function blendScores(candidates: readonly Candidate[], config: RecallConfig, now: number): Candidate[] {
  const halfLife = Math.max(1, config.recencyHalfLifeDays) * DAY;
  return candidates
    .map((c) => {
      const since = c.record.lastAccessedAt ?? c.record.recordedAt;
      const recency = Math.pow(0.5, Math.max(0, now - since) / halfLife);
      const importance = c.record.importance ?? 1;
      const activation = recency * importance * Math.max(0, c.relevance);
      const score =
        c.relevance + config.recencyWeight * recency + config.importanceWeight * importance + config.activationWeight * activation;
      // built field by field rather than spread: candidates arrive here in several shapes
      const blended: Candidate = {
        record: c.record,
        channels: c.channels,
        fused: c.fused,
        relevance: c.relevance,
        neighbourhood: c.neighbourhood,
        recency,
        importance,
        activation,
        score,
      };
      return c.persona === undefined ? blended : { ...blended, persona: c.persona };
    })
    .sort((a, b) => b.score - a.score || (a.record.id < b.record.id ? -1 : 1));
}
