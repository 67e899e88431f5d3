/**
 * The parts of a context that do not depend on perception: procedural rules, profile facts, knowledge
 * reached from the message, and relevant episodes with their sources.
 */
import type { MemoryRecord } from '../core/memory.js';
import { isVisible, visibilityBounds } from '../core/memory.js';
import type { Store } from '../core/ports/store.js';
import type { RecallHit } from '../core/recall/recall.js';
import type { Scope } from '../core/scope.js';
import { contentTerms } from '../core/text/index.js';
import type { EpisodeEntry, KnowledgeEntry, ProfileEntry, RuleEntry } from './types.js';
import { isChunkParent, isConcept, isReflection, isStructural } from '../core/record-kinds.js';
import { fieldsOfSchemaRecord, isProfileSchema, mergeSchemaFields, type ProfileField } from '../core/profile/profile-schema.js';
import { isScopeSetting } from '../core/scope-settings.js';

/** At most this many records of a layer are read for rules and profile. */
const LIST_LIMIT = 2_000;
const PAGE = 500;
/** Profile facts kept before the token budget. */
const PROFILE_LIMIT = 12;
/** Knowledge entries (seed 000: ranked, capped at 8). */
export const KNOWLEDGE_LIMIT = 8;

/**
 * Current records of one layer in `scopes` — what recall's default read calls current now, so a claim
 * superseded from a future date stays until then — paging by id, at most LIST_LIMIT.
 */
async function listCurrent(store: Store, scopes: readonly Scope[], layer: 'procedural' | 'semantic', now: number): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  const { statuses } = visibilityBounds({}, now);
  let afterId: string | undefined;
  while (out.length < LIST_LIMIT) {
    const page = await store.listMemories({
      scopes,
      layers: [layer],
      statuses,
      limit: PAGE,
      ...(afterId !== undefined ? { afterId } : {}),
    });
    for (const record of page) if (isVisible(record, {}, now)) out.push(record);
    if (page.length < PAGE) break;
    afterId = page[page.length - 1]?.id;
  }
  return out;
}

/** The procedural records of a read: the rules, and the profile schema's fields (settings are not rules). */
export interface ProceduralRead {
  rules: RuleEntry[];
  /** Fields of the current profile-schema records, scopes in the read's order, newest record first. */
  schema: ProfileField[];
}

/** Whether a procedural record is a rule an agent is handed: not a chunked document's parent, a persona or a profile schema. */
export function isHandedRule(record: MemoryRecord): boolean {
  return !isChunkParent(record) && !isScopeSetting(record);
}

/** Every current procedural rule of the scopes (highest priority first, then oldest first) and the profile schema. */
export async function readProcedural(store: Store, scopes: readonly Scope[], now: number): Promise<ProceduralRead> {
  const records = await listCurrent(store, scopes, 'procedural', now);
  const rules = records
    .filter(isHandedRule)
    .map((r) => ({ id: r.id, scope: r.scope, content: r.content, priority: typeof r.data.priority === 'number' ? r.data.priority : 0 }))
    .sort((a, b) => b.priority - a.priority || (a.id < b.id ? -1 : 1));
  const schemas = records
    .filter(isProfileSchema)
    .sort((a, b) => scopes.indexOf(a.scope) - scopes.indexOf(b.scope) || (a.id < b.id ? 1 : -1));
  return { rules, schema: mergeSchemaFields(schemas.map(fieldsOfSchemaRecord)) };
}

/** Scopes that hold a user's profile (`…/users/<id>…`); all scopes when none does. */
export function profileScopes(scopes: readonly Scope[]): Scope[] {
  const users = scopes.filter((s) => /(^|\/)users\/[^/]+/.test(s));
  return users.length > 0 ? [...users] : [...scopes];
}

/** Categories concept extraction gives concepts: such records are concepts, not profile facts. */
const CONCEPT_CATEGORIES = new Set(['concept', 'term', 'goal', 'tool', 'object', 'person', 'entity', 'intent']);

/** Is this semantic record a profile fact (not a concept, a reflection or a chunk parent)? */
function isProfileFact(record: MemoryRecord): boolean {
  if (isStructural(record)) return false;
  if (isReflection(record) || record.provenance.kind === 'statistical') return false;
  const category = typeof record.data.category === 'string' ? record.data.category.toLowerCase() : '';
  return !CONCEPT_CATEGORIES.has(category);
}

/** A profile fact as cached between builds (ranked per message by `rankProfile`). */
export interface ProfileFact extends ProfileEntry {
  pinned: boolean;
  mentionCount: number;
  validFrom: number;
}

/** How many profile facts are kept for ranking (most important first). */
const PROFILE_POOL = 200;

/** Current semantic facts of the user's scopes: the pool `rankProfile` ranks for each message. */
export async function readProfileFacts(store: Store, scopes: readonly Scope[], now: number): Promise<ProfileFact[]> {
  const records = (await listCurrent(store, profileScopes(scopes), 'semantic', now)).filter(isProfileFact);
  return records
    .map((r) => ({
      id: r.id,
      scope: r.scope,
      content: r.content,
      ...(r.data.claim !== undefined ? { claim: r.data.claim } : {}),
      confidence: r.confidence,
      importance: r.importance,
      pinned: r.pinned,
      mentionCount: r.mentionCount,
      validFrom: r.validFrom,
    }))
    .sort((a, b) => staticScore(b) - staticScore(a))
    .slice(0, PROFILE_POOL);
}

function staticScore(f: ProfileFact): number {
  return (f.pinned ? 10 : 0) + (f.importance ?? 1) + Math.min(0.3, (f.mentionCount - 1) * 0.1) + f.validFrom / 1e15;
}

/**
 * Profile facts for a message: pinned first, then by importance (unscored counts as 1), overlap with
 * the message, mentions and recency; at most PROFILE_LIMIT.
 */
export function rankProfile(facts: readonly ProfileFact[], message: string): ProfileEntry[] {
  const terms = new Set(contentTerms(message));
  return facts
    .map((f) => ({
      f,
      score: staticScore(f) + (terms.size === 0 ? 0 : contentTerms(f.content).filter((t) => terms.has(t)).length / terms.size),
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, PROFILE_LIMIT)
    .map(({ f }) => ({
      id: f.id,
      scope: f.scope,
      content: f.content,
      ...(f.claim !== undefined ? { claim: f.claim } : {}),
      confidence: f.confidence,
      importance: f.importance,
    }));
}

/** Spreading activation, when the engine has it: ranked records reached from `from`. */
export type ActivateFn = (input: {
  scopes: readonly Scope[];
  from: readonly string[];
  limit: number;
}) => Promise<{ record: MemoryRecord; score: number }[]>;

/** Layers that count as knowledge (episodes and rules have their own parts). */
const KNOWLEDGE_LAYERS = new Set(['semantic', 'statistical']);

/** Knowledge from recall's direct hits (semantic and statistical), ranked by recall score. */
export function knowledgeFromHits(hits: readonly RecallHit[], exclude: ReadonlySet<string>): KnowledgeEntry[] {
  return hits
    .filter((h) => KNOWLEDGE_LAYERS.has(h.layer) && !exclude.has(h.id) && h.isChunkParent !== true)
    .map((h) => ({
      id: h.id,
      scope: h.scope,
      layer: h.layer,
      content: h.content,
      ...(typeof h.name === 'string' ? { name: h.name } : {}),
      score: round(h.score),
      relevance: h.relevance,
      via: 'recall' as const,
    }));
}

/**
 * Merges direct hits with records reached by activation from the top hits. Activation scores are
 * scaled to the best direct hit so both rank on one scale; at most KNOWLEDGE_LIMIT entries.
 */
export function mergeKnowledge(
  direct: readonly KnowledgeEntry[],
  activated: readonly { record: MemoryRecord; score: number }[],
  exclude: ReadonlySet<string>,
): KnowledgeEntry[] {
  const byId = new Map(direct.map((k) => [k.id, k]));
  const top = direct.length > 0 ? Math.max(...direct.map((k) => k.score)) : 1;
  const best = Math.max(1e-9, ...activated.map((a) => a.score));
  for (const { record, score } of activated) {
    // Extracted concepts are index nodes (their name only); what they lead to is the knowledge.
    if (!KNOWLEDGE_LAYERS.has(record.layer) || isConcept(record) || exclude.has(record.id) || byId.has(record.id)) continue;
    byId.set(record.id, {
      id: record.id,
      scope: record.scope,
      layer: record.layer,
      content: record.content,
      ...(typeof record.data.name === 'string' ? { name: record.data.name } : {}),
      score: round((score / best) * top * 0.9),
      via: 'activation',
    });
  }
  return [...byId.values()].sort((a, b) => b.score - a.score).slice(0, KNOWLEDGE_LIMIT);
}

/** Relevant episodes from recall's hits, with their sources, best first. */
export function episodesFromHits(hits: readonly RecallHit[], limit: number): EpisodeEntry[] {
  return hits
    .filter((h) => h.layer === 'episodic')
    .slice(0, limit)
    .map((h) => {
      const context = h.context as { sessionId?: string } | undefined;
      const outcome = h.outcome as EpisodeEntry['outcome'] | undefined;
      return {
        id: h.id,
        scope: h.scope,
        content: h.summary ?? h.content,
        occurredAt: h.occurredAt,
        score: round(h.score),
        relevance: h.relevance,
        sources: h.provenance.sources,
        ...(context?.sessionId !== undefined ? { sessionId: context.sessionId } : {}),
        ...(outcome !== undefined ? { outcome } : {}),
      };
    });
}

function round(value: number): number {
  return Number(value.toFixed(4));
}
