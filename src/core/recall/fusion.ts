/**
 * Fusion of the channel results into candidates: normalised-score fusion (the default)
 * or weighted reciprocal-rank fusion. Each channel's score is normalised so weights mean the same
 * thing across queries: BM25 by the best hit (0..1) times the hit's query coverage^lexicalCoverage,
 * cosine as a z-score among the candidates (÷ semanticZScale), entity overlap and temporal match as 0..1.
 */
import type { MemoryRecord } from '../memory.js';
import type { ChannelHit } from '../ports/store.js';
import type { QueryAnalysis } from './query-analysis.js';
import { DEFAULT_RECALL_CONFIG, type RecallConfig } from './recall-config.js';
import type { Candidate } from './scoring.js';

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

/**
 * The candidates of the configured fusion mode. `absent` is the fused score of a memory no channel
 * returned, the starting point of memories added later (neighbours, graph).
 */
export function fuseCandidates(
  channels: Record<string, ChannelHit[]>,
  records: Map<string, MemoryRecord>,
  analysis: QueryAnalysis,
  config: RecallConfig,
): { candidates: Candidate[]; absent: number } {
  return config.fusion === 'rrf'
    ? { candidates: rrfCandidates(channels, records, config), absent: 0 }
    : fuseChannels(channels, records, analysis, config);
}

/**
 * Normalised-score fusion of the candidate channels, plus the entity and affect features; a memory
 * the semantic channel did not return scores the candidates' floor there.
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
      let record = explanations.get(hit.id);
      if (record === undefined) {
        record = {};
        explanations.set(hit.id, record);
      }
      // as the channel scored it: rounded only for the few candidates that become hits (`roundedChannels`)
      const explanation: ChannelExplanation = { rank: index + 1, score: hit.score };
      if (hit.coverage !== undefined) explanation.coverage = hit.coverage;
      record[channel] = explanation;
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
  const mention = byId(channels.mention);
  const queryEntities = new Set(analysis.entities);
  const entityScores: number[] = [];
  const queryMood = new Set(analysis.emotion.mood);
  const out: Candidate[] = [];
  for (const [id, channelInfo] of explanations) {
    const record = records.get(id);
    if (record === undefined) continue;
    const lexBest = lexicalMax > 0 ? (lexical.get(id) ?? 0) / lexicalMax : 0;
    const lex = lexBest === 0 || config.lexicalCoverage === 0 ? lexBest : lexBest * Math.pow(coverage.get(id) ?? 1, config.lexicalCoverage);
    const cos = semantic.get(id) ?? semanticFloor;
    const sem = stats.std > 0 ? (cos - stats.mean) / stats.std / config.semanticZScale : 0;
    let fused =
      config.lexicalWeight * lex +
      config.semanticWeight * sem +
      config.temporalWeight * (temporal.get(id) ?? 0) +
      config.mentionWeight * (mention.get(id) ?? 0);
    if (queryEntities.size > 0 && config.entityWeight > 0) {
      let overlap = 0;
      for (const entity of record.entities) if (queryEntities.has(entity)) overlap += 1;
      if (overlap > 0) {
        const share = Math.min(1, overlap / queryEntities.size);
        const listed = channelInfo.entity;
        // the reported share is one of a few values: rounded once each (rounding and spreading here were
        // 40 % of fusion's own time in a LoCoMo profile)
        const score = (entityScores[overlap] ??= Number(share.toFixed(4)));
        channelInfo.entity = listed === undefined ? { rank: 0, score } : { ...listed, score };
        fused += config.entityWeight * share;
      }
    }
    if (config.affectWeight > 0 && analysis.emotion.intensity >= config.affectMinIntensity && record.emotion !== null) {
      const sameSign = Math.sign(record.emotion.valence) === Math.sign(analysis.emotion.valence) && record.emotion.valence !== 0;
      const moods = (record.emotion.mood ?? []).filter((m) => queryMood.has(m)).length;
      const affect = (sameSign ? config.affectValenceShare : 0) + (moods > 0 ? config.affectMoodShare : 0);
      if (affect > 0) {
        channelInfo.affect = { rank: 0, score: affect };
        fused += config.affectWeight * affect;
      }
    }
    out.push({
      record,
      channels: channelInfo,
      fused,
      relevance: fused,
      neighbourhood: 0,
      recency: 0,
      importance: 0,
      activation: 0,
      score: fused,
    });
  }
  const absent = stats.std > 0 ? (config.semanticWeight * (semanticFloor - stats.mean)) / stats.std / config.semanticZScale : 0;
  return { candidates: out, absent };
}

/**
 * Fuses ranked lists: `fused = Σ weight / (rrfK + rank)` with 1-based ranks; ties break by id for
 * determinism. Channels with weight 0 still appear in explanations but do not score. `rrfK` damps the
 * head so a single channel cannot dominate.
 */
export function reciprocalRankFusion(inputs: readonly FusionInput[], rrfK: number = DEFAULT_RECALL_CONFIG.rrfK): FusedHit[] {
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
      fused.channels[input.channel] = {
        rank,
        score: hit.score,
        ...(hit.coverage !== undefined ? { coverage: hit.coverage } : {}),
      };
    });
  }
  return [...byId.values()].sort((a, b) => b.fused - a.fused || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Reciprocal-rank fusion into candidates (the `rrf` fusion mode and single-channel baselines). */
function rrfCandidates(channels: Record<string, ChannelHit[]>, records: Map<string, MemoryRecord>, config: RecallConfig): Candidate[] {
  const weights: Record<string, number> = {
    lexical: config.lexicalWeight,
    semantic: config.semanticWeight,
    entity: config.entityWeight,
    temporal: config.temporalWeight,
    mention: config.mentionWeight,
  };
  const fused = reciprocalRankFusion(
    Object.entries(channels).map(([channel, hits]) => ({ channel, weight: weights[channel] ?? 0, hits })),
    config.rrfK,
  );
  const out: Candidate[] = [];
  for (const f of fused) {
    const record = records.get(f.id);
    if (record === undefined || f.fused <= 0) continue;
    out.push({
      record,
      channels: f.channels,
      fused: f.fused,
      relevance: f.fused,
      neighbourhood: 0,
      recency: 0,
      importance: 0,
      activation: 0,
      score: f.fused,
    });
  }
  return out;
}

/**
 * A hit's channel explanations as reported: scores to 6 decimals, coverage to 4. Fusion keeps them as
 * the channels scored them and rounds only the hits returned (a LoCoMo recall has ~400 channel hits;
 * `Number(x.toFixed(6))` of 400 values took 0.16 ms measured alone).
 */
export function roundedChannels(channels: Readonly<Record<string, ChannelExplanation>>): Record<string, ChannelExplanation> {
  const out: Record<string, ChannelExplanation> = {};
  for (const [channel, explanation] of Object.entries(channels)) {
    const rounded: ChannelExplanation = { ...explanation, score: Number(explanation.score.toFixed(6)) };
    if (explanation.coverage !== undefined) rounded.coverage = Number(explanation.coverage.toFixed(4));
    out[channel] = rounded;
  }
  return out;
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
