/**
 * Phase 9: affect (seed 001). Re-appraises emotional memories (`data.affect`: the intensity a feeling
 * has now, flashbulbs marked so decay keeps them longer), raises a caution on a concept after repeated
 * negative outcomes (tag `caution` and `data.properties.caution` on the concept, plus a semantic record
 * tagged `caution` with DERIVED_FROM edges to the negative memories; lifted — validity closed — when the
 * evidence no longer holds), and writes a mood summary per period (a semantic record tagged `mood`).
 * The current cautions and the latest mood are also kept as state documents (`affect/cautions`,
 * `affect/mood/latest`) so the context of a turn reads them in one step.
 */
import type { FactData, MemoryRecord } from '../../core/memory.js';
import type { StoreTransaction } from '../../core/ports/store.js';
import {
  appraise,
  cautionVerdicts,
  moodSummaries,
  moodText,
  type CautionVerdict,
  type ConceptOutcomes,
  type Feeling,
  type MoodSummary,
} from '../affect.js';
import { isRecombinable, itemIndex } from '../item-index.js';
import { derivedRecord, linkDerivedFrom, lookupKey, scanRecords, storeKey, type PhaseContext } from '../phase-context.js';
import { addTally } from '../report.js';

/** State keys read by the context of a turn. */
export const CAUTIONS_KEY = 'affect/cautions';
export const MOOD_KEY = 'affect/mood/latest';

/** One current caution as the state document lists it. */
export interface CautionState {
  conceptId: string;
  concept: string;
  recordId: string;
  content: string;
  k: number;
  n: number;
  p: number;
  since: number;
  lastNegativeAt: number;
}

export async function affectPhase(ctx: PhaseContext): Promise<void> {
  addTally(ctx.counters, 'cautions', 0);
  if (ctx.cursor !== undefined) return;
  const cfg = ctx.deps.config.affect;
  const reappraise: { r: MemoryRecord; affect: NonNullable<MemoryRecord['data']['affect']> }[] = [];
  const feelings: Feeling[] = [];
  for await (const page of scanRecords(ctx.deps.store, {
    scope: ctx.scope,
    layers: ['episodic', 'semantic'],
    statuses: ['active', 'decayed'],
    pageSize: ctx.deps.config.pageSize,
  })) {
    for (const r of page) {
      if (r.emotion === null || r.emotion.intensity <= 0 || !isRecombinable(r)) continue;
      ctx.counters.examined += 1;
      // when it happened, not when it was stored (an import of old notes is not this week's mood)
      const at = r.occurredAt ?? r.validFrom;
      if (r.status === 'active')
        feelings.push({ id: r.id, at, valence: r.emotion.valence, intensity: r.emotion.intensity, moods: r.emotion.mood ?? [] });
      const next = appraise(r.emotion, ctx.now - at, cfg);
      const prev = r.data.affect;
      if (prev === undefined || prev.flashbulb !== next.flashbulb || Math.abs(prev.intensity - next.intensity) >= cfg.minChange)
        reappraise.push({ r, affect: { ...next, appraisedAt: ctx.now } });
    }
  }
  const index = await itemIndex(ctx);
  const scopeOutcomes = new Map<string, boolean>();
  for (const m of index.memories.values()) if (m.outcome !== null) scopeOutcomes.set(m.id, !m.outcome);
  const concepts: ConceptOutcomes[] = [...index.conceptIds].map(([name, conceptId]) => ({
    conceptId,
    name,
    outcomes: [...(index.memoriesOf.get(name) ?? [])]
      .filter((id) => scopeOutcomes.has(id))
      .map((id) => ({ id, at: index.memories.get(id)?.at ?? 0, negative: scopeOutcomes.get(id) === true })),
  }));
  ctx.counters.examined += concepts.length;
  const verdicts = cautionVerdicts(concepts, scopeOutcomes, cfg);
  const moods = moodSummaries(feelings, cfg);
  const previous = ((await ctx.deps.store.getState(ctx.scope, CAUTIONS_KEY))?.value as { items?: CautionState[] } | undefined)?.items ?? [];
  const cautionTexts = verdicts.raised.map(cautionText);
  const vectors = await ctx.deps.embedder.embed([...cautionTexts, ...moods.map(moodText)]);
  await ctx.batch(
    async (tx) => {
      for (const { r, affect } of reappraise) {
        await tx.updateMemory(r.id, ctx.scope, { data: { ...r.data, affect }, updatedAt: ctx.now });
        ctx.counters.updated += 1;
        ctx.counters.details[affect.flashbulb ? 'flashbulbs kept' : 'feelings re-appraised'] =
          (ctx.counters.details[affect.flashbulb ? 'flashbulbs kept' : 'feelings re-appraised'] ?? 0) + 1;
      }
      const current: CautionState[] = [];
      for (const [i, v] of verdicts.raised.entries())
        current.push(await upsertCaution(ctx, tx, v, cautionTexts[i] as string, vectors[i] as Float32Array, previous));
      const raisedIds = new Set(current.map((c) => c.conceptId));
      const cleared = new Set(verdicts.cleared);
      for (const old of previous) {
        if (raisedIds.has(old.conceptId)) continue;
        if (cleared.has(old.conceptId) || !index.conceptIds.has(old.concept)) await liftCaution(ctx, tx, old);
        else current.push(old); // not tested this time (too little evidence left to judge): kept
      }
      await tx.setState(ctx.scope, CAUTIONS_KEY, { at: ctx.now, items: current }, ctx.now);
      let latest: (MoodSummary & { recordId: string; content: string }) | null = null;
      for (const [j, m] of moods.entries()) {
        const recordId = await upsertMood(ctx, tx, m, vectors[cautionTexts.length + j] as Float32Array);
        latest = { ...m, recordId, content: moodText(m) };
      }
      if (latest !== null) await tx.setState(ctx.scope, MOOD_KEY, latest, ctx.now);
    },
    { done: true },
  );
}

function cautionText(v: CautionVerdict): string {
  return `Caution on ${v.name}: ${v.k} of ${v.n} outcomes were negative (failed or felt bad; base rate ${round(v.baseRate, 2)}, p ${v.p < 0.0001 ? v.p.toExponential(1) : round(v.p, 4)}), the last on ${new Date(v.lastNegativeAt).toISOString().slice(0, 10)}.`;
}

async function upsertCaution(
  ctx: PhaseContext,
  tx: StoreTransaction,
  v: CautionVerdict,
  content: string,
  vector: Float32Array,
  previous: readonly CautionState[],
): Promise<CautionState> {
  const key = `caution:${v.conceptId}`;
  const since = previous.find((c) => c.conceptId === v.conceptId)?.since ?? ctx.now;
  const caution = {
    conceptId: v.conceptId,
    concept: v.name,
    k: v.k,
    n: v.n,
    baseRate: v.baseRate,
    p: v.p,
    since,
    lastNegativeAt: v.lastNegativeAt,
  };
  const existingId = await lookupKey(tx, ctx.scope, key);
  const [existing] = existingId !== null ? await tx.getMemories([existingId], [ctx.scope]) : [];
  let recordId: string;
  if (existing !== undefined && (existing.status === 'active' || existing.status === 'decayed') && existing.validTo === null) {
    recordId = existing.id;
    // a caution that decayed unread is raised again by fresh evidence
    if (existing.content !== content || existing.status === 'decayed') {
      await tx.updateMemory(existing.id, ctx.scope, {
        content,
        status: 'active',
        confidence: round(1 - v.p, 4),
        data: { ...existing.data, definition: content, properties: { ...existing.data.properties, caution } },
        updatedAt: ctx.now,
      });
      await tx.updateEmbedding(existing.id, ctx.scope, vector);
      ctx.counters.updated += 1;
      ctx.counters.details['cautions updated'] = (ctx.counters.details['cautions updated'] ?? 0) + 1;
    }
  } else {
    const record = derivedRecord({
      scope: ctx.scope,
      layer: 'semantic',
      content,
      now: ctx.now,
      importance: 0.8,
      confidence: round(1 - v.p, 4),
      provenance: { kind: 'statistical', sources: [], derivedFrom: v.negatives.slice(0, 50) },
      data: { name: `caution: ${v.name}`, category: 'caution', definition: content, properties: { caution } } satisfies FactData,
      tags: ['caution'],
    });
    await tx.insertMemories([{ record, embedding: vector }]);
    await storeKey(tx, ctx.scope, key, record.id, ctx.now);
    recordId = record.id;
    ctx.counters.created += 1;
    addTally(ctx.counters, 'cautions');
    ctx.counters.details.cautions = (ctx.counters.details.cautions ?? 0) + 1;
    if (ctx.counters.ids.length < 50) ctx.counters.ids.push(record.id);
  }
  await markConcept(ctx, tx, v.conceptId, { ...caution, recordId });
  await linkDerivedFrom(ctx, tx, recordId, [...v.negatives.slice(0, 50), v.conceptId], { affect: 'caution' });
  return { conceptId: v.conceptId, concept: v.name, recordId, content, k: v.k, n: v.n, p: v.p, since, lastNegativeAt: v.lastNegativeAt };
}

/** The concept carries the caution as a tag and a property (removed again when it lifts). */
async function markConcept(
  ctx: PhaseContext,
  tx: StoreTransaction,
  conceptId: string,
  caution: Record<string, unknown> | null,
): Promise<void> {
  const [concept] = await tx.getMemories([conceptId], [ctx.scope]);
  if (concept === undefined) return;
  const { caution: before, ...properties } = concept.data.properties ?? {};
  if (caution === null && before === undefined) return;
  if (caution !== null && JSON.stringify(before) === JSON.stringify(caution)) return;
  const tags = caution !== null ? [...new Set([...concept.tags, 'caution'])] : concept.tags.filter((t) => t !== 'caution');
  await tx.updateMemory(conceptId, ctx.scope, {
    tags,
    data: { ...concept.data, properties: caution !== null ? { ...properties, caution } : properties },
    updatedAt: ctx.now,
  });
}

async function liftCaution(ctx: PhaseContext, tx: StoreTransaction, old: CautionState): Promise<void> {
  const [record] = await tx.getMemories([old.recordId], [ctx.scope]);
  if (record !== undefined && record.validTo === null) {
    await tx.updateMemory(record.id, ctx.scope, {
      validTo: ctx.now,
      data: { ...record.data, properties: { ...record.data.properties, liftedAt: ctx.now } },
      updatedAt: ctx.now,
    });
  }
  await markConcept(ctx, tx, old.conceptId, null);
  ctx.counters.updated += 1;
  ctx.counters.details['cautions lifted'] = (ctx.counters.details['cautions lifted'] ?? 0) + 1;
}

async function upsertMood(ctx: PhaseContext, tx: StoreTransaction, m: MoodSummary, vector: Float32Array): Promise<string> {
  const key = `mood:${m.period}`;
  const content = moodText(m);
  const { sources, ...mood } = m;
  const existingId = await lookupKey(tx, ctx.scope, key);
  const [existing] = existingId !== null ? await tx.getMemories([existingId], [ctx.scope]) : [];
  if (existing !== undefined && (existing.status === 'active' || existing.status === 'decayed')) {
    if (existing.content !== content) {
      await tx.updateMemory(existing.id, ctx.scope, {
        content,
        provenance: { ...existing.provenance, derivedFrom: sources },
        data: { ...existing.data, definition: content, properties: { mood } },
        updatedAt: ctx.now,
      });
      await tx.updateEmbedding(existing.id, ctx.scope, vector);
      ctx.counters.updated += 1;
      ctx.counters.details['moods updated'] = (ctx.counters.details['moods updated'] ?? 0) + 1;
    }
    return existing.id;
  }
  const record = derivedRecord({
    scope: ctx.scope,
    layer: 'semantic',
    content,
    now: ctx.now,
    importance: 0.4,
    provenance: { kind: 'statistical', sources: [], derivedFrom: sources },
    occurredAt: m.from,
    validFrom: m.from,
    data: { name: `mood ${m.period}`, category: 'mood', definition: content, properties: { mood } } satisfies FactData,
    tags: ['mood'],
  });
  await tx.insertMemories([{ record, embedding: vector }]);
  await storeKey(tx, ctx.scope, key, record.id, ctx.now);
  ctx.counters.created += 1;
  ctx.counters.details['mood summaries'] = (ctx.counters.details['mood summaries'] ?? 0) + 1;
  return record.id;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
