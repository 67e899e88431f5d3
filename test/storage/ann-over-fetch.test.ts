/**
 * The approximate index's over-fetch: how many rows a search asks an HNSW index for per row wanted,
 * from the share of rows the post-filter kept in the scope's recent searches.
 */
import { describe, expect, it } from 'vitest';
import { MAX_OVER_FETCH, OverFetch } from '../../src/storage/sqlite/ann/ann-over-fetch.js';

describe('OverFetch', () => {
  it('asks for one row per row wanted until a search of the scope was noted', () => {
    const overFetch = new OverFetch();
    expect(overFetch.factor('acme/a')).toBe(1);
    overFetch.note('acme/a', 100, 100);
    expect(overFetch.factor('acme/a')).toBe(1);
  });

  it('takes the first survival share as it is, then moves towards new ones gradually', () => {
    const overFetch = new OverFetch();
    overFetch.note('acme/a', 116, 58);
    expect(overFetch.factor('acme/a')).toBeCloseTo(2, 10);
    // one search that kept everything moves the mean share from 0.5 to 0.6, not to 1
    overFetch.note('acme/a', 116, 116);
    expect(overFetch.factor('acme/a')).toBeCloseTo(1 / 0.6, 10);
    for (let i = 0; i < 60; i++) overFetch.note('acme/a', 116, 116);
    expect(overFetch.factor('acme/a')).toBeLessThan(1.001);
    expect(overFetch.factor('acme/a')).toBeGreaterThanOrEqual(1);
  });

  it('keeps scopes apart and never asks for more than the cap, even when nothing survived', () => {
    const overFetch = new OverFetch();
    overFetch.note('acme/a', 116, 0);
    expect(overFetch.factor('acme/a')).toBe(MAX_OVER_FETCH);
    expect(overFetch.factor('acme/b')).toBe(1);
    // an empty search says nothing about the filter
    overFetch.note('acme/b', 0, 0);
    expect(overFetch.factor('acme/b')).toBe(1);
  });
});
