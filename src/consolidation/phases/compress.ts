/**
 * Phase 8: compression of old, low-importance episodes (§5.8; seed 000). The compressed
 * form (summary plus the cycle's key fields) is a new episodic record carrying the id chain
 * (`compressedFrom`, a DERIVED_FROM edge); the original is retired (`expired`, `compressedInto`) and
 * every concept ref to it moves to the compressed record, so recall and concepts still find it.
 */
import type { MemoryRecord } from '../../core/memory.js';
import { compressEpisode, shouldCompress } from '../compression.js';
import { derivedRecord, edgeId, scanRecords, type PhaseContext } from '../phase-context.js';

export async function compressPhase(ctx: PhaseContext): Promise<void> {
  const cfg = ctx.deps.config.compression;
  const startAfter = typeof ctx.cursor === 'string' ? ctx.cursor : undefined;
  for await (const page of scanRecords(ctx.deps.store, {
    scope: ctx.scope,
    layers: ['episodic'],
    statuses: ['active'],
    ...(startAfter !== undefined ? { afterId: startAfter } : {}),
    pageSize: ctx.deps.config.pageSize,
  })) {
    const due = page.filter((r) => shouldCompress(r, ctx.now, cfg));
    const last = (page[page.length - 1] as MemoryRecord).id;
    const size = Math.max(1, ctx.deps.config.batchSize);
    // the page is counted up to each batch's cursor, in that batch, so a resumed run counts the rest once
    let counted = 0;
    const countThrough = (cursor: string): void => {
      const through = page.filter((r) => r.id <= cursor).length;
      ctx.counters.examined += through - counted;
      counted = through;
    };
    if (due.length === 0) {
      await ctx.batch(async () => countThrough(last), last);
      continue;
    }
    for (let i = 0; i < due.length; i += size) {
      const slice = due.slice(i, i + size);
      const forms = slice.map((r) => compressEpisode(r, cfg));
      const vectors = await ctx.deps.embedder.embed(forms.map((f) => f.content));
      const cursor = i + size >= due.length ? last : (slice[slice.length - 1] as MemoryRecord).id;
      await ctx.batch(async (tx) => {
        countThrough(cursor);
        const current = new Map(
          (
            await tx.getMemories(
              slice.map((r) => r.id),
              [ctx.scope],
            )
          ).map((r) => [r.id, r]),
        );
        for (const [j, original] of slice.entries()) {
          const now = current.get(original.id);
          if (now === undefined || now.status !== 'active' || now.data.compressedInto !== undefined) continue;
          const form = forms[j] as ReturnType<typeof compressEpisode>;
          const record = derivedRecord({
            scope: ctx.scope,
            layer: 'episodic',
            content: form.content,
            summary: form.summary,
            now: ctx.now,
            importance: now.importance ?? 0,
            confidence: 0.3,
            provenance: { ...now.provenance, derivedFrom: [now.id] },
            data: form.data,
            occurredAt: now.occurredAt,
            validFrom: now.validFrom,
            tags: now.tags,
          });
          record.entities = now.entities;
          record.lastAccessedAt = now.lastAccessedAt;
          record.emotion = now.emotion;
          await tx.insertMemories([{ record, embedding: vectors[j] as Float32Array }]);
          await tx.updateMemory(now.id, ctx.scope, {
            status: 'expired',
            data: { ...now.data, compressedInto: record.id },
            updatedAt: ctx.now,
          });
          const moved = await tx.moveConceptRefs(now.id, record.id, ctx.scope);
          await tx.insertEdges([
            {
              id: edgeId(ctx.now),
              scope: ctx.scope,
              fromId: record.id,
              type: 'DERIVED_FROM',
              toId: now.id,
              weight: 1,
              validFrom: ctx.now,
              validTo: null,
              recordedAt: ctx.now,
              invalidatedAt: null,
              metadata: { compression: true },
            },
          ]);
          ctx.counters.created += 1;
          ctx.counters.updated += 1;
          ctx.counters.details.compressed = (ctx.counters.details.compressed ?? 0) + 1;
          ctx.counters.details['refs moved'] = (ctx.counters.details['refs moved'] ?? 0) + moved;
          if (ctx.counters.ids.length < 50) ctx.counters.ids.push(record.id);
        }
      }, cursor);
    }
  }
}
