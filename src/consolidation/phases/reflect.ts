/**
 * Phase 6: reflection (§11.9; seed 004). Runs when the importance accumulated since the
 * last reflection crosses the threshold, at session end, or when asked for. Level 1 reflects on the
 * recent important memories since the last reflection; level 2 on level-1 reflections not yet reflected
 * on, level 3 on level-2 ones. Each insight is a semantic record (provenance `reflection`, `level`,
 * importance 0.5 / 0.7 / 0.9) with DERIVED_FROM edges to what it summarises; an identity key makes a
 * second run add no duplicate.
 */
import { isVisible, type Edge, type FactData, type MemoryRecord } from '../../core/memory.js';
import type { StoreReader } from '../../core/ports/store.js';
import type { Scope } from '../../core/scope.js';
import {
  baselineReferences,
  extractiveInsights,
  insightKey,
  llmInsights,
  reflectionTrigger,
  similarityBaseline,
  type Insight,
  type ReflectionItem,
} from '../reflection.js';
import { derivedRecord, edgeId, lookupKey, scanRecords, storeKey, type PhaseContext } from '../phase-context.js';
import { isCompressed, isCycleKnowledge, isEpisode, isPromoted, isReflection, isStructural } from '../../core/record-kinds.js';
import { growPersonaFromReflections } from '../persona-growth.js';
import { CAPTURED_TAG } from '../../core/write/capture/index.js';

const CURSOR_KEY = 'consolidate/reflect/cursor';
/** At most this many recent records feed one level-1 reflection. */
const MAX_ITEMS = 300;

interface ReflectCursor {
  /** Last record id considered by level 1. */
  lastId: string;
  /** Reflection ids already reflected on, by level (2, 3). */
  reflected?: Record<string, string[]>;
}

/**
 * What a scope accumulated since its last reflection: the records that count toward the next one
 * (episodes and facts, not derived knowledge), their summed importance (unscored counts 1), those at
 * least `minImportance` (`fresh`), and the newest id. The reflect phase and idle reflection read it alike.
 */
export async function sinceLastReflection(
  store: StoreReader,
  scope: Scope,
  options: { pageSize: number; minImportance: number },
): Promise<{ saved: ReflectCursor | undefined; fresh: MemoryRecord[]; accumulated: number; newestId: string }> {
  const saved = (await store.getState(scope, CURSOR_KEY))?.value as ReflectCursor | undefined;
  const lastId = saved?.lastId ?? '';
  const fresh: MemoryRecord[] = [];
  let accumulated = 0;
  let newestId = lastId;
  for await (const page of scanRecords(store, {
    scope,
    layers: ['episodic', 'semantic'],
    statuses: ['active'],
    ...(lastId !== '' ? { afterId: lastId } : {}),
    pageSize: options.pageSize,
  })) {
    for (const r of page) {
      if (isReflection(r) || isStructural(r) || isPromoted(r) || isCompressed(r) || isCycleKnowledge(r)) continue;
      newestId = r.id > newestId ? r.id : newestId;
      const importance = r.importance ?? 1;
      accumulated += importance;
      if (importance >= options.minImportance) fresh.push(r);
    }
  }
  return { saved, fresh, accumulated, newestId };
}

export async function reflectPhase(ctx: PhaseContext): Promise<void> {
  const cfg = ctx.deps.config.reflection;
  const reflections: MemoryRecord[] = [];
  for await (const page of scanRecords(ctx.deps.store, {
    scope: ctx.scope,
    layers: ['semantic'],
    statuses: ['active'],
    pageSize: ctx.deps.config.pageSize,
  })) {
    for (const r of page) if (isReflection(r)) reflections.push(r);
  }
  const { saved, fresh, accumulated, newestId } = await sinceLastReflection(ctx.deps.store, ctx.scope, {
    pageSize: ctx.deps.config.pageSize,
    minImportance: cfg.minImportance,
  });
  const trigger = reflectionTrigger(
    { accumulatedImportance: accumulated, sessionEnd: ctx.trigger === 'session-end', onDemand: ctx.explicit },
    cfg,
  );
  if (trigger === null) {
    ctx.counters.skipped = `accumulated importance ${accumulated.toFixed(2)} since the last reflection is below the threshold ${cfg.importanceThreshold} (no session end, not asked for)`;
    return;
  }
  const stale = await staleStatements(ctx, fresh);
  const items = fresh.filter((r) => isVisible(r, {}, ctx.now) && !stale.has(r.id)).slice(-MAX_ITEMS);
  ctx.counters.examined += items.length;
  const insights: (Insight & { id?: string })[] = [];
  if (items.length >= cfg.minItems) insights.push(...(await synthesise(ctx, items, 1)));
  const reflected = { ...(saved?.reflected ?? {}) };
  for (const level of [2, 3] as const) {
    const done = new Set(reflected[String(level)] ?? []);
    const pool = [...reflections, ...insights.map(pseudoRecord)].filter((r) => r.data.level === level - 1 && !done.has(r.id));
    if (pool.length < cfg.minItems) continue;
    ctx.counters.examined += pool.length;
    const higher = await synthesise(ctx, pool, level);
    insights.push(...higher);
    reflected[String(level)] = [...done, ...pool.map((r) => r.id)].slice(-2000);
  }
  const vectors = insights.length > 0 ? await ctx.deps.embedder.embed(insights.map((i) => i.content)) : [];
  const created: { id: string; sources: string[] }[] = [];
  await ctx.batch(
    async (tx) => {
      for (const [i, insight] of insights.entries()) {
        const key = `reflect:${insightKey(insight.level, insight.sources)}`;
        if ((await lookupKey(tx, ctx.scope, key)) !== null) continue;
        const record = derivedRecord({
          scope: ctx.scope,
          layer: 'semantic',
          content: insight.content,
          now: ctx.now,
          importance: insight.importance,
          confidence: insight.method === 'llm' ? 0.7 : 0.6,
          provenance: { kind: 'reflection', sources: [], derivedFrom: provenanceOf(insight) },
          data: {
            name: `reflection L${insight.level}: ${insight.terms.slice(0, 3).join(', ')}`,
            category: 'reflection',
            level: insight.level,
            reflection: { trigger, method: insight.method, representatives: insight.representatives, terms: insight.terms },
          } satisfies FactData,
          tags: ['reflection'],
        });
        record.id = insight.id ?? record.id;
        await tx.insertMemories([{ record, embedding: vectors[i] as Float32Array }]);
        await storeKey(tx, ctx.scope, key, record.id, ctx.now);
        const present = new Set((await tx.getMemories(insight.sources, [ctx.scope])).map((r) => r.id));
        const edges: Edge[] = insight.sources
          .filter((s) => present.has(s))
          .map((s) => ({
            id: edgeId(ctx.now),
            scope: ctx.scope,
            fromId: record.id,
            type: 'DERIVED_FROM',
            toId: s,
            weight: 1,
            validFrom: ctx.now,
            validTo: null,
            recordedAt: ctx.now,
            invalidatedAt: null,
            metadata: { reflection: insight.level },
          }));
        if (edges.length > 0) await tx.insertEdges(edges);
        ctx.counters.created += 1;
        created.push({ id: record.id, sources: insight.sources });
        ctx.counters.details[`level-${insight.level} reflections`] = (ctx.counters.details[`level-${insight.level} reflections`] ?? 0) + 1;
        if (ctx.counters.ids.length < 50) ctx.counters.ids.push(record.id);
      }
      await tx.setState(
        ctx.scope,
        CURSOR_KEY,
        { lastId: newestId, reflected, at: ctx.now } satisfies ReflectCursor & { at: number },
        ctx.now,
      );
    },
    { done: true },
  );
  // personality growth: what this cycle reflected on shifts the scope's persona a little (seed 004)
  const shifts = await growPersonaFromReflections(ctx, created, new Map([...fresh, ...reflections].map((r) => [r.id, r])));
  if (shifts.length > 0) ctx.counters.details['persona shifts'] = shifts.length;
  if (items.length < cfg.minItems && insights.length === 0)
    ctx.counters.details[`important memories (need ${cfg.minItems})`] = items.length;
}

/** What a reflection's provenance lists (at most 50 ids): the quoted representatives first, then the rest. */
function provenanceOf(insight: Insight): string[] {
  const quoted = new Set(insight.representatives);
  return [...insight.representatives, ...insight.sources.filter((id) => !quoted.has(id))].slice(0, 50);
}

/**
 * The episodes among `records` that stated something since corrected: a claim captured from them
 * (tag `captured`, provenance `derivedFrom` the episode) is superseded or no longer valid. A reflection neither counts nor
 * quotes them.
 */
async function staleStatements(ctx: PhaseContext, records: readonly MemoryRecord[]): Promise<Set<string>> {
  const episodes = new Set(records.filter(isEpisode).map((r) => r.id));
  const stale = new Set<string>();
  if (episodes.size === 0) return stale;
  const corrected = (await ctx.deps.store.findDerived({ scope: ctx.scope, ids: [...episodes] })).filter(
    (claim) => claim.layer === 'semantic' && !isVisible(claim, {}, ctx.now) && claim.tags.includes(CAPTURED_TAG),
  );
  // a correction said in the same turn ("I live in Lisbon. Actually I moved to Porto.") leaves the turn true
  const successorIds = [...new Set(corrected.map((c) => c.data.supersededBy).filter((id): id is string => typeof id === 'string'))];
  const successors = new Map((await ctx.deps.store.getMemories(successorIds, [ctx.scope])).map((r) => [r.id, r]));
  for (const claim of corrected) {
    const by = typeof claim.data.supersededBy === 'string' ? successors.get(claim.data.supersededBy) : undefined;
    for (const id of claim.provenance.derivedFrom) if (episodes.has(id) && by?.provenance.derivedFrom.includes(id) !== true) stale.add(id);
  }
  return stale;
}

/** The unrelated reference sentences embedded once per embedder (their vectors never change). */
const referenceVectors = new WeakMap<object, Promise<Float32Array[]>>();

function referencesOf(embedder: PhaseContext['deps']['embedder']): Promise<Float32Array[]> {
  let vectors = referenceVectors.get(embedder);
  if (vectors === undefined) {
    vectors = embedder.embed(baselineReferences());
    // a failed embedding is tried again next time
    vectors.catch(() => referenceVectors.delete(embedder));
    referenceVectors.set(embedder, vectors);
  }
  return vectors;
}

async function synthesise(ctx: PhaseContext, records: readonly MemoryRecord[], level: 1 | 2 | 3): Promise<(Insight & { id?: string })[]> {
  const [vectors, references] = await Promise.all([
    ctx.deps.embedder.embed(records.map((r) => r.content)),
    referencesOf(ctx.deps.embedder),
  ]);
  const items: ReflectionItem[] = records.map((r, i) => ({
    id: r.id,
    content: r.content,
    embedding: vectors[i] as Float32Array,
    importance: r.importance ?? 1,
    at: r.occurredAt ?? r.validFrom,
  }));
  // the embedder's cosine for unrelated texts, measured on these items: the clustering threshold sits above it
  const baseline = similarityBaseline(items, references);
  const cfg = ctx.deps.config.reflection;
  const insights =
    ctx.deps.reflect !== undefined
      ? await assisted(ctx, items, level, baseline)
      : ctx.deps.llm
        ? await llmInsights(ctx.deps.llm, items, level, cfg, { baseline })
        : extractiveInsights(items, level, cfg, { baseline });
  // Level-1 insights get their ids now, so a level-2 reflection in the same run can point at them.
  return insights.map((insight) => ({
    ...insight,
    id: derivedRecord({
      scope: ctx.scope,
      layer: 'semantic',
      content: '',
      now: ctx.now,
      importance: 0,
      provenance: { kind: 'reflection', sources: [], derivedFrom: [] },
      data: {},
    }).id,
  }));
}

/** An in-run insight seen as a record, so a higher level can reflect on it in the same run. */
function pseudoRecord(insight: Insight & { id?: string }): MemoryRecord {
  const record = derivedRecord({
    scope: '',
    layer: 'semantic',
    content: insight.content,
    now: 0,
    importance: insight.importance,
    provenance: { kind: 'reflection', sources: [], derivedFrom: [] },
    data: { level: insight.level },
  });
  record.id = insight.id ?? record.id;
  return record;
}

/** One LLM insight per extractive cluster through the engine's LLM assist; extractive where it declines. */
async function assisted(ctx: PhaseContext, items: readonly ReflectionItem[], level: 1 | 2 | 3, baseline: number): Promise<Insight[]> {
  const byId = new Map(items.map((i) => [i.id, i]));
  const out: Insight[] = [];
  for (const insight of extractiveInsights(items, level, ctx.deps.config.reflection, { baseline })) {
    let written: readonly { content: string; derivedFrom: string[] }[] | null = null;
    try {
      const records = insight.sources.map((id) => ({
        id,
        content: byId.get(id)?.content ?? '',
        importance: byId.get(id)?.importance ?? null,
      }));
      written = await (ctx.deps.reflect as NonNullable<typeof ctx.deps.reflect>)({ scope: ctx.scope, level, records, maxInsights: 1 });
    } catch {
      written = null;
    }
    const first = written?.[0];
    out.push(
      first !== undefined && first.content.trim().length > 0 ? { ...insight, content: first.content.trim(), method: 'llm' } : insight,
    );
  }
  return out;
}
