/**
 * Reflection (§11.9; seed 004): higher-level insights from recent important records.
 * Extractive by default — cluster by embedding, pick representatives, template a summary — or an LLM
 * through the LLM port when one is configured (falling back to extractive on any failure).
 * Levels: 1 first-pass synthesis (importance 0.5), 2 meta-reflection (0.7), 3 deep insight (0.9).
 * Models put unrelated texts at very different cosines (≈ 0.1 for the hash embedder, ≈ 0.56 for the
 * default blend), so the clustering threshold sits a margin above the embedder's own baseline.
 */
import type { Llm } from '../core/ports/llm.js';
import { contentTerms, cutText } from '../core/text/index.js';
import { cosineSimilarity } from '../core/vectors.js';

/** Importance of a reflection by level (§11.9). */
export const REFLECTION_IMPORTANCE: Readonly<Record<1 | 2 | 3, number>> = Object.freeze({ 1: 0.5, 2: 0.7, 3: 0.9 });

export interface ReflectionConfig {
  /** Accumulated importance since the last reflection that triggers one (seed 004). */
  importanceThreshold: number;
  /** Only records at least this important feed a reflection. */
  minImportance: number;
  /** Minimum records for a reflection. */
  minItems: number;
  /**
   * How far above the embedder's unrelated-text baseline `b` two clusters must be (average linkage)
   * to merge, as a share of the room left: threshold ≥ b + (1 − b) × clusterSimilarity (see `clusterThreshold`).
   */
  clusterSimilarity: number;
  /**
   * Two clusters stay apart when their linkage, above the baseline, is below this share of the looser
   * one's cohesion (its mean pairwise cosine) above the baseline: tight streams of unlike notes ("refund
   * issued for ticket …", "password reset for ticket …") are two themes, however alike their wording
   * makes them. 0 turns the check off.
   */
  clusterGap?: number;
  /** Smallest cluster that yields an insight. */
  minClusterSize: number;
  /** Representatives quoted per insight. */
  representatives: number;
  /** Personality growth (persona-growth.ts): the largest change of one disposition per cycle… */
  personaMaxShift?: number;
  /** …the share of the gap to 1 a full signal closes in one cycle (before the cap)… */
  personaRate?: number;
  /** …and the smallest signal (share of the reflected memories expressing a disposition) that moves it. */
  personaMinSignal?: number;
}

export const DEFAULT_REFLECTION: Readonly<ReflectionConfig> = Object.freeze({
  importanceThreshold: 5,
  minImportance: 0.5,
  minItems: 10,
  clusterSimilarity: 0.15,
  clusterGap: 0.5,
  minClusterSize: 3,
  representatives: 3,
  personaMaxShift: 0.05,
  personaRate: 0.25,
  personaMinSignal: 0.2,
});

/** Why a reflection runs. */
export type ReflectionTrigger = 'threshold' | 'session-end' | 'on-demand';

/** Should a reflection run now? Threshold crossed, session end, or asked for. */
export function reflectionTrigger(
  input: { accumulatedImportance: number; sessionEnd?: boolean; onDemand?: boolean },
  config: ReflectionConfig = DEFAULT_REFLECTION,
): ReflectionTrigger | null {
  if (input.onDemand) return 'on-demand';
  if (input.sessionEnd) return 'session-end';
  return input.accumulatedImportance >= config.importanceThreshold ? 'threshold' : null;
}

/** One record a reflection may draw on (only current records: nothing superseded, invalidated or out of validity). */
export interface ReflectionItem {
  id: string;
  content: string;
  embedding: Float32Array;
  importance: number;
  /** When it happened (occurredAt, else validFrom); the more recent is quoted first among equals. */
  at?: number;
}

/** An insight ready to store. */
export interface Insight {
  level: 1 | 2 | 3;
  importance: number;
  content: string;
  /** Records it summarises (DERIVED_FROM edges), sorted by id. */
  sources: string[];
  /** The members it quotes: the most important, then the most recent. */
  representatives: string[];
  terms: string[];
  method: 'extractive' | 'llm';
}

/**
 * Texts about unrelated everyday matters. Their similarity to the items being clustered is the
 * embedder's baseline for "nothing in common" on that kind of text, whatever the scope's topics.
 */
const UNRELATED_REFERENCES: readonly string[] = Object.freeze([
  'The train to the airport leaves every twenty minutes.',
  'Photosynthesis turns sunlight into chemical energy.',
  'She paid the electricity bill on Monday.',
  'The violin concerto ends with a quiet cadenza.',
  'Our team lost the football match in extra time.',
  'Grandfather planted tomatoes along the fence.',
  'The museum closes early on public holidays.',
  'A mortgage rate rise makes monthly payments higher.',
  'The cat slept on the warm windowsill all afternoon.',
  'Volcanic ash grounded flights across the region.',
  'The library extended its opening hours for exam week.',
  'Penguins huddle together to survive the polar winter.',
]);

/** The texts whose embeddings `similarityBaseline` compares items with. */
export function baselineReferences(): readonly string[] {
  return UNRELATED_REFERENCES;
}

/**
 * The embedder's cosine for unrelated texts, estimated on the items themselves: the median similarity
 * of each item to the unrelated reference texts (0 when there is nothing to compare). Deterministic.
 */
export function similarityBaseline(items: readonly { embedding: Float32Array }[], references: readonly Float32Array[]): number {
  const sims: number[] = [];
  for (const item of items) for (const reference of references) sims.push(cosineSimilarity(item.embedding, reference));
  if (sims.length === 0) return 0;
  sims.sort((a, b) => a - b);
  const mid = Math.floor(sims.length / 2);
  return sims.length % 2 === 1 ? (sims[mid] as number) : ((sims[mid - 1] as number) + (sims[mid] as number)) / 2;
}

/**
 * The cosine two clusters must reach to merge: `margin` of the way from the embedder's unrelated-text
 * baseline to 1.
 */
export function clusterThreshold(options: { baseline: number; margin: number }): number {
  const b = Math.min(Math.max(options.baseline, 0), 1);
  return b + (1 - b) * options.margin;
}

/**
 * Average-linkage agglomerative clustering: the two clusters with the highest mean pairwise cosine
 * merge while that mean reaches `similarity`. Deterministic (items most important first, ties by id;
 * equal merges by position).
 */
export function clusterByEmbedding(
  items: readonly ReflectionItem[],
  similarity: number,
  cohesion: { baseline: number; gap: number } = { baseline: 0, gap: 0 },
): ReflectionItem[][] {
  const ordered = [...items].sort((a, b) => b.importance - a.importance || (a.id < b.id ? -1 : 1));
  const n = ordered.length;
  const mean: Float64Array[] = ordered.map(() => new Float64Array(n));
  for (let i = 0; i < n; i += 1)
    for (let j = i + 1; j < n; j += 1) {
      const sim = cosineSimilarity((ordered[i] as ReflectionItem).embedding, (ordered[j] as ReflectionItem).embedding);
      (mean[i] as Float64Array)[j] = sim;
      (mean[j] as Float64Array)[i] = sim;
    }
  const members: (number[] | null)[] = ordered.map((_, i) => [i]);
  // each cluster's mean pairwise cosine (its cohesion; a single item has none, NaN)
  const within = new Float64Array(n).fill(Number.NaN);
  const room = Math.max(1e-9, 1 - cohesion.baseline);
  const above = (cos: number): number => (cos - cohesion.baseline) / room;
  // Clusters far less alike than they are inside stay apart, however far above the baseline: their
  // linkage must reach `gap` of the looser one's cohesion (both above the baseline; a lone item has none).
  const joinable = (i: number, j: number, sim: number): boolean => {
    if (cohesion.gap <= 0) return true;
    const sides = [within[i] as number, within[j] as number].filter((c) => !Number.isNaN(c));
    return sides.length === 0 || above(sim) >= cohesion.gap * above(Math.min(...sides));
  };
  for (;;) {
    let a = -1;
    let b = -1;
    let best = similarity;
    for (let i = 0; i < n; i += 1) {
      if (members[i] === null) continue;
      for (let j = i + 1; j < n; j += 1) {
        if (members[j] === null) continue;
        const sim = (mean[i] as Float64Array)[j] as number;
        if (!joinable(i, j, sim)) continue;
        if (sim > best || (a < 0 && sim >= best)) {
          a = i;
          b = j;
          best = sim;
        }
      }
    }
    if (a < 0) break;
    const into = members[a] as number[];
    const from = members[b] as number[];
    const pairs = (size: number): number => (size * (size - 1)) / 2;
    const inner = (k: number, size: number): number => (size < 2 ? 0 : (within[k] as number) * pairs(size));
    within[a] = (inner(a, into.length) + inner(b, from.length) + best * into.length * from.length) / pairs(into.length + from.length);
    // Lance–Williams update: the mean similarity of the merged cluster to every other one
    for (let k = 0; k < n; k += 1) {
      if (members[k] === null || k === a || k === b) continue;
      const merged =
        (into.length * ((mean[a] as Float64Array)[k] as number) + from.length * ((mean[b] as Float64Array)[k] as number)) /
        (into.length + from.length);
      (mean[a] as Float64Array)[k] = merged;
      (mean[k] as Float64Array)[a] = merged;
    }
    into.push(...from);
    members[b] = null;
  }
  return members.filter((m): m is number[] => m !== null).map((m) => m.sort((x, y) => x - y).map((i) => ordered[i] as ReflectionItem));
}

/** The members an insight quotes: most important first, then the most recent, then by id. */
export function pickRepresentatives(members: readonly ReflectionItem[], count: number): ReflectionItem[] {
  return [...members].sort((a, b) => b.importance - a.importance || (b.at ?? 0) - (a.at ?? 0) || (a.id < b.id ? 1 : -1)).slice(0, count);
}

/**
 * Extractive insights, one per cluster of at least `minClusterSize` items; `options.baseline` is the
 * embedder's unrelated-text cosine (`similarityBaseline`), 0 when not given.
 */
export function extractiveInsights(
  items: readonly ReflectionItem[],
  level: 1 | 2 | 3,
  config: ReflectionConfig = DEFAULT_REFLECTION,
  options: { baseline?: number } = {},
): Insight[] {
  const baseline = options.baseline ?? 0;
  const threshold = clusterThreshold({ baseline, margin: config.clusterSimilarity });
  const clusters = clusterByEmbedding(items, threshold, { baseline, gap: config.clusterGap ?? 0 }).filter(
    (c) => c.length >= config.minClusterSize,
  );
  return clusters.map((members) => {
    const reps = pickRepresentatives(members, config.representatives);
    const terms = topTerms(
      members.map((m) => m.content),
      5,
    );
    const quoted = reps.map((r) => `"${clip(r.content, 140)}"`).join('; ');
    const label = level === 1 ? 'Recurring theme' : level === 2 ? 'Pattern across reflections' : 'Deep insight';
    return {
      level,
      importance: REFLECTION_IMPORTANCE[level],
      content: `${label} (${members.length} ${level === 1 ? 'memories' : 'reflections'}): ${terms.join(', ')}. For example: ${quoted}.`,
      sources: members.map((m) => m.id).sort(),
      representatives: reps.map((r) => r.id),
      terms,
      method: 'extractive' as const,
    };
  });
}

/** Insights written by an LLM per cluster, extractive for any cluster where the LLM fails. */
export async function llmInsights(
  llm: Llm,
  items: readonly ReflectionItem[],
  level: 1 | 2 | 3,
  config: ReflectionConfig = DEFAULT_REFLECTION,
  options: { baseline?: number } = {},
): Promise<Insight[]> {
  const extractive = extractiveInsights(items, level, config, options);
  const byId = new Map(items.map((i) => [i.id, i]));
  const out: Insight[] = [];
  for (const insight of extractive) {
    try {
      const lines = insight.sources.map((id) => `- ${clip(byId.get(id)?.content ?? '', 300)}`).join('\n');
      const text = await llm.complete(
        [
          {
            role: 'system',
            content: "You distil an agent's memories into one short, general insight (one or two sentences). Answer with the insight only.",
          },
          { role: 'user', content: `Memories:\n${lines}\n\nWhat general insight do they support?` },
        ],
        { maxTokens: 120 },
      );
      const trimmed = text.trim();
      out.push(trimmed.length > 0 ? { ...insight, content: trimmed, method: 'llm' } : insight);
    } catch {
      out.push(insight);
    }
  }
  return out;
}

/** A stable key for the set of records an insight summarises (idempotence). */
export function insightKey(level: number, sources: readonly string[]): string {
  const text = [...sources].sort().join(',');
  return `L${level}:${sources.length}:${fnv(text, 0x811c9dc5)}${fnv(text, 0x01000193)}`;
}

function fnv(text: string, offset: number): string {
  let hash = offset >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

function topTerms(texts: readonly string[], k: number): string[] {
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const term of new Set(contentTerms(text).filter((t) => t.length > 2))) counts.set(term, (counts.get(term) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, k)
    .map(([t]) => t);
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${cutText(flat, max - 1)}…`;
}
