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
import { EngramError, messages } from '../core/errors.js';
import { CYCLE_PERIOD_MS } from './circular-statistics.js';

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

/** A partial override: any part of any section, at any depth (what is not given keeps its default). */
export type ConsolidationOverrides = DeepPartial<ConsolidationConfig>;

type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Settings with a closed set of values, by path: a value outside it would be silently ignored. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'consolidation.phaseLock.cycles': Object.keys(CYCLE_PERIOD_MS),
  'consolidation.affect.mood.period': ['day', 'week'],
  'consolidation.rewardLearning.outcomes': ['success', 'failure'],
});

/** Settings that must be whole numbers above zero (sizes and a lease). */
const POSITIVE_WHOLE = new Set(['batchSize', 'lockTtlMs', 'pageSize']);

/**
 * Merges overrides onto the defaults, at every depth: `{ decay: { idleDays: { low: 3 } } }` changes
 * that one threshold and keeps the others. Every value is checked against its default's kind (a number
 * finite, and at least 0 but for time-zone offsets; a list of strings; an object of known settings), so
 * a misspelt or mistyped setting is `INVALID_INPUT` naming it instead of a threshold silently lost.
 */
export function resolveConsolidationConfig(overrides: ConsolidationOverrides = {}): ConsolidationConfig {
  return mergeSetting(DEFAULT_CONSOLIDATION, overrides, 'consolidation') as ConsolidationConfig;
}

function mergeSetting(base: unknown, value: unknown, path: string): unknown {
  if (value === undefined) return base;
  const name = path.slice(path.lastIndexOf('.') + 1);
  const allowed = ALLOWED[path];
  if (Array.isArray(base)) {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) refuse(path, 'a list of strings', value, base);
    const unknown = (value as string[]).filter((v) => allowed !== undefined && !allowed.includes(v));
    if (unknown.length > 0) refuse(path, `a list of ${allowed?.map((a) => `"${a}"`).join(', ')}`, unknown[0], base);
    return [...(value as string[])];
  }
  if (typeof base === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) refuse(path, 'a finite number', value, base);
    const n = value as number;
    if (POSITIVE_WHOLE.has(name) && !(Number.isInteger(n) && n > 0)) refuse(path, 'a whole number above 0', value, base);
    if (n < 0 && name !== 'utcOffsetMinutes') refuse(path, 'a number ≥ 0', value, base);
    return n;
  }
  if (typeof base === 'string' || typeof base === 'boolean') {
    if (typeof value !== typeof base) refuse(path, `a ${typeof base}`, value, base);
    if (allowed !== undefined && !allowed.includes(value as string))
      refuse(path, `one of ${allowed.map((a) => `"${a}"`).join(', ')}`, value, base);
    return value;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse(path, 'an object of settings', value, base);
  const defaults = base as Record<string, unknown>;
  const out: Record<string, unknown> = { ...defaults };
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (!Object.hasOwn(defaults, key)) {
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(`${path} has no setting "${key}"; its settings are ${Object.keys(defaults).join(', ')}`),
        { details: { path: `${path}.${key}` } },
      );
    }
    out[key] = mergeSetting(defaults[key], v, `${path}.${key}`);
  }
  return out;
}

function refuse(path: string, kind: string, value: unknown, base: unknown): never {
  throw new EngramError(
    'INVALID_INPUT',
    messages.invalidInput(`${path} must be ${kind} (default ${JSON.stringify(base)}), got ${describeSetting(value)}`),
    { details: { path } },
  );
}

function describeSetting(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return Array.isArray(value) ? 'a list' : typeof value;
}
