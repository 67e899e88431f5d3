/**
 * Phase 7: decay and expiry. Active records idle past their tier's threshold
 * (by last access) become `decayed` and leave default reads; `restore` brings them back and exempts
 * them for good. Decayed records idle past the grace period expire: status `expired`, their concept
 * refs removed and their edges closed. Episodic and semantic records only: procedural rules are always
 * in context, and statistical records and concepts are maintained by grounding. A record of a decision
 * chain decays on the tier of the chain's most important member.
 */
import type { MemoryRecord } from '../../core/memory.js';
import { decayVerdicts } from '../decay-policy.js';
import { scanRecords, type PhaseContext } from '../phase-context.js';
import { isChunkParent, isEpisode, isFact } from '../../core/record-kinds.js';
import { noteChanged } from '../report.js';

/** Which records the decay phase judges. */
export function decays(r: MemoryRecord): boolean {
  return (isEpisode(r) || isFact(r)) && !isChunkParent(r);
}

export async function decayPhase(ctx: PhaseContext): Promise<void> {
  const startAfter = typeof ctx.cursor === 'string' ? ctx.cursor : undefined;
  for await (const page of scanRecords(ctx.deps.store, {
    scope: ctx.scope,
    layers: ['episodic', 'semantic'],
    statuses: ['active', 'decayed'],
    ...(startAfter !== undefined ? { afterId: startAfter } : {}),
    pageSize: ctx.deps.config.pageSize,
  })) {
    const due = await decayVerdicts(ctx.deps.store, ctx.scope, page.filter(decays), ctx.now, ctx.deps.config.decay);
    ctx.counters.examined += page.filter(decays).length;
    const last = (page[page.length - 1] as MemoryRecord).id;
    await ctx.batch(async (tx) => {
      for (const { r, verdict } of due) {
        if (verdict.action === 'decay') {
          await tx.updateMemory(r.id, ctx.scope, { status: 'decayed', data: { ...r.data, decayedAt: ctx.now }, updatedAt: ctx.now });
          ctx.counters.updated += 1;
          ctx.counters.details.decayed = (ctx.counters.details.decayed ?? 0) + 1;
          noteChanged(ctx.counters, 'decayed', r.id);
        } else if (verdict.action === 'expire') {
          await tx.updateMemory(r.id, ctx.scope, { status: 'expired', data: { ...r.data, expiredAt: ctx.now }, updatedAt: ctx.now });
          const refs = await tx.removeConceptRefs([r.id], ctx.scope);
          const edges = (await tx.getEdges({ scopes: [ctx.scope], ids: [r.id] })).filter((e) => e.invalidatedAt === null);
          const closed =
            edges.length > 0
              ? await tx.invalidateEdges(
                  edges.map((e) => e.id),
                  ctx.scope,
                  ctx.now,
                )
              : 0;
          ctx.counters.updated += 1;
          ctx.counters.details.expired = (ctx.counters.details.expired ?? 0) + 1;
          noteChanged(ctx.counters, 'expired', r.id);
          ctx.counters.details['refs removed'] = (ctx.counters.details['refs removed'] ?? 0) + refs;
          ctx.counters.details['edges closed'] = (ctx.counters.details['edges closed'] ?? 0) + closed;
        }
      }
    }, last);
  }
}
