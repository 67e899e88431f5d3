/**
 * Short queries lean on meaning (`shortQueryTerms`): the config a query is ranked with. The effect on
 * ranking with the real default model is measured by test/core/relevance.test.ts (most of its queries
 * have two to four content terms) and by bench/tune-recall.mjs on the conversation sets.
 */
import { describe, expect, it } from 'vitest';
import { configForQuery, DEFAULT_RECALL_CONFIG, type RecallConfig } from '../../../src/core/recall/recall-config.js';

const config: RecallConfig = {
  ...DEFAULT_RECALL_CONFIG,
  semanticWeight: 0.4,
  lexicalCoverage: 1,
  shortQueryTerms: 4,
  shortQuerySemanticWeight: 0.8,
  shortQueryLexicalCoverage: 2,
};

describe('configForQuery', () => {
  it('gives a one-term query (and an empty one) the short-query weights in full', () => {
    for (const terms of [0, 1]) {
      const ranked = configForQuery(config, terms);
      expect(ranked.semanticWeight).toBeCloseTo(0.8);
      expect(ranked.lexicalCoverage).toBeCloseTo(2);
    }
  });

  it('moves a share (shortQueryTerms + 1 − n) / shortQueryTerms of the way for n terms', () => {
    const shares = [2, 3, 4].map((n) => configForQuery(config, n));
    const expected = [
      { semanticWeight: 0.7, lexicalCoverage: 1.75 },
      { semanticWeight: 0.6, lexicalCoverage: 1.5 },
      { semanticWeight: 0.5, lexicalCoverage: 1.25 },
    ];
    shares.forEach((c, i) => {
      expect(c.semanticWeight).toBeCloseTo(expected[i]?.semanticWeight as number);
      expect(c.lexicalCoverage).toBeCloseTo(expected[i]?.lexicalCoverage as number);
    });
    // every other weight is the engine's
    expect({ ...shares[0], semanticWeight: 0.4, lexicalCoverage: 1 }).toEqual(config);
  });

  it('leaves a longer query, a pinned semantic weight, a one-channel read and the switch-off alone', () => {
    expect(configForQuery(config, 5)).toBe(config);
    expect(configForQuery(config, 12)).toBe(config);
    expect(configForQuery(config, 2, true)).toBe(config);
    const off = { ...config, shortQueryTerms: 0 };
    expect(configForQuery(off, 1)).toBe(off);
    const lexicalOnly = { ...config, semanticWeight: 0 };
    expect(configForQuery(lexicalOnly, 1)).toBe(lexicalOnly);
    const semanticOnly = { ...config, lexicalWeight: 0 };
    expect(configForQuery(semanticOnly, 1)).toBe(semanticOnly);
  });

  it('is on by default', () => {
    expect(DEFAULT_RECALL_CONFIG.shortQueryTerms).toBeGreaterThan(0);
    expect(configForQuery(DEFAULT_RECALL_CONFIG, 2).semanticWeight).toBeGreaterThan(DEFAULT_RECALL_CONFIG.semanticWeight);
  });
});
