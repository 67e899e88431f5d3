import { describe, expect, it } from 'vitest';
import {
  binomialUpperTail,
  correlationPValue,
  jaccard,
  linearRegression,
  meanStd,
  normalCdf,
  pearson,
  rate,
  seededRandom,
} from '../../src/consolidation/statistics.js';
import { Association, learn } from '../../src/consolidation/rescorla-wagner.js';

describe('statistics', () => {
  it('mean and population std match hand-computed values', () => {
    expect(meanStd([2, 4, 4, 4, 5, 5, 7, 9])).toEqual({ n: 8, mean: 5, std: 2 });
    expect(meanStd([])).toEqual({ n: 0, mean: 0, std: 0 });
  });

  it('rate k/n', () => {
    expect(rate(7, 8).rate).toBe(0.875);
    expect(rate(0, 0).rate).toBe(0);
  });

  it('least squares slope, intercept and R²', () => {
    const exact = linearRegression([0, 1, 2, 3], [1, 3, 5, 7]);
    expect(exact.slope).toBeCloseTo(2);
    expect(exact.intercept).toBeCloseTo(1);
    expect(exact.r2).toBeCloseTo(1);
    // y = 1, 3, 2, 5 over x = 1..4: Sxy 5.5, Sxx 5, Syy 8.75 → slope 1.1, R² 30.25 / 43.75.
    const noisy = linearRegression([1, 2, 3, 4], [1, 3, 2, 5]);
    expect(noisy.slope).toBeCloseTo(1.1, 6);
    expect(noisy.r2).toBeCloseTo(30.25 / 43.75, 10);
    expect(linearRegression([1, 1, 1], [1, 2, 3]).r2).toBe(0);
  });

  it('Pearson correlation and its p-value', () => {
    expect(pearson([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])).toBeCloseTo(1);
    expect(pearson([1, 2, 3, 4, 5], [10, 8, 6, 4, 2])).toBeCloseTo(-1);
    expect(pearson([1, 2, 3], [5, 5, 5])).toBe(0);
    expect(correlationPValue(0, 50)).toBeCloseTo(1);
    expect(correlationPValue(0.5, 50)).toBeLessThan(0.001);
    expect(correlationPValue(0.2, 10)).toBeGreaterThan(0.5);
  });

  it('binomial upper tail is exact', () => {
    expect(binomialUpperTail(7, 8, 0.5)).toBeCloseTo(9 / 256, 10);
    expect(binomialUpperTail(2, 2, 0.5)).toBeCloseTo(0.25, 10);
    expect(binomialUpperTail(0, 5, 0.3)).toBe(1);
    expect(binomialUpperTail(6, 5, 0.3)).toBe(0);
    // P(X ≥ 3 | n 10, p 0.1) = 1 − P(0) − P(1) − P(2)
    const p0 = 0.9 ** 10;
    const p1 = 10 * 0.1 * 0.9 ** 9;
    const p2 = 45 * 0.01 * 0.9 ** 8;
    expect(binomialUpperTail(3, 10, 0.1)).toBeCloseTo(1 - p0 - p1 - p2, 10);
  });

  it('normal CDF', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 5);
    expect(normalCdf(-1.959964)).toBeCloseTo(0.025, 5);
  });

  it('Jaccard: 6 shared of 10 → 0.6', () => {
    const a = new Set(['1', '2', '3', '4', '5', '6', '7', '8']);
    const b = new Set(['1', '2', '3', '4', '5', '6', '9', '10']);
    expect(jaccard(a, b)).toEqual({ shared: 6, union: 10, similarity: 0.6 });
  });

  it('seeded random is reproducible and in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
  });
});

describe('Rescorla-Wagner', () => {
  it('ΔV = αβ(λ − V)', () => {
    const association = new Association({ alpha: 0.5, beta: 0.4 });
    expect(association.observe(true)).toBeCloseTo(0.2);
    expect(association.strength).toBeCloseTo(0.2);
    expect(association.observe(true)).toBeCloseTo(0.2 * 0.8);
    expect(association.strength).toBeCloseTo(0.36);
    expect(association.observe(false)).toBeCloseTo(-0.2 * 0.36);
    expect(association.count).toBe(3);
    expect(association.hits).toBe(2);
  });

  it('converges toward the outcome rate', () => {
    const trials = Array.from({ length: 200 }, (_, i) => i % 10 !== 0);
    expect(learn(trials, { alpha: 0.1, beta: 0.5 }).strength).toBeGreaterThan(0.8);
    expect(
      learn(
        trials.map((t) => !t),
        { alpha: 0.1, beta: 0.5 },
      ).strength,
    ).toBeLessThan(0.2);
  });
});
