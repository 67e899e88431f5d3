/**
 * Phase 6: recombination (seed 002's REM). Anchors come from the mixed sampler (recent, random old,
 * least salient), partners from the whole scope; a pair far apart (different sessions, weeks apart)
 * that shares rare items beyond chance (see `recombination.ts`) and is not already close by embedding
 * becomes a symmetric `BRIDGES` edge with metadata `{evidenceIds, shared}`, weighted by the IDF-weighted
 * overlap of the two. Bounded per run; an identity key per pair makes a second run add no duplicate.
 */
import type { Edge } from '../../core/memory.js';
import { itemIndex, type ItemIndex } from '../item-index.js';
import { edgeId, lookupKey, storeKey, type PhaseContext } from '../phase-context.js';
import { findBridges, type BridgeCandidate } from '../recombination.js';
import { addTally } from '../report.js';
import { mixedSample } from '../sampler.js';
import { seedFrom } from '../statistics.js';
import { cosineSimilarity } from '../../core/vectors.js';

/** The identity key of the bridge between two memories. */
export function bridgeKey(a: string, b: string): string {
  return a < b ? `bridge:${a}|${b}` : `bridge:${b}|${a}`;
}

/** At most this many memories of a bridge's group are kept on the edge. */
const MAX_GROUP_ON_EDGE = 20;
/** The groups recombination found (state document of the scope), read by the insight phase. */
export const GROUPS_KEY = 'consolidate/recombine/groups';
/** Groups kept in that document (the most significant). */
const MAX_GROUPS = 200;

/** A group of memories sharing items beyond chance, as the state document keeps it. */
export interface RecombinedGroup {
  items: string[];
  labels: string[];
  size: number;
  p: number;
  /** A pair of its far-apart members. */
  ends: string[];
}

export async function recombinePhase(ctx: PhaseContext): Promise<void> {
  addTally(ctx.counters, 'bridges', 0);
  // one batch per run: a checkpoint means this phase already committed
  if (ctx.cursor !== undefined) return;
  const cfg = ctx.deps.config.recombine;
  const index = await itemIndex(ctx);
  const nodes = [...index.memories.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (nodes.length < 2) return;
  const anchors = mixedSample(nodes, cfg.sample, seedFrom(`${ctx.scope}:${ctx.now}`)).items.map((n) => n.id);
  ctx.counters.examined += anchors.length;
  const { candidates, tests } = findBridges(index, anchors, cfg);
  const fresh: BridgeCandidate[] = [];
  for (const c of candidates) {
    if ((await lookupKey(ctx.deps.store, ctx.scope, bridgeKey(c.a, c.b))) !== null)
      ctx.counters.details['bridges already known'] = (ctx.counters.details['bridges already known'] ?? 0) + 1;
    else fresh.push(c);
  }
  const chosen = await farEnough(ctx, index, fresh.slice(0, cfg.maxBridges * 3));
  const perAnchor = new Map<string, number>();
  const accepted: (BridgeCandidate & { similarity: number })[] = [];
  for (const c of chosen) {
    if (accepted.length >= cfg.maxBridges) break;
    if ((perAnchor.get(c.a) ?? 0) >= cfg.maxPartners || (perAnchor.get(c.b) ?? 0) >= cfg.maxPartners) continue;
    perAnchor.set(c.a, (perAnchor.get(c.a) ?? 0) + 1);
    perAnchor.set(c.b, (perAnchor.get(c.b) ?? 0) + 1);
    accepted.push(c);
  }
  const groups = await mergedGroups(ctx, candidates);
  await ctx.batch(
    async (tx) => {
      await tx.setState(ctx.scope, GROUPS_KEY, { at: ctx.now, groups }, ctx.now);
      for (const c of accepted) {
        const key = bridgeKey(c.a, c.b);
        if ((await lookupKey(tx, ctx.scope, key)) !== null) continue;
        const edge: Edge = {
          id: edgeId(ctx.now),
          scope: ctx.scope,
          fromId: c.a,
          type: 'BRIDGES',
          toId: c.b,
          weight: c.weight,
          validFrom: ctx.now,
          validTo: null,
          recordedAt: ctx.now,
          invalidatedAt: null,
          metadata: {
            evidenceIds: [c.a, c.b],
            shared: c.shared,
            items: c.items,
            group: c.group.slice(0, MAX_GROUP_ON_EDGE),
            groupSize: c.group.length,
            gapDays: c.gapDays,
            similarity: round(c.similarity),
            expected: c.expected,
            p: c.p,
            tests,
          },
        };
        await tx.insertEdges([edge]);
        await storeKey(tx, ctx.scope, key, edge.id, ctx.now);
        ctx.counters.created += 1;
        addTally(ctx.counters, 'bridges');
        ctx.counters.details.bridges = (ctx.counters.details.bridges ?? 0) + 1;
        if (ctx.counters.ids.length < 50) ctx.counters.ids.push(edge.id);
      }
    },
    { done: true },
  );
}

/**
 * Every significant group of this run (far-apart pairs sharing items beyond chance, similar or not)
 * merged with those found before, by their items: insight tests them all, bridged or not.
 */
async function mergedGroups(ctx: PhaseContext, candidates: readonly BridgeCandidate[]): Promise<RecombinedGroup[]> {
  const before =
    ((await ctx.deps.store.getState(ctx.scope, GROUPS_KEY))?.value as { groups?: RecombinedGroup[] } | undefined)?.groups ?? [];
  const byItems = new Map(before.map((g) => [g.items.join('+'), g]));
  for (const c of candidates)
    byItems.set(c.items.join('+'), { items: c.items, labels: c.shared, size: c.group.length, p: c.p, ends: [c.a, c.b] });
  return [...byItems.values()].sort((a, b) => a.p - b.p || (a.items.join('+') < b.items.join('+') ? -1 : 1)).slice(0, MAX_GROUPS);
}

/** Drops pairs already close by embedding (recall finds those without a bridge); adds the similarity. */
async function farEnough(
  ctx: PhaseContext,
  index: ItemIndex,
  candidates: readonly BridgeCandidate[],
): Promise<(BridgeCandidate & { similarity: number })[]> {
  if (candidates.length === 0) return [];
  const ids = [...new Set(candidates.flatMap((c) => [c.a, c.b]))];
  const vectors = await ctx.deps.embedder.embed(ids.map((id) => index.memories.get(id)?.content ?? ''));
  const vectorOf = new Map(ids.map((id, i) => [id, vectors[i] as Float32Array]));
  const out: (BridgeCandidate & { similarity: number })[] = [];
  for (const c of candidates) {
    const similarity = cosineSimilarity(vectorOf.get(c.a) as Float32Array, vectorOf.get(c.b) as Float32Array);
    if (similarity >= ctx.deps.config.recombine.maxSimilarity) {
      ctx.counters.details['pairs already similar'] = (ctx.counters.details['pairs already similar'] ?? 0) + 1;
      continue;
    }
    out.push({ ...c, similarity });
  }
  return out;
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
