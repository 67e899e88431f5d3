/**
 * Conversational neighbourhood: evidence is often the turn next to the
 * keyword match — the reply to a question, the photo someone shares. A turn that is only a question
 * hands part of its relevance to the turn after it, and every turn gains a share of its neighbours'.
 */
import type { MemoryRecord } from '../memory.js';
import type { NeighbourQuery, ScopedQuery, Store } from '../ports/store.js';
import { turnSpeaker } from '../layers/turn-speaker.js';
import { questionShare } from './query-analysis.js';
import type { RecallConfig } from './recall-config.js';
import { reachedCandidate, type Candidate } from './scoring.js';

export interface NeighbourhoodInput {
  store: Store;
  base: ScopedQuery;
  candidates: readonly Candidate[];
  config: RecallConfig;
  /** Fused score of a memory no channel returned. */
  absent: number;
  /** Neighbours already read for some ids (`readNeighboursAhead`): those anchors are not read again. */
  ahead?: NeighboursAhead;
}

/** The turns before and after each anchor, in thread order, by anchor id (as `Store.getNeighbours` answers). */
export type Neighbours = ReadonlyMap<string, { before: MemoryRecord[]; after: MemoryRecord[] }>;

/** The neighbours of the ids read ahead (an id that has none is absent from `neighbours`, as in the store's answer). */
export interface NeighboursAhead {
  readonly ids: ReadonlySet<string>;
  readonly neighbours: Neighbours;
}

/** Whether the neighbourhood stage runs at all under `config`. */
export function neighbourhoodOn(config: RecallConfig): boolean {
  return config.neighbourWeight > 0 || config.questionForward > 0 || config.questionPenalty > 0;
}

/** The neighbour read of `ids` as the neighbourhood stage makes it. */
function neighbourQuery(
  base: ScopedQuery,
  config: RecallConfig,
  ids: readonly string[],
  known: ReadonlyMap<string, MemoryRecord>,
): NeighbourQuery {
  return { ...base, ids, window: config.neighbourWindow, gapMs: config.neighbourGapMinutes * 60_000, known };
}

/**
 * The neighbours of `ids`, read before the stage runs: a recall whose query vector is still on its way
 * (an embedding worker, the store's search thread) reads those of the strongest candidates it already
 * holds meanwhile, and the stage then reads only the anchors it did not guess. The neighbours of an
 * anchor do not depend on the other anchors read with it, so the stage's result is the same.
 */
export async function readNeighboursAhead(
  store: Store,
  base: ScopedQuery,
  config: RecallConfig,
  ids: readonly string[],
  known: ReadonlyMap<string, MemoryRecord>,
): Promise<NeighboursAhead> {
  const asked = ids.slice(0, config.neighbourAnchors);
  return { ids: new Set(asked), neighbours: await store.getNeighbours(neighbourQuery(base, config, asked, known)) };
}

/**
 * The candidates with relevance adjusted by question hand-off and adjacent turns, in their order,
 * then the adjacent turns no channel returned (new candidates; the input is left as it was).
 */
export async function applyNeighbourhood(input: NeighbourhoodInput): Promise<readonly Candidate[]> {
  const { store, base, config } = input;
  if (!neighbourhoodOn(config)) return input.candidates;
  const candidates = [...input.candidates];
  const anchors = candidates
    .filter((c) => timed(c.record))
    .sort((a, b) => b.fused - a.fused)
    .slice(0, config.neighbourAnchors);
  const neighbours = await neighboursOf(
    store,
    neighbourQuery(
      base,
      config,
      anchors.map((c) => c.record.id),
      new Map(candidates.map((c) => [c.record.id, c.record])),
    ),
    input.ahead,
  );
  const byId = new Map(candidates.map((c) => [c.record.id, c]));
  // the turn just before each turn (a question there hands its relevance over)
  const prev = new Map<string, string>();
  // turns up to the window apart, both ways: id → (other id → the share of its relevance this one takes)
  const around = new Map<string, Map<string, number>>();
  const link = (from: string, to: string, share: number): void => {
    const shares = around.get(from) ?? new Map<string, number>();
    shares.set(to, share);
    around.set(from, shares);
  };
  for (const [id, sides] of neighbours) {
    // a record without an event time (a captured claim, a note) has no place in the conversation's
    // order: the store lists it first in its thread, but it neighbours nothing
    if (!timed(byId.get(id)?.record)) continue;
    const before = sides.before.filter(timed);
    const after = sides.after.filter(timed);
    for (let d = 1; d <= Math.max(before.length, after.length); d++) {
      const share = Math.pow(config.neighbourDecay, d - 1);
      const [p, n] = [before[before.length - d], after[d - 1]];
      if (d === 1) {
        if (p !== undefined) prev.set(id, p.id);
        if (n !== undefined) prev.set(n.id, id);
      }
      for (const r of [p, n]) {
        if (r === undefined) continue;
        link(id, r.id, share);
        link(r.id, id, share);
        if (inLayers(r, base)) addCandidate(r, byId, candidates, input.absent);
      }
    }
  }
  const fusedOf = (id: string | undefined) => (id === undefined ? 0 : (byId.get(id)?.fused ?? input.absent));
  const questionShares = new Map(candidates.map((c) => [c.record.id, questionOf(c.record)]));
  const adjusted = new Map<string, number>();
  for (const c of candidates) {
    const id = c.record.id;
    const before = prev.get(id);
    const handedOver = before === undefined ? 0 : config.questionForward * (questionShares.get(before) ?? 0) * fusedOf(before);
    adjusted.set(id, c.fused * (1 - config.questionPenalty * (questionShares.get(id) ?? 0)) + handedOver);
  }
  return candidates.map((c) => {
    const id = c.record.id;
    // speakers are compared only when their turns are weighed differently
    const speaker = config.neighbourSameSpeaker !== 1 ? speakerOf(c.record) : undefined;
    const share = (other: string): number => {
      const otherRecord = speaker === undefined ? undefined : byId.get(other)?.record;
      const same = otherRecord !== undefined && speakerOf(otherRecord) === speaker;
      return (same ? config.neighbourSameSpeaker : 1) * (adjusted.get(other) ?? input.absent);
    };
    let shared = 0;
    for (const [other, weight] of around.get(id) ?? []) shared += weight * share(other);
    const own = adjusted.get(id) ?? 0;
    return { ...c, neighbourhood: own - c.fused + config.neighbourWeight * shared, relevance: own + config.neighbourWeight * shared };
  });
}

/** The neighbours `query` asks for: those read ahead as they were, the rest read now (one read), in the order asked. */
async function neighboursOf(store: Store, query: NeighbourQuery, ahead: NeighboursAhead | undefined): Promise<Neighbours> {
  if (ahead === undefined || !query.ids.some((id) => ahead.ids.has(id))) return store.getNeighbours(query);
  const missing = query.ids.filter((id) => !ahead.ids.has(id));
  const read = missing.length > 0 ? await store.getNeighbours({ ...query, ids: missing }) : undefined;
  const out = new Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>();
  for (const id of query.ids) {
    const found = ahead.ids.has(id) ? ahead.neighbours.get(id) : read?.get(id);
    if (found !== undefined) out.set(id, found);
  }
  return out;
}

/**
 * `compute` of a record's content, worked out once for frozen records (a store's cached ones, the same
 * objects recall after recall).
 */
function perFrozenRecord<T>(compute: (content: string) => T): (record: MemoryRecord) => T {
  const known = new WeakMap<MemoryRecord, T>();
  return (record) => {
    const held = known.get(record);
    if (held !== undefined || known.has(record)) return held as T;
    const value = compute(record.content);
    if (Object.isFrozen(record)) known.set(record, value);
    return value;
  };
}

const questionOf = perFrozenRecord(questionShare);
const speakerOf = perFrozenRecord(turnSpeaker);

function timed(record: MemoryRecord | undefined): boolean {
  return record !== undefined && record.occurredAt !== null;
}

/** Whether a neighbour may join the hits: a recall limited to some layers returns no other. */
function inLayers(record: MemoryRecord, base: ScopedQuery): boolean {
  return base.layers === undefined || base.layers.includes(record.layer);
}

function addCandidate(record: MemoryRecord, byId: Map<string, Candidate>, candidates: Candidate[], fused: number): void {
  if (byId.has(record.id)) return;
  const candidate = reachedCandidate(record, fused);
  byId.set(record.id, candidate);
  candidates.push(candidate);
}
