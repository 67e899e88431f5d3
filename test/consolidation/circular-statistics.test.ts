import { describe, expect, it } from 'vitest';
import {
  angleToPosition,
  circularLinearAssociation,
  circularMean,
  cycleAngle,
  cyclePosition,
  positionLabel,
  rayleighTest,
} from '../../src/consolidation/circular-statistics.js';
import { poissonUpperTail, seededRandom } from '../../src/consolidation/statistics.js';

describe('circular statistics', () => {
  it('places instants on the day and the week', () => {
    // 2 January 2026 was a Friday
    expect(cyclePosition(Date.UTC(2026, 0, 2, 14, 30), 'hour')).toBeCloseTo(14.5, 10);
    expect(cyclePosition(Date.UTC(2026, 0, 2, 12), 'weekday')).toBeCloseTo(5.5, 10);
    expect(positionLabel(cyclePosition(Date.UTC(2026, 0, 2, 12), 'weekday'), 'weekday')).toBe('Friday');
    expect(positionLabel(14.5, 'hour')).toBe('14:30');
    expect(cyclePosition(Date.UTC(2026, 0, 2, 1), 'hour', 120)).toBeCloseTo(3, 10);
    expect(angleToPosition(cycleAngle(Date.UTC(2026, 0, 4, 6), 'hour'), 'hour')).toBeCloseTo(6, 10);
  });

  it("Rayleigh test: pingouin's documented example (z 1.236, p 0.304844) and the extremes", () => {
    const test = rayleighTest([0.785, 1.57, 3.141, 0.839, 5.934]);
    expect(test.z).toBeCloseTo(1.236, 3);
    expect(test.p).toBeCloseTo(0.304844, 5);
    const spread = rayleighTest(Array.from({ length: 12 }, (_, i) => (i * 2 * Math.PI) / 12));
    expect(spread.r).toBeLessThan(1e-12);
    expect(spread.p).toBe(1);
    const together = rayleighTest(Array.from({ length: 10 }, () => 1));
    expect(together.r).toBeCloseTo(1, 12);
    expect(together.mean).toBeCloseTo(1, 12);
    expect(together.p).toBeLessThan(1e-4);
    expect(circularMean([0.1, 2 * Math.PI - 0.1]).mean % (2 * Math.PI)).toBeCloseTo(0, 10);
  });

  it('Rayleigh p agrees with a simulation of uniform angles (n 12)', () => {
    const random = seededRandom(11);
    const zs = Array.from({ length: 20_000 }, () => rayleighTest(Array.from({ length: 12 }, () => random() * 2 * Math.PI)).z);
    for (const z0 of [2, 3, 4]) {
      const simulated = zs.filter((z) => z >= z0).length / zs.length;
      // p for a sample whose z is exactly z0: R_n = sqrt(z0 · n)
      const rn = Math.sqrt(z0 * 12);
      const p = Math.exp(Math.sqrt(1 + 4 * 12 + 4 * (144 - rn * rn)) - 25);
      expect(Math.abs(p - simulated)).toBeLessThan(0.01);
    }
  });

  it('circular-linear association: R² equals the regression of x on (cos, sin); a cosine is found with its peak', () => {
    const random = seededRandom(3);
    const angles = Array.from({ length: 60 }, () => random() * 2 * Math.PI);
    const xs = angles.map((a) => 2 + Math.cos(a - 1.2) + 0.5 * (random() - 0.5));
    const result = circularLinearAssociation(xs, angles);
    // independent least squares through the 3 × 3 normal equations
    const rows = angles.map((a) => [1, Math.cos(a), Math.sin(a)]);
    const xtx = [0, 1, 2].map((i) => [0, 1, 2].map((j) => rows.reduce((s, r) => s + (r[i] as number) * (r[j] as number), 0)));
    const xty = [0, 1, 2].map((i) => rows.reduce((s, r, k) => s + (r[i] as number) * (xs[k] as number), 0));
    const beta = solve3(xtx, xty);
    const fitted = rows.map((r) => r.reduce((s, v, i) => s + v * (beta[i] as number), 0));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const r2 = 1 - xs.reduce((s, x, i) => s + (x - (fitted[i] as number)) ** 2, 0) / xs.reduce((s, x) => s + (x - mean) ** 2, 0);
    expect(result.r2).toBeCloseTo(r2, 10);
    expect(result.peak).toBeCloseTo(1.2, 1);
    expect(result.amplitude).toBeCloseTo(1, 1);
    expect(result.p).toBeLessThan(1e-6);
  });

  it('circular-linear association under the null: about 5 % of tests reject at α 0.05', () => {
    const random = seededRandom(5);
    let rejected = 0;
    const runs = 4000;
    for (let i = 0; i < runs; i += 1) {
      // uneven phases (office hours) and outcomes that ignore them
      const angles = Array.from({ length: 40 }, () => (random() < 0.8 ? 2.0 + random() * 2.8 : random() * 2 * Math.PI));
      const xs = angles.map(() => (random() < 0.6 ? 1 : 0));
      if (circularLinearAssociation(xs, angles).p <= 0.05) rejected += 1;
    }
    expect(rejected / runs).toBeGreaterThan(0.03);
    expect(rejected / runs).toBeLessThan(0.07);
  });

  it('Poisson upper tail: known values', () => {
    expect(poissonUpperTail(2, 1)).toBeCloseTo(1 - 2 * Math.exp(-1), 12);
    expect(poissonUpperTail(1, 0.5)).toBeCloseTo(1 - Math.exp(-0.5), 12);
    expect(poissonUpperTail(0, 3)).toBe(1);
    // P(X ≥ 7 | 0.33) = Σ_{j≥7} e^-λ λ^j / j!, dominated by j = 7
    const first = (Math.exp(-0.33) * 0.33 ** 7) / 5040;
    expect(poissonUpperTail(7, 0.33)).toBeGreaterThan(first);
    expect(poissonUpperTail(7, 0.33)).toBeLessThan(first * 1.06);
    expect(poissonUpperTail(3, 10)).toBeCloseTo(1 - Math.exp(-10) * (1 + 10 + 50), 12);
  });
});

function solve3(a: number[][], b: number[]): number[] {
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let c = 0; c < 3; c += 1) {
    const pivot = m[c] as number[];
    for (let r = 0; r < 3; r += 1) {
      if (r === c) continue;
      const row = m[r] as number[];
      const f = (row[c] as number) / (pivot[c] as number);
      for (let k = c; k < 4; k += 1) row[k] = (row[k] as number) - f * (pivot[k] as number);
    }
  }
  return m.map((row, i) => (row[3] as number) / (row[i] as number));
}
