/**
 * Phase 3: concept extraction catch-up (DESIGN §5.3). Drains the scope's queued extraction jobs with
 * the layers module's worker, then sweeps episodes written since the phase's cursor through the same
 * extractor (idempotent), so episodes that never got a job are covered too.
 */
import { drainConceptJobs, extractConcepts, isConcept } from '../../concepts/index.js';
import type { MemoryRecord } from '../../memory.js';
import { scanRecords, type PhaseContext } from '../phase-context.js';

const CURSOR_KEY = 'consolidate/extract/cursor';

export async function extractPhase(ctx: PhaseContext): Promise<void> {
  const { store, embedder, clock } = ctx.deps;
  const deps = { store, embedder, clock };
  const drained = await drainConceptJobs(deps, { scopes: [ctx.scope] });
  ctx.counters.details['queued jobs done'] = drained.jobs;
  ctx.counters.created += drained.conceptsCreated;
  ctx.counters.updated += drained.refsAdded;
  const saved = await store.getState(ctx.scope, CURSOR_KEY);
  const from = typeof ctx.cursor === 'string' ? ctx.cursor : typeof saved?.value === 'string' ? saved.value : undefined;
  for await (const page of scanRecords(store, { scope: ctx.scope, layers: ['episodic'], statuses: ['active'], ...(from !== undefined ? { afterId: from } : {}), pageSize: ctx.deps.config.batchSize })) {
    const records = page.filter((r: MemoryRecord) => !isConcept(r));
    const result = await extractConcepts(deps, records);
    ctx.counters.examined += result.examined;
    ctx.counters.created += result.conceptsCreated;
    ctx.counters.updated += result.refsAdded;
    ctx.counters.details['concepts created'] = (ctx.counters.details['concepts created'] ?? 0) + result.conceptsCreated;
    ctx.counters.details['refs added'] = (ctx.counters.details['refs added'] ?? 0) + result.refsAdded;
    const last = (page[page.length - 1] as MemoryRecord).id;
    await ctx.batch(async (tx) => tx.setState(ctx.scope, CURSOR_KEY, last, ctx.now), last);
  }
}
