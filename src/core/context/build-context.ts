/**
 * The context builder (DESIGN §6): for one turn, procedural rules, profile facts, knowledge, live
 * concepts for what is perceived, predictions and relevant episodes — within a wall-clock deadline
 * and a token budget, each part labelled with the level it reached.
 *
 * Every read starts at once and races one deadline. Rules and profile fall back to the copy this
 * engine last read (level `cached`) when the fresh read is late; concepts degrade from full (relations,
 * stored statistics, fresh grounding) to cached (no grounding) to minimal (name, category, episode
 * count); a part with nothing in time is `skipped`. Late work is dropped, never awaited.
 */
import type { MemoryRecord } from '../memory.js';
import { recall as runRecall, type RecallDeps, type RecallHit } from '../recall/recall.js';
import type { Scope } from '../scope.js';
import { cuesOf, matchConcepts, type MatchedConcept } from './concept-lookup.js';
import { groundConcepts, minimalConcept, readConceptRelations, verbalGrounding } from './concepts.js';
import { Deadline, wallStopwatch, type Stopwatch } from './deadline.js';
import { episodesFromHits, knowledgeFromHits, mergeKnowledge, readProfile, readRules, KNOWLEDGE_LIMIT, type ActivateFn } from './parts.js';
import { predictFromConcepts } from './predict.js';
import { approximateTokens, renderMarkdown, trimToTokens } from './render.js';
import type { ParsedContextInput } from './schemas.js';
import type { ConceptEntry, ContextLevel, ContextPart, ProfileEntry, RuleEntry, StructuredContext } from './types.js';

/** Time kept back from the budget for trimming and rendering. */
const RENDER_RESERVE_MS = 2;
/** Predictions shown in a context. */
const PREDICTIONS_IN_CONTEXT = 3;

/**
 * What the builder remembers between calls on one engine: the last rules and profile read per scope
 * set (served as `cached` when a fresh read is late) and how long grounding took (so it is not started
 * when it cannot finish).
 */
export class ContextCache {
  readonly #rules = new Map<string, RuleEntry[]>();
  readonly #profile = new Map<string, ProfileEntry[]>();
  #groundingMs = 0;

  rules(key: string): RuleEntry[] | undefined {
    return this.#rules.get(key);
  }
  setRules(key: string, rules: RuleEntry[]): void {
    remember(this.#rules, key, rules);
  }
  profile(key: string): ProfileEntry[] | undefined {
    return this.#profile.get(key);
  }
  setProfile(key: string, profile: ProfileEntry[]): void {
    remember(this.#profile, key, profile);
  }
  /** Smoothed duration of fresh grounding, ms. */
  get groundingMs(): number {
    return this.#groundingMs;
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
  /** The deadline's timer (default: `performance.now`). */
  stopwatch?: Stopwatch;
  /** Record the surfaced memories as accessed (default true; false for warm-up builds). */
  trackAccess?: boolean;
}

/** Builds the context of one turn. Input is validated. */
export async function buildContext(deps: ContextDeps, input: ParsedContextInput): Promise<StructuredContext> {
  const stopwatch = deps.stopwatch ?? wallStopwatch;
  const deadline = new Deadline(Math.max(1, input.budgetMs - RENDER_RESERVE_MS), stopwatch);
  try {
    const now = deps.clock.now();
    const { scopes, message } = input;
    const key = [...scopes].sort().join('\n');
    const { store, cache } = deps;

    const rulesRead = readRules(store, scopes, now).then((rules) => (cache.setRules(key, rules), rules));
    const profileRead = readProfile(store, scopes, message, now).then((profile) => (cache.setProfile(key, profile), profile));
    const hitsRead: Promise<RecallHit[]> =
      message.trim().length > 0 ? runRecall(deps, message, { scopes, k: Math.max(16, input.episodes * 3), trackAccess: deps.trackAccess !== false }).then((r) => r.hits) : Promise.resolve([]);
    const cues = cuesOf({ objects: input.percept?.objects ?? [], people: input.percept?.people ?? [], ...(input.percept?.goal !== undefined ? { goal: input.percept.goal } : {}) });
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
    const predictionsRead = deadline.then(conceptsRead, (concepts) => predictFromConcepts({ store, now }, scopes, concepts, PREDICTIONS_IN_CONTEXT));
    const knowledgeRead = deadline.then(hitsRead, (hits) => knowledgeOf(deps, scopes, hits));

    const [rules, profile, hits, knowledge, concepts, relations, grounding, predictions] = await Promise.all([
      deadline.race(rulesRead),
      deadline.race(profileRead),
      deadline.race(hitsRead),
      deadline.race(knowledgeRead),
      deadline.race(conceptsRead),
      deadline.race(relationsRead),
      deadline.race(groundingRead),
      deadline.race(predictionsRead),
    ]);

    const parts: StructuredContext['parts'] = {
      rules: rules.done ? { level: 'full', items: rules.value } : cachedOr(cache.rules(key)),
      profile: profile.done ? { level: 'full', items: profile.value } : cachedOr(cache.profile(key)),
      knowledge: knowledge.done ? knowledge.value : hits.done ? { level: 'minimal', items: knowledgeFromHits(hits.value, new Set()).slice(0, KNOWLEDGE_LIMIT) } : skipped(),
      concepts: concepts.done
        ? conceptPart(concepts.value, relations.done ? relations.value : null, grounding.done ? grounding.value : null)
        : skipped(),
      predictions: predictions.done ? { level: 'full', items: predictions.value.predictions } : skipped(),
      episodes: hits.done ? { level: 'full', items: episodesFromHits(hits.value, input.episodes) } : skipped(),
    };
    dropDuplicates(parts);
    const draft = { budgetMs: input.budgetMs, elapsedMs: 0, parts };
    const trimmed = trimToTokens(draft, input.maxTokens);
    draft.elapsedMs = round(deadline.elapsed());
    const markdown = renderMarkdown(draft);
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
  }
}

/** Knowledge: recall's semantic and statistical hits, plus what activation reaches from the top hits. */
async function knowledgeOf(deps: ContextDeps, scopes: readonly Scope[], hits: RecallHit[]): Promise<ContextPart<StructuredContext['parts']['knowledge']['items'][number]>> {
  const direct = knowledgeFromHits(hits, new Set());
  if (deps.activate === undefined || hits.length === 0) return { level: 'full', items: direct.slice(0, KNOWLEDGE_LIMIT) };
  const activated: { record: MemoryRecord; score: number }[] = await deps.activate({ scopes, from: hits.slice(0, 5).map((h) => h.id), limit: 32 });
  return { level: 'full', items: mergeKnowledge(direct, activated, new Set()) };
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
    entry.statistics = [...cached.statistics];
    const fresh = grounding?.get(concept.id);
    if (fresh !== undefined) {
      entry.level = 'full';
      entry.grounding = fresh;
      entry.statistics.push(...verbalGrounding(concept.name, fresh));
    }
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

function cachedOr<T>(items: T[] | undefined): ContextPart<T> {
  return items === undefined ? skipped() : { level: 'cached', items: [...items] };
}

function skipped<T>(): ContextPart<T> {
  return { level: 'skipped', items: [] };
}

/** A record appears once: rules and profile win over knowledge. */
function dropDuplicates(parts: StructuredContext['parts']): void {
  const seen = new Set([...parts.rules.items.map((r) => r.id), ...parts.profile.items.map((p) => p.id)]);
  parts.knowledge.items = parts.knowledge.items.filter((k) => !seen.has(k.id));
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
