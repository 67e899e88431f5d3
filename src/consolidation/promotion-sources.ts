/**
 * Promotion sources (seed 000): anything that detects patterns offers candidates through
 * one method, `candidates(scope, since)`. Two built in: reward learning (Rescorla-Wagner per cue →
 * outcome, gated by the §11.8 noise filter) and statistical patterns (trends by least squares with R²,
 * correlations between metrics). Both are pure over observations; the cycle supplies the loader.
 */
import type { Scope } from '../core/scope.js';
import type { PhaseLock } from './phase-lock-source.js';
import { DEFAULT_NOISE_FILTER, filterCue, type CueCount, type NoiseFilterConfig } from './noise-filter.js';
import { isNewSince, type Observation } from './observations.js';
import { DEFAULT_RESCORLA_WAGNER, learn, type RescorlaWagnerConfig } from './rescorla-wagner.js';
import { correlationPValue, linearRegression, pearson } from './statistics.js';

/** A pattern worth turning into a semantic concept. */
export interface PromotionCandidate {
  /** Stable identity across runs: re-promoting the same key updates, never duplicates. */
  key: string;
  /** The source that proposed it. */
  source: string;
  kind: 'association' | 'trend' | 'correlation' | 'phase-lock';
  /** Concept name, e.g. `grasp + coffee_mug → success`. */
  name: string;
  /** The concept's text, e.g. `grasp + coffee_mug is reliable: 7 of 8 succeeded`. */
  content: string;
  confidence: number;
  /** Provenance kind of the promoted concept. */
  provenanceKind: 'episodic' | 'statistical';
  /** Episodes the concept derives from (DERIVED_FROM edges); empty for statistical patterns. */
  episodes: string[];
  /** The statistical record that confirms it (STATISTICALLY_CONFIRMS edge), for statistical patterns. */
  statistic?: { key: string; name: string; content: string; metric: Record<string, unknown> };
  /** A metric locked to a cycle: the promoted concept gets a PHASE_LOCKED_TO edge to the cycle's node. */
  phaseLock?: PhaseLock;
  /** The numbers behind the decision (stored on the concept). */
  evidence: Record<string, unknown>;
}

/** The one interface every promotion source implements. */
export interface PromotionSource {
  readonly name: string;
  /** Candidates whose evidence includes something observed at or after `since` (all when 0). */
  candidates(scope: Scope, since: number): Promise<PromotionCandidate[]>;
}

/** Loads the observations of a scope (the cycle reads them from the store). */
export type ObservationLoader = (scope: Scope) => Promise<readonly Observation[]>;

export interface RewardLearningConfig {
  learner: RescorlaWagnerConfig;
  /** Minimum associative strength V to promote. */
  threshold: number;
  filter: NoiseFilterConfig;
  /** Which outcomes a cue may be promoted for. */
  outcomes: readonly ('success' | 'failure')[];
}

export const DEFAULT_REWARD_LEARNING: Readonly<RewardLearningConfig> = Object.freeze({
  learner: DEFAULT_RESCORLA_WAGNER,
  threshold: 0.6,
  filter: DEFAULT_NOISE_FILTER,
  outcomes: ['success'] as const,
});

/** Cue → outcome candidates from observations (pure). */
export function rewardLearningCandidates(
  observations: readonly Observation[],
  since = 0,
  config: RewardLearningConfig = DEFAULT_REWARD_LEARNING,
): PromotionCandidate[] {
  const byCue = new Map<string, Observation[]>();
  for (const o of observations) {
    if (o.cue === null || o.success === null) continue;
    const list = byCue.get(o.cue);
    if (list === undefined) byCue.set(o.cue, [o]);
    else list.push(o);
  }
  const out: PromotionCandidate[] = [];
  for (const outcome of config.outcomes) {
    const counts: CueCount[] = [...byCue].map(([cue, list]) => ({
      cue,
      n: list.length,
      k: list.filter((o) => o.success === (outcome === 'success')).length,
    }));
    for (const [cue, list] of byCue) {
      if (since > 0 && !list.some((o) => isNewSince(o, since))) continue;
      const ordered = [...list].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
      const association = learn(
        ordered.map((o) => o.success === (outcome === 'success')),
        config.learner,
      );
      if (association.strength < config.threshold) continue;
      const test = filterCue(counts, cue, config.filter);
      if (!test.passed) continue;
      const verdict = outcome === 'success' ? 'is reliable' : 'is unreliable';
      const verb = outcome === 'success' ? 'succeeded' : 'failed';
      out.push({
        key: `reward:${cue}->${outcome}`,
        source: 'reward-learning',
        kind: 'association',
        name: `${cue} → ${outcome}`,
        content: `${cue} ${verdict}: ${test.k} of ${test.n} ${verb} (base rate ${round(test.baseRate)}, p ${round(test.pValue, 4)}, associative strength ${round(association.strength)}).`,
        confidence: round(Math.min(1, association.strength * (1 - test.pValue)), 4),
        provenanceKind: 'episodic',
        episodes: ordered.map((o) => o.id),
        evidence: { cue, outcome, k: test.k, n: test.n, baseRate: test.baseRate, pValue: test.pValue, strength: association.strength },
      });
    }
  }
  return out;
}

export interface StatisticalPatternConfig {
  /** Minimum R² of a trend. */
  minR2: number;
  /** Minimum |r| of a correlation. */
  minCorrelation: number;
  /** Significance level, Bonferroni-corrected over the tests of one scope and kind. */
  alpha: number;
  /** Minimum observations per tool (trends) or metric pair (correlations). */
  minSupport: number;
  /** Trends: observations per time window whose success rate is one point of the series. */
  windows: number;
}

export const DEFAULT_STATISTICAL_PATTERNS: Readonly<StatisticalPatternConfig> = Object.freeze({
  minR2: 0.5,
  minCorrelation: 0.5,
  alpha: 0.05,
  minSupport: 20,
  windows: 6,
});

/** Trend candidates: per tool, the success rate over time windows, least squares with R² (pure). */
export function trendCandidates(
  observations: readonly Observation[],
  since = 0,
  config: StatisticalPatternConfig = DEFAULT_STATISTICAL_PATTERNS,
): PromotionCandidate[] {
  const byTool = new Map<string, Observation[]>();
  for (const o of observations) {
    if (o.tool === null || o.success === null) continue;
    const list = byTool.get(o.tool);
    if (list === undefined) byTool.set(o.tool, [o]);
    else list.push(o);
  }
  const tested = [...byTool].filter(
    ([, list]) => list.length >= config.minSupport && (since <= 0 || list.some((o) => isNewSince(o, since))),
  );
  const out: PromotionCandidate[] = [];
  for (const [tool, list] of tested) {
    const ordered = [...list].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    const windows = Math.min(config.windows, Math.floor(ordered.length / 3));
    const xs: number[] = [];
    const ys: number[] = [];
    for (let w = 0; w < windows; w += 1) {
      const slice = ordered.slice(Math.floor((w * ordered.length) / windows), Math.floor(((w + 1) * ordered.length) / windows));
      xs.push(w);
      ys.push(slice.filter((o) => o.success).length / slice.length);
    }
    const fit = linearRegression(xs, ys);
    // Significance from every observation (point-biserial), R² from the windowed rates.
    const pValue = correlationPValue(
      pearson(
        ordered.map((o) => o.at),
        ordered.map((o) => (o.success ? 1 : 0)),
      ),
      ordered.length,
    );
    if (fit.r2 < config.minR2 || pValue * tested.length > config.alpha || fit.slope === 0) continue;
    const direction = fit.slope < 0 ? 'declining' : 'rising';
    const statName = `tool_${tool} success trend`;
    const verbal = `tool_${tool} success ${direction}: slope ${round(fit.slope)} per window over ${windows} windows, R² ${round(fit.r2)} (n ${ordered.length})`;
    out.push({
      key: `trend:${tool}:success`,
      source: 'statistical-pattern',
      kind: 'trend',
      name: `tool_${tool} success ${direction}`,
      content: `${verbal}.`,
      confidence: round(fit.r2 * (1 - pValue), 4),
      provenanceKind: 'statistical',
      episodes: [],
      statistic: {
        key: `trend:${tool}:success`,
        name: statName,
        content: verbal,
        metric: {
          kind: 'trend',
          subject: `tool_${tool}`,
          metric: 'success',
          n: ordered.length,
          windows,
          slope: fit.slope,
          intercept: fit.intercept,
          r2: fit.r2,
          pValue,
          series: ys,
        },
      },
      evidence: { tool, n: ordered.length, windows, slope: fit.slope, r2: fit.r2, pValue, episodes: ordered.map((o) => o.id) },
    });
  }
  return out;
}

/** Correlation candidates between every pair of metrics present on enough episodes (pure). */
export function correlationCandidates(
  observations: readonly Observation[],
  since = 0,
  config: StatisticalPatternConfig = DEFAULT_STATISTICAL_PATTERNS,
): PromotionCandidate[] {
  if (since > 0 && !observations.some((o) => isNewSince(o, since))) return [];
  const names = [...new Set(observations.flatMap((o) => Object.keys(o.metrics)))].sort();
  const pairs: { a: string; b: string; xs: number[]; ys: number[] }[] = [];
  for (let i = 0; i < names.length; i += 1) {
    for (let j = i + 1; j < names.length; j += 1) {
      const a = names[i] as string;
      const b = names[j] as string;
      const xs: number[] = [];
      const ys: number[] = [];
      for (const o of observations) {
        const x = o.metrics[a];
        const y = o.metrics[b];
        if (x !== undefined && y !== undefined) {
          xs.push(x);
          ys.push(y);
        }
      }
      if (xs.length >= config.minSupport) pairs.push({ a, b, xs, ys });
    }
  }
  const out: PromotionCandidate[] = [];
  for (const { a, b, xs, ys } of pairs) {
    const r = pearson(xs, ys);
    const pValue = correlationPValue(r, xs.length);
    if (Math.abs(r) < config.minCorrelation || pValue * pairs.length > config.alpha) continue;
    const sign = r > 0 ? 'positively' : 'negatively';
    const verbal = `${a} and ${b} correlate ${sign}: r ${round(r)} (n ${xs.length}, p ${round(pValue, 6)})`;
    out.push({
      key: `correlation:${a}:${b}`,
      source: 'statistical-pattern',
      kind: 'correlation',
      name: `${a} correlates with ${b}`,
      content: `${verbal}.`,
      confidence: round(Math.abs(r) * (1 - pValue), 4),
      provenanceKind: 'statistical',
      episodes: [],
      statistic: {
        key: `correlation:${a}:${b}`,
        name: `${a} ~ ${b} correlation`,
        content: verbal,
        metric: { kind: 'correlation', a, b, n: xs.length, r, pValue },
      },
      evidence: { a, b, n: xs.length, r, pValue },
    });
  }
  return out;
}

/** The reward-learning source over a loader. */
export function rewardLearningSource(load: ObservationLoader, config: RewardLearningConfig = DEFAULT_REWARD_LEARNING): PromotionSource {
  return { name: 'reward-learning', candidates: async (scope, since) => rewardLearningCandidates(await load(scope), since, config) };
}

/** The statistical-pattern source (trends and correlations) over a loader. */
export function statisticalPatternSource(
  load: ObservationLoader,
  config: StatisticalPatternConfig = DEFAULT_STATISTICAL_PATTERNS,
): PromotionSource {
  return {
    name: 'statistical-pattern',
    candidates: async (scope, since) => {
      const observations = await load(scope);
      return [...trendCandidates(observations, since, config), ...correlationCandidates(observations, since, config)];
    },
  };
}

function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
