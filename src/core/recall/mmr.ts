/**
 * Maximal marginal relevance over the ranked candidates, by word overlap (no vectors needed).
 */
import { tokenize } from '../text/index.js';
import type { Candidate } from './scoring.js';

/**
 * Reorders the head of `ranked` (already sorted by score): each pick maximises
 * λ·score − (1−λ)·max similarity to the picks so far, among the first `take · pool.perHit` (at least
 * `pool.min`). λ = 1 keeps the order.
 */
export function maximalMarginalRelevance(
  ranked: Candidate[],
  take: number,
  lambda: number,
  pool: { perHit: number; min: number },
): Candidate[] {
  if (lambda >= 1 || ranked.length <= 1) return ranked.slice(0, take);
  const candidates = ranked.slice(0, Math.max(take * pool.perHit, pool.min));
  const words = new Map(candidates.map((c) => [c.record.id, new Set(tokenize(c.record.content))]));
  const top = candidates[0]?.score ?? 1;
  const picked: Candidate[] = [];
  while (picked.length < take && candidates.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    candidates.forEach((c, index) => {
      const mine = words.get(c.record.id) as Set<string>;
      const redundancy = picked.reduce((max, p) => Math.max(max, jaccard(mine, words.get(p.record.id) as Set<string>)), 0);
      const value = lambda * (c.score / (top || 1)) - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = index;
      }
    });
    picked.push(...candidates.splice(bestIndex, 1));
  }
  return picked;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared += 1;
  return shared / (a.size + b.size - shared);
}
