/**
 * Reflection (§11.9; seed 004): higher-level insights from recent important records.
 * Extractive by default — cluster by embedding, pick representatives, template a summary — or an LLM
 * through the LLM port when one is configured (falling back to extractive on any failure).
 * Levels: 1 first-pass synthesis (importance 0.5), 2 meta-reflection (0.7), 3 deep insight (0.9).
 */
import type { Llm } from '../core/ports/llm.js';
import { contentTerms } from '../core/text/index.js';
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
  /** Cosine similarity to join a cluster. */
  clusterSimilarity: number;
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
  clusterSimilarity: 0.35,
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

/** One record a reflection may draw on. */
export interface ReflectionItem {
  id: string;
  content: string;
  embedding: Float32Array;
  importance: number;
}

/** An insight ready to store. */
export interface Insight {
  level: 1 | 2 | 3;
  importance: number;
  content: string;
  /** Records it summarises (DERIVED_FROM edges). */
  sources: string[];
  representatives: string[];
  terms: string[];
  method: 'extractive' | 'llm';
}

/** Greedy clustering by cosine similarity to each cluster's running centroid, most important first. */
export function clusterByEmbedding(items: readonly ReflectionItem[], similarity: number): ReflectionItem[][] {
  const ordered = [...items].sort((a, b) => b.importance - a.importance || (a.id < b.id ? -1 : 1));
  const clusters: { members: ReflectionItem[]; centroid: Float64Array }[] = [];
  for (const item of ordered) {
    let best: (typeof clusters)[number] | undefined;
    let bestSim = similarity;
    for (const cluster of clusters) {
      const sim = cosineSimilarity(cluster.centroid, item.embedding);
      if (sim >= bestSim) {
        best = cluster;
        bestSim = sim;
      }
    }
    if (best === undefined) {
      clusters.push({ members: [item], centroid: Float64Array.from(item.embedding) });
    } else {
      best.members.push(item);
      for (let i = 0; i < best.centroid.length; i += 1) best.centroid[i] = (best.centroid[i] as number) + (item.embedding[i] ?? 0);
    }
  }
  return clusters.map((c) => c.members);
}

/** Extractive insights, one per cluster of at least `minClusterSize` items. */
export function extractiveInsights(
  items: readonly ReflectionItem[],
  level: 1 | 2 | 3,
  config: ReflectionConfig = DEFAULT_REFLECTION,
): Insight[] {
  const clusters = clusterByEmbedding(items, config.clusterSimilarity).filter((c) => c.length >= config.minClusterSize);
  return clusters.map((members) => {
    const reps = members.slice(0, config.representatives);
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
): Promise<Insight[]> {
  const extractive = extractiveInsights(items, level, config);
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
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
