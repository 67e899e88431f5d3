/**
 * Phase 4: grounding (seed 000 ConceptGrounder). Per concept, statistics over its
 * episodes — salience and novelty mean/std, success rate k/n — become statistical records with verbal
 * forms ("mug success rate: 0.875 (7/8)"), linked into the concept's `statistical` refs. Concepts that
 * share episodes get RELATED_TO edges weighted by the Jaccard similarity of their episode sets,
 * reinforced (updated) when later runs see more shared evidence.
 */
import { isConcept } from '../../core/concepts/index.js';
import type { Edge, MemoryRecord, RecordDataBase } from '../../core/memory.js';
import type { StoreTransaction } from '../../core/ports/store.js';
import { jaccard, meanStd } from '../statistics.js';
import { derivedRecord, edgeId, lookupKey, scanRecords, storeKey, type PhaseContext } from '../phase-context.js';

interface GroundCursor {
  step: 'stats' | 'related';
  afterId?: string;
}

/** The statistics of one concept's episodes, as verbal forms (pure). */
export function groundingStatistics(
  name: string,
  episodes: readonly MemoryRecord[],
  minEpisodes: number,
): { metric: string; content: string; values: Record<string, unknown> }[] {
  const out: { metric: string; content: string; values: Record<string, unknown> }[] = [];
  const outcomes = episodes.map((e) => e.data.outcome?.success).filter((s): s is boolean => typeof s === 'boolean');
  if (outcomes.length >= minEpisodes) {
    const k = outcomes.filter(Boolean).length;
    const n = outcomes.length;
    out.push({
      metric: 'success',
      content: `${name} success rate: ${fmt(k / n, 3)} (${k}/${n})`,
      values: { kind: 'rate', k, n, rate: k / n },
    });
  }
  for (const metric of ['salience', 'novelty'] as const) {
    const values = episodes.map((e) => e.data.perception?.[metric]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (values.length < minEpisodes) continue;
    const s = meanStd(values);
    out.push({
      metric,
      content: `${name} ${metric}: mean=${fmt(s.mean, 2)}, std=${fmt(s.std, 2)}`,
      values: { kind: 'moments', n: s.n, mean: s.mean, std: s.std },
    });
  }
  return out;
}

export async function groundPhase(ctx: PhaseContext): Promise<void> {
  const cursor = (ctx.cursor ?? { step: 'stats' }) as GroundCursor;
  const { store } = ctx.deps;
  const episodeSets = new Map<string, Set<string>>();
  const names = new Map<string, string>();
  // Pass 1: statistics per concept, in batches of concepts.
  for await (const page of scanRecords(store, {
    scope: ctx.scope,
    layers: ['semantic'],
    statuses: ['active'],
    pageSize: ctx.deps.config.pageSize,
  })) {
    const concepts = page.filter(isConcept);
    if (concepts.length === 0) continue;
    const refs = await store.getConceptRefs({ scopes: [ctx.scope], conceptIds: concepts.map((c) => c.id), layers: ['episodic'] });
    for (const ref of refs) {
      const set = episodeSets.get(ref.conceptId) ?? new Set<string>();
      set.add(ref.refId);
      episodeSets.set(ref.conceptId, set);
    }
    for (const c of concepts) names.set(c.id, String(c.data.name ?? c.content));
    if (cursor.step !== 'stats') continue;
    const todo = concepts.filter((c) => cursor.afterId === undefined || c.id > cursor.afterId);
    const size = Math.max(1, Math.min(ctx.deps.config.batchSize, 100));
    for (let i = 0; i < todo.length; i += size) {
      const slice = todo.slice(i, i + size);
      const planned = await planStatistics(ctx, slice, episodeSets);
      const vectors = planned.length > 0 ? await ctx.deps.embedder.embed(planned.map((p) => p.content)) : [];
      const last = (slice[slice.length - 1] as MemoryRecord).id;
      await ctx.batch(
        async (tx) => {
          ctx.counters.examined += slice.length;
          for (const [j, p] of planned.entries()) await upsertStatistic(ctx, tx, p, vectors[j] as Float32Array);
        },
        { step: 'stats', afterId: last } satisfies GroundCursor,
      );
    }
  }
  // Pass 2: RELATED_TO edges by Jaccard of episode sets, one transaction.
  const pairs = relatedPairs(episodeSets, ctx.deps.config.grounding.minShared);
  await ctx.batch(
    async (tx) => {
      for (const pair of pairs) await upsertRelated(ctx, tx, pair, names);
    },
    { step: 'related' } satisfies GroundCursor,
  );
}

interface PlannedStatistic {
  key: string;
  conceptId: string;
  name: string;
  content: string;
  values: Record<string, unknown>;
  episodeIds: string[];
}

async function planStatistics(
  ctx: PhaseContext,
  concepts: readonly MemoryRecord[],
  episodeSets: Map<string, Set<string>>,
): Promise<PlannedStatistic[]> {
  const ids = [...new Set(concepts.flatMap((c) => [...(episodeSets.get(c.id) ?? [])]))];
  const episodes = new Map((ids.length > 0 ? await ctx.deps.store.getMemories(ids, [ctx.scope]) : []).map((e) => [e.id, e]));
  const planned: PlannedStatistic[] = [];
  for (const concept of concepts) {
    const name = String(concept.data.name ?? concept.content);
    const own = [...(episodeSets.get(concept.id) ?? [])]
      .map((id) => episodes.get(id))
      .filter((e): e is MemoryRecord => e !== undefined && e.status !== 'expired' && e.status !== 'deleted');
    for (const stat of groundingStatistics(name, own, ctx.deps.config.grounding.minEpisodes)) {
      planned.push({
        key: `ground:${concept.id}:${stat.metric}`,
        conceptId: concept.id,
        name: `${name} ${stat.metric === 'success' ? 'success rate' : stat.metric}`,
        content: stat.content,
        values: stat.values,
        episodeIds: own.map((e) => e.id),
      });
    }
  }
  return planned;
}

async function upsertStatistic(ctx: PhaseContext, tx: StoreTransaction, p: PlannedStatistic, embedding: Float32Array): Promise<void> {
  const existingId = await lookupKey(tx, ctx.scope, p.key);
  const metric = { ...p.values, conceptId: p.conceptId, subject: p.name };
  if (existingId !== null) {
    const [existing] = await tx.getMemories([existingId], [ctx.scope]);
    if (existing !== undefined && existing.status === 'active') {
      if (existing.content === p.content) return;
      await tx.updateMemory(existing.id, ctx.scope, { content: p.content, data: { ...existing.data, metric }, updatedAt: ctx.now });
      await tx.updateEmbedding(existing.id, ctx.scope, embedding);
      ctx.counters.updated += 1;
      ctx.counters.details['statistics updated'] = (ctx.counters.details['statistics updated'] ?? 0) + 1;
      return;
    }
  }
  const record = derivedRecord({
    scope: ctx.scope,
    layer: 'statistical',
    content: p.content,
    now: ctx.now,
    importance: 0.5,
    provenance: { kind: 'statistical', sources: [], derivedFrom: [p.conceptId] },
    data: { name: p.name, metric } satisfies RecordDataBase,
  });
  await tx.insertMemories([{ record, embedding }]);
  await tx.addConceptRefs({ scope: ctx.scope, conceptId: p.conceptId, layer: 'statistical', refIds: [record.id] });
  await storeKey(tx, ctx.scope, p.key, record.id, ctx.now);
  ctx.counters.created += 1;
  ctx.counters.details['statistics created'] = (ctx.counters.details['statistics created'] ?? 0) + 1;
  if (ctx.counters.ids.length < 50) ctx.counters.ids.push(record.id);
}

interface RelatedPair {
  a: string;
  b: string;
  shared: number;
  union: number;
  similarity: number;
}

/** Concept pairs sharing at least `minShared` episodes, with their Jaccard similarity (pure). */
export function relatedPairs(episodeSets: ReadonlyMap<string, ReadonlySet<string>>, minShared: number): RelatedPair[] {
  const byEpisode = new Map<string, string[]>();
  for (const [concept, episodes] of episodeSets) for (const e of episodes) byEpisode.set(e, [...(byEpisode.get(e) ?? []), concept]);
  const sharedCounts = new Map<string, number>();
  for (const concepts of byEpisode.values()) {
    const sorted = [...concepts].sort();
    for (let i = 0; i < sorted.length; i += 1)
      for (let j = i + 1; j < sorted.length; j += 1) {
        const key = `${sorted[i]}|${sorted[j]}`;
        sharedCounts.set(key, (sharedCounts.get(key) ?? 0) + 1);
      }
  }
  const pairs: RelatedPair[] = [];
  for (const [key, shared] of sharedCounts) {
    if (shared < minShared) continue;
    const [a, b] = key.split('|') as [string, string];
    const j = jaccard(episodeSets.get(a) as ReadonlySet<string>, episodeSets.get(b) as ReadonlySet<string>);
    pairs.push({ a, b, shared: j.shared, union: j.union, similarity: j.similarity });
  }
  return pairs.sort((x, y) => (x.a + x.b < y.a + y.b ? -1 : 1));
}

async function upsertRelated(ctx: PhaseContext, tx: StoreTransaction, pair: RelatedPair, names: Map<string, string>): Promise<void> {
  ctx.counters.examined += 1;
  const key = `related:${pair.a}:${pair.b}`;
  const weight = Math.round(pair.similarity * 1e6) / 1e6;
  const existingId = await lookupKey(tx, ctx.scope, key);
  if (existingId !== null) {
    const [edge] = (await tx.getEdges({ scopes: [ctx.scope], ids: [pair.a], types: ['RELATED_TO'] })).filter((e) => e.id === existingId);
    if (edge !== undefined && edge.invalidatedAt === null) {
      if (edge.metadata.shared === pair.shared && edge.metadata.union === pair.union) return;
      const reinforced = (typeof edge.metadata.reinforced === 'number' ? edge.metadata.reinforced : 0) + 1;
      await tx.updateEdge(edge.id, ctx.scope, {
        weight,
        metadata: { ...edge.metadata, shared: pair.shared, union: pair.union, jaccard: weight, reinforced, reinforcedAt: ctx.now },
      });
      ctx.counters.updated += 1;
      ctx.counters.details['edges reinforced'] = (ctx.counters.details['edges reinforced'] ?? 0) + 1;
      return;
    }
  }
  const edge: Edge = {
    id: edgeId(ctx.now),
    scope: ctx.scope,
    fromId: pair.a,
    type: 'RELATED_TO',
    toId: pair.b,
    weight,
    validFrom: ctx.now,
    validTo: null,
    recordedAt: ctx.now,
    invalidatedAt: null,
    metadata: { shared: pair.shared, union: pair.union, jaccard: weight, reinforced: 0, names: [names.get(pair.a), names.get(pair.b)] },
  };
  await tx.insertEdges([edge]);
  await storeKey(tx, ctx.scope, key, edge.id, ctx.now);
  ctx.counters.created += 1;
  ctx.counters.details['RELATED_TO edges'] = (ctx.counters.details['RELATED_TO edges'] ?? 0) + 1;
}

function fmt(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}
