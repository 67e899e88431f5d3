/**
 * Finds the concepts a percept or a forming episode names, with the episodes each refers to.
 *
 * Concepts are semantic records found by name with per-layer refs. A token with no concept
 * yet (extraction runs in the background, or never ran) falls back to a *term*: the episodes whose
 * structured fields or text contain it, found by BM25 and checked token by token. So context and
 * predictions work on a fresh store and improve as consolidation forms concepts.
 */
import type { MemoryRecord } from '../core/memory.js';
import { isVisible } from '../core/memory.js';
import type { Store } from '../core/ports/store.js';
import type { Scope } from '../core/scope.js';
import { contentTerms, normalizeTokens, stem } from '../core/text/index.js';

/** How many episodes a term (a token without a concept) may gather. */
const TERM_EPISODE_LIMIT = 200;

/** A concept (or a term standing in for one) with the ids of its episodes. */
export interface MatchedConcept {
  /** The concept record's id, or `term:<token>` for a term. */
  id: string;
  scope: Scope;
  name: string;
  category: string | null;
  record: MemoryRecord | null;
  /** Episode ids, insertion order (oldest first). */
  episodeIds: string[];
  /** Statistical record ids referred to by the concept. */
  statisticIds: string[];
  /** The cues it matched (e.g. `object:coffee_mug`). */
  matchedBy: string[];
}

/** One cue: a labelled name as perceived (`object:coffee_mug`), its whole-name forms and its tokens. */
export interface Cue {
  label: string;
  /** `coffee_mug`, `coffee mug`: names a concept of the whole may carry. */
  wholes: string[];
  /** `coffee`, `mug`: normalised tokens (seed 000 normalize_tokens). */
  tokens: string[];
}

/** Cues of a percept: each object, person and the goal (and tool or intent, when known). */
export function cuesOf(parts: {
  objects?: readonly string[];
  people?: readonly string[];
  goal?: string;
  tool?: string;
  intent?: string;
}): Cue[] {
  const cues: Cue[] = [];
  const add = (kind: string, raw: string | undefined) => {
    if (raw === undefined || raw.trim().length === 0) return;
    const tokens = normalizeTokens(raw);
    const wholes = new Set([raw.trim().toLowerCase(), tokens.join('_'), tokens.join(' ')]);
    if (tokens.length === 1) wholes.delete(tokens[0] as string);
    cues.push({ label: `${kind}:${raw.trim()}`, wholes: [...wholes].filter((w) => w.length > 0), tokens });
  };
  for (const o of parts.objects ?? []) add('object', o);
  for (const p of parts.people ?? []) add('person', p);
  add('goal', parts.goal);
  add('tool', parts.tool);
  add('intent', parts.intent);
  return cues;
}

/** The normalised tokens of an episode: its structured fields and its text. */
export function episodeTokens(record: MemoryRecord): Set<string> {
  const d = record.data;
  const tokens = new Set<string>();
  const addAll = (raw: string | undefined) => {
    if (raw !== undefined) for (const t of normalizeTokens(raw)) tokens.add(t);
  };
  for (const o of d.perception?.objects ?? []) addAll(o);
  for (const p of d.perception?.people ?? []) addAll(p);
  addAll(d.context?.goal);
  addAll(d.action?.tool);
  addAll(d.decision?.intent);
  for (const t of contentTerms(record.summary ?? record.content)) tokens.add(t);
  if (record.summary !== null) for (const t of contentTerms(record.content)) tokens.add(t);
  // Stems too, so `grasp` finds "grasping" as BM25 (which stems) did.
  for (const t of [...tokens]) tokens.add(stem(t));
  return tokens;
}

interface LayersReader {
  findConcepts(query: { scopes: readonly Scope[]; names: readonly string[]; limit?: number }): Promise<MemoryRecord[]>;
  getConceptRefs(query: {
    scopes: readonly Scope[];
    conceptIds: readonly string[];
    layers?: readonly ('episodic' | 'statistical')[];
    visibleAt?: number;
  }): Promise<{ conceptId: string; layer: string; refId: string }[]>;
}

function layersOf(store: Store): LayersReader | null {
  const s = store as unknown as Partial<LayersReader>;
  return typeof s.findConcepts === 'function' && typeof s.getConceptRefs === 'function' ? (s as LayersReader) : null;
}

/**
 * The concepts named by `cues` in `scopes`: real concepts where they exist (with their refs), terms
 * otherwise. One entry per concept; a concept matched by several cues lists them all.
 */
export async function matchConcepts(store: Store, scopes: readonly Scope[], cues: readonly Cue[], now: number): Promise<MatchedConcept[]> {
  if (cues.length === 0) return [];
  const byId = new Map<string, MatchedConcept>();
  const layers = layersOf(store);
  // Tokens without a concept become terms, each remembering which cues named it.
  const termCues = new Map<string, string[]>();
  const toTerms = (cue: Cue, tokens: readonly string[]) => {
    for (const token of tokens) termCues.set(token, [...(termCues.get(token) ?? []), cue.label]);
  };
  if (layers !== null) {
    const names = [...new Set(cues.flatMap((c) => [...c.wholes, ...c.tokens]))];
    const found = (await layers.findConcepts({ scopes, names, limit: 500 })).filter((r) => isVisible(r, {}, now) && r.layer === 'semantic');
    const byName = new Map<string, MemoryRecord[]>();
    for (const r of found) byName.set(nameOf(r), [...(byName.get(nameOf(r)) ?? []), r]);
    const chosen: { cue: Cue; record: MemoryRecord }[] = [];
    for (const cue of cues) {
      // The whole name wins (`coffee_mug`); otherwise each token on its own (`grasp`, `coffee`, `mug`).
      const whole = cue.wholes.find((n) => byName.has(n));
      if (whole !== undefined) {
        for (const record of byName.get(whole) ?? []) chosen.push({ cue, record });
        continue;
      }
      const missing: string[] = [];
      for (const token of cue.tokens) {
        const records = byName.get(token);
        if (records === undefined) missing.push(token);
        else for (const record of records) chosen.push({ cue, record });
      }
      toTerms(cue, missing);
    }
    const ids = [...new Set(chosen.map((c) => c.record.id))];
    // refs to current records only: a forgotten or expired episode is neither counted nor grounded
    const refs =
      ids.length > 0 ? await layers.getConceptRefs({ scopes, conceptIds: ids, layers: ['episodic', 'statistical'], visibleAt: now }) : [];
    // A named record without episode refs (a fact that happens to carry the name, or a concept not yet
    // grounded) does not stop the episodes from being found by their words.
    const withEpisodes = new Set(refs.filter((r) => r.layer === 'episodic').map((r) => r.conceptId));
    const byCue = new Map<Cue, MemoryRecord[]>();
    for (const { cue, record } of chosen) byCue.set(cue, [...(byCue.get(cue) ?? []), record]);
    for (const [cue, records] of byCue) {
      for (const name of new Set(records.map(nameOf))) {
        if (!records.some((r) => nameOf(r) === name && withEpisodes.has(r.id))) toTerms(cue, normalizeTokens(name));
      }
    }
    for (const { cue, record } of chosen) {
      const existing = byId.get(record.id);
      if (existing !== undefined) {
        if (!existing.matchedBy.includes(cue.label)) existing.matchedBy.push(cue.label);
        continue;
      }
      const mine = refs.filter((ref) => ref.conceptId === record.id);
      byId.set(record.id, {
        id: record.id,
        scope: record.scope,
        name: String(record.data.name ?? nameOf(record)),
        category: typeof record.data.category === 'string' ? record.data.category : null,
        record,
        episodeIds: mine.filter((r) => r.layer === 'episodic').map((r) => r.refId),
        statisticIds: mine.filter((r) => r.layer === 'statistical').map((r) => r.refId),
        matchedBy: [cue.label],
      });
    }
  } else {
    for (const cue of cues) toTerms(cue, cue.tokens);
  }
  for (const term of await matchTerms(store, scopes, termCues, now)) {
    const existing = byId.get(term.id);
    if (existing !== undefined) existing.matchedBy.push(...term.matchedBy);
    else byId.set(term.id, term);
  }
  return [...byId.values()];
}

function nameOf(record: MemoryRecord): string {
  return String(record.data.name ?? '')
    .trim()
    .toLowerCase();
}

/** Terms for tokens without a concept: one per token, the episodes containing that token. */
async function matchTerms(
  store: Store,
  scopes: readonly Scope[],
  tokenCues: ReadonlyMap<string, string[]>,
  now: number,
): Promise<MatchedConcept[]> {
  if (tokenCues.size === 0) return [];
  // One BM25 read for all the tokens (OR-ed); each token then keeps the episodes that contain it.
  const tokens = [...tokenCues.keys()];
  const hits = await store.lexicalSearch({
    scopes,
    layers: ['episodic'],
    now,
    limit: TERM_EPISODE_LIMIT * Math.min(3, tokens.length),
    terms: tokens.map((term) => ({ term })),
  });
  const perToken = tokens.map((token) => ({ token, hits }));
  const ids = [...new Set(hits.map((h) => h.id))];
  const records = new Map((ids.length > 0 ? await store.getMemories(ids, scopes) : []).map((r) => [r.id, r]));
  const tokensOf = new Map<string, Set<string>>();
  const terms: MatchedConcept[] = [];
  for (const { token, hits } of perToken) {
    const episodeIds: string[] = [];
    for (const hit of hits) {
      const record = records.get(hit.id);
      if (record === undefined) continue;
      let tokens = tokensOf.get(record.id);
      if (tokens === undefined) {
        tokens = episodeTokens(record);
        tokensOf.set(record.id, tokens);
      }
      if (tokens.has(token) || tokens.has(stem(token))) episodeIds.push(record.id);
    }
    if (episodeIds.length === 0) continue;
    episodeIds.sort();
    terms.push({
      id: `term:${token}`,
      scope: records.get(episodeIds[0] as string)?.scope ?? (scopes[0] as string),
      name: token,
      category: 'term',
      record: null,
      episodeIds,
      statisticIds: [],
      matchedBy: [...new Set(tokenCues.get(token) ?? [])],
    });
  }
  return terms;
}
