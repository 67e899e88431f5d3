/**
 * The noise filter that runs before promotion: a cue's count of an outcome is tested
 * against the base rate of the same outcome among the scope's *other* cues (0.5 when there are none),
 * one-sided binomial, α = 0.05, minimum support n_min = 5. So 7 of 8 against a coin flip passes
 * (p ≈ 0.035) and a 2-of-2 streak does not.
 */
import { binomialUpperTail } from './statistics.js';

export interface NoiseFilterConfig {
  /** Significance level of the one-sided test. */
  alpha: number;
  /** Minimum number of observations before anything is knowledge. */
  minSupport: number;
}

export const DEFAULT_NOISE_FILTER: Readonly<NoiseFilterConfig> = Object.freeze({ alpha: 0.05, minSupport: 5 });

/** Counts of one outcome for every cue of a scope: `k` of `n` observations had it. */
export interface CueCount {
  cue: string;
  k: number;
  n: number;
}

export interface NoiseTest {
  passed: boolean;
  k: number;
  n: number;
  baseRate: number;
  pValue: number;
  /** Why it failed, when it did (for reports). */
  reason?: 'support' | 'significance';
}

/** Base rate of the outcome among every cue except `cue` (pooled k/n), 0.5 when there are none. */
export function baseRateExcluding(counts: readonly CueCount[], cue: string): number {
  let k = 0;
  let n = 0;
  for (const c of counts) {
    if (c.cue === cue) continue;
    k += c.k;
    n += c.n;
  }
  return n === 0 ? 0.5 : k / n;
}

/**
 * The rate of an outcome seen `k` times in `n`, Laplace-smoothed ((k + 1) / (n + 2)): never exactly 0 or
 * 1, so one observation against it is not infinitely surprising, and 0.5 when nothing was observed.
 *
 * @example
 * smoothedRate(0, 12); // 1 / 14 ≈ 0.071
 */
export function smoothedRate(k: number, n: number): number {
  return (k + 1) / (n + 2);
}

/** One-sided binomial test of k of n against `baseRate` with minimum support. */
export function binomialNoiseTest(k: number, n: number, baseRate: number, config: NoiseFilterConfig = DEFAULT_NOISE_FILTER): NoiseTest {
  const pValue = binomialUpperTail(k, n, baseRate);
  if (n < config.minSupport) return { passed: false, k, n, baseRate, pValue, reason: 'support' };
  if (pValue > config.alpha) return { passed: false, k, n, baseRate, pValue, reason: 'significance' };
  return { passed: true, k, n, baseRate, pValue };
}

/** The §11.8 test for one cue of a scope, base rate from the scope's other cues. */
export function filterCue(counts: readonly CueCount[], cue: string, config: NoiseFilterConfig = DEFAULT_NOISE_FILTER): NoiseTest {
  const own = counts.find((c) => c.cue === cue) ?? { cue, k: 0, n: 0 };
  return binomialNoiseTest(own.k, own.n, baseRateExcluding(counts, cue), config);
}
