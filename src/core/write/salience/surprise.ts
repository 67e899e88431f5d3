/**
 * Surprise: how much a new item adds to what its scope already holds (seed 001's information-gain
 * score), from the cosine similarities of the new item to its nearest stored items.
 *
 * Similarities are rescaled so that unrelated text (cosine up to 0.2 for the default model) counts as
 * nothing: c = clamp((s - 0.2) / 0.8, 0, 1). Each neighbour "explains" c² of the item, the closest fully
 * and the next ones less (rank weights 1, 1/2, 1/4, … over the five nearest), and they explain it
 * together like independent causes:
 *
 *   surprise = Π over the five nearest, by rank r = 0.., of (1 - c_r² / 2^r)
 *
 * No neighbours gives 1; a repeat (s ≈ 1) gives ≈ 0; a single neighbour at 0.8 gives 0.44; ten
 * neighbours at 0.7 give 0.41, since a well-covered region is less novel than its closest match alone.
 */

const UNRELATED_SIMILARITY = 0.2;
const NEIGHBOURS_CONSIDERED = 5;

/**
 * Novelty 0..1 of a new item given its cosine similarities to the nearest existing items (any order);
 * 1 when nothing is similar or the list is empty, near 0 for a repeat.
 * @example scoreSurprise([]) // 1
 * @example scoreSurprise([0.99]) < 0.1 // true
 */
export function scoreSurprise(similaritiesToNearest: readonly number[]): number {
  const nearest = similaritiesToNearest
    .filter((similarity) => Number.isFinite(similarity))
    .sort((left, right) => right - left)
    .slice(0, NEIGHBOURS_CONSIDERED);
  let surprise = 1;
  nearest.forEach((similarity, rank) => {
    const closeness = Math.min(1, Math.max(0, (similarity - UNRELATED_SIMILARITY) / (1 - UNRELATED_SIMILARITY)));
    surprise *= 1 - (closeness * closeness) / 2 ** rank;
  });
  return Math.round(surprise * 1000) / 1000;
}
