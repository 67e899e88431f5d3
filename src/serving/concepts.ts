/**
 * Live concept context for what is perceived (seed 000 ConceptContextBuilder): each matched concept
 * at the highest level the deadline allows — minimal (name, category, episode count), cached
 * (relations + stored statistics), full (cached + fresh grounding over its episodes).
 */
import type { Edge, MemoryRecord } from '../core/memory.js';
import { isVisible } from '../core/memory.js';
import type { Store } from '../core/ports/store.js';
import type { Scope } from '../core/scope.js';
import type { MatchedConcept } from './concept-lookup.js';
import type { ConceptEntry, ConceptGrounding, ConceptRelation, ConceptStatistic } from './types.js';
import { isEpisode, isStatistic } from '../core/record-kinds.js';
import { cutText } from '../core/text/index.js';

/** Fresh grounding reads at most this many of a concept's most recent episodes. */
const GROUNDING_EPISODES = 200;
/** Relations shown per concept. */
const RELATIONS_PER_CONCEPT = 8;

/** The minimal level of a concept: name, category, episode count. */
export function minimalConcept(concept: MatchedConcept): ConceptEntry {
  return {
    id: concept.id,
    scope: concept.scope,
    name: concept.name,
    category: concept.category,
    episodeCount: concept.episodeIds.length,
    level: 'minimal',
    matchedBy: [...new Set(concept.matchedBy)],
  };
}

/** Relations and stored statistics of concepts (the cached level), keyed by concept id. */
export async function readConceptRelations(
  store: Store,
  scopes: readonly Scope[],
  concepts: readonly MatchedConcept[],
  now: number,
): Promise<Map<string, { relations: ConceptRelation[]; statistics: ConceptStatistic[] }>> {
  const real = concepts.filter((c) => c.record !== null);
  const out = new Map<string, { relations: ConceptRelation[]; statistics: ConceptStatistic[] }>(
    concepts.map((c) => [c.id, { relations: [], statistics: [] }]),
  );
  if (real.length === 0) return out;
  const edges = (await store.getEdges({ scopes, ids: real.map((c) => c.id) })).filter((e) => current(e, now) && e.type !== 'SUPERSEDES');
  const otherIds = new Set<string>();
  for (const e of edges) otherIds.add(e.fromId).add(e.toId);
  for (const c of real) for (const id of c.statisticIds) otherIds.add(id);
  for (const c of real) otherIds.delete(c.id);
  const others = new Map(
    (otherIds.size > 0 ? await store.getMemories([...otherIds], scopes) : []).filter((r) => isVisible(r, {}, now)).map((r) => [r.id, r]),
  );
  for (const concept of real) {
    const entry = out.get(concept.id) as { relations: ConceptRelation[]; statistics: ConceptStatistic[] };
    const statIds = new Set(concept.statisticIds);
    for (const e of edges) {
      if (e.fromId !== concept.id && e.toId !== concept.id) continue;
      const otherId = e.fromId === concept.id ? e.toId : e.fromId;
      const other = others.get(otherId);
      if (other === undefined) continue;
      if (isStatistic(other)) statIds.add(other.id);
      else if (!isEpisode(other)) {
        entry.relations.push({
          type: e.type,
          direction: e.fromId === concept.id ? 'out' : 'in',
          id: other.id,
          name: displayName(other),
          weight: round(e.weight),
        });
      }
    }
    entry.relations.sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name));
    entry.relations.splice(RELATIONS_PER_CONCEPT);
    for (const id of statIds) {
      const stat = others.get(id);
      if (stat !== undefined) entry.statistics.push({ id: stat.id, verbal: stat.content, fresh: false });
    }
  }
  return out;
}

/** Fresh grounding (the full level): statistics computed now over each concept's episodes. */
export async function groundConcepts(
  store: Store,
  scopes: readonly Scope[],
  concepts: readonly MatchedConcept[],
  now: number,
): Promise<Map<string, ConceptGrounding>> {
  const wanted = new Map<string, string[]>();
  for (const c of concepts) wanted.set(c.id, c.episodeIds.slice(-GROUNDING_EPISODES));
  const ids = [...new Set([...wanted.values()].flat())];
  const records = new Map(
    (ids.length > 0 ? await store.getMemories(ids, scopes) : []).filter((r) => isVisible(r, {}, now)).map((r) => [r.id, r]),
  );
  const out = new Map<string, ConceptGrounding>();
  for (const [conceptId, episodeIds] of wanted) {
    const episodes = episodeIds.map((id) => records.get(id)).filter((r): r is MemoryRecord => r !== undefined);
    out.set(conceptId, ground(episodes));
  }
  return out;
}

/** Statistics over episodes: success rate k/n, salience and novelty mean and std. */
export function ground(episodes: readonly MemoryRecord[]): ConceptGrounding {
  const grounding: ConceptGrounding = { episodes: episodes.length };
  const outcomes = episodes
    .map((e) => e.data.outcome?.success ?? (e.data.outcome?.reward !== undefined ? e.data.outcome.reward > 0 : undefined))
    .filter((s): s is boolean => s !== undefined);
  if (outcomes.length > 0) {
    const k = outcomes.filter(Boolean).length;
    grounding.successRate = { k, n: outcomes.length, rate: round(k / outcomes.length) };
  }
  const salience = episodes.map((e) => e.data.perception?.salience).filter((v): v is number => typeof v === 'number');
  const novelty = episodes.map((e) => e.data.perception?.novelty).filter((v): v is number => typeof v === 'number');
  if (salience.length > 0) grounding.salience = meanStd(salience);
  if (novelty.length > 0) grounding.novelty = meanStd(novelty);
  return grounding;
}

/**
 * A concept entry at the full level: its grounding, the episodes of it that are current (the grounding
 * reads the most recent GROUNDING_EPISODES; older ones are counted as the refs say), and its stored
 * statistics with each one the grounding recomputes replaced by the fresh value — or left out, when
 * no current episode supports it — so no statistic is shown twice or stale. A fresh value keeps the
 * id of the stored statistic it replaces.
 */
export function applyGrounding(entry: ConceptEntry, concept: MatchedConcept, grounding: ConceptGrounding): void {
  const fresh = verbalGrounding(concept.name, grounding);
  const recomputed = new Set(GROUNDED_METRICS.map((metric) => `${concept.name} ${metric}`));
  entry.level = 'full';
  entry.grounding = grounding;
  entry.episodeCount = grounding.episodes + Math.max(0, concept.episodeIds.length - GROUNDING_EPISODES);
  const stored = new Map<string, ConceptStatistic>();
  for (const s of entry.statistics ?? []) if (recomputed.has(statisticName(s.verbal))) stored.set(statisticName(s.verbal), s);
  // a fresh value keeps the id of the stored statistic it replaces, so that record is not shown again elsewhere
  const replacing = fresh.map((s) => {
    const id = stored.get(statisticName(s.verbal))?.id;
    return id !== undefined ? { id, ...s } : s;
  });
  const kept = (entry.statistics ?? []).filter((s) => !recomputed.has(statisticName(s.verbal)));
  entry.statistics = uniqueStatistics([...kept, ...replacing]);
}

/** The statistics a grounding computes, as named in their verbal forms. */
const GROUNDED_METRICS = ['success rate', 'salience', 'novelty'] as const;

/** The name of a statistic in its verbal form: the text before its colon ("mug success rate"). */
function statisticName(verbal: string): string {
  const colon = verbal.indexOf(':');
  return (colon < 0 ? verbal : verbal.slice(0, colon)).trim();
}

/** Statistics with each verbal form once (the first kept). */
export function uniqueStatistics(statistics: readonly ConceptStatistic[]): ConceptStatistic[] {
  const seen = new Set<string>();
  return statistics.filter((s) => !seen.has(s.verbal) && (seen.add(s.verbal), true));
}

/** Verbal forms of a grounding, as the statistical layer writes them ("mug success rate: 0.875 (7/8)"). */
export function verbalGrounding(name: string, g: ConceptGrounding): ConceptStatistic[] {
  const out: ConceptStatistic[] = [];
  if (g.successRate !== undefined)
    out.push({ verbal: `${name} success rate: ${fmt(g.successRate.rate)} (${g.successRate.k}/${g.successRate.n})`, fresh: true });
  if (g.salience !== undefined)
    out.push({ verbal: `${name} salience: mean=${fmt(g.salience.mean, 2)}, std=${fmt(g.salience.std, 2)}`, fresh: true });
  if (g.novelty !== undefined)
    out.push({ verbal: `${name} novelty: mean=${fmt(g.novelty.mean, 2)}, std=${fmt(g.novelty.std, 2)}`, fresh: true });
  return out;
}

function meanStd(values: readonly number[]): { mean: number; std: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  return { mean: round(mean), std: round(Math.sqrt(variance)) };
}

function current(edge: Edge, now: number): boolean {
  return (
    edge.recordedAt <= now && (edge.invalidatedAt === null || edge.invalidatedAt > now) && (edge.validTo === null || edge.validTo > now)
  );
}

function displayName(record: MemoryRecord): string {
  if (typeof record.data.name === 'string' && record.data.name.length > 0) return record.data.name;
  return record.content.length > 60 ? `${cutText(record.content, 57)}…` : record.content;
}

function fmt(value: number, digits = 3): string {
  return String(Number(value.toFixed(digits)));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
