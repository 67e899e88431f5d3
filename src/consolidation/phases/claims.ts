/**
 * Phases 1-2: dedup / merge and the supersession sweep. Claims only
 * (semantic and procedural): episodes are events and are never merged. A mixed sample of the scope's
 * current claims (recent + random old + low salience) is re-checked against the scope with the write
 * path's own detector (`decideClaim`), so corrections that arrived in other sessions are found.
 */
import type { MemoryRecord } from '../../core/memory.js';
import { isVisible } from '../../core/memory.js';
import { embeddingText } from '../../core/write/remember.js';
import { applyMerge, applySupersession, decideClaim, orderSupersessions } from '../../core/write/resolve-claim.js';
import { mixedSample } from '../sampler.js';
import { seedFrom } from '../statistics.js';
import { scanRecords, type PhaseContext } from '../phase-context.js';
import { isChunkParent, isConcept, isCycleKnowledge } from '../../core/record-kinds.js';
import { noteChanged } from '../report.js';

/** The sample of current claims both phases look at (deterministic per scope and run instant). */
async function sampleClaims(ctx: PhaseContext): Promise<MemoryRecord[]> {
  const all: MemoryRecord[] = [];
  for await (const page of scanRecords(ctx.deps.store, {
    scope: ctx.scope,
    layers: ['semantic', 'procedural'],
    statuses: ['active'],
    pageSize: ctx.deps.config.pageSize,
  })) {
    for (const r of page) if (isVisible(r, {}, ctx.now) && !isChunkParent(r) && !isCycleKnowledge(r) && !isConcept(r)) all.push(r);
  }
  return mixedSample(all, ctx.deps.config.sample, seedFrom(`${ctx.scope}:${ctx.now}`)).items;
}

/** Runs the write path's detector for sampled claims; `mode` picks which decisions this phase applies. */
async function sweep(ctx: PhaseContext, mode: 'dedup' | 'supersede'): Promise<void> {
  const sample = await sampleClaims(ctx);
  const startAfter = typeof ctx.cursor === 'string' ? ctx.cursor : '';
  // claims before the cursor were counted by the run that checkpointed it (its counters resume here)
  const todo = sample.filter((r) => r.id > startAfter);
  const { embedder } = ctx.deps;
  const size = Math.max(1, Math.min(ctx.deps.config.batchSize, 50));
  for (let i = 0; i < todo.length; i += size) {
    const slice = todo.slice(i, i + size);
    const cached = ctx.shared.get('claim-decisions') as Map<string, unknown> | undefined;
    const vectors =
      mode === 'supersede' && cached !== undefined && slice.every((r) => cached.has(r.id))
        ? []
        : await embedder.embed(slice.map(embeddingText));
    const last = (slice[slice.length - 1] as MemoryRecord).id;
    await ctx.batch(async (tx) => {
      for (const [j, stale] of slice.entries()) {
        ctx.counters.examined += 1;
        const [record] = await tx.getMemories([stale.id], [ctx.scope]);
        if (record === undefined || !isVisible(record, {}, ctx.now)) continue;
        // dedup and supersede share one detector run per claim and cycle
        const cache = (ctx.shared.get('claim-decisions') ?? new Map()) as Map<string, Awaited<ReturnType<typeof decideClaim>>>;
        ctx.shared.set('claim-decisions', cache);
        const decision = cache.get(record.id) ?? (await decideClaim(tx, record, vectors[j] as Float32Array, ctx.now));
        if (mode === 'dedup') cache.set(record.id, decision);
        if (mode === 'supersede') {
          // Only a newer claim supersedes an older one.
          const older = orderSupersessions(record, decision.superseded).supersede.filter((s) => s.record.id < record.id);
          for (const { record: old, comparison } of older) {
            const [still] = await tx.getMemories([old.id], [ctx.scope]);
            if (still === undefined || !isVisible(still, {}, ctx.now)) continue;
            await applySupersession(tx, record, old, comparison, ctx.now, ctx.deps.embedder);
            ctx.counters.updated += 1;
            ctx.counters.details.superseded = (ctx.counters.details.superseded ?? 0) + 1;
            noteChanged(ctx.counters, 'superseded', old.id);
          }
        } else if (decision.superseded.length === 0 && decision.mergeInto !== undefined && decision.mergeInto.record.id < record.id) {
          const target = decision.mergeInto.record;
          await applyMerge(tx, record, target, ctx.now);
          await tx.updateMemory(record.id, ctx.scope, {
            status: 'deleted',
            data: { ...record.data, mergedInto: target.id },
            updatedAt: ctx.now,
          });
          ctx.counters.updated += 2;
          ctx.counters.details.merged = (ctx.counters.details.merged ?? 0) + 1;
          noteChanged(ctx.counters, 'merged', record.id);
        }
      }
    }, last);
  }
}

/** Phase 1: merges near-duplicate claims that slipped past the write path into the older one. */
export function dedupPhase(ctx: PhaseContext): Promise<void> {
  return sweep(ctx, 'dedup');
}

/** Phase 2: supersedes older claims that a newer claim of another session corrects. */
export function supersedePhase(ctx: PhaseContext): Promise<void> {
  return sweep(ctx, 'supersede');
}
