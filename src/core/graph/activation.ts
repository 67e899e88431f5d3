/**
 * Cross-layer spreading activation (seed 000): from seed records, energy spreads over typed
 * edges and concept refs, across layers, wave by wave. Each hop multiplies by `decay` and the link
 * weight and divides by the sender's fan-out (degree^fanOutPower); energy below `threshold` stops; at
 * most `maxHops` waves. Every read names its scopes, so activation never leaves them (§11.5), and the
 * read's time filter applies to edges and records alike.
 */
import { isVisible, type Layer, type MemoryRecord, type TimeFilter } from '../memory.js';
import type { StoreReader } from '../ports/store.js';
import { readBeliefs } from '../read-beliefs.js';
import type { Scope } from '../scope.js';
import { isEdgeVisible } from './edge-visibility.js';
import { symmetryOf } from '../relations.js';

export interface ActivationConfig {
  /** Multiplier per hop (0..1). */
  decay: number;
  /** Energy below this is neither kept nor spread. */
  threshold: number;
  maxHops: number;
  /** Each link of a node with d links carries energy / d^fanOutPower (1 = split evenly, 0 = none). */
  fanOutPower: number;
  /** A directed edge walked against its direction carries this share (symmetric edges carry all). */
  reverseFactor: number;
  /** Weight of a concept ref link (concept ↔ the record it refers to). */
  refWeight: number;
  /** Edge types never walked (versions of a claim are not related knowledge). */
  excludeTypes: readonly string[];
  /** At most this many links followed per node (strongest, then newest refs first). */
  maxFanOut: number;
  /** Stop once this many records are active. */
  maxNodes: number;
}

export const DEFAULT_ACTIVATION_CONFIG: ActivationConfig = Object.freeze({
  decay: 0.5,
  threshold: 0.01,
  maxHops: 3,
  fanOutPower: 0.5,
  reverseFactor: 0.5,
  refWeight: 1,
  excludeTypes: ['SUPERSEDES'],
  maxFanOut: 50,
  maxNodes: 2_000,
});

/** One step of a path: how activation went from `from` to `to`. */
export interface ActivationStep {
  from: string;
  to: string;
  /** `edge`: a typed edge (`type`, `edgeId`); `ref`: a concept's ref to a record of `layer`, or back. */
  via: 'edge' | 'ref';
  type: string;
  edgeId?: string;
  /** `out` along the edge, `in` against it, `both` for symmetric types; for refs `concept→ref` / `ref→concept`. */
  direction: 'out' | 'in' | 'both' | 'concept→ref' | 'ref→concept';
  weight: number;
  /** Energy this step delivered. */
  energy: number;
  /** For a `BRIDGES` edge: the concepts, entities or causal link the two memories share (why they connect). */
  shared?: string[];
}

export interface ActivatedRecord {
  record: MemoryRecord;
  activation: number;
  /** The wave that first reached it (1 = a direct neighbour of a seed). */
  hops: number;
  /** The strongest path that reached it, seed first. */
  path: ActivationStep[];
}

/** One wave of spreading: the records it reached first, strongest first. */
export interface ActivationWave {
  hop: number;
  activated: { id: string; activation: number }[];
}

export interface ActivationResult {
  seeds: string[];
  /** The waves in order, so a reader can replay the spreading. */
  steps: ActivationWave[];
  /** Every activated record (seeds excluded), strongest first. */
  ranked: ActivatedRecord[];
  byLayer: Record<Layer, ActivatedRecord[]>;
}

export interface ActivationQuery extends TimeFilter {
  scopes: readonly Scope[];
  /** Seed ids with their starting energy (default 1). */
  seeds: ReadonlyArray<{ id: string; energy?: number }>;
  now: number;
  /** Seed records already read (saves a read); others are fetched. */
  known?: ReadonlyMap<string, MemoryRecord>;
}

interface Link {
  to: string;
  weight: number;
  step: Omit<ActivationStep, 'from' | 'to' | 'energy' | 'weight'>;
  /** For ordering refs: newer first. */
  order: number;
}

/** Spreads activation from the seeds; see the module comment for the rules. */
export async function spreadActivation(
  store: StoreReader,
  query: ActivationQuery,
  config: Partial<ActivationConfig> = {},
): Promise<ActivationResult> {
  const c: ActivationConfig = { ...DEFAULT_ACTIVATION_CONFIG, ...config };
  const { scopes, now } = query;
  const filter: TimeFilter = {
    ...(query.asOf !== undefined ? { asOf: query.asOf } : {}),
    ...(query.knownAt !== undefined ? { knownAt: query.knownAt } : {}),
    ...(query.includeSuperseded ? { includeSuperseded: true } : {}),
  };
  const records = new Map<string, MemoryRecord>(query.known ?? []);
  const seedIds = [...new Set(query.seeds.map((s) => s.id))];
  const missingSeeds = seedIds.filter((id) => !records.has(id));
  for (const r of missingSeeds.length > 0 ? await store.getMemories(missingSeeds, scopes) : []) records.set(r.id, r);
  // under a knownAt, each record is judged by what was believed of it then
  const beliefs = new Map(await readBeliefs(store, seedIds, scopes, filter));
  const excluded = new Set(c.excludeTypes);
  const symmetric = symmetryOf(await store.getRelationTypes(scopes));

  const seen = new Set<string>();
  let frontier = new Map<string, { energy: number; path: ActivationStep[] }>();
  for (const seed of query.seeds) {
    const record = records.get(seed.id);
    if (record === undefined || !scopes.includes(record.scope) || !isVisible(record, filter, now, beliefs.get(seed.id))) continue;
    seen.add(seed.id);
    const prev = frontier.get(seed.id);
    frontier.set(seed.id, { energy: (prev?.energy ?? 0) + (seed.energy ?? 1), path: [] });
  }
  const seeds = [...frontier.keys()];
  const active = new Map<string, ActivatedRecord>();
  const steps: ActivationWave[] = [];

  for (let hop = 1; hop <= c.maxHops && frontier.size > 0 && active.size < c.maxNodes; hop++) {
    const links = await linksOf(store, scopes, [...frontier.keys()], { filter, now, excluded, symmetric, config: c });
    const reached = new Map<string, { energy: number; best: number; path: ActivationStep[] }>();
    for (const [id, { energy, path }] of frontier) {
      const out = (links.get(id) ?? [])
        .sort((a, b) => b.weight - a.weight || b.order - a.order || (a.to < b.to ? -1 : 1))
        .slice(0, c.maxFanOut);
      const norm = Math.max(1, out.length) ** c.fanOutPower;
      for (const link of out) {
        if (seen.has(link.to)) continue;
        const delivered = (energy * c.decay * link.weight) / norm;
        if (delivered < c.threshold) continue;
        const entry = reached.get(link.to) ?? { energy: 0, best: -1, path: [] };
        entry.energy += delivered;
        if (delivered > entry.best) {
          entry.best = delivered;
          entry.path = [...path, { from: id, to: link.to, ...link.step, weight: link.weight, energy: round(delivered) }];
        }
        reached.set(link.to, entry);
      }
    }
    const unknown = [...reached.keys()].filter((id) => !records.has(id));
    for (const r of unknown.length > 0 ? await store.getMemories(unknown, scopes) : []) records.set(r.id, r);
    for (const [id, held] of await readBeliefs(store, [...reached.keys()], scopes, filter)) beliefs.set(id, held);
    const next = new Map<string, { energy: number; path: ActivationStep[] }>();
    for (const [id, entry] of [...reached].sort((a, b) => b[1].energy - a[1].energy || (a[0] < b[0] ? -1 : 1))) {
      const record = records.get(id);
      if (record === undefined || !isVisible(record, filter, now, beliefs.get(id)) || active.size >= c.maxNodes) continue;
      seen.add(id);
      active.set(id, { record, activation: round(entry.energy), hops: hop, path: entry.path });
      next.set(id, { energy: entry.energy, path: entry.path });
    }
    if (next.size > 0)
      steps.push({ hop, activated: [...next.keys()].map((id) => ({ id, activation: (active.get(id) as ActivatedRecord).activation })) });
    frontier = next;
  }

  const ranked = [...active.values()].sort(
    (a, b) => b.activation - a.activation || a.hops - b.hops || (a.record.id < b.record.id ? -1 : 1),
  );
  const byLayer: Record<Layer, ActivatedRecord[]> = { episodic: [], semantic: [], procedural: [], statistical: [] };
  for (const item of ranked) byLayer[item.record.layer].push(item);
  return { seeds, steps, ranked, byLayer };
}

async function linksOf(
  store: StoreReader,
  scopes: readonly Scope[],
  ids: string[],
  ctx: {
    filter: TimeFilter;
    now: number;
    excluded: ReadonlySet<string>;
    symmetric: (scope: string, type: string) => boolean;
    config: ActivationConfig;
  },
): Promise<Map<string, Link[]>> {
  const [edges, refs, backRefs] = await Promise.all([
    store.getEdges({ scopes, ids }),
    store.getConceptRefs({ scopes, conceptIds: ids }),
    store.findConceptsByRef({ scopes, refIds: ids }),
  ]);
  const wanted = new Set(ids);
  // each node's links by target, in the order first added (a concept can hold hundreds of refs: a list
  // searched for each new one was quadratic)
  const byTarget = new Map<string, Map<string, Link>>();
  const add = (from: string, link: Link): void => {
    if (from === link.to) return;
    let targets = byTarget.get(from);
    if (targets === undefined) {
      targets = new Map();
      byTarget.set(from, targets);
    }
    const same = targets.get(link.to);
    // several links to one record count once, the strongest
    if (same !== undefined) {
      if (same.weight < link.weight) Object.assign(same, link);
      return;
    }
    targets.set(link.to, link);
  };
  for (const edge of edges) {
    if (ctx.excluded.has(edge.type) || !isEdgeVisible(edge, ctx.filter, ctx.now)) continue;
    const isSymmetric = ctx.symmetric(edge.scope, edge.type);
    const shared = sharedItems(edge.metadata);
    const extra = shared !== undefined ? { shared } : {};
    if (wanted.has(edge.fromId)) {
      add(edge.fromId, {
        to: edge.toId,
        weight: edge.weight,
        order: 0,
        step: { via: 'edge', type: edge.type, edgeId: edge.id, direction: isSymmetric ? 'both' : 'out', ...extra },
      });
    }
    if (wanted.has(edge.toId)) {
      const weight = isSymmetric ? edge.weight : edge.weight * ctx.config.reverseFactor;
      add(edge.toId, {
        to: edge.fromId,
        weight,
        order: 0,
        step: { via: 'edge', type: edge.type, edgeId: edge.id, direction: isSymmetric ? 'both' : 'in', ...extra },
      });
    }
  }
  refs.forEach((ref, i) => {
    add(ref.conceptId, {
      to: ref.refId,
      weight: ctx.config.refWeight,
      order: i,
      step: { via: 'ref', type: `REF_${ref.layer.toUpperCase()}`, direction: 'concept→ref' },
    });
  });
  backRefs.forEach((ref, i) => {
    add(ref.refId, {
      to: ref.conceptId,
      weight: ctx.config.refWeight,
      order: i,
      step: { via: 'ref', type: `REF_${ref.layer.toUpperCase()}`, direction: 'ref→concept' },
    });
  });
  return new Map([...byTarget].map(([from, targets]) => [from, [...targets.values()]]));
}

/** What a bridge's two ends share, from its metadata (absent for other edges). */
function sharedItems(metadata: Record<string, unknown>): string[] | undefined {
  const shared = metadata.shared;
  return Array.isArray(shared) && shared.length > 0 && shared.every((s) => typeof s === 'string') ? (shared as string[]) : undefined;
}

function round(value: number): number {
  return Number(value.toFixed(6));
}
