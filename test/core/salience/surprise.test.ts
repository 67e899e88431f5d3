import { describe, expect, it } from 'vitest';
import { scoreSurprise } from '../../../src/core/write/salience/index.js';

describe('scoreSurprise', () => {
  it('is 1 for an empty scope and about 0 for a repeat', () => {
    expect(scoreSurprise([])).toBe(1);
    expect(scoreSurprise([1])).toBe(0);
    expect(scoreSurprise([0.99])).toBeLessThan(0.05);
  });

  it('treats unrelated neighbours as no evidence', () => {
    expect(scoreSurprise([0.1, 0.05, -0.3])).toBe(1);
    expect(scoreSurprise([0.3])).toBeGreaterThan(0.95);
  });

  it('falls as the nearest neighbour gets closer', () => {
    const values = [0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99].map((similarity) => scoreSurprise([similarity]));
    for (let index = 1; index < values.length; index++) expect(values[index]).toBeLessThan(values[index - 1] ?? 1);
  });

  it('falls further in a densely covered region, ignoring input order', () => {
    expect(scoreSurprise([0.8, 0.8, 0.8])).toBeLessThan(scoreSurprise([0.8]));
    expect(scoreSurprise([0.2, 0.8, 0.5])).toBe(scoreSurprise([0.8, 0.5, 0.2]));
    expect(scoreSurprise(Array.from({ length: 50 }, () => 0.7))).toBe(scoreSurprise(Array.from({ length: 5 }, () => 0.7)));
  });

  it('stays in 0..1 and ignores non-finite values', () => {
    for (const similarities of [[2], [-2], [Number.NaN], [Number.POSITIVE_INFINITY, 0.5]]) {
      const surprise = scoreSurprise(similarities);
      expect(surprise).toBeGreaterThanOrEqual(0);
      expect(surprise).toBeLessThanOrEqual(1);
    }
    expect(scoreSurprise([Number.NaN])).toBe(1);
  });
});
