// Retrieval metrics of the benchmarks, one definition for all of them (docs/metrics.md):
//   any@k        1 when at least one evidence item is in the top k (mean: share of questions)
//   strictAll@k  1 when every evidence item is in the top k
//   frac@k       the fraction of the evidence found in the top k (what older results called all@k)
//   mrr@k        1 / rank of the first evidence item within the top k, else 0
// Older result files used `all@10` for frac@10 and `mrr` for MRR over 20 hits; both stay as aliases
// for one release.

export const KS = [5, 10, 20];

/**
 * Per-question scores of one ranked list against its evidence.
 * @param {readonly (string | undefined)[]} ranked ids, best first
 * @param {readonly string[]} evidence ids that answer the question
 * @returns {Record<string, number>}
 */
export function scoreRanking(ranked, evidence) {
  /** @type {Record<string, number>} */
  const out = {};
  const wanted = new Set(evidence);
  for (const k of KS) {
    const top = new Set(ranked.slice(0, k));
    const found = [...wanted].filter((e) => top.has(e)).length;
    out[`any${k}`] = found > 0 ? 1 : 0;
    out[`strictAll${k}`] = wanted.size > 0 && found === wanted.size ? 1 : 0;
    out[`frac${k}`] = wanted.size > 0 ? found / wanted.size : 0;
  }
  const first = ranked.findIndex((r) => r !== undefined && wanted.has(r));
  out.rr10 = first !== -1 && first < 10 ? 1 / (first + 1) : 0;
  out.rr20 = first !== -1 && first < 20 ? 1 / (first + 1) : 0;
  return out;
}

/**
 * Means over questions, under the reported names (plus the old aliases).
 * @param {readonly { scores: Record<string, number> }[]} list
 * @returns {Record<string, number>}
 */
export function summarizeScores(list) {
  const n = list.length || 1;
  /** @param {string} key */
  const mean = (key) => Number((list.reduce((s, q) => s + (q.scores[key] ?? 0), 0) / n).toFixed(4));
  /** @type {Record<string, number>} */
  const out = {};
  for (const k of KS) out[`any@${k}`] = mean(`any${k}`);
  for (const k of KS) out[`strictAll@${k}`] = mean(`strictAll${k}`);
  for (const k of KS) out[`frac@${k}`] = mean(`frac${k}`);
  out['mrr@10'] = mean('rr10');
  out['mrr@20'] = mean('rr20');
  // Aliases of the previous names, same values as before: all@10 was frac@10, mrr was MRR over 20 hits.
  out['all@10'] = out['frac@10'];
  out.mrr = out['mrr@20'];
  out.n = list.length;
  return out;
}

/** What the old keys mean, written into results files next to them. */
export const METRIC_ALIASES = { 'all@10': 'frac@10 (deprecated name)', mrr: 'mrr@20 (deprecated name; report mrr@10)' };
