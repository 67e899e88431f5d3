/**
 * The domain model: one record shape for every layer, bi-temporal on the claim itself.
 * Times are epoch milliseconds inside the engine and ISO strings at the interfaces.
 */
import type { Scope } from './scope.js';

export const LAYERS = ['episodic', 'semantic', 'procedural', 'statistical'] as const;
/** The four memory layers. */
export type Layer = (typeof LAYERS)[number];

export const STATUSES = ['active', 'superseded', 'decayed', 'expired', 'deleted'] as const;
/** Lifecycle status; only `active` records appear in default reads. */
export type MemoryStatus = (typeof STATUSES)[number];

export const PROVENANCE_KINDS = ['episodic', 'statistical', 'document', 'user_stated', 'reflection', 'hybrid'] as const;
/** How a memory came to be. */
export type ProvenanceKind = (typeof PROVENANCE_KINDS)[number];

/** Where the raw material of a memory lives, so it can be traced back. */
export interface SourceRef {
  system?: string;
  conversationId?: string;
  messageId?: string;
  messageRange?: [string, string];
  uri?: string;
}

export interface Provenance {
  kind: ProvenanceKind;
  sources: SourceRef[];
  derivedFrom: string[];
}

export interface Emotion {
  /** -1 (negative) .. 1 (positive). */
  valence: number;
  /** 0 .. 10; high intensity is a flashbulb memory that decays slower. */
  intensity: number;
  mood?: string[];
}

/** A claim slot: what a semantic/procedural statement says about which subject. */
export interface ClaimSlot {
  subject: string;
  attribute: string;
  value: string;
  /** Whether the statement negates the value ("X no longer ..."). */
  negated?: boolean;
}

/** The structured parts of an observe→decide→act→evaluate episode (seed 000). */
export interface EpisodeCycle {
  perception?: { objects?: string[]; people?: string[]; salience?: number; novelty?: number };
  context?: { goal?: string; location?: string; sessionId?: string; runId?: string; question?: string };
  decision?: { intent?: string; confidence?: number; rationale?: string };
  action?: { tool?: string; args?: Record<string, unknown> };
  outcome?: { success?: boolean; reward?: number; detail?: string };
}

/** Semantic-layer descriptors for concepts and facts. */
export interface SemanticFields {
  name?: string;
  definition?: string;
  category?: string;
  properties?: Record<string, unknown>;
}

/** One past wording of a merged claim. */
export interface WordingHistoryEntry {
  content: string;
  at: number;
  sources?: SourceRef[];
}

/** A supersession a person undid: claims like this must not supersede the record again. */
export interface UndoneSupersession {
  wording: string;
  subject?: string;
  attribute?: string;
  value?: string;
  at: number;
}

/**
 * What a record of any layer may carry in `data`: the caller's descriptors (an episode cycle, a name and
 * definition, a priority, a metric), chunking, who said it, the affect phase's re-appraisal, and the
 * lifecycle marks of consolidation and undo.
 */
export interface RecordDataBase extends EpisodeCycle, SemanticFields {
  /** Procedural rules: higher first. */
  priority?: number;
  /** Statistical records. */
  metric?: Record<string, unknown>;
  /** Chunking: the parent document and this chunk's position. */
  parentId?: string;
  chunkIndex?: number;
  chunkCount?: number;
  /** Chunked documents: the parent holds the whole text and is not itself a search hit. */
  isChunkParent?: boolean;
  /** A chunk's character range in its parent. */
  span?: [start: number, end: number];
  /** Who said it (a turn's speaker or role), when the writer recorded it. */
  speaker?: string;
  role?: string;
  /** Exemptions recorded by undo: undone supersessions and restored decay. */
  exempt?: { decay?: boolean; supersededBy?: UndoneSupersession[] };
  /** Lifecycle marks of consolidation: when decay or expiry applied. */
  decayedAt?: number;
  expiredAt?: number;
  /** An expired record's tombstone: its content was removed for good (`expire`). */
  tombstone?: boolean;
  /**
   * A claim made current again because the correction that had superseded it (this id) was forgotten:
   * restoring that correction supersedes it anew (see `forget-derived.ts`).
   */
  reinstatedFrom?: string;
  /** Re-appraisal by the affect phase: the intensity the feeling has now and whether it is a flashbulb memory. */
  affect?: { intensity: number; flashbulb: boolean; appraisedAt: number };
  /**
   * The writer's wall clock, when the write gave one (`timeZone` or `timezoneOffsetMinutes`): relative
   * dates in the text ("yesterday", "on Friday") are read on it, else on UTC.
   */
  wallClock?: WallClock;
}

/** A wall clock: an IANA time zone (daylight saving included) or one fixed offset in minutes east of UTC. */
export type WallClock = { timeZone: string } | { timezoneOffsetMinutes: number };

/** An episode's data: besides the base, compression marks (the summary and the episodes it stands for). */
export interface EpisodeData extends RecordDataBase {
  compressed?: boolean;
  compressedFrom?: string[];
  compressedInto?: string;
}

/** A claim's data (facts and rules): its slot, the wordings merged into it, what superseded or absorbed it. */
export interface ClaimData extends RecordDataBase {
  claim?: ClaimSlot;
  history?: WordingHistoryEntry[];
  /** The claim that superseded this one. */
  supersededBy?: string;
  /** The end of validity this claim had of its own before a supersession cut it short (undo restores it). */
  validToBefore?: number;
  /** The record a duplicate was merged into. */
  mergedInto?: string;
  /** The superseded claim this one keeps the uncorrected part of ("…and I work as a nurse"). */
  keptFrom?: string;
}

/** Knowledge consolidation derives (reflections, promoted knowledge): how and why it was derived. */
export interface DerivedKnowledgeData {
  /**
   * Derived knowledge forgotten because the last of its evidence was (this id): restoring that record
   * restores it (see `forget-derived.ts`).
   */
  forgottenWith?: string;
  /** Reflections: 1..3. */
  level?: number;
  /** Reflections: what triggered them and what they rest on. */
  reflection?: Record<string, unknown>;
  /** Promoted knowledge: how and when it was promoted. */
  promotion?: Record<string, unknown>;
}

/** A fact's data: a claim, or knowledge consolidation derived; never marked a concept. */
export interface FactData extends ClaimData, DerivedKnowledgeData {
  concept?: false;
}

/** A concept's data: marked `concept: true` by concept extraction (or by a caller). */
export interface ConceptData extends RecordDataBase {
  concept: true;
}

/**
 * Layer-specific and auxiliary data, stored as one JSON document beside the flat columns: every key any
 * kind of record carries (see {@link RecordKind} for which kind carries which). Later features add keys
 * here rather than new columns where no index needs them.
 */
export interface MemoryData extends EpisodeData, ClaimData, DerivedKnowledgeData {
  /** Concepts (semantic records made by extraction, or marked so by a caller). */
  concept?: boolean;
}

/** A stored memory (every layer). */
export interface MemoryRecord {
  id: string;
  scope: Scope;
  layer: Layer;
  content: string;
  summary: string | null;
  tags: string[];
  entities: string[];
  /** 0..1, or null while an LLM score is pending (ranked as 1.0 meanwhile). */
  importance: number | null;
  salience: number;
  surprise: number;
  emotion: Emotion | null;
  pinned: boolean;
  mentionCount: number;
  accessCount: number;
  lastAccessedAt: number | null;
  confidence: number;
  status: MemoryStatus;
  provenance: Provenance;
  /** Valid time: when it was true in the world. */
  validFrom: number;
  validTo: number | null;
  occurredAt: number | null;
  /** Transaction time: when the store came to believe it, and stopped. */
  recordedAt: number;
  invalidatedAt: number | null;
  /** Idempotency key for re-ingesting the same source (conversation id + message id). */
  sourceKey: string | null;
  updatedAt: number;
  data: MemoryData;
}

/** A record of one kind: its layer fixed and its data what that kind carries. */
export type RecordOf<L extends Layer, D extends MemoryData> = Omit<MemoryRecord, 'layer' | 'data'> & { layer: L; data: D };
/** What happened: an event, a turn, a structured cycle, or a compressed summary of older episodes. */
export type EpisodeRecord = RecordOf<'episodic', EpisodeData>;
/** What is true: a semantic claim or derived knowledge (a reflection, promoted knowledge), not a concept. */
export type FactRecord = RecordOf<'semantic', FactData>;
/** What a thing is: a semantic record marked as a concept, with refs to its episodes. */
export type ConceptRecord = RecordOf<'semantic', ConceptData>;
/** How to behave: a procedural rule or instruction, a claim with a priority. */
export type RuleRecord = RecordOf<'procedural', ClaimData>;
/** What the numbers say: a statistical record over a concept. */
export type StatisticRecord = RecordOf<'statistical', RecordDataBase>;

/**
 * Every record as its kind, a discriminated union: `layer` tells the kinds apart, and within the
 * semantic layer `data.concept` tells a concept from a fact (narrow with `isConcept`). Each member is a
 * `MemoryRecord`; `recordKind` and the guards in `record-kinds.ts` narrow a `MemoryRecord` to one.
 */
export type KindedRecord = EpisodeRecord | FactRecord | ConceptRecord | RuleRecord | StatisticRecord;

/** The kinds of record, by {@link KindedRecord} member. */
export const RECORD_KINDS = ['episode', 'fact', 'concept', 'rule', 'statistic'] as const;
/** A record's kind: `episode`, `fact`, `concept`, `rule` or `statistic`. */
export type RecordKind = (typeof RECORD_KINDS)[number];

/** A record plus the vector it was embedded to; what the write path hands the store. */
export interface NewMemory {
  record: MemoryRecord;
  embedding: Float32Array;
}

/** Read-time instants. `undefined` means "now / current". */
export interface TimeFilter {
  /** Valid time: what was true at this instant (as known now unless `knownAt`). */
  asOf?: number;
  /** Transaction time: what the store believed at this instant. */
  knownAt?: number;
  /** Return superseded (and other non-active) versions too. */
  includeSuperseded?: boolean;
}

/**
 * Is a record visible under the given time filter at `now`?
 *
 * One record carries both axes. A `knownAt` read before a change of the record's validity (a
 * supersession, an edit of `validFrom`/`validTo`, an undo) judges the validity believed then, from the
 * record's `history` (its {@link BeliefInterval}s); without one, a `validTo` set by a supersession is
 * only *known* from `invalidatedAt` on, so an earlier `knownAt` sees the claim as open-ended. `asOf`
 * defaults to `knownAt`, then now. Deleted and expired records are never visible; decayed and
 * superseded ones only with `includeSuperseded` (superseded ones are also visible in `asOf` reads of
 * their own valid period).
 */
export function isVisible(record: MemoryRecord, filter: TimeFilter, now: number, history?: readonly BeliefInterval[]): boolean {
  return visibleAsBelieved(
    visibilityBounds(filter, now),
    record.status,
    record.recordedAt,
    record.validFrom,
    record.validTo,
    record.invalidatedAt,
    history,
  );
}

/**
 * A validity the store once believed of a record and no longer does: during transaction time
 * [`knownFrom`, `knownTo`) it held the record valid over [`validFrom`, `validTo`). The store keeps one
 * for every change of a record's validity (ids and instants only, never text), so "what did we believe
 * at T" answers what was believed at T whatever changed after.
 */
export interface BeliefInterval {
  readonly validFrom: number;
  readonly validTo: number | null;
  readonly knownFrom: number;
  readonly knownTo: number;
}

/** A stored belief interval: the record it belongs to and its scope. */
export interface StoredBelief extends BeliefInterval {
  readonly memoryId: string;
  readonly scope: Scope;
}

/**
 * The belief intervals a change at `at` (transaction time) ends, when it replaces a record's validity
 * (`before`) with another (`after`): what the store had believed since `knownFrom` (the end of the
 * record's last interval, else its `recordedAt`). A `validTo` that a supersession set at
 * `invalidatedAt` without an interval of its own (written before intervals were kept) was open-ended
 * until then, as `visibleUnder` reads it, so that stays. Empty when the validity is unchanged.
 */
export function endedBeliefs(
  before: Pick<MemoryRecord, 'validFrom' | 'validTo' | 'invalidatedAt'>,
  after: Pick<MemoryRecord, 'validFrom' | 'validTo' | 'invalidatedAt'>,
  knownFrom: number,
  at: number,
): BeliefInterval[] {
  const same = before.validFrom === after.validFrom && before.validTo === after.validTo && before.invalidatedAt === after.invalidatedAt;
  if (same || at <= knownFrom) return [];
  const { validFrom, validTo, invalidatedAt } = before;
  // until its `invalidatedAt`, a `validTo` was not yet known
  const knownEnd = validTo === null || invalidatedAt === null ? knownFrom : Math.min(Math.max(invalidatedAt, knownFrom), at);
  const ended: BeliefInterval[] = [];
  if (knownEnd > knownFrom) ended.push({ validFrom, validTo: null, knownFrom, knownTo: knownEnd });
  if (at > knownEnd) ended.push({ validFrom, validTo, knownFrom: knownEnd, knownTo: at });
  return ended;
}

/** The instants and statuses a time filter admits: the one definition every store's read follows. */
export interface VisibilityBounds {
  /** Statuses a read may return (deleted and expired never; decayed only with `includeSuperseded`). */
  readonly statuses: readonly MemoryStatus[];
  /** Transaction time: what the store knew then (`knownAt`, else now). */
  readonly knownAt: number;
  /** Valid time: what was true then (`asOf`, else `knownAt`, else now). */
  readonly asOf: number;
  readonly includeSuperseded: boolean;
  /** Whether the read names its `knownAt`, so the belief history applies (a read of now judges the record as it is). */
  readonly historic: boolean;
}

const CURRENT_STATUSES: readonly MemoryStatus[] = Object.freeze(['active', 'superseded']);
const HISTORY_STATUSES: readonly MemoryStatus[] = Object.freeze(['active', 'superseded', 'decayed']);

export function visibilityBounds(filter: TimeFilter, now: number): VisibilityBounds {
  const knownAt = filter.knownAt ?? now;
  const includeSuperseded = filter.includeSuperseded === true;
  return {
    statuses: includeSuperseded ? HISTORY_STATUSES : CURRENT_STATUSES,
    knownAt,
    asOf: filter.asOf ?? knownAt,
    includeSuperseded,
    historic: filter.knownAt !== undefined,
  };
}

/**
 * The visibility rule over a record's fields (positional, so an index's columns need no object): its
 * status is admitted, it was recorded by `knownAt` and valid from before `asOf`, and — unless history is
 * asked for — its validity had not ended by `asOf` as far as the store knew at `knownAt`.
 */
export function visibleUnder(
  v: VisibilityBounds,
  status: MemoryStatus,
  recordedAt: number,
  validFrom: number,
  validTo: number | null,
  invalidatedAt: number | null,
): boolean {
  if (!v.statuses.includes(status)) return false;
  if (recordedAt > v.knownAt || validFrom > v.asOf) return false;
  if (v.includeSuperseded) return true;
  // validTo counts only once the store knew it (invalidatedAt), so knownAt reads see the claim open-ended
  const validToKnown = invalidatedAt === null || invalidatedAt <= v.knownAt;
  return !(validToKnown && validTo !== null && validTo <= v.asOf);
}

/**
 * `visibleUnder` as believed at `v.knownAt`: when the read names its `knownAt` and the record's
 * validity changed after it (an interval of `history` ends later), the validity then believed (the
 * interval holding at `knownAt`, its `validTo` known throughout) is judged instead of the row's own.
 */
export function visibleAsBelieved(
  v: VisibilityBounds,
  status: MemoryStatus,
  recordedAt: number,
  validFrom: number,
  validTo: number | null,
  invalidatedAt: number | null,
  history: readonly BeliefInterval[] | undefined,
): boolean {
  if (!v.historic || history === undefined || !history.some((h) => h.knownTo > v.knownAt)) {
    return visibleUnder(v, status, recordedAt, validFrom, validTo, invalidatedAt);
  }
  return history.some(
    (h) => h.knownFrom <= v.knownAt && h.knownTo > v.knownAt && visibleUnder(v, status, recordedAt, h.validFrom, h.validTo, null),
  );
}

/**
 * When a record was last in use, for decay: its last access, else when it was recorded — and never
 * before it became valid. A fact or an event dated ahead cannot be read before its time (reads of now
 * leave it out), so its idle time starts when it starts to hold.
 */
export function lastActiveAt(record: Pick<MemoryRecord, 'lastAccessedAt' | 'recordedAt' | 'validFrom'>): number {
  return Math.max(record.lastAccessedAt ?? record.recordedAt, record.validFrom);
}

/** Is this a plain "what is current now" read (the fast path every store indexes)? */
export function isCurrentRead(filter: TimeFilter): boolean {
  return filter.asOf === undefined && filter.knownAt === undefined && !filter.includeSuperseded;
}

/** A typed edge between two records of the same scope, bi-temporal like records. */
export interface Edge {
  id: string;
  scope: Scope;
  fromId: string;
  type: string;
  toId: string;
  weight: number;
  validFrom: number;
  validTo: number | null;
  recordedAt: number;
  invalidatedAt: number | null;
  metadata: Record<string, unknown>;
}

/**
 * The conversation thread a record belongs to, for neighbourhood reads: its episode session, else the
 * conversation of its first source. Records of one thread are ordered by `occurredAt`, then id.
 */
export function threadKeyOf(record: MemoryRecord): string | null {
  return record.data.context?.sessionId ?? record.provenance.sources[0]?.conversationId ?? null;
}
