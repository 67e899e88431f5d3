/**
 * The context builder: for one turn, procedural rules, profile facts, knowledge, live
 * concepts for what is perceived, predictions and relevant episodes — within a wall-clock deadline
 * and a token budget, each part labelled with the level it reached.
 *
 * Every read starts at once and races one deadline, except the procedural rules and the profile:
 * they are never dropped (the copy this engine last read, level `cached`, when a fresh read is late;
 * a read that is waited for when there is no copy yet). Concepts degrade from full (relations,
 * stored statistics, fresh grounding) to cached (no grounding) to minimal (name, category, episode
 * count); a part with nothing in time is `skipped`. Late work is dropped, never awaited.
 */
import { spreadActivation } from '../core/graph/activation.js';
import type { MemoryRecord } from '../core/memory.js';
import { recall as runRecall, type RecallDeps, type RecallHit } from '../core/recall/recall.js';
import type { Scope } from '../core/scope.js';
import { cuesOf, matchConcepts, type MatchedConcept } from './concept-lookup.js';
import { applyGrounding, groundConcepts, minimalConcept, readConceptRelations, uniqueStatistics } from './concepts.js';
import type { Scheduler } from '../core/ports/scheduler.js';
import { Deadline, type Raced, type Stopwatch } from './deadline.js';
import { ReadTimings, storeWithDeadline } from './deadline-store.js';
import {
  episodesFromHits,
  knowledgeFromHits,
  mergeKnowledge,
  readProfileFacts,
  rankProfile,
  readProcedural,
  KNOWLEDGE_LIMIT,
  type ActivateFn,
  type ProceduralRead,
} from './parts.js';
import { matchProfileFields, type ProfileFieldsPart } from '../core/profile/profile-fields.js';
import { predictFromConcepts } from './predict.js';
import { readAffect } from './affect-part.js';
import { approximateTokens, renderMarkdown, trimToTokens } from './render.js';
import type { ParsedContextInput } from './schemas.js';
import type { ProfileFact } from './parts.js';
import type { ChainEntry, ConceptEntry, ContextLevel, ContextPart, StructuredContext, TrimmedCounts } from './types.js';
import { chainEntries } from './chains.js';
import { correctedClaimsOf, readCorrections } from '../core/corrections.js';
import { markCorrections } from './corrections.js';

/**
 * Time kept back from the budget for trimming, rendering and the synchronous read that may already be
 * running when the deadline passes (it cannot be interrupted): 15 % of the budget, 2 to 10 ms.
 */
function renderReserveMs(budgetMs: number): number {
  return Math.min(10, Math.max(2, budgetMs * 0.15));
}
/** Predictions shown in a context. */
const PREDICTIONS_IN_CONTEXT = 3;
/** Past episodes read for the predictions of a context (the best-matching first). */
const CONTEXT_PREDICTION_EPISODES = 300;

/** Rules and profile read less than this long ago are used as they are (writes through the engine invalidate them at once). */
export const RULES_FRESH_MS = 5_000;

interface Cached<T> {
  items: T;
  /** Stopwatch time of the read. */
  at: number;
}

/**
 * What the builder remembers between calls on one engine: the rules and profile last read per scope
 * set — used as they are for RULES_FRESH_MS (other processes' writes show within that), served as
 * `cached` when older and a fresh read is late — and how long grounding took (so it is not started
 * when it cannot finish).
 */
export class ContextCache {
  readonly #rules = new Map<string, Cached<ProceduralRead>>();
  readonly #profile = new Map<string, Cached<ProfileFact[]>>();
  #groundingMs = 0;
  #latenessMs = 0;
  /** Durations of store reads, so a read that cannot finish in time is not started. */
  readonly timings = new ReadTimings();

  rules(key: string): Cached<ProceduralRead> | undefined {
    return this.#rules.get(key);
  }
  setRules(key: string, items: ProceduralRead, at: number): void {
    remember(this.#rules, key, { items, at });
  }
  profile(key: string): Cached<ProfileFact[]> | undefined {
    return this.#profile.get(key);
  }
  setProfile(key: string, items: ProfileFact[], at: number): void {
    remember(this.#profile, key, { items, at });
  }
  /** Forgets the rules and profile of every scope set containing `scope` (all, when omitted): a write changed them. */
  invalidate(scope?: string): void {
    for (const map of [this.#rules, this.#profile] as Map<string, unknown>[]) {
      for (const key of [...map.keys()]) if (scope === undefined || key.split('\n').includes(scope)) map.delete(key);
    }
  }
  /** Smoothed duration of fresh grounding, ms. */
  get groundingMs(): number {
    return this.#groundingMs;
  }
  /**
   * How long recent builds ran past their deadline (its timer firing late, the read that was running,
   * trimming and rendering), smoothed, ms: on a machine where this process waits for a core all of it
   * grows, so the deadline is set that much before the budget ends.
   */
  get latenessMs(): number {
    return this.#latenessMs;
  }
  recordLateness(ms: number): void {
    this.#latenessMs = this.#latenessMs === 0 ? Math.max(0, ms) : 0.7 * this.#latenessMs + 0.3 * Math.max(0, ms);
  }
  recordGrounding(ms: number): void {
    this.#groundingMs = this.#groundingMs === 0 ? ms : 0.7 * this.#groundingMs + 0.3 * ms;
  }
}

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > 256) map.delete(map.keys().next().value as string);
}

export interface ContextDeps extends RecallDeps {
  cache: ContextCache;
  /** Spreading activation, when the engine has it (knowledge is then recall hits + activation). */
  activate?: ActivateFn;
  /** Measures the budget (the wall, not the engine's `Clock`). */
  stopwatch: Stopwatch;
  /** The deadline's timer, the event-loop turns before reads and the late refreshes. */
  scheduler: Scheduler;
  /** Record the surfaced memories as accessed (default true; false for warm-up builds). */
  trackAccess?: boolean;
}

/** Builds the context of one turn. Input is validated. */
export async function buildContext(deps: ContextDeps, input: ParsedContextInput): Promise<StructuredContext> {
  const { stopwatch, scheduler } = deps;
  // Kept back: what recent builds ran past their deadline, at least the rendering reserve, at most half the budget.
  const early = Math.min(Math.max(renderReserveMs(input.budgetMs), deps.cache.latenessMs), input.budgetMs / 2);
  const deadlineMs = Math.max(1, input.budgetMs - early);
  const deadline = new Deadline(deadlineMs, { stopwatch, scheduler });
  let waited = false;
  const refreshes: (() => Promise<unknown>)[] = [];
  try {
    const now = deps.clock.now();
    const { scopes, message } = input;
    const key = [...scopes].sort().join('\n');
    const { cache } = deps;
    const gate = { deadline, stopwatch, scheduler, timings: cache.timings, key };
    const store = storeWithDeadline(deps.store, gate);
    // Recall may drop the search channels that do not fit; its hits are then `minimal`.
    const skippedInRecall: string[] = [];
    const recallStore = storeWithDeadline(deps.store, { ...gate, degrade: true, onSkip: (method) => skippedInRecall.push(method) });
    const started = stopwatch.now();
    const fresh = <T>(entry: Cached<T> | undefined) =>
      entry !== undefined && started - entry.at < RULES_FRESH_MS ? Promise.resolve(entry.items) : undefined;

    // Rules and profile are never dropped: the copy read less than RULES_FRESH_MS ago; else a fresh
    // read if it fits in time, the stale copy (`cached`) when it does not (refreshed once this build has
    // returned); with no copy at all (the first build for these scopes), a read that is waited for.
    const protectedRead = <T>(
      entry: Cached<T> | undefined,
      read: (s: typeof store) => Promise<T>,
      save: (items: T) => void,
    ): { read: Promise<T>; wait: boolean } => {
      const ready = fresh(entry);
      if (ready !== undefined) return { read: ready, wait: true };
      if (entry === undefined) {
        waited = true;
        return { read: read(deps.store).then((items) => (save(items), items)), wait: true };
      }
      let scheduled = false;
      const onSkip = () => {
        if (!scheduled) refreshes.push(() => read(deps.store).then(save));
        scheduled = true;
      };
      return { read: read(storeWithDeadline(deps.store, { ...gate, onSkip })).then((items) => (save(items), items)), wait: false };
    };
    const rulesRead = protectedRead(
      cache.rules(key),
      (s) => readProcedural(s, scopes, now),
      (rules) => cache.setRules(key, rules, stopwatch.now()),
    );
    const profileRead = protectedRead(
      cache.profile(key),
      (s) => readProfileFacts(s, scopes, now),
      (facts) => cache.setProfile(key, facts, stopwatch.now()),
    );
    const settle = <T>(p: { read: Promise<T>; wait: boolean }): Promise<Raced<T>> =>
      p.wait ? p.read.then((value) => ({ done: true as const, value })) : deadline.race(p.read);
    // a scope's index of corrected claims: the engine's, kept while the scope's generation of superseded claims holds
    const correctedIndex = deps.correctedIndex ?? ((scope: Scope) => correctedClaimsOf(deps.store, scope));
    const hitsRead: Promise<RecallHit[]> =
      message.trim().length > 0
        ? runRecall(
            { ...deps, store: recallStore, correctedIndex },
            message,
            {
              scopes,
              k: Math.max(16, input.episodes * 3),
              trackAccess: deps.trackAccess !== false,
              ...(input.persona !== undefined ? { persona: input.persona } : {}),
              ...(input.timezoneOffsetMinutes !== undefined ? { timezoneOffsetMinutes: input.timezoneOffsetMinutes } : {}),
              ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
            },
            { keepCopies: true },
          ).then((r) => r.hits)
        : Promise.resolve([]);
    const cues = cuesOf({
      objects: input.percept?.objects ?? [],
      people: input.percept?.people ?? [],
      ...(input.percept?.goal !== undefined ? { goal: input.percept.goal } : {}),
    });
    const conceptsRead = matchConcepts(store, scopes, cues, now);
    const relationsRead = deadline.then(conceptsRead, (concepts) => readConceptRelations(store, scopes, concepts, now));
    const groundingRead = deadline.then(conceptsRead, async (concepts) => {
      // Not started when it cannot finish in time: the cached level is the honest answer then.
      if (cache.groundingMs > 0 && cache.groundingMs > deadline.remaining()) return null;
      const started = stopwatch.now();
      const grounding = await groundConcepts(store, scopes, concepts, now);
      cache.recordGrounding(stopwatch.now() - started);
      return grounding;
    });
    const predictionsRead = deadline.then(conceptsRead, (concepts) =>
      predictFromConcepts({ store, now }, scopes, concepts, PREDICTIONS_IN_CONTEXT, CONTEXT_PREDICTION_EPISODES),
    );
    const knowledgeRead = deadline.then(hitsRead, (hits) => knowledgeOf({ ...deps, store }, scopes, hits));
    // Which episodes' captured claims were corrected since: a lookup that does not fit leaves them unmarked (`minimal`).
    let correctionsSkipped = false;
    const correctionStore = storeWithDeadline(deps.store, { ...gate, degrade: true, onSkip: () => (correctionsSkipped = true) });
    const correctionsRead = deadline.then(hitsRead, (hits) =>
      readCorrections(correctionStore, scopes, episodesFromHits(hits, input.episodes), now, correctedIndex),
    );
    // after the concept lookup: cautions are about the concepts a turn names
    const affectRead = deadline.then(conceptsRead, (concepts) =>
      readAffect(
        store,
        scopes,
        {
          message,
          cues: [
            ...(input.percept?.objects ?? []),
            ...(input.percept?.people ?? []),
            input.percept?.goal ?? '',
            ...concepts.map((c) => c.name),
          ],
        },
        now,
      ),
    );
    const chainsRead =
      input.chains === true
        ? deadline.then(hitsRead, (hits) => chainEntries(store, { scopes, ids: hits.map((h) => h.id), now }))
        : undefined;

    const [rules, profile, hits, knowledge, concepts, relations, grounding, predictions, affect, corrections] = await Promise.all([
      settle(rulesRead),
      settle(profileRead),
      deadline.race(hitsRead),
      deadline.race(knowledgeRead),
      deadline.race(conceptsRead),
      deadline.race(relationsRead),
      deadline.race(groundingRead),
      deadline.race(predictionsRead),
      deadline.race(affectRead),
      deadline.race(correctionsRead),
    ]);
    const chains = chainsRead !== undefined ? await deadline.race(chainsRead) : undefined;

    const parts: StructuredContext['parts'] = {
      rules: rules.done ? { level: 'full', items: [...rules.value.rules] } : cachedOr(cache.rules(key)?.items.rules),
      profile: profile.done
        ? { level: 'full', items: rankProfile(profile.value, message) }
        : cachedOr(rankOr(cache.profile(key)?.items, message)),
      knowledge:
        knowledge.done && skippedInRecall.length === 0
          ? knowledge.value
          : hits.done
            ? { level: 'minimal', items: knowledgeFromHits(hits.value, new Set()).slice(0, KNOWLEDGE_LIMIT) }
            : skipped(),
      concepts: concepts.done
        ? conceptPart(concepts.value, relations.done ? relations.value : null, grounding.done ? grounding.value : null)
        : skipped(),
      predictions: predictions.done ? { level: 'full', items: predictions.value.predictions } : skipped(),
      episodes: hits.done
        ? {
            level: skippedInRecall.length === 0 && corrections.done && !correctionsSkipped ? 'full' : 'minimal',
            items: markCorrections(episodesFromHits(hits.value, input.episodes), corrections.done ? corrections.value : new Map()),
          }
        : skipped(),
      cautions: affect.done ? { level: 'full', items: affect.value.cautions } : skipped(),
      mood: affect.done ? { level: 'full', items: affect.value.mood !== null ? [affect.value.mood] : [] } : skipped(),
      ...(chains !== undefined ? { chains: chains.done ? { level: 'full' as const, items: chains.value } : skipped<ChainEntry>() } : {}),
    };
    const fields = profileFieldsOf(
      rules.done ? rules.value : cache.rules(key)?.items,
      profile.done ? profile.value : cache.profile(key)?.items,
      rules.done && profile.done,
    );
    if (fields !== undefined) parts.profileFields = fields;
    dropDuplicates(parts);
    const draft = { budgetMs: input.budgetMs, elapsedMs: round(deadline.elapsed()), parts };
    const trimmed = trimToTokens(draft, input.maxTokens);
    draft.elapsedMs = round(deadline.elapsed());
    // Only a build the deadline cut short says how late this machine is (not one that waited for a first read of rules or profile).
    if (!waited && deadline.expired()) cache.recordLateness(deadline.elapsed() - deadlineMs);
    let markdown = renderMarkdown(draft);
    if (approximateTokens(markdown) > input.maxTokens) {
      // the header's elapsed time grew a digit while trimming: trim again with the final header
      for (const [part, n] of Object.entries(trimToTokens(draft, input.maxTokens)) as [keyof TrimmedCounts, number][])
        trimmed[part] = (trimmed[part] ?? 0) + n;
      markdown = renderMarkdown(draft);
    }
    return {
      scopes: [...scopes],
      message,
      budgetMs: input.budgetMs,
      elapsedMs: draft.elapsedMs,
      maxTokens: input.maxTokens,
      tokens: approximateTokens(markdown),
      parts,
      trimmed,
      markdown,
    };
  } finally {
    deadline.dispose();
    // Reads that did not fit refresh the cache once the caller has its context.
    if (refreshes.length > 0) scheduler.after(0, () => void Promise.allSettled(refreshes.map((refresh) => refresh())));
  }
}

/** Knowledge: recall's semantic and statistical hits, plus what activation reaches from the top hits. */
async function knowledgeOf(
  deps: ContextDeps,
  scopes: readonly Scope[],
  hits: RecallHit[],
): Promise<ContextPart<StructuredContext['parts']['knowledge']['items'][number]>> {
  const direct = knowledgeFromHits(hits, new Set());
  if (hits.length === 0) return { level: 'full', items: direct.slice(0, KNOWLEDGE_LIMIT) };
  const from = hits.slice(0, 5).map((h) => h.id);
  const activate: ActivateFn = deps.activate ?? (async (query) => spreadFrom(deps, query));
  const activated: { record: MemoryRecord; score: number }[] = await activate({ scopes, from, limit: 32 });
  return { level: 'full', items: mergeKnowledge(direct, activated, new Set()) };
}

/** Cross-layer spreading activation (src/core/graph) from the top hits, strongest first. */
async function spreadFrom(
  deps: ContextDeps,
  query: { scopes: readonly Scope[]; from: readonly string[]; limit: number },
): Promise<{ record: MemoryRecord; score: number }[]> {
  const result = await spreadActivation(
    deps.store,
    { scopes: query.scopes, seeds: query.from.map((id) => ({ id })), now: deps.clock.now() },
    { maxHops: 2 },
  );
  return result.ranked.slice(0, query.limit).map((a) => ({ record: a.record, score: a.activation }));
}

function conceptPart(
  concepts: readonly MatchedConcept[],
  relations: Awaited<ReturnType<typeof readConceptRelations>> | null,
  grounding: Awaited<ReturnType<typeof groundConcepts>> | null,
): ContextPart<ConceptEntry> {
  const items = concepts.map((concept) => {
    const entry = minimalConcept(concept);
    const cached = relations?.get(concept.id);
    if (cached === undefined) return entry;
    entry.level = 'cached';
    entry.relations = cached.relations;
    entry.statistics = uniqueStatistics(cached.statistics);
    const fresh = grounding?.get(concept.id);
    if (fresh !== undefined) applyGrounding(entry, concept, fresh);
    return entry;
  });
  items.sort((a, b) => b.matchedBy.length - a.matchedBy.length || b.episodeCount - a.episodeCount || a.name.localeCompare(b.name));
  return { level: lowest(items.map((i) => i.level)), items };
}

/** A part's level is the lowest level of its entries (full when it has none). */
function lowest(levels: readonly Exclude<ContextLevel, 'skipped'>[]): ContextLevel {
  if (levels.includes('minimal')) return 'minimal';
  if (levels.includes('cached')) return 'cached';
  return 'full';
}

/**
 * Known and missing fields of the profile schema; undefined without a schema. `skipped` (both lists
 * empty) when the facts were not read in time: a field is never called missing without looking.
 */
function profileFieldsOf(
  procedural: ProceduralRead | undefined,
  facts: readonly ProfileFact[] | undefined,
  fresh: boolean,
): (ProfileFieldsPart & { level: ContextLevel }) | undefined {
  if (procedural === undefined || procedural.schema.length === 0) return undefined;
  if (facts === undefined) return { level: 'skipped', known: [], missing: [] };
  return { level: fresh ? 'full' : 'cached', ...matchProfileFields(procedural.schema, facts) };
}

function rankOr(facts: ProfileFact[] | undefined, message: string) {
  return facts === undefined ? undefined : rankProfile(facts, message);
}

function cachedOr<T>(items: T[] | undefined): ContextPart<T> {
  return items === undefined ? skipped() : { level: 'cached', items: [...items] };
}

function skipped<T>(): ContextPart<T> {
  return { level: 'skipped', items: [] };
}

/**
 * A record appears once: rules, profile, cautions, mood and the concepts' stored statistics win over
 * knowledge, and a caution named by two concepts is shown once.
 */
function dropDuplicates(parts: StructuredContext['parts']): void {
  const cautions = new Set<string>();
  parts.cautions.items = parts.cautions.items.filter((c) => !cautions.has(c.id) && (cautions.add(c.id), true));
  const seen = new Set([
    ...parts.rules.items.map((r) => r.id),
    ...parts.profile.items.map((p) => p.id),
    ...cautions,
    ...parts.mood.items.map((m) => m.id),
    ...parts.concepts.items.flatMap((c) => (c.statistics ?? []).flatMap((s) => (s.id !== undefined ? [s.id] : []))),
  ]);
  parts.knowledge.items = parts.knowledge.items.filter((k) => !seen.has(k.id));
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
