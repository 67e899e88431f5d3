/**
 * The semantic channel with part vectors (`write/embedding-parts.ts`). A record that says several
 * things is close to the query where one of its sentences is, even when its whole vector — the average
 * of everything it says — is not. Each candidate's cosine becomes cosine + w·max(0, best − cosine),
 * with best the cosine of its closest part; a record without parts keeps its own. Candidates are read
 * `partWidening` times as many by whole vector first, so one ranked low by its whole text can rise —
 * where the store's search costs no more for them (`VectorQuery.widenTo`): an exact scan, not an HNSW
 * index, whose search grows with the candidates asked.
 *
 * The default w = 1 makes a record as close as its whole text or its closest sentence, whichever is
 * closer. Measured (`bench/tune-recall.mjs`; docs/benchmarks.md, "Part vectors"): with 3× the
 * candidates, mean any@10 over LoCoMo 1-5, burst-chat and tech-chat 0.866 → 0.874, frac@10 0.828 →
 * 0.836; w = 0.5 and 0.75 gain less on the technical chats; LoCoMo 6-10 (held out) 0.877 → 0.884.
 */
import type { ChannelHit } from '../ports/store.js';

/**
 * `hits` (cosines, best first) re-scored by the best cosine of each one's parts (`best`, from the
 * store's `partScores`) and cut to `keep`, best first.
 *
 * @example
 * ```ts
 * withPartScores([{ id: 'a', score: 0.5 }, { id: 'b', score: 0.6 }], new Map([['a', 0.9]]), 1, 1);
 * // [{ id: 'a', score: 0.9 }]
 * ```
 */
export function withPartScores(hits: readonly ChannelHit[], best: ReadonlyMap<string, number>, weight: number, keep: number): ChannelHit[] {
  const scored = hits.map((hit) => {
    const part = best.get(hit.id);
    return part !== undefined && part > hit.score ? { ...hit, score: hit.score + weight * (part - hit.score) } : hit;
  });
  return scored.sort((a, b) => b.score - a.score).slice(0, keep);
}
