import { describe, expect, it } from 'vitest';
import { rankBm25, TermCountCache, termCounts } from '../../../src/core/text/bm25.js';

describe('TermCountCache', () => {
  it('gives the counts termCounts gives, and keeps at most max texts, dropping the least recently used', () => {
    const cache = new TermCountCache(2);
    const a = cache.counts('The running dogs ran home');
    expect([...a]).toEqual([...termCounts('The running dogs ran home')]);
    cache.counts('second text');
    expect(cache.counts('The running dogs ran home')).toBe(a); // held, and now the most recent
    cache.counts('third text'); // drops "second text"
    expect(cache.counts('The running dogs ran home')).toBe(a);
    const second = cache.counts('second text');
    expect([...second]).toEqual([...termCounts('second text')]);
  });

  it('ranks exactly as without it', () => {
    const candidates = [
      { id: 'a', content: 'Alice adopted a puppy named Rex', tags: '["pets"]', entities: '["Alice","Rex"]', term_count: null },
      { id: 'b', content: 'Bob bought a bike', tags: '[]', entities: '[]', term_count: null },
      { id: 'c', content: 'The puppy chewed Alice’s shoes', tags: '[]', entities: '["Alice"]', term_count: null },
    ];
    const weights = new Map([...termCounts('puppy alice')].map(([s]) => [s, 1]));
    const statistics = { docs: 3, avgLength: 4, df: new Map([...weights.keys()].map((s) => [s, 2])) };
    const cache = new TermCountCache();
    const plain = rankBm25(candidates, weights, statistics, undefined, 10);
    expect(rankBm25(candidates, weights, statistics, undefined, 10, cache)).toEqual(plain);
    expect(rankBm25(candidates, weights, statistics, undefined, 10, cache)).toEqual(plain);
    expect(plain.map((h) => h.id).sort()).toEqual(['a', 'c']); // Bob's bike matches neither term
  });
});
