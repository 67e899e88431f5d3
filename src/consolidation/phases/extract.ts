/**
 * Phase 3: concept extraction catch-up. `remember` queues one extraction job per write
 * (in the same transaction), so catching up is draining the scope's queue with the layers module's
 * worker: goal, tool and intent tokens, objects, people and entities become concepts with refs to
 * their episodes. Re-extracting everything instead would churn the capped ref sets (200 per layer).
 */
import { drainConceptJobs } from '../../core/concepts/index.js';
import type { PhaseContext } from '../phase-context.js';

export async function extractPhase(ctx: PhaseContext): Promise<void> {
  const { store, embedder, clock, wallClock, stopwatch, random } = ctx.deps;
  // Jobs claimed by a cycle that dies stay claimed until their lease runs out; with the cycle's own lease
  // they are free again exactly when the next cycle may start, so a resumed cycle drains them too.
  const drained = await drainConceptJobs(
    { store, embedder, clock, wallClock, stopwatch, random },
    { scopes: [ctx.scope], leaseMs: ctx.deps.config.lockTtlMs },
  );
  ctx.counters.examined += drained.examined;
  ctx.counters.created += drained.conceptsCreated;
  ctx.counters.updated += drained.refsAdded;
  ctx.counters.details['queued jobs done'] = drained.jobs;
  ctx.counters.details['concepts created'] = drained.conceptsCreated;
  ctx.counters.details['refs added'] = drained.refsAdded;
  ctx.counters.details['jobs failed'] = drained.failed;
  // nothing to checkpoint: completed jobs leave the queue, so a resumed run simply drains the rest
  await ctx.batch(async () => {}, { drained: true });
}
