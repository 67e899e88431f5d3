/**
 * Recombination (seed 002's REM phase): bridges between memories that are far apart — different
 * sessions, weeks apart — but share rare items (concepts, entities, or a causal link between their
 * concepts). A shared set S is a finding only when it co-occurs in more memories than independence
 * predicts: |G_S| memories hold every item of S against an expectation of N·Π(df_i/N), one-sided
 * Poisson, α = 0.05 Bonferroni-corrected over every item set an anchor could have shared (all subsets
 * of two or more of its rare items). Pure over an item index; the recombine phase writes the edges.
 */
import type { ItemIndex } from './item-index.js';
import type { SampleSizes } from './sampler.js';
import { poissonUpperTail } from './statistics.js';

const DAY = 86_400_000;

export interface RecombineConfig {
  /** The mixed sample of anchors (recent, random old, least salient). */
  sample: SampleSizes;
  /** New bridges per run. */
  maxBridges: number;
  /** Bridges per anchor (the most distant partners first). */
  maxPartners: number;
  /** Items two memories must share. */
  minShared: number;
  /** An item held by more than this share of the scope's memories is too common to bridge anything. */
  maxItemFraction: number;
  /** …or by more than this many memories. */
  maxItemMemories: number;
  /** Rarest items considered per anchor (bounds the tests: 2^k − 1 − k item sets). */
  maxItemsPerMemory: number;
  /** Memories closer in time than this are not far apart. */
  minGapDays: number;
  /** Memories at least this similar (cosine of their embeddings) are already close: no bridge. */
  maxSimilarity: number;
  /** Significance level, Bonferroni-corrected over the item sets tested. */
  alpha: number;
}

export const DEFAULT_RECOMBINE: Readonly<RecombineConfig> = Object.freeze({
  sample: Object.freeze({ recent: 100, randomOld: 100, lowSalience: 50 }),
  maxBridges: 50,
  maxPartners: 3,
  minShared: 2,
  maxItemFraction: 0.1,
  maxItemMemories: 500,
  maxItemsPerMemory: 8,
  minGapDays: 7,
  maxSimilarity: 0.9,
  alpha: 0.05,
});

/** A bridge worth recording (before the similarity check). */
export interface BridgeCandidate {
  /** The two ends, ordered (a < b). */
  a: string;
  b: string;
  /** Item keys shared (concept names; for a causal link, the item reached). */
  items: string[];
  /** How the shared items read (`orders_db`, `schema_change CAUSES deploy_failure`). */
  shared: string[];
  /** Every memory holding all the shared items (the small group the pair belongs to). */
  group: string[];
  expected: number;
  pUncorrected: number;
  p: number;
  gapDays: number;
  /** IDF-weighted Jaccard of the two memories' rare items, 0.05..1. */
  weight: number;
}

/** Bridges from `anchors` into the whole index (pure); `tests` is the size of the Bonferroni family. */
export function findBridges(
  index: ItemIndex,
  anchors: readonly string[],
  config: RecombineConfig = DEFAULT_RECOMBINE,
): { candidates: BridgeCandidate[]; tests: number } {
  const n = index.memories.size;
  const maxDf = Math.max(2, Math.min(config.maxItemMemories, Math.floor(config.maxItemFraction * n)));
  const df = (item: string): number => index.memoriesOf.get(item)?.size ?? 0;
  const isRare = (item: string): boolean => df(item) >= 2 && df(item) <= maxDf;
  const idf = (item: string): number => Math.log(n / Math.max(1, df(item)));
  const rareOf = (id: string): Map<string, string> => {
    const own = [...(index.itemsOf.get(id) ?? [])];
    const keys = new Map<string, string>(own.filter(isRare).map((item) => [item, item]));
    // an item reached through a causal link counts when another memory holds it (even a single one)
    for (const item of own)
      for (const link of index.causal.get(item) ?? [])
        if (df(link.item) >= 1 && df(link.item) <= maxDf && !keys.has(link.item)) keys.set(link.item, link.label);
    const ordered = [...keys].sort((x, y) => df(x[0]) - df(y[0]) || (x[0] < y[0] ? -1 : 1)).slice(0, config.maxItemsPerMemory);
    return new Map(ordered);
  };
  let tests = 0;
  const found = new Map<string, Omit<BridgeCandidate, 'p'>>();
  for (const anchor of anchors) {
    const a = index.memories.get(anchor);
    if (a === undefined) continue;
    const keys = rareOf(anchor);
    const k = keys.size;
    if (k < config.minShared) continue;
    tests += 2 ** k - 1 - k;
    const counts = new Map<string, number>();
    for (const item of keys.keys())
      for (const other of index.memoriesOf.get(item) ?? []) if (other !== anchor) counts.set(other, (counts.get(other) ?? 0) + 1);
    const partners: Omit<BridgeCandidate, 'p'>[] = [];
    for (const [other, count] of counts) {
      if (count < config.minShared) continue;
      const b = index.memories.get(other);
      if (b === undefined) continue;
      const gapDays = Math.abs(a.at - b.at) / DAY;
      if (gapDays < config.minGapDays || (a.session !== null && a.session === b.session)) continue;
      const otherItems = index.itemsOf.get(other) ?? new Set<string>();
      const items = [...keys.keys()].filter((item) => otherItems.has(item)).sort();
      if (items.length < config.minShared) continue;
      // the anchor holds every shared item, some of them through a causal link
      const group = [...new Set([anchor, ...intersect(items.map((item) => index.memoriesOf.get(item) ?? new Set<string>()))])];
      const expected = items.reduce((e, item) => e * (df(item) / n), n);
      const pUncorrected = poissonUpperTail(group.length, expected);
      const otherKeys = rareOf(other);
      const union = new Set([...keys.keys(), ...otherKeys.keys()]);
      const sharedIdf = items.reduce((s, item) => s + idf(item), 0);
      const unionIdf = [...union].reduce((s, item) => s + idf(item), 0);
      const [lo, hi] = anchor < other ? [anchor, other] : [other, anchor];
      partners.push({
        a: lo,
        b: hi,
        items,
        shared: items.map((item) => keys.get(item) ?? item),
        group: group.sort(),
        expected,
        pUncorrected,
        gapDays: round(gapDays, 2),
        weight: round(Math.max(0.05, Math.min(1, unionIdf === 0 ? 0 : sharedIdf / unionIdf)), 4),
      });
    }
    partners.sort((x, y) => x.pUncorrected - y.pUncorrected || y.gapDays - x.gapDays || (x.a + x.b < y.a + y.b ? -1 : 1));
    for (const partner of partners.slice(0, config.maxPartners)) {
      const key = `${partner.a}|${partner.b}`;
      const seen = found.get(key);
      if (seen === undefined || partner.pUncorrected < seen.pUncorrected) found.set(key, partner);
    }
  }
  const candidates = [...found.values()]
    .map((c) => ({ ...c, p: Math.min(1, c.pUncorrected * Math.max(1, tests)) }))
    .filter((c) => c.p <= config.alpha)
    .sort((x, y) => x.p - y.p || y.weight - x.weight || (x.a + x.b < y.a + y.b ? -1 : 1));
  return { candidates, tests };
}

function intersect(sets: readonly ReadonlySet<string>[]): string[] {
  const [first, ...rest] = [...sets].sort((x, y) => x.size - y.size);
  if (first === undefined) return [];
  return [...first].filter((id) => rest.every((s) => s.has(id)));
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
