/**
 * The read path: channels (lexical, semantic, entity, temporal, graph, affect) → fusion →
 * conversational neighbourhood → final blend (recency, importance, activation) → MMR → hits that
 * explain themselves.
 */
import type { SkippedRecord } from '../readable-records.js';
import type { MemoryRecord, TimeFilter } from '../memory.js';
import type { Scope } from '../scope.js';
import { toMemoryView, type MemoryView } from '../memory-view.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { ChannelHit, ScopedQuery, Store, VectorQuery } from '../ports/store.js';
import type { recallOptionsSchema } from '../schemas.js';
import type { z } from 'zod';
import { fuseCandidates, roundedChannels, type ChannelExplanation } from './fusion.js';
import { analyzeQuery, type QueryAnalysis } from './query-analysis.js';
import { configForQuery, type RecallConfig } from './recall-config.js';
import { hitRelevance } from './hit-relevance.js';
import { ubiquitousSpeakers, withoutNames } from './participants.js';
import { extractEntities } from '../text/index.js';
import { blendScores, reachedCandidate, type Candidate } from './scoring.js';
import { applyNeighbourhood, neighbourhoodOn, readNeighboursAhead, type NeighboursAhead } from './neighbourhood.js';
import { maximalMarginalRelevance } from './mmr.js';
import { spreadActivation } from '../graph/activation.js';
import { hitCandidates } from './hit-candidates.js';
import { rankCorrected } from './corrected-hits.js';
import type { CorrectedClaims } from '../corrections.js';
import { capturedCopies } from './captured-copies.js';
import { withPartScores } from './part-scores.js';
import { mentionedTimeHits, readMentions, type StoredMentions } from './mentioned-time.js';
import { personaRerank } from './persona-stage.js';
import { readPersona } from '../persona/persona-api.js';
import type { Persona } from '../persona/persona.js';
import type { PersonaExplanation } from './scoring.js';
import { attachChains, type ChainMember } from '../chains/chain.js';

const DAY_MS = 86_400_000;

/** Why a hit was returned: its rank and score in each channel, and the terms of the final blend. */
export interface HitExplanation {
  channels: Record<string, ChannelExplanation>;
  /** Fused relevance of the channels. */
  fused: number;
  /** Relevance after the conversational neighbourhood (question hand-off, adjacent turns). */
  relevance: number;
  recency: number;
  importance: number;
  activation: number;
  neighbourhood: number;
  /** Present when a persona re-ranked the hits: the factor the score was scaled by and what matched. */
  persona?: PersonaExplanation;
  /**
   * Ids of records saying the same as this hit that were left out for it: the captured turn it was read
   * from (for a captured claim) or the claims captured from it (for a turn), when ranked after it.
   */
  sameAs?: string[];
}

/** One recall hit: the memory, its final score, its relevance and the explanation. */
export interface RecallHit extends MemoryView {
  /** Ranks the hits (relevance blended with recency and importance); unbounded, may be negative. */
  score: number;
  /** How strongly the hit's own evidence matches the query, 0..1 (see `hitRelevance`); not relative to other hits. */
  relevance: number;
  why: HitExplanation;
  /**
   * A captured turn whose claim a later claim superseded (no longer current): the claim that holds now.
   * Such a hit ranks after the hits nothing corrected.
   */
  correctedBy?: { id: string; content: string };
  /** With `chains: true`: the whole decision chain the hit belongs to, in order (see `core/chains`). */
  chain?: ChainMember[];
}

export interface RecallResult {
  hits: RecallHit[];
  /** Records left out because their stored values could not be read; forget or fix them by id. */
  skipped?: SkippedRecord[];
}

export interface RecallDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  config: RecallConfig;
  /** A scope's index of corrected captured claims, as the caller keeps it (default: read each time). */
  correctedIndex?: (scope: Scope) => Promise<CorrectedClaims | null>;
}

type ParsedRecallOptions = z.output<typeof recallOptionsSchema>;

/**
 * Runs one recall. Scopes and query are already validated. `reading.keepCopies`: a captured turn and the
 * claim captured from it are both hits (the context builder reads turns), instead of one standing for both.
 */
export async function recall(
  deps: RecallDeps,
  query: string,
  options: ParsedRecallOptions,
  reading: { keepCopies?: boolean } = {},
): Promise<RecallResult> {
  const { store, clock } = deps;
  const config = { ...deps.config, ...weightsOf(options) };
  const now = clock.now();
  const k = options.k ?? config.k;
  const time: TimeFilter = {
    ...(options.asOf !== undefined ? { asOf: options.asOf } : {}),
    ...(options.knownAt !== undefined ? { knownAt: options.knownAt } : {}),
    ...(options.includeSuperseded !== undefined ? { includeSuperseded: options.includeSuperseded } : {}),
  };
  const base: ScopedQuery = {
    scopes: options.scopes,
    now,
    limit: Math.max(config.candidates, k * config.candidatesPerHit),
    ...time,
    ...(options.layers !== undefined ? { layers: options.layers } : {}),
  };
  // The query's vector first: an embedder with workers computes it while this thread analyses the
  // query and runs the lexical channels. When the query names people, the scope's speakers are sampled
  // first (which text to embed depends on them), and the channels wait until the embedding is under way.
  const entities = extractEntities(query);
  const semantic = config.semanticWeight > 0 ? semanticQueryVector(deps, config, base.scopes, query, entities) : null;
  if (semantic?.started !== undefined) await semantic.started;
  const queryVector = semantic?.vector ?? null;
  const analysis = analyzeQuery(query, {
    referenceTime: options.referenceTime ?? options.asOf ?? now,
    entities,
    ...(options.timezoneOffsetMinutes !== undefined ? { timezoneOffsetMinutes: options.timezoneOffsetMinutes } : {}),
    ...(options.timeZone !== undefined ? { timeZone: options.timeZone } : {}),
  });

  const { channels, records, ahead } = await runChannels(deps, config, analysis, base, queryVector);
  // a weight the caller set for this call is kept: only the engine's own weights move for a time-only query
  const pinned = options.weights !== undefined && (options.weights.temporal !== undefined || options.weights.lexical !== undefined);
  const ranking = configForQuery(config, analysis.terms.length, options.weights?.semantic !== undefined, analysis.windowOnly && !pinned);
  const fusion = fuseCandidates(channels, records, analysis, ranking);
  const around = await applyNeighbourhood({
    store,
    base,
    candidates: fusion.candidates,
    config,
    absent: fusion.absent,
    ...(ahead !== undefined ? { ahead } : {}),
  });
  const candidates = config.graphWeight > 0 ? await addGraphNeighbours(store, base, around, config) : around;

  // what cannot be a hit (concepts, chunk parents…) has spread its relevance and leaves before the ranking
  const answers = hitCandidates(candidates);
  const blended = personaRerank(blendScores(answers, config, now), await personaOf(deps, options, config, now), config.personaWeight);
  const pool = maximalMarginalRelevance(blended, k * config.rankedPerHit, config.mmrLambda, {
    perHit: config.mmrPoolPerHit,
    min: config.mmrMinPool,
  });
  const { ranked, corrections } = await rankCorrected(store, pool, { scopes: base.scopes, now, time }, deps.correctedIndex);
  // the context reads the turns themselves (its episodes), so it keeps both of a turn and its claim
  const copies = reading.keepCopies === true ? new Map<string, readonly string[]>() : capturedCopies(ranked.map((c) => c.record));
  const hits: RecallHit[] = [];
  const hitOf = new Map<string, RecallHit>();
  const shape = { terms: analysis.terms.length, windowOnly: analysis.windowOnly };
  for (const candidate of ranked) {
    if (hits.length >= k) break;
    // a captured turn and its claim say the same: the one ranked first stands for both
    const twin = copies
      .get(candidate.record.id)
      ?.map((id) => hitOf.get(id))
      .find((hit) => hit !== undefined);
    if (twin !== undefined) {
      (twin.why.sameAs ??= []).push(candidate.record.id);
      continue;
    }
    const correction = corrections.get(candidate.record.id);
    const channels = roundedChannels(candidate.channels);
    hits.push({
      ...toMemoryView(candidate.record),
      score: round(candidate.score),
      relevance: hitRelevance(channels, deps.embedder.cosineScale, shape),
      why: {
        channels,
        fused: round(candidate.fused),
        relevance: round(candidate.relevance),
        recency: round(candidate.recency),
        importance: round(candidate.importance),
        activation: round(candidate.activation),
        neighbourhood: round(candidate.neighbourhood),
        ...(candidate.persona !== undefined ? { persona: candidate.persona } : {}),
      },
      ...(correction !== undefined ? { correctedBy: { id: correction.id, content: correction.content } } : {}),
    });
    hitOf.set(candidate.record.id, hits[hits.length - 1] as RecallHit);
  }
  if (options.chains === true && hits.length > 0) await attachChains(store, hits, { scopes: options.scopes, now, ...time });
  if (options.trackAccess !== false && hits.length > 0) {
    store
      .recordAccess(
        hits.map((h) => h.id),
        now,
      )
      .catch(() => undefined);
  }
  return { hits };
}

/** The persona of this read: the one given, the scopes' stored one when asked for (or on by config), else none. */
async function personaOf(deps: RecallDeps, options: ParsedRecallOptions, config: RecallConfig, now: number): Promise<Persona | null> {
  const wanted = options.persona ?? config.persona;
  if (wanted === false) return null;
  if (wanted !== true) return wanted;
  return (await readPersona(deps.store, options.scopes, now))?.persona ?? null;
}

/** Per-call channel weights override the engine's config. */
function weightsOf(options: ParsedRecallOptions): Partial<RecallConfig> {
  const w = options.weights;
  if (w === undefined) return {};
  const out: Partial<RecallConfig> = {};
  if (w.lexical !== undefined) out.lexicalWeight = w.lexical;
  if (w.semantic !== undefined) out.semanticWeight = w.semantic;
  if (w.entity !== undefined) out.entityWeight = w.entity;
  if (w.temporal !== undefined) out.temporalWeight = w.temporal;
  if (w.mention !== undefined) out.mentionWeight = w.mention;
  if (w.graph !== undefined) out.graphWeight = w.graph;
  if (w.affect !== undefined) out.affectWeight = w.affect;
  if (w.neighbour !== undefined) out.neighbourWeight = w.neighbour;
  // A single-channel read is a baseline: no neighbourhood, blend or question handling on top.
  if (w.lexical === 0 || w.semantic === 0) {
    const only = w.lexical === 0 ? 'semantic' : 'lexical';
    if (Object.keys(w).length === 1) Object.assign(out, singleChannel(only));
  }
  return out;
}

function singleChannel(channel: 'lexical' | 'semantic'): Partial<RecallConfig> {
  return {
    lexicalWeight: channel === 'lexical' ? 1 : 0,
    semanticWeight: channel === 'semantic' ? 1 : 0,
    entityWeight: 0,
    temporalWeight: 0,
    mentionWeight: 0,
    partWeight: 0,
    graphWeight: 0,
    affectWeight: 0,
    neighbourWeight: 0,
    questionPenalty: 0,
    questionForward: 0,
    recencyWeight: 0,
    importanceWeight: 0,
    activationWeight: 0,
    mmrLambda: 1,
    fusion: 'rrf',
    participantShare: 0,
  };
}

/** The query's vector; a rejection is held until the semantic channel awaits it. */
function embedQuery(embedder: Embedder, query: string): Promise<Float32Array> {
  const vector = embedder.embed([query], { purpose: 'query' }).then(([v]) => v as Float32Array);
  // handled where it is awaited; this only keeps an early failure elsewhere from leaving it unhandled
  vector.catch(() => undefined);
  return vector;
}

/**
 * The semantic channel's query vector: that of the query, or, when it names the scope's participants
 * (`participants.ts`), of the query without their names. `started` (only when the scope's speakers
 * are sampled first) settles once the embedding has been asked for; it never rejects.
 */
function semanticQueryVector(
  deps: RecallDeps,
  config: RecallConfig,
  scopes: readonly Scope[],
  query: string,
  entities: readonly string[],
): { vector: Promise<Float32Array>; started?: Promise<void> } {
  if (config.participantShare <= 0 || config.participantSample <= 0 || entities.length === 0)
    return { vector: embedQuery(deps.embedder, query) };
  const text = deps.store.recentEpisodeHeads({ scopes, limit: config.participantSample }).then((sample) => {
    const names = ubiquitousSpeakers(entities, sample, { share: config.participantShare, minTurns: config.participantMinTurns });
    return (names.length > 0 ? withoutNames(query, names) : null) ?? query;
  });
  const vector = text.then((t) => embedQuery(deps.embedder, t));
  // handled where it is awaited, as the query's own vector is
  vector.catch(() => undefined);
  return {
    vector,
    started: text.then(
      () => undefined,
      () => undefined,
    ),
  };
}

/**
 * Runs the candidate-generating channels in parallel and reads their records. The records of the
 * lexical, entity and temporal hits are read as soon as those channels answer, while the query's
 * vector may still be computing elsewhere; then those of the semantic hits not read yet. When the
 * semantic hits are still on their way once the others' records are read, because the query's vector is
 * computed off this thread (an embedding worker, a model server) or the store searches off it
 * (`Store.vectorSearchesAway`), the wait does work of the later stages (`workWhileWaiting`).
 */
async function runChannels(
  deps: RecallDeps,
  config: RecallConfig,
  analysis: QueryAnalysis,
  base: ScopedQuery,
  queryVector: Promise<Float32Array> | null,
): Promise<{ channels: Record<string, ChannelHit[]>; records: Map<string, MemoryRecord>; ahead?: NeighboursAhead }> {
  const { store } = deps;
  const none = Promise.resolve<ChannelHit[]>([]);
  const textual = Promise.all([
    config.lexicalWeight > 0 && analysis.terms.length > 0
      ? store.lexicalSearch({ ...base, terms: analysis.terms.map((term) => ({ term })), bm25: { k1: config.bm25K1, b: config.bm25B } })
      : none,
    config.entityWeight > 0 && analysis.entities.length > 0
      ? store.lexicalSearch({
          ...base,
          limit: Math.min(base.limit, config.entityCandidates),
          terms: analysis.entities.map((term) => ({ term })),
          bm25: { k1: config.bm25K1, b: config.bm25B },
        })
      : none,
    config.temporalWeight > 0 && analysis.window !== null
      ? store.temporalSearch({ ...base, start: analysis.window.start, end: analysis.window.end })
      : none,
    // what was written in the window or soon after it, read for the times its text names
    config.mentionWeight > 0 && analysis.window !== null
      ? store.temporalSearch({
          ...base,
          start: mentionStart(analysis.window, analysis.referenceTime, config),
          end: analysis.window.end + config.mentionLagDays * DAY_MS,
        })
      : none,
  ]);
  const records = new Map<string, MemoryRecord>();
  const stored = storedMentions(store);
  // what is still on its way: the query's vector (computed off this thread when it has not come by the
  // time the other channels' records are read: an embedder on its own in-process thread has answered
  // by then), and the semantic hits (a vector search the store runs off this thread)
  let vectorPending = queryVector !== null;
  let hitsPending = queryVector !== null;
  const early = textual.then(async (lists) => {
    await readRecords(store, lists.flat(), base.scopes, records);
    const waiting = hitsPending && (vectorPending || store.vectorSearchesAway?.() === true);
    return waiting ? workWhileWaiting(store, config, analysis, base, lists, records, stored) : undefined;
  });
  let earlyDone = false;
  // awaited below; this only keeps a failure while the vector is pending from going unhandled
  early.then(
    () => (earlyDone = true),
    () => (earlyDone = true),
  );
  // the records and neighbours of a preview of the semantic hits (`readPreview`)
  const guessed: PreviewReads = { records: new Map(), known: records, before: () => early, idle: () => earlyDone };
  const semanticHits = queryVector !== null ? queryVector.then((vector) => semanticSearch(store, config, base, vector, guessed)) : none;
  queryVector?.then(
    () => (vectorPending = false),
    () => (vectorPending = false),
  );
  semanticHits.then(
    () => (hitsPending = false),
    () => (hitsPending = false),
  );
  const [[lexical, entity, temporal], semantic] = await Promise.all([textual, semanticHits]);
  const ahead = joinAhead(await early, await guessed.neighbours);
  await readRecords(store, semantic, base.scopes, records, guessed.records);
  const mention = analysis.window !== null && config.mentionWeight > 0 ? mentionedTimeHits(records.values(), analysis.window, stored) : [];
  // the store lists a window's records newest first; the channel ranks them by its score (closeness to the window)
  const timed = [...temporal].sort((a, b) => b.score - a.score);
  return { channels: { lexical, semantic, entity, temporal: timed, mention }, records, ...(ahead !== undefined ? { ahead } : {}) };
}

/** The mentioned times the store keeps for the records it returned (`Store.mentionsOf`), if it keeps any. */
function storedMentions(store: Store): StoredMentions | undefined {
  return store.mentionsOf?.bind(store);
}

/**
 * While the semantic hits are on their way: the times named by the texts read so far (the mention
 * channel's work, remembered for it), and the neighbours of the strongest candidates so far (by their
 * best rank in any channel), which the neighbourhood stage then does not read again. On a large store
 * three quarters of the neighbourhood's anchors are among them. A failed read ahead is left to the
 * stage, which reads those anchors itself.
 */
async function workWhileWaiting(
  store: Store,
  config: RecallConfig,
  analysis: QueryAnalysis,
  base: ScopedQuery,
  lists: readonly (readonly ChannelHit[])[],
  records: ReadonlyMap<string, MemoryRecord>,
  stored: StoredMentions | undefined,
): Promise<NeighboursAhead | undefined> {
  if (analysis.window !== null && config.mentionWeight > 0) readMentions(records.values(), stored);
  if (!neighbourhoodOn(config)) return undefined;
  const best = new Map<string, number>();
  for (const list of lists)
    list.forEach((hit, rank) => {
      if (records.has(hit.id) && rank < (best.get(hit.id) ?? Infinity)) best.set(hit.id, rank);
    });
  if (best.size === 0) return undefined;
  const ids = [...best].sort((a, b) => a[1] - b[1]).map(([id]) => id);
  return readNeighboursAhead(store, base, config, ids, records).catch(() => undefined);
}

/**
 * The semantic channel: k-NN by whole vector, re-ranked by the candidates' part vectors when
 * `partWeight` is on (reading up to `partWidening` times the candidates first where the store's search
 * costs no more for them — an exact scan, not an HNSW index; `part-scores.ts`). While the search runs
 * off this thread, what its hits will need is read for a preview of them (`readPreview`).
 */
async function semanticSearch(
  store: Store,
  config: RecallConfig,
  base: ScopedQuery,
  vector: Float32Array,
  guessed: PreviewReads,
): Promise<ChannelHit[]> {
  const query: VectorQuery = config.partWeight <= 0 ? { ...base, vector } : { ...base, vector, widenTo: base.limit * config.partWidening };
  const searching = store.vectorSearch(query);
  // only while this thread has nothing else to do: the other channels' reads come first
  const preview = guessed.idle() && away(store) ? readPreview(store, config, base, query, guessed) : undefined;
  const wide = await searching;
  // a failed preview is only work not done ahead
  const known = await preview?.catch(() => undefined);
  if (config.partWeight <= 0) return wide;
  const missing = known === undefined ? wide.map((h) => h.id) : wide.filter((h) => !known.asked.has(h.id)).map((h) => h.id);
  const best = missing.length > 0 ? await store.partScores({ scopes: base.scopes, ids: missing, vector }) : new Map<string, number>();
  if (known !== undefined) for (const hit of wide) if (known.scores.has(hit.id)) best.set(hit.id, known.scores.get(hit.id) as number);
  return withPartScores(wide, best, config.partWeight, base.limit);
}

/** Whether the store's vector search is still running off this thread. */
function away(store: Store): boolean {
  return store.vectorSearchesAway?.() === true;
}

/**
 * What a recall read for a preview of its semantic hits (`Store.vectorPreview`): the records of the
 * hits it guessed that no other channel returned, kept apart until the search returns them (a guessed
 * hit the search does not return is no candidate), and the neighbours of the strongest.
 */
interface PreviewReads {
  readonly records: Map<string, MemoryRecord>;
  /** The records the other channels' hits brought (not read again). */
  readonly known: ReadonlyMap<string, MemoryRecord>;
  /** The neighbours read ahead for the other channels' hits, once those are read (not read again). */
  readonly before: () => Promise<NeighboursAhead | undefined>;
  /** Whether the other channels' records (and what was read ahead for them) are read. */
  readonly idle: () => boolean;
  neighbours?: Promise<NeighboursAhead | undefined>;
}

/** Part scores read for a preview: those of the ids asked that have part vectors. */
interface PreviewParts {
  readonly asked: ReadonlySet<string>;
  readonly scores: ReadonlyMap<string, number>;
}

/**
 * While the semantic search runs off this thread: its preview's part scores (resolved first, for the
 * re-rank), then the records of its hits and the neighbours of the strongest (into `guessed`), as the
 * stages after the search would read them; each step only while the search is still away (what is
 * left is read after it, as without a preview). The part scores, records and neighbours of an id do
 * not depend on the others read with it, so what the recall returns is the same with or without one.
 */
async function readPreview(
  store: Store,
  config: RecallConfig,
  base: ScopedQuery,
  query: VectorQuery,
  guessed: PreviewReads,
): Promise<PreviewParts | undefined> {
  const hits = (await store.vectorPreview?.(query)) ?? [];
  if (hits.length === 0 || !away(store)) return undefined;
  const ids = hits.map((h) => h.id);
  const parts =
    config.partWeight > 0
      ? { asked: new Set(ids), scores: await store.partScores({ scopes: base.scopes, ids, vector: query.vector }) }
      : undefined;
  if (away(store)) guessed.neighbours = readGuessed(store, config, base, ids, guessed).catch(() => undefined);
  return parts;
}

/** The records of the preview's hits, then the neighbours of the strongest not read ahead already. */
async function readGuessed(
  store: Store,
  config: RecallConfig,
  base: ScopedQuery,
  ids: readonly string[],
  guessed: PreviewReads,
): Promise<NeighboursAhead | undefined> {
  const { known, records } = guessed;
  const unread = ids.filter((id) => !known.has(id));
  if (unread.length > 0) for (const record of await store.getMemories(unread, base.scopes)) records.set(record.id, record);
  if (!neighbourhoodOn(config) || !away(store)) return undefined;
  const before = await guessed.before().catch(() => undefined);
  const anchors = ids.filter((id) => (known.has(id) || records.has(id)) && before?.ids.has(id) !== true);
  if (anchors.length === 0) return undefined;
  return readNeighboursAhead(store, base, config, anchors, new Map([...known, ...records]));
}

/** The neighbours of both reads ahead (the anchors of each are distinct, or read the same). */
function joinAhead(a: NeighboursAhead | undefined, b: NeighboursAhead | undefined): NeighboursAhead | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return { ids: new Set([...a.ids, ...b.ids]), neighbours: new Map([...a.neighbours, ...b.neighbours]) };
}

/** Adds to `records` the records of the hits it does not hold yet: from `spare` (read ahead) or one read. */
async function readRecords(
  store: Store,
  hits: readonly ChannelHit[],
  scopes: readonly Scope[],
  records: Map<string, MemoryRecord>,
  spare?: ReadonlyMap<string, MemoryRecord>,
): Promise<void> {
  const ids: string[] = [];
  for (const id of new Set(hits.map((h) => h.id))) {
    if (records.has(id)) continue;
    const ahead = spare?.get(id);
    if (ahead !== undefined) records.set(id, ahead);
    else ids.push(id);
  }
  if (ids.length === 0) return;
  for (const record of await store.getMemories(ids, scopes)) records.set(record.id, record);
}

/**
 * Graph channel: spreading activation (src/core/graph) from the strongest hits, over edges and concept
 * refs across layers, within the read's scopes and time filter; what it reaches gains relevance.
 */
async function addGraphNeighbours(
  store: Store,
  base: ScopedQuery,
  candidates: readonly Candidate[],
  config: RecallConfig,
): Promise<readonly Candidate[]> {
  const top = [...candidates]
    .sort((a, b) => b.relevance - a.relevance)
    .slice(0, config.graphSeeds)
    .filter((c) => c.relevance > 0);
  if (top.length === 0) return candidates;
  const result = await spreadActivation(
    store,
    // every candidate's record is already read: what activation reaches among them is not read again
    {
      ...base,
      seeds: top.map((c) => ({ id: c.record.id, energy: c.relevance })),
      known: new Map(candidates.map((c) => [c.record.id, c.record])),
    },
    {
      maxHops: config.graphMaxHops,
      decay: config.graphDecay,
      fanOutPower: config.graphFanOutPower,
      threshold: config.graphThreshold,
      maxFanOut: config.graphMaxFanOut,
      maxNodes: config.graphMaxNodes,
    },
  );
  const out = [...candidates];
  const indexOf = new Map(out.map((c, i) => [c.record.id, i]));
  let rank = 0;
  for (const { record, activation } of result.ranked) {
    if (base.layers !== undefined && !base.layers.includes(record.layer)) continue;
    const index = indexOf.get(record.id);
    const reached = index === undefined ? reachedCandidate(record, 0) : (out[index] as Candidate);
    const updated = {
      ...reached,
      channels: { ...reached.channels, graph: { rank: ++rank, score: round(activation) } },
      relevance: reached.relevance + config.graphWeight * activation,
    };
    if (index === undefined) {
      indexOf.set(record.id, out.length);
      out.push(updated);
    } else out[index] = updated;
  }
  return out;
}

function round(value: number): number {
  return Number(value.toFixed(6));
}

/**
 * Where the mention channel starts reading what was written: at the window, or for a window that reaches
 * past the query's "now" (the days to come have not happened: what names them was written before),
 * `mentionLeadDays` before it.
 */
function mentionStart(window: { start: number; end: number }, referenceTime: number, config: RecallConfig): number {
  return window.end > referenceTime ? window.start - config.mentionLeadDays * DAY_MS : window.start;
}
