/**
 * Phase 5: promotion (§11.8; seed 000 SemanticPromoter). Every promotion source offers
 * candidates through `candidates(scope, since)`; the noise filter has already run inside the sources.
 * A candidate becomes a semantic concept with provenance kind and confidence, DERIVED_FROM edges to its
 * source episodes (reward learning) or a STATISTICALLY_CONFIRMS edge from its statistical record
 * (statistical patterns). Re-running never duplicates: the concept's confidence and evidence are updated.
 */
import type { ConceptData, Edge, FactData, MemoryRecord, RecordDataBase } from '../../core/memory.js';
import type { StoreTransaction } from '../../core/ports/store.js';
import { observationOf, type Observation } from '../observations.js';
import { rewardLearningSource, statisticalPatternSource, type PromotionCandidate, type PromotionSource } from '../promotion-sources.js';
import { derivedRecord, edgeId, lookupKey, scanRecords, storeKey, type PhaseContext } from '../phase-context.js';
import { isChunkParent } from '../../core/record-kinds.js';
import { CYCLE_NODES, phaseLockSource, type PhaseLock } from '../phase-lock-source.js';
import type { Cycle } from '../circular-statistics.js';

/** At most this many DERIVED_FROM edges per promoted concept (the most recent episodes). */
const MAX_EVIDENCE_EDGES = 500;

/** Observations of every current episode of the scope (one scan per run, cached by the loader). */
function observationLoader(ctx: PhaseContext): (scope: string) => Promise<readonly Observation[]> {
  let cached: Observation[] | undefined;
  return async (scope) => {
    if (cached !== undefined) return cached;
    const out: Observation[] = [];
    for await (const page of scanRecords(ctx.deps.store, {
      scope,
      layers: ['episodic'],
      statuses: ['active', 'decayed'],
      pageSize: ctx.deps.config.pageSize,
    })) {
      for (const r of page) if (!isChunkParent(r)) out.push(observationOf(r));
    }
    cached = out;
    return out;
  };
}

/** The built-in sources over one run's loader. */
export function builtInSources(ctx: PhaseContext): PromotionSource[] {
  const load = observationLoader(ctx);
  return [
    rewardLearningSource(load, ctx.deps.config.rewardLearning),
    statisticalPatternSource(load, ctx.deps.config.statisticalPatterns),
    phaseLockSource(load, ctx.deps.config.phaseLock),
  ];
}

export async function promotePhase(ctx: PhaseContext, sources: readonly PromotionSource[] = builtInSources(ctx)): Promise<void> {
  const candidates: PromotionCandidate[] = [];
  for (const source of sources) candidates.push(...(await source.candidates(ctx.scope, ctx.lastRunAt)));
  candidates.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const startAfter = typeof ctx.cursor === 'string' ? ctx.cursor : '';
  await ensureCycleNodes(ctx, [...new Set(candidates.flatMap((c) => (c.phaseLock !== undefined ? [c.phaseLock.cycle] : [])))], startAfter);
  // candidates before the cursor were counted by the run that checkpointed it (its counters resume here)
  const todo = candidates.filter((c) => c.key > startAfter);
  const size = Math.max(1, Math.min(ctx.deps.config.batchSize, 20));
  for (let i = 0; i < todo.length; i += size) {
    const slice = todo.slice(i, i + size);
    const texts = slice.flatMap((c) => [`${c.name}: ${c.content}`, ...(c.statistic !== undefined ? [c.statistic.content] : [])]);
    const vectors = await ctx.deps.embedder.embed(texts);
    let v = 0;
    const embedded = slice.map((c) => ({
      c,
      concept: vectors[v++] as Float32Array,
      stat: c.statistic !== undefined ? (vectors[v++] as Float32Array) : undefined,
    }));
    await ctx.batch(
      async (tx) => {
        for (const item of embedded) {
          ctx.counters.examined += 1;
          await promote(ctx, tx, item.c, item.concept, item.stat);
        }
      },
      (slice[slice.length - 1] as PromotionCandidate).key,
    );
  }
  if (candidates.length === 0) ctx.counters.details['no candidate passed the noise filter'] = 0;
}

async function promote(
  ctx: PhaseContext,
  tx: StoreTransaction,
  c: PromotionCandidate,
  conceptVector: Float32Array,
  statVector: Float32Array | undefined,
): Promise<void> {
  const statId = c.statistic !== undefined && statVector !== undefined ? await upsertStatisticalRecord(ctx, tx, c, statVector) : null;
  const key = `promote:${c.key}`;
  const existingId = await lookupKey(tx, ctx.scope, key);
  const [existing] = existingId !== null ? await tx.getMemories([existingId], [ctx.scope]) : [];
  const promotion = { key: c.key, source: c.source, kind: c.kind, evidence: c.evidence, promotedAt: ctx.now };
  let conceptId: string;
  if (existing !== undefined && existing.status !== 'expired' && existing.status !== 'deleted') {
    conceptId = existing.id;
    if (existing.confidence !== c.confidence || existing.content !== c.content) {
      const previous = existing.data.promotion as { promotedAt?: number } | undefined;
      await tx.updateMemory(existing.id, ctx.scope, {
        content: c.content,
        confidence: c.confidence,
        data: { ...existing.data, promotion: { ...promotion, promotedAt: previous?.promotedAt ?? ctx.now, updatedAt: ctx.now } },
        updatedAt: ctx.now,
      });
      await tx.updateEmbedding(existing.id, ctx.scope, conceptVector);
      ctx.counters.updated += 1;
      ctx.counters.details['confidence updated'] = (ctx.counters.details['confidence updated'] ?? 0) + 1;
    }
  } else {
    const record = derivedRecord({
      scope: ctx.scope,
      layer: 'semantic',
      content: c.content,
      now: ctx.now,
      importance: 0.7,
      confidence: c.confidence,
      provenance: { kind: c.provenanceKind, sources: [], derivedFrom: statId !== null ? [statId] : c.episodes.slice(-20) },
      data: { name: c.name, category: 'promoted', definition: c.content, promotion } satisfies FactData,
      tags: ['promoted', c.kind],
    });
    await tx.insertMemories([{ record, embedding: conceptVector }]);
    await storeKey(tx, ctx.scope, key, record.id, ctx.now);
    conceptId = record.id;
    ctx.counters.created += 1;
    ctx.counters.details['concepts promoted'] = (ctx.counters.details['concepts promoted'] ?? 0) + 1;
    if (ctx.counters.ids.length < 50) ctx.counters.ids.push(record.id);
  }
  await linkEvidence(ctx, tx, conceptId, c, statId);
  if (c.phaseLock !== undefined) await linkPhaseLock(ctx, tx, conceptId, c.phaseLock);
}

/** The node of each cycle a metric may lock to (`circadian`, `weekly`): a concept, created once per scope. */
async function ensureCycleNodes(ctx: PhaseContext, cycles: readonly Cycle[], cursor: string): Promise<void> {
  const missing: Cycle[] = [];
  for (const cycle of cycles) if ((await lookupKey(ctx.deps.store, ctx.scope, `cycle:${cycle}`)) === null) missing.push(cycle);
  if (missing.length === 0) return;
  const vectors = await ctx.deps.embedder.embed(missing.map((cycle) => `${CYCLE_NODES[cycle].name}: ${CYCLE_NODES[cycle].definition}`));
  await ctx.batch(
    async (tx) => {
      for (const [i, cycle] of missing.entries()) {
        if ((await lookupKey(tx, ctx.scope, `cycle:${cycle}`)) !== null) continue;
        const node = CYCLE_NODES[cycle];
        const record = derivedRecord({
          scope: ctx.scope,
          layer: 'semantic',
          content: node.definition,
          now: ctx.now,
          importance: 0.5,
          provenance: { kind: 'statistical', sources: [], derivedFrom: [] },
          data: { name: node.name, category: 'cycle', definition: node.definition, concept: true } satisfies ConceptData,
        });
        await tx.insertMemories([{ record, embedding: vectors[i] as Float32Array }]);
        await storeKey(tx, ctx.scope, `cycle:${cycle}`, record.id, ctx.now);
        ctx.counters.created += 1;
      }
    },
    cursor === '' ? undefined : cursor,
  );
}

/** The PHASE_LOCKED_TO edge from a promoted metric to its cycle's node, updated when the numbers move. */
async function linkPhaseLock(ctx: PhaseContext, tx: StoreTransaction, conceptId: string, lock: PhaseLock): Promise<void> {
  const nodeId = await lookupKey(tx, ctx.scope, `cycle:${lock.cycle}`);
  if (nodeId === null) return;
  const metadata = {
    cycle: lock.cycle,
    phase: lock.phase,
    coupling: lock.coupling,
    p: lock.p,
    peak: lock.peak,
    subject: lock.subject,
    n: lock.n,
  };
  const [edge] = (await tx.getEdges({ scopes: [ctx.scope], ids: [conceptId], types: ['PHASE_LOCKED_TO'] })).filter(
    (e) => e.invalidatedAt === null && e.fromId === conceptId && e.toId === nodeId,
  );
  if (edge !== undefined) {
    if (JSON.stringify(edge.metadata) === JSON.stringify(metadata)) return;
    await tx.updateEdge(edge.id, ctx.scope, { weight: lock.coupling, metadata });
    return;
  }
  await tx.insertEdges([
    {
      id: edgeId(ctx.now),
      scope: ctx.scope,
      fromId: conceptId,
      type: 'PHASE_LOCKED_TO',
      toId: nodeId,
      weight: lock.coupling,
      validFrom: ctx.now,
      validTo: null,
      recordedAt: ctx.now,
      invalidatedAt: null,
      metadata,
    },
  ]);
  ctx.counters.details['PHASE_LOCKED_TO edges'] = (ctx.counters.details['PHASE_LOCKED_TO edges'] ?? 0) + 1;
}

/** DERIVED_FROM edges to episodes not yet linked; a STATISTICALLY_CONFIRMS edge from the statistical record. */
async function linkEvidence(
  ctx: PhaseContext,
  tx: StoreTransaction,
  conceptId: string,
  c: PromotionCandidate,
  statId: string | null,
): Promise<void> {
  const existing = await tx.getEdges({ scopes: [ctx.scope], ids: [conceptId], types: ['DERIVED_FROM', 'STATISTICALLY_CONFIRMS'] });
  const linked = new Set(existing.filter((e) => e.invalidatedAt === null).map((e) => (e.type === 'DERIVED_FROM' ? e.toId : e.fromId)));
  const edges: Edge[] = [];
  const base = { scope: ctx.scope, validFrom: ctx.now, validTo: null, recordedAt: ctx.now, invalidatedAt: null };
  const episodes = c.episodes.slice(-MAX_EVIDENCE_EDGES);
  const present = new Set((episodes.length > 0 ? await tx.getMemories(episodes, [ctx.scope]) : []).map((r: MemoryRecord) => r.id));
  for (const episode of episodes) {
    if (linked.has(episode) || !present.has(episode)) continue;
    edges.push({
      ...base,
      id: edgeId(ctx.now),
      fromId: conceptId,
      type: 'DERIVED_FROM',
      toId: episode,
      weight: 1,
      metadata: { promotion: c.key },
    });
  }
  if (statId !== null && !linked.has(statId)) {
    edges.push({
      ...base,
      id: edgeId(ctx.now),
      fromId: statId,
      type: 'STATISTICALLY_CONFIRMS',
      toId: conceptId,
      weight: c.confidence,
      metadata: { promotion: c.key },
    });
  }
  if (edges.length > 0) {
    await tx.insertEdges(edges);
    ctx.counters.details['evidence edges'] = (ctx.counters.details['evidence edges'] ?? 0) + edges.length;
  }
}

async function upsertStatisticalRecord(
  ctx: PhaseContext,
  tx: StoreTransaction,
  c: PromotionCandidate,
  embedding: Float32Array,
): Promise<string> {
  const stat = c.statistic as NonNullable<PromotionCandidate['statistic']>;
  const key = `stat:${stat.key}`;
  const existingId = await lookupKey(tx, ctx.scope, key);
  const [existing] = existingId !== null ? await tx.getMemories([existingId], [ctx.scope]) : [];
  if (existing !== undefined && existing.status === 'active') {
    if (existing.content !== stat.content) {
      await tx.updateMemory(existing.id, ctx.scope, {
        content: stat.content,
        data: { ...existing.data, metric: stat.metric },
        updatedAt: ctx.now,
      });
      await tx.updateEmbedding(existing.id, ctx.scope, embedding);
      ctx.counters.updated += 1;
    }
    return existing.id;
  }
  const record = derivedRecord({
    scope: ctx.scope,
    layer: 'statistical',
    content: stat.content,
    now: ctx.now,
    importance: 0.6,
    provenance: { kind: 'statistical', sources: [], derivedFrom: [] },
    data: { name: stat.name, metric: stat.metric } satisfies RecordDataBase,
  });
  await tx.insertMemories([{ record, embedding }]);
  await storeKey(tx, ctx.scope, key, record.id, ctx.now);
  ctx.counters.created += 1;
  ctx.counters.details['statistical records'] = (ctx.counters.details['statistical records'] ?? 0) + 1;
  return record.id;
}
