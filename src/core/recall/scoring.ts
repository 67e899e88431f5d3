/**
 * Score fusion and the final blend. Each channel's score is normalised so weights mean the same thing
 * across queries: BM25 by the best hit (0..1) times the hit's query coverage^lexicalCoverage, cosine as a z-score among the candidates (÷ 4), entity
 * overlap and temporal match as 0..1.
 */
import type { MemoryRecord } from '../memory.js';
import type { ChannelHit } from '../ports/store.js';
import type { ChannelExplanation } from './fusion.js';
import type { QueryAnalysis } from './query-analysis.js';
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
 * Normalised-score fusion of the candidate channels, plus the entity and affect features. `absent` is
 * the fused score of a memory no channel returned (its semantic score is the candidates' floor), the
 * starting point of memories added later (neighbours, graph).
 */
export function fuseChannels(
  channels: Record<string, ChannelHit[]>,
  records: Map<string, MemoryRecord>,
  analysis: QueryAnalysis,
  config: RecallConfig,
): { candidates: Candidate[]; absent: number } {
  const explanations = new Map<string, Record<string, ChannelExplanation>>();
  for (const [channel, hits] of Object.entries(channels)) {
    hits.forEach((hit, index) => {
      const record = explanations.get(hit.id) ?? {};
      record[channel] = { rank: index + 1, score: Number(hit.score.toFixed(6)), ...(hit.coverage !== undefined ? { coverage: Number(hit.coverage.toFixed(4)) } : {}) };
      explanations.set(hit.id, record);
    });
  }
  const lexical = byId(channels.lexical);
  const lexicalMax = channels.lexical?.[0]?.score ?? 0;
  // A lexical hit counts in proportion to how much of the query it covers (idf-weighted): matching one
  // common word of a long question is weak evidence even when it is the best lexical match there is.
  const coverage = new Map((channels.lexical ?? []).map((h) => [h.id, h.coverage ?? 1]));
  const semantic = byId(channels.semantic);
  const stats = meanStd((channels.semantic ?? []).map((h) => h.score));
  const semanticFloor = Math.min(...(channels.semantic ?? []).map((h) => h.score), stats.mean);
  const temporal = byId(channels.temporal);
  const queryEntities = new Set(analysis.entities);
  const queryMood = new Set(analysis.emotion.mood);
  const out: Candidate[] = [];
  for (const [id, channelInfo] of explanations) {
    const record = records.get(id);
    if (record === undefined) continue;
    const lexBest = lexicalMax > 0 ? (lexical.get(id) ?? 0) / lexicalMax : 0;
    const lex = lexBest === 0 || config.lexicalCoverage === 0 ? lexBest : lexBest * Math.pow(coverage.get(id) ?? 1, config.lexicalCoverage);
    const cos = semantic.get(id) ?? semanticFloor;
    const sem = stats.std > 0 ? (cos - stats.mean) / stats.std / 4 : 0;
    let fused = config.lexicalWeight * lex + config.semanticWeight * sem + config.temporalWeight * (temporal.get(id) ?? 0);
    if (queryEntities.size > 0 && config.entityWeight > 0) {
      const overlap = record.entities.filter((e) => queryEntities.has(e)).length;
      if (overlap > 0) {
        const share = Math.min(1, overlap / queryEntities.size);
        channelInfo.entity = { ...(channelInfo.entity ?? { rank: 0 }), score: Number(share.toFixed(4)) };
        fused += config.entityWeight * share;
      }
    }
    if (config.affectWeight > 0 && analysis.emotion.intensity >= 2 && record.emotion !== null) {
      const sameSign = Math.sign(record.emotion.valence) === Math.sign(analysis.emotion.valence) && record.emotion.valence !== 0;
      const moods = (record.emotion.mood ?? []).filter((m) => queryMood.has(m)).length;
      const affect = (sameSign ? 0.5 : 0) + (moods > 0 ? 0.5 : 0);
      if (affect > 0) {
        channelInfo.affect = { rank: 0, score: affect };
        fused += config.affectWeight * affect;
      }
    }
    out.push({ record, channels: channelInfo, fused, relevance: fused, neighbourhood: 0, recency: 0, importance: 0, activation: 0, score: fused });
  }
  const absent = stats.std > 0 ? (config.semanticWeight * (semanticFloor - stats.mean)) / stats.std / 4 : 0;
  return { candidates: out, absent };
}

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

function byId(hits: readonly ChannelHit[] | undefined): Map<string, number> {
  return new Map((hits ?? []).map((h) => [h.id, h.score]));
}

function meanStd(values: readonly number[]): { mean: number; std: number } {
  if (values.length === 0) return { mean: 0, std: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const std = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  return { mean, std };
}
