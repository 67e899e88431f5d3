/**
 * Surfacing, seed 001's `memory_surface`: the memories most worth having in mind now, without a
 * query — ranked by importance and activation (how recently and how often they were used), and by
 * relevance to an optional context text. Each hit says why. Surfacing reads only current memories of
 * the given scopes and does not count as an access (what is surfaced would otherwise surface itself).
 */
import { z } from 'zod';
import { isVisible, type MemoryRecord } from '../memory.js';
import { toMemoryView, type MemoryView } from '../memory-view.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Store } from '../ports/store.js';
import { recall } from '../recall/recall.js';
import type { RecallConfig } from '../recall/recall-config.js';
import { readScopeListSchema } from '../schemas.js';
import { canBeHit } from '../recall/hit-candidates.js';

export const surfaceInputSchema = z
  .object({
    scopes: readScopeListSchema,
    /** Text the surfaced memories should relate to (a message, a task); optional. */
    context: z.string().max(10_000, 'is longer than 10000 characters').optional(),
    limit: z.number().int().min(1).max(100).optional(),
  })
  .strict();
export type SurfaceInput = z.input<typeof surfaceInputSchema>;

/** Why a memory surfaced: the terms of its score, each 0..1. */
export interface SurfaceWhy {
  importance: number;
  /** Recency of the last use (half-life of recall's recency) times how often it was used (1 − 0.5^accessCount). */
  activation: number;
  /** Relevance to `context` as recall measures it; null without a context. */
  relevance: number | null;
  score: number;
}

export interface SurfaceHit extends MemoryView {
  score: number;
  why: SurfaceWhy;
}

export const DEFAULT_SURFACE_LIMIT = 10;
/** Score weights without and with a context. */
const WEIGHTS = {
  plain: { importance: 0.7, activation: 0.3, relevance: 0 },
  context: { importance: 0.35, activation: 0.15, relevance: 0.5 },
};
const DAY = 86_400_000;

export interface SurfaceDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  config: RecallConfig;
}

/** The top `limit` memories of the scopes by importance, activation and (given a context) relevance. */
export async function surface(deps: SurfaceDeps, input: z.output<typeof surfaceInputSchema>): Promise<{ hits: SurfaceHit[] }> {
  const { store, clock, config } = deps;
  const now = clock.now();
  const limit = input.limit ?? DEFAULT_SURFACE_LIMIT;
  const pool = Math.max(50, limit * 5);
  const context = input.context?.trim() ?? '';
  const browse = (sort: 'importance' | 'accessedAt') =>
    // a superseded claim whose correction only takes effect later is still current: visibility decides
    store.browseMemories({
      scopes: input.scopes,
      statuses: ['active', 'superseded'],
      sort,
      order: 'desc',
      limit: pool,
      visibleAt: { now },
    });
  const [byImportance, byUse, related] = await Promise.all([
    browse('importance'),
    browse('accessedAt'),
    context.length > 0 ? recall(deps, context, { scopes: [...input.scopes], k: pool, trackAccess: false }) : Promise.resolve({ hits: [] }),
  ]);
  const relevance = new Map(related.hits.map((h) => [h.id, h.relevance]));
  const candidates = new Map<string, MemoryRecord>();
  for (const record of [...byImportance, ...byUse]) if (canBeHit(record)) candidates.set(record.id, record);
  const missing = related.hits.map((h) => h.id).filter((id) => !candidates.has(id));
  for (const record of await store.getMemories(missing, input.scopes))
    if (canBeHit(record) && isVisible(record, {}, now)) candidates.set(record.id, record);

  const weights = context.length > 0 ? WEIGHTS.context : WEIGHTS.plain;
  const halfLife = Math.max(1, config.recencyHalfLifeDays) * DAY;
  const scored = [...candidates.values()].map((record) => {
    const importance = record.importance ?? 1;
    const recency = Math.pow(0.5, Math.max(0, now - (record.lastAccessedAt ?? record.recordedAt)) / halfLife);
    const activation = recency * (1 - Math.pow(0.5, record.accessCount));
    const rel = context.length > 0 ? (relevance.get(record.id) ?? 0) : null;
    const score = weights.importance * importance + weights.activation * activation + weights.relevance * (rel ?? 0);
    return {
      record,
      why: {
        importance: round(importance),
        activation: round(activation),
        relevance: rel === null ? null : round(rel),
        score: round(score),
      },
    };
  });
  scored.sort((a, b) => b.why.score - a.why.score || (a.record.id < b.record.id ? 1 : -1));
  return { hits: scored.slice(0, limit).map(({ record, why }) => ({ ...toMemoryView(record), score: why.score, why })) };
}

function round(value: number): number {
  return Number(value.toFixed(4));
}
