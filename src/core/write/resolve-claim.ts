/**
 * Supersession and dedup for claims (semantic and procedural layers), in that order (§11.1-2).
 *
 * Candidates are the scope's current claims of the same layer that share a claim subject, that name
 * another tool of a kind the claim names, or that rank among the nearest by vector or BM25. Each is
 * compared with `compareClaims`, which combines claim slots, correction markers and lexical overlap;
 * the embedding similarity is one signal, never the decision (§11.12).
 */
import type { Edge, MemoryRecord } from '../memory.js';
import { isVisible } from '../memory.js';
import { isConcept } from '../record-kinds.js';
import type { StoreTransaction } from '../ports/store.js';
import { contentTerms, dropFormatCharacters } from '../text/index.js';
import { claimClauses, compareClaims, extractClaim, toolsOfSameKind, type ClaimComparison } from './claims/index.js';
import { heldSince, linkedVersions } from './claim-versions.js';
import { newId } from './new-record.js';
import { newRecord } from '../record-factory.js';
import { turnSpeaker } from '../layers/turn-speaker.js';

/** Layers whose records are claims (the rest are events and never merged or superseded). */
export const CLAIM_LAYERS = new Set(['semantic', 'procedural']);

/** How many nearest neighbours (per channel) are compared with a new claim. */
const NEIGHBOURS = 6;
/** How many claims naming another tool of the same kind (best by BM25: the rarest names first) are compared. */
const SAME_KIND = 12;

export interface ClaimDecision {
  superseded: { record: MemoryRecord; comparison: ClaimComparison }[];
  mergeInto?: { record: MemoryRecord; comparison: ClaimComparison };
  /** Similarities of the nearest existing records (for surprise). */
  nearest: number[];
  /**
   * The latest instant a compared claim was recorded or ended at (-Infinity without one). Later than the
   * writer's clock, another writer's clock runs ahead of this one's: see {@link CLOCK_SKEW_MS}.
   */
  latest: number;
}

/**
 * How far ahead of the writer's clock another writer's may run (several servers over one PostgreSQL
 * database, a hook beside a server on another machine): a claim recorded that much "later" is still
 * compared with a new one. Without it a correction written 51 ms after the claim it corrects, by a
 * writer whose clock ran 51 ms behind, did not see that claim and left both current.
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** Fills the record's claim slot from its text (first slot), if the extractor finds one. */
export function attachClaimSlot(record: MemoryRecord): void {
  if (!CLAIM_LAYERS.has(record.layer) || record.data.claim !== undefined) return;
  const [slot] = extractClaim(record.content);
  if (slot !== undefined) record.data.claim = slot;
}

/** What `decideClaim` compares a claim with besides the current claims. */
export interface DecideClaimOptions {
  /**
   * A claim about an earlier time (validFrom before now) also meets the versions of its slot that held
   * since then, current or past (linked by SUPERSEDES, or ended by a validTo of their own), so that
   * `orderSupersessions` places it among them. For a claim being written or edited, not for a sweep.
   */
  pastVersions?: boolean;
}

/** Decides what a new claim does to the scope's current claims (and past versions, when asked). Reads only. */
export async function decideClaim(
  tx: StoreTransaction,
  record: MemoryRecord,
  embedding: Float32Array,
  now: number,
  options: DecideClaimOptions = {},
): Promise<ClaimDecision> {
  const pastVersions = options.pastVersions === true && record.validFrom < now;
  const { candidates, similarity, nearest } = await claimCandidates(tx, record, embedding, now, pastVersions);
  const decision: ClaimDecision = { superseded: [], nearest, latest: -Infinity };
  for (const candidate of candidates)
    decision.latest = Math.max(decision.latest, candidate.recordedAt, candidate.invalidatedAt ?? -Infinity);
  let bestAgreement: { record: MemoryRecord; comparison: ClaimComparison; score: number } | undefined;
  for (const candidate of candidates) {
    const sim = similarity.get(candidate.id);
    let comparison = compareClaims(record.content, candidate.content, sim !== undefined ? { similarity: Math.max(0, sim) } : {});
    // a version that began later says what changed since this one ("we switched to bun", "my car is now
    // a Tesla"), which only reads as a correction in its own direction: this one is then its history
    if (comparison.relation !== 'supersedes' && candidate.validFrom > record.validFrom) {
      const later = compareClaims(candidate.content, record.content, sim !== undefined ? { similarity: Math.max(0, sim) } : {});
      if (later.relation === 'supersedes') comparison = later;
    }
    if (comparison.relation === 'supersedes') {
      if (!isExempt(candidate, record)) decision.superseded.push({ record: candidate, comparison });
    } else if (comparison.relation === 'agrees') {
      const score = comparison.confidence + (sim ?? 0) * 0.1;
      if (bestAgreement === undefined || score > bestAgreement.score) bestAgreement = { record: candidate, comparison, score };
    }
  }
  if (decision.superseded.length === 0 && bestAgreement !== undefined) {
    decision.mergeInto = { record: bestAgreement.record, comparison: bestAgreement.comparison };
  }
  return decision;
}

/**
 * The current claims a stored claim coming back (restored after it was forgotten) meets that were
 * recorded after it and supersede it, as they would have had it been current when they were written.
 * Reads only; compared by subject and words (the record's stored vector is not read).
 */
export async function laterSuperseders(tx: StoreTransaction, record: MemoryRecord, now: number): Promise<SupersessionFound[]> {
  if (!CLAIM_LAYERS.has(record.layer) || isConcept(record)) return [];
  const { candidates } = await claimCandidates(tx, record, undefined, now);
  const found: SupersessionFound[] = [];
  for (const candidate of candidates) {
    if (candidate.recordedAt <= record.recordedAt) continue;
    const comparison = compareClaims(candidate.content, record.content);
    if (comparison.relation === 'supersedes' && !isExempt(record, candidate)) found.push({ record: candidate, comparison });
  }
  return found;
}

/**
 * The scope's current claims of the record's layer that share its claim subject, name another tool of
 * a kind it names, or rank among its nearest by BM25 (and by vector, given its embedding), other than
 * itself, concepts and claims attached to other things.
 */
async function claimCandidates(
  tx: StoreTransaction,
  record: MemoryRecord,
  embedding: Float32Array | undefined,
  now: number,
  pastVersions = false,
): Promise<{ candidates: MemoryRecord[]; similarity: Map<string, number>; nearest: number[] }> {
  const scopes = [record.scope];
  const layers = [record.layer];
  // what another writer whose clock runs ahead recorded is current too
  const seenAt = now + CLOCK_SKEW_MS;
  const terms = contentTerms(record.content)
    .slice(0, 32)
    .map((term) => ({ term }));
  // a tool's claims meet the claims about other tools of its kind, which share no word with it
  const kin = toolsOfSameKind(record.content).map((term) => ({ term }));
  const [vectorHits, lexicalHits, bySubject, byKind] = await Promise.all([
    embedding !== undefined ? tx.vectorSearch({ scopes, layers, now: seenAt, limit: NEIGHBOURS, vector: embedding }) : Promise.resolve([]),
    terms.length > 0 ? tx.lexicalSearch({ scopes, layers, now: seenAt, limit: NEIGHBOURS, terms }) : Promise.resolve([]),
    record.data.claim !== undefined
      ? tx.findClaims({ scope: record.scope, layers, subjects: [record.data.claim.subject], limit: 20 })
      : Promise.resolve([]),
    kin.length > 0 ? tx.lexicalSearch({ scopes, layers, now: seenAt, limit: SAME_KIND, terms: kin }) : Promise.resolve([]),
  ]);
  const similarity = new Map(vectorHits.map((hit) => [hit.id, hit.score]));
  const ids = [
    ...new Set([
      ...bySubject.map((r) => r.id),
      ...vectorHits.map((h) => h.id),
      ...lexicalHits.map((h) => h.id),
      ...byKind.map((h) => h.id),
    ]),
  ];
  const known = new Map(bySubject.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !known.has(id));
  for (const r of missing.length > 0 ? await tx.getMemories(missing, scopes) : []) known.set(r.id, r);
  if (pastVersions) {
    // the versions that held between the claim's start and now hang off the current ones by SUPERSEDES
    const nearby = ids.filter((id) => id !== record.id);
    for (const r of await linkedVersions(tx, record.scope, nearby)) {
      if (r.layer !== record.layer || known.has(r.id)) continue;
      known.set(r.id, r);
      ids.push(r.id);
    }
  }
  const candidates: MemoryRecord[] = [];
  const ours = speakerOf(record);
  for (const id of ids) {
    const candidate = known.get(id);
    if (candidate === undefined || candidate.id === record.id) continue;
    if (!isVisible(candidate, {}, seenAt) && !(pastVersions && heldSince(candidate, record))) continue;
    // a concept is a name, not a statement: no claim merges into or supersedes one (nor the reverse)
    if (isConcept(candidate) || isConcept(record)) continue;
    // facts the writer attached to different things ("Favorite color is blue" of Alice, "…green" of Bob)
    if (aboutOtherThings(record, candidate)) continue;
    // first-person statements of two speakers are about two people ("Maria: My family…", "John: My family…")
    const theirs = ours !== undefined ? speakerOf(candidate) : undefined;
    if (theirs !== undefined && theirs !== ours) continue;
    candidates.push(candidate);
  }
  return { candidates, similarity, nearest: vectorHits.map((h) => h.score) };
}

/** Labels that say what a note is, not who spoke it. */
const NOTE_LABELS = new Set([
  'correction',
  'update',
  'note',
  'fyi',
  'ps',
  'btw',
  'erratum',
  'clarification',
  'reminder',
  'todo',
  'summary',
  'decision',
  'important',
  'warning',
  'rule',
]);

/** The "Name: " a text starts with (`turnSpeaker`), unless the label says what a note is ("Correction: …"). */
function labelledSpeaker(content: string): string | undefined {
  const label = turnSpeaker(content);
  return label !== undefined && !NOTE_LABELS.has(label.toLowerCase()) ? label : undefined;
}

/** Who said a claim: the speaker the writer recorded, else a "Name: " label its text starts with. */
function speakerOf(record: MemoryRecord): string | undefined {
  const given = (record.data as { speaker?: unknown }).speaker;
  if (typeof given === 'string' && given.trim().length > 0) return given.trim().toLowerCase();
  return labelledSpeaker(record.content)?.toLowerCase();
}

/**
 * The entities a record was attached to without naming them in its text: what the writer said it is
 * about (an MCP graph's observation of its entity, a note's fact), not a word it happens to contain.
 */
function attachedEntities(record: MemoryRecord): Set<string> {
  const text = ` ${normalize(record.content)} `;
  return new Set(record.entities.map((entity) => normalize(entity)).filter((entity) => entity.length > 0 && !text.includes(` ${entity} `)));
}

/**
 * Are two claims attached to different things? Both name what they are about outside their text, and
 * no entity is shared: "Favorite color is green" of Bob is no correction of "Favorite color is blue" of
 * Alice, however alike the wording.
 */
function aboutOtherThings(a: MemoryRecord, b: MemoryRecord): boolean {
  const first = attachedEntities(a);
  if (first.size === 0) return false;
  const second = attachedEntities(b);
  if (second.size === 0) return false;
  const named = (record: MemoryRecord) => new Set(record.entities.map((entity) => normalize(entity)));
  const [ofA, ofB] = [named(a), named(b)];
  return ![...first].some((entity) => ofB.has(entity)) && ![...second].some((entity) => ofA.has(entity));
}

/** Was a supersession of `old` by a claim like `incoming` undone by a person? */
function isExempt(old: MemoryRecord, incoming: MemoryRecord): boolean {
  const undone = old.data.exempt?.supersededBy;
  if (!Array.isArray(undone) || undone.length === 0) return false;
  const wording = normalize(incoming.content);
  const slot = incoming.data.claim;
  return undone.some(
    (entry) =>
      entry.wording === wording ||
      (slot !== undefined && entry.attribute === slot.attribute && entry.value === slot.value && entry.subject === slot.subject),
  );
}

/**
 * The comparison key of a wording: lowercase words only, in one Unicode form (NFKC: a decomposed
 * "São" or a full-width "Ｔｅｓｌａ" is the same word), invisible format characters dropped.
 */
export function normalize(text: string): string {
  return dropFormatCharacters(text.normalize('NFKC'))
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A supersession the claim comparison found, with the stored claim it concerns. */
export type SupersessionFound = ClaimDecision['superseded'][number];

/**
 * Orders what a new claim's corrections mean in valid time. A stored claim that began no later than the
 * new one and still held when it began is superseded by it. One that began later is the newer fact: the
 * new claim is history that it followed (`successor`, the earliest such). One that had already ended
 * when the new claim began is no conflict at all, and neither is one that outlasts a new claim given an
 * end of its own ("the deploy target was qa from 1 to 10 February" within "the deploy target is
 * staging" since January): ending the stored claim where the new one begins would leave nothing true
 * after the new one ends, so both are kept.
 */
export function orderSupersessions(
  record: MemoryRecord,
  found: readonly SupersessionFound[],
): { supersede: SupersessionFound[]; successor?: SupersessionFound } {
  const supersede = found.filter(
    (s) =>
      s.record.validFrom <= record.validFrom &&
      (s.record.validTo === null || s.record.validTo > record.validFrom) &&
      !(record.validTo !== null && (s.record.validTo === null || s.record.validTo > record.validTo)),
  );
  const successor = found.filter((s) => s.record.validFrom > record.validFrom).sort((a, b) => a.record.validFrom - b.record.validFrom)[0];
  return { supersede, ...(successor !== undefined ? { successor } : {}) };
}

/**
 * A claim recorded late about a time before a stored claim's: it held until the stored one began. Its
 * validity is closed there (if it reached past it) and the stored claim is linked as what followed it;
 * it stays active, true history the store believes from now on.
 */
export async function applyLaterSuccessor(
  tx: StoreTransaction,
  record: MemoryRecord,
  successor: SupersessionFound,
  now: number,
): Promise<void> {
  const end = successor.record.validFrom;
  if (record.validTo !== null && record.validTo <= end) return;
  await tx.updateMemory(record.id, record.scope, { validTo: end, updatedAt: now });
  await tx.insertEdges([supersedesEdge(successor.record, record, successor.comparison, now)]);
}

/**
 * Marks `old` superseded by `incoming` and links them; nothing is deleted. The validity `old` had of its
 * own (an end it was given) is kept in `data.validToBefore`, so undoing the supersession restores it.
 * Given an embedder, what `old` said besides what `incoming` corrects stays current (`keepUncorrected`).
 */
export async function applySupersession(
  tx: StoreTransaction,
  incoming: MemoryRecord,
  old: MemoryRecord,
  comparison: ClaimComparison,
  now: number,
  embedder?: PartEmbedder,
): Promise<void> {
  const validTo = Math.max(incoming.validFrom, old.validFrom);
  await tx.updateMemory(old.id, old.scope, {
    status: 'superseded',
    validTo: old.validTo !== null ? Math.min(old.validTo, validTo) : validTo,
    invalidatedAt: now,
    data: { ...old.data, supersededBy: incoming.id, ...(old.validTo !== null ? { validToBefore: old.validTo } : {}) },
    updatedAt: now,
  });
  await tx.insertEdges([supersedesEdge(incoming, old, comparison, now)]);
  if (embedder !== undefined) await keepUncorrected(tx, incoming, old, now, embedder);
}

/**
 * A clause that leans on another for what it means ("love it there", "he works at SAP" with no one
 * named before): not kept alone. Case matters: "IT" is a field of work, "It" and "it" a pronoun.
 */
const LEANS_ON_ANOTHER =
  /\b(?:[Ii]t|[Tt]hey|[Tt]hem|[Tt]here|[Tt]his|[Tt]hese|[Tt]hose|[Hh]e|[Ss]he|[Hh]im|[Hh]is|[Hh]er|[Tt]heir|too|either)\b/;
/** Statements longer than this are chunked; what a chunked statement said besides a correction is not split out. */
const KEEP_MAX_CHARS = 2_000;

/** What embeds a kept part (the engine's embedder). */
export interface PartEmbedder {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/**
 * What a superseded claim said besides what its correction corrects ("I live in Lisbon. I work as a
 * nurse." corrected by "I moved to Porto": "I work as a nurse." still holds) is kept current as a claim
 * of its own, derived from the superseded one, with its validity and sources, embedded on its own. Only
 * clauses that make a claim of their own, that do not lean on another clause, and that the correction
 * neither supersedes nor restates are kept; nothing when every clause, or none, is corrected, when the
 * statement is a chunk or chunked, or when a current claim already says the same. Returns the new record.
 */
async function keepUncorrected(
  tx: StoreTransaction,
  incoming: MemoryRecord,
  old: MemoryRecord,
  now: number,
  embedder: PartEmbedder,
): Promise<MemoryRecord | undefined> {
  if (old.content.length > KEEP_MAX_CHARS || old.data.parentId !== undefined || old.data.isChunkParent === true) return undefined;
  const clauses = claimClauses(old.content);
  if (clauses.length < 2) return undefined;
  const corrected = clauses.map((clause) => compareClaims(incoming.content, clause).relation);
  if (!corrected.includes('supersedes')) return undefined;
  const kept = clauses.filter(
    (clause, i) =>
      corrected[i] !== 'supersedes' && corrected[i] !== 'agrees' && !LEANS_ON_ANOTHER.test(clause) && extractClaim(clause).length > 0,
  );
  if (kept.length === 0) return undefined;
  const sentences = kept.map((clause) => `${clause.charAt(0).toUpperCase()}${clause.slice(1)}.`).join(' ');
  // who said it stays said by them ("Maria: I live in Lisbon. I work as a nurse." keeps "Maria: I work as a nurse.")
  const label = labelledSpeaker(old.content);
  const content = label !== undefined && !sentences.startsWith(`${label}:`) ? `${label}: ${sentences}` : sentences;
  const speaker = (old.data as { speaker?: unknown }).speaker;
  const words = ` ${normalize(content)} `;
  const record = newRecord({
    scope: old.scope,
    layer: old.layer,
    content,
    now,
    tags: old.tags,
    entities: old.entities.filter((entity) => words.includes(` ${normalize(entity)} `)),
    importance: old.importance,
    salience: old.salience,
    confidence: old.confidence,
    provenance: { kind: old.provenance.kind, sources: old.provenance.sources, derivedFrom: [old.id] },
    validFrom: old.validFrom,
    validTo: old.validTo,
    occurredAt: old.occurredAt,
    data: { keptFrom: old.id, ...(typeof speaker === 'string' ? { speaker } : {}) },
  });
  attachClaimSlot(record);
  const [vector] = await embedder.embed([content]);
  if (vector === undefined) return undefined;
  // a current claim that says the same already ("I work as a nurse." written on its own): nothing to keep
  const decision = await decideClaim(tx, record, vector, now);
  if (decision.mergeInto !== undefined) return undefined;
  await tx.insertMemories([{ record, embedding: vector }]);
  return record;
}

/**
 * A superseded claim made current again (unsupersede, or its correction purged) holds again what its
 * kept parts said: each part (`keepUncorrected`), and the parts kept from those in turn, go unless
 * someone edited them (a part later corrected goes too; the caller checks the claim against what was
 * said since).
 */
export async function dropKeptPart(tx: StoreTransaction, record: MemoryRecord): Promise<void> {
  const gone: string[] = [];
  let frontier = [record.id];
  for (let depth = 0; frontier.length > 0 && depth < 16; depth += 1) {
    const from = new Set(frontier);
    const parts = (await tx.findDerived({ scope: record.scope, ids: frontier })).filter(
      (r) => typeof r.data.keptFrom === 'string' && from.has(r.data.keptFrom) && !Array.isArray(r.data.history),
    );
    gone.push(...parts.map((r) => r.id));
    frontier = parts.map((r) => r.id);
  }
  if (gone.length > 0) await tx.deleteMemories(gone, record.scope);
}

function supersedesEdge(incoming: MemoryRecord, old: MemoryRecord, comparison: ClaimComparison, now: number): Edge {
  return {
    id: newId(now),
    scope: incoming.scope,
    fromId: incoming.id,
    type: 'SUPERSEDES',
    toId: old.id,
    weight: comparison.confidence,
    validFrom: incoming.validFrom,
    validTo: null,
    recordedAt: now,
    invalidatedAt: null,
    metadata: { reason: comparison.reason, confidence: comparison.confidence },
  };
}

/** What undoing a supersession of `record` restores: its status, its own end of validity, its data without the marks. */
export function unsupersededPatch(record: MemoryRecord): { validTo: number | null; data: MemoryRecord['data'] } {
  const { supersededBy: _by, validToBefore, ...data } = record.data;
  return { validTo: typeof validToBefore === 'number' ? validToBefore : null, data };
}

/**
 * Merges an agreeing restatement into the existing claim: nothing is overwritten. The incoming record
 * is a new write (one mention) or, in consolidation's dedup, a stored duplicate: its mentions and the
 * wordings merged into it before come along.
 */
export async function applyMerge(tx: StoreTransaction, incoming: MemoryRecord, target: MemoryRecord, now: number): Promise<void> {
  const history = [...(target.data.history ?? [])];
  const known = (content: string): boolean =>
    normalize(content) === normalize(target.content) || history.some((h) => normalize(h.content) === normalize(content));
  for (const entry of incoming.data.history ?? []) if (!known(entry.content)) history.push(entry);
  if (!known(incoming.content))
    history.push({
      content: incoming.content,
      at: now,
      ...(incoming.provenance.sources.length > 0 ? { sources: incoming.provenance.sources } : {}),
    });
  const sources = [...target.provenance.sources];
  for (const source of incoming.provenance.sources) {
    if (!sources.some((s) => JSON.stringify(s) === JSON.stringify(source))) sources.push(source);
  }
  await tx.updateMemory(target.id, target.scope, {
    mentionCount: target.mentionCount + Math.max(1, incoming.mentionCount),
    tags: [...new Set([...target.tags, ...incoming.tags])],
    entities: [...new Set([...target.entities, ...incoming.entities])],
    importance:
      target.importance === null
        ? incoming.importance
        : incoming.importance === null
          ? target.importance
          : Math.max(target.importance, incoming.importance),
    pinned: target.pinned || incoming.pinned,
    provenance: { ...target.provenance, sources },
    data: { ...target.data, history },
    updatedAt: now,
  });
}
