/**
 * Small, exact statistics for consolidation: moments, rates, least-squares trends,
 * Pearson correlation and the tail probabilities the noise filter needs. Pure functions, no I/O.
 */

/** Mean and population standard deviation; `{ n: 0, mean: 0, std: 0 }` for an empty list. */
export function meanStd(values: readonly number[]): { n: number; mean: number; std: number } {
  const n = values.length;
  if (n === 0) return { n: 0, mean: 0, std: 0 };
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let sq = 0;
  for (const v of values) sq += (v - mean) * (v - mean);
  return { n, mean, std: Math.sqrt(sq / n) };
}

/** A success rate k/n (0 when n is 0). */
export function rate(k: number, n: number): { k: number; n: number; rate: number } {
  return { k, n, rate: n === 0 ? 0 : k / n };
}

/** Means and centred sums of squares and products of paired samples (the first `n` pairs). */
export function pairedMoments(
  xs: readonly number[],
  ys: readonly number[],
  n: number,
): { mx: number; my: number; sxx: number; sxy: number; syy: number } {
  const mx = meanOf(xs, n);
  const my = meanOf(ys, n);
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i += 1) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  return { mx, my, sxx, sxy, syy };
}

/** Ordinary least-squares line through (x, y) with its R²; slope 0 and R² 0 when x has no spread. */
export function linearRegression(
  xs: readonly number[],
  ys: readonly number[],
): { n: number; slope: number; intercept: number; r2: number } {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return { n, slope: 0, intercept: n === 1 ? (ys[0] as number) : 0, r2: 0 };
  const { mx, my, sxx, sxy, syy } = pairedMoments(xs, ys, n);
  if (sxx === 0) return { n, slope: 0, intercept: my, r2: 0 };
  const slope = sxy / sxx;
  const r2 = syy === 0 ? 0 : (sxy * sxy) / (sxx * syy);
  return { n, slope, intercept: my - slope * mx, r2 };
}

/** Pearson correlation coefficient (0 when either side has no spread). */
export function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  const { sxx, sxy, syy } = pairedMoments(xs, ys, n);
  if (sxx === 0 || syy === 0) return 0;
  return sxy / Math.sqrt(sxx * syy);
}

/**
 * Two-sided p-value of a Pearson correlation r over n pairs (Fisher z, normal approximation).
 * Also the p-value of a regression slope, whose test is the same as its correlation's.
 */
export function correlationPValue(r: number, n: number): number {
  if (n < 4) return 1;
  const clipped = Math.max(-0.999999, Math.min(0.999999, r));
  const z = Math.abs(Math.atanh(clipped)) * Math.sqrt(n - 3);
  return Math.min(1, 2 * (1 - normalCdf(z)));
}

/** One-sided binomial tail P(X ≥ k) for X ~ Binomial(n, p), exact (log space). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const logP = Math.log(p);
  const logQ = Math.log1p(-p);
  let total = 0;
  const lnN = logFactorial(n);
  for (let i = k; i <= n; i += 1) {
    total += Math.exp(lnN - logFactorial(i) - logFactorial(n - i) + i * logP + (n - i) * logQ);
  }
  return Math.min(1, total);
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 erf, |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** Jaccard similarity of two sets (0 when both are empty). */
export function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): { shared: number; union: number; similarity: number } {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const item of small) if (large.has(item)) shared += 1;
  const union = a.size + b.size - shared;
  return { shared, union, similarity: union === 0 ? 0 : shared / union };
}

const factorialCache: number[] = [0];

function logFactorial(n: number): number {
  if (n < factorialCache.length) return factorialCache[n] as number;
  if (n > 100_000) return logGammaStirling(n + 1);
  for (let i = factorialCache.length; i <= n; i += 1) factorialCache[i] = (factorialCache[i - 1] as number) + Math.log(i);
  return factorialCache[n] as number;
}

function logGammaStirling(x: number): number {
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x ** 3);
}

function meanOf(values: readonly number[], n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i += 1) sum += values[i] as number;
  return sum / n;
}

/** A small fast seeded PRNG (mulberry32): the same seed gives the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed from a string (FNV-1a), so a scope name and a run id give a reproducible sample. */
export function seedFrom(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Poisson upper tail P(X ≥ k) for X ~ Poisson(λ), summed in log space from k upward (accurate for tiny tails). */
export function poissonUpperTail(k: number, lambda: number): number {
  if (k <= 0) return 1;
  if (lambda <= 0) return 0;
  if (lambda > k) {
    // the lower sum is the smaller side here
    let lower = 0;
    for (let j = 0; j < k; j += 1) lower += Math.exp(-lambda + j * Math.log(lambda) - logFactorial(j));
    return Math.min(1, Math.max(0, 1 - lower));
  }
  let total = 0;
  for (let j = k; j < k + 400; j += 1) {
    const term = Math.exp(-lambda + j * Math.log(lambda) - logFactorial(j));
    total += term;
    if (term < total * 1e-15) break;
  }
  return Math.min(1, total);
}
