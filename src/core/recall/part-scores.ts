/**
 * The semantic channel with part vectors (`write/embedding-parts.ts`). A record that says several
 * things is close to the query where one of its sentences is, even when its whole vector — the average
 * of everything it says — is not. Each candidate's cosine becomes cosine + w·max(0, best − cosine),
 * with best the cosine of its closest part; a record without parts keeps its own. Candidates are read
 * `partWidening` times as many by whole vector first, so one ranked low by its whole text can rise.
 *
 * The default w = 1 makes a record as close as its whole text or its closest sentence, whichever is
 * closer. Measured (`bench/tune-recall.mjs`; docs/benchmarks.md, "Part vectors"): with 3× the
 * candidates, mean any@10 over LoCoMo 1-5, burst-chat and tech-chat 0.866 → 0.874, frac@10 0.828 →
 * 0.836; w = 0.5 and 0.75 gain less on the technical chats; LoCoMo 6-10 (held out) 0.877 → 0.884.
 */
import type { ChannelHit } from '../ports/store.js';
import { dot } from '../simd-scan.js';

/**
 * `hits` (cosines, best first) re-scored by their parts and cut to `keep`, best first.
 *
 * @example
 * ```ts
 * withPartScores([{ id: 'a', score: 0.5 }, { id: 'b', score: 0.6 }], new Map([['a', [sentence]]]), query, 0.75, 1);
 * // [{ id: 'a', score: 0.5 + 0.75 · (cos(query, sentence) − 0.5) }] when that beats 0.6
 * ```
 */
export function withPartScores(
  hits: readonly ChannelHit[],
  parts: ReadonlyMap<string, readonly Float32Array[]>,
  query: Float32Array,
  weight: number,
  keep: number,
): ChannelHit[] {
  const scored = hits.map((hit) => {
    const own = parts.get(hit.id);
    if (own === undefined || own.length === 0) return hit;
    let best = -Infinity;
    for (const part of own) if (part.length === query.length) best = Math.max(best, dot(part, 0, query, query.length));
    return best > hit.score ? { ...hit, score: hit.score + weight * (best - hit.score) } : hit;
  });
  return scored.sort((a, b) => b.score - a.score).slice(0, keep);
}
