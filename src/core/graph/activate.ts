/**
 * `engram.activate`: validated options → spreading activation → public views (records as MemoryView,
 * grouped per layer, with paths).
 */
import { z } from 'zod';
import type { Layer, TimeFilter } from '../memory.js';
import { toMemoryView, type MemoryView } from '../memory-view.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import { instantSchema, parseInput, readScopeListSchema, scopeSchema } from '../schemas.js';
import { EngramError, messages } from '../errors.js';
import { spreadActivation, type ActivationConfig, type ActivationStep, type ActivationWave } from './activation.js';

/** `asOf` / `knownAt` as accepted at the interfaces (ISO string or epoch ms). */
export interface TimeFilterInput {
  asOf?: string | number;
  knownAt?: string | number;
  includeSuperseded?: boolean;
}

const timeFilterShape = {
  asOf: instantSchema.optional(),
  knownAt: instantSchema.optional(),
  includeSuperseded: z.boolean().optional(),
};

/** Options of `activate`. */
export const activateOptionsSchema = z
  .object({
    scopes: z.union([scopeSchema, readScopeListSchema], {
      error: (issue) => (issue.input === undefined ? messages.noScopes() : undefined),
    }),
    hops: z.number().int().min(1).max(6).optional(),
    decay: z.number().gt(0).max(1).optional(),
    threshold: z.number().min(0).max(1).optional(),
    /** At most this many records per layer (default 10). */
    limit: z.number().int().min(1).max(500).optional(),
    ...timeFilterShape,
  })
  .strict();
export type ActivateOptions = z.input<typeof activateOptionsSchema>;

/** One activated record as returned to callers. */
export interface ActivatedView {
  id: string;
  layer: Layer;
  activation: number;
  hops: number;
  path: ActivationStep[];
  memory: MemoryView;
}

export interface ActivationView {
  seeds: string[];
  /** Every wave of the spreading in order: the records each hop reached first, strongest first. */
  steps: ActivationWave[];
  /** Strongest first, across layers (at most 4 × limit). */
  ranked: ActivatedView[];
  layers: Record<Layer, ActivatedView[]>;
}

/** Parses the time filter of a read (ISO or ms) into epoch ms. */
export function parseTimeFilter(input: TimeFilterInput): TimeFilter {
  const parsed = parseInput(z.object(timeFilterShape).passthrough(), input ?? {}, 'time filter');
  return {
    ...(parsed.asOf !== undefined ? { asOf: parsed.asOf } : {}),
    ...(parsed.knownAt !== undefined ? { knownAt: parsed.knownAt } : {}),
    ...(parsed.includeSuperseded !== undefined ? { includeSuperseded: parsed.includeSuperseded } : {}),
  };
}

/** Runs activation from `ids` and shapes the result. */
export async function activateFrom(
  deps: { store: Store; clock: Clock },
  ids: string | readonly string[],
  options: ActivateOptions,
): Promise<ActivationView> {
  const parsed = parseInput(activateOptionsSchema, options, 'activate options');
  const scopes = typeof parsed.scopes === 'string' ? [parsed.scopes] : [...new Set(parsed.scopes)];
  const seeds = (typeof ids === 'string' ? [ids] : [...ids]).map(String);
  const present = await deps.store.getMemories(seeds, scopes);
  if (present.length === 0) {
    throw new EngramError('NOT_FOUND', messages.notFound(seeds.join(', ')), { details: { ids: seeds } });
  }
  const config: Partial<ActivationConfig> = {
    ...(parsed.hops !== undefined ? { maxHops: parsed.hops } : {}),
    ...(parsed.decay !== undefined ? { decay: parsed.decay } : {}),
    ...(parsed.threshold !== undefined ? { threshold: parsed.threshold } : {}),
  };
  const result = await spreadActivation(
    deps.store,
    {
      scopes,
      seeds: seeds.map((id) => ({ id })),
      now: deps.clock.now(),
      known: new Map(present.map((r) => [r.id, r])),
      ...(parsed.asOf !== undefined ? { asOf: parsed.asOf } : {}),
      ...(parsed.knownAt !== undefined ? { knownAt: parsed.knownAt } : {}),
      ...(parsed.includeSuperseded !== undefined ? { includeSuperseded: parsed.includeSuperseded } : {}),
    },
    config,
  );
  const limit = parsed.limit ?? 10;
  const view = (item: (typeof result.ranked)[number]): ActivatedView => ({
    id: item.record.id,
    layer: item.record.layer,
    activation: item.activation,
    hops: item.hops,
    path: item.path,
    memory: toMemoryView(item.record),
  });
  const layers = {
    episodic: result.byLayer.episodic.slice(0, limit).map(view),
    semantic: result.byLayer.semantic.slice(0, limit).map(view),
    procedural: result.byLayer.procedural.slice(0, limit).map(view),
    statistical: result.byLayer.statistical.slice(0, limit).map(view),
  };
  const kept = new Set(Object.values(layers).flatMap((list) => list.map((v) => v.id)));
  return { seeds: result.seeds, steps: result.steps, ranked: result.ranked.filter((r) => kept.has(r.record.id)).map(view), layers };
}
