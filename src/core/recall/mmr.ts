/**
 * Maximal marginal relevance over the ranked candidates, by word overlap (no vectors needed).
 */
import { tokenize } from '../text/index.js';
import type { Candidate } from './scoring.js';

/**
 * Reorders the head of `ranked` (already sorted by score): each pick maximises
 * λ·score − (1−λ)·max similarity to the picks so far. λ = 1 keeps the order.
 */
export function maximalMarginalRelevance(ranked: Candidate[], take: number, lambda: number): Candidate[] {
  if (lambda >= 1 || ranked.length <= 1) return ranked.slice(0, take);
  const pool = ranked.slice(0, Math.max(take * 3, 30));
  const words = new Map(pool.map((c) => [c.record.id, new Set(tokenize(c.record.content))]));
  const top = pool[0]?.score ?? 1;
  const picked: Candidate[] = [];
  while (picked.length < take && pool.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    pool.forEach((c, index) => {
      const mine = words.get(c.record.id) as Set<string>;
      const redundancy = picked.reduce((max, p) => Math.max(max, jaccard(mine, words.get(p.record.id) as Set<string>)), 0);
      const value = lambda * (c.score / (top || 1)) - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = index;
      }
    });
    picked.push(...pool.splice(bestIndex, 1));
  }
  return picked;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared += 1;
  return shared / (a.size + b.size - shared);
}
