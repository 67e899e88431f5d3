/**
 * Configuration of the sleep cycle: every threshold in one place, each with its documented default
 * and §11. Engine options may override any part.
 */
import { DEFAULT_COMPRESSION, type CompressionConfig } from './compression.js';
import { DEFAULT_DECAY, type DecayConfig } from './decay-policy.js';
import { DEFAULT_REFLECTION, type ReflectionConfig } from './reflection.js';
import {
  DEFAULT_REWARD_LEARNING,
  DEFAULT_STATISTICAL_PATTERNS,
  type RewardLearningConfig,
  type StatisticalPatternConfig,
} from './promotion-sources.js';
import { DEFAULT_SAMPLE_SIZES, type SampleSizes } from './sampler.js';
import { DEFAULT_PHASE_LOCK, type PhaseLockConfig } from './phase-lock-source.js';
import { DEFAULT_RECOMBINE, type RecombineConfig } from './recombination.js';
import { DEFAULT_INSIGHT, type InsightConfig } from './insight.js';
import { DEFAULT_AFFECT, type AffectConfig } from './affect.js';

/** The phases of the sleep cycle, in the order they run. */
export const PHASES = [
  'dedup',
  'supersede',
  'extract',
  'ground',
  'promote',
  'recombine',
  'insight',
  'reflect',
  'affect',
  'decay',
  'compress',
] as const;
export type PhaseName = (typeof PHASES)[number];

export interface GroundingConfig {
  /** Episodes a concept needs before its statistics are recorded. */
  minEpisodes: number;
  /** Shared episodes two concepts need before a RELATED_TO edge. */
  minShared: number;
}

export interface ConsolidationConfig {
  sample: SampleSizes;
  grounding: GroundingConfig;
  rewardLearning: RewardLearningConfig;
  statisticalPatterns: StatisticalPatternConfig;
  /** Promotion of metrics locked to the hour of day or the day of week (seed 000). */
  phaseLock: PhaseLockConfig;
  /** Bridges between distant memories (seed 002's REM). */
  recombine: RecombineConfig;
  /** Candidate knowledge from bridged groups and promoted patterns. */
  insight: InsightConfig;
  /** Re-appraisal of emotional memories: flashbulbs, cautions, moods. */
  affect: AffectConfig;
  reflection: ReflectionConfig;
  decay: DecayConfig;
  compression: CompressionConfig;
  /** Items per transaction (each batch also writes the phase checkpoint). */
  batchSize: number;
  /** Lease of the per-scope lock; renewed every batch, so a dead cycle frees the scope after this. */
  lockTtlMs: number;
  /** Records read per page when a phase scans a scope. */
  pageSize: number;
}

export const DEFAULT_CONSOLIDATION: Readonly<ConsolidationConfig> = Object.freeze({
  sample: DEFAULT_SAMPLE_SIZES,
  grounding: Object.freeze({ minEpisodes: 3, minShared: 2 }),
  rewardLearning: DEFAULT_REWARD_LEARNING,
  statisticalPatterns: DEFAULT_STATISTICAL_PATTERNS,
  phaseLock: DEFAULT_PHASE_LOCK,
  recombine: DEFAULT_RECOMBINE,
  insight: DEFAULT_INSIGHT,
  affect: DEFAULT_AFFECT,
  reflection: DEFAULT_REFLECTION,
  decay: DEFAULT_DECAY,
  compression: DEFAULT_COMPRESSION,
  batchSize: 200,
  lockTtlMs: 60_000,
  pageSize: 1000,
});

/** A partial override, one level deep per section. */
export type ConsolidationOverrides = {
  [K in keyof ConsolidationConfig]?: ConsolidationConfig[K] extends object ? Partial<ConsolidationConfig[K]> : ConsolidationConfig[K];
};

/** Merges overrides onto the defaults (section by section). */
export function resolveConsolidationConfig(overrides: ConsolidationOverrides = {}): ConsolidationConfig {
  const out: Record<string, unknown> = { ...DEFAULT_CONSOLIDATION };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const base = (DEFAULT_CONSOLIDATION as unknown as Record<string, unknown>)[key];
    out[key] = typeof base === 'object' && base !== null && typeof value === 'object' ? { ...base, ...value } : value;
  }
  return out as unknown as ConsolidationConfig;
}
