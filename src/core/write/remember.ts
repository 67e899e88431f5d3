/**
 * The write path: validate → normalise (entities, emotion, importance, claim slot) →
 * chunk long texts → embed → in one transaction: source idempotency, supersession, dedup, insert.
 */
import { enqueueImportanceRecovery, IMPORTANCE_GRACE_MS } from '../llm/importance-recovery.js';
import { EngramError, messages } from '../errors.js';
import type { MemoryRecord, NewMemory } from '../memory.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Store, StoreTransaction } from '../ports/store.js';
import type { ParsedRememberInput } from '../schemas.js';
import { CONCEPT_JOB_KIND, CONCEPT_JOB_SIZE } from '../concepts/concept-jobs.js';
import { embeddingText } from './embedding-parts.js';
import { extractEntities } from '../text/index.js';
import { chunkText, DEFAULT_CHUNK_CHARS } from './chunking/index.js';
import { buildRecord, newId } from './new-record.js';
import { answeredInput, answeredQuestions, capturedClaimInputs, keepOpenQuestions } from './capture/index.js';
import {
  applyLaterSuccessor,
  applyMerge,
  applySupersession,
  type PartEmbedder,
  attachClaimSlot,
  CLAIM_LAYERS,
  decideClaim,
  orderSupersessions,
} from './resolve-claim.js';
import { analyzeEmotion, scoreImportance, scoreSurprise } from './salience/index.js';
import { isEpisode } from '../record-kinds.js';
import { dot, VectorArena } from '../simd-scan.js';

export { embeddingText } from './embedding-parts.js';

/** What `remember` did with one input (CLI/MCP/HTTP contract). */
export interface RememberResult {
  id: string;
  action: 'created' | 'merged' | 'superseded' | 'unchanged';
  mergedInto?: string;
  superseded?: string[];
  /** For chunked documents: the chunk records created under the parent `id`. */
  chunks?: string[];
  /** Secrets replaced by `[redacted:<kind>]` before the input was stored (absent when none). */
  redacted?: number;
  /** For a captured turn: what became of each claim read from it. */
  claims?: CapturedClaimResult[];
  /** For a decision with `rejected` alternatives: the episodes stored for them (linked `REJECTED`). */
  rejected?: string[];
}

/** One claim of a captured turn: its id, and the action of the claim resolution (created, merged, superseded, unchanged). */
export interface CapturedClaimResult {
  id: string;
  action: RememberResult['action'];
  superseded?: string[];
}

export interface WriteDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  /** The clock of the job queue (real time even when `clock` is moved). */
  wallClock: Clock;
  /** Vector memory the writes' novelty scoring reuses (the engine holds one). */
  novelty: NoveltyScratch;
}

/** Options of the write path. */
export interface WriteOptions {
  /** Texts longer than this are stored as a parent plus chunk records. */
  chunkChars?: number;
  /** Store unscored inputs with importance null: an LLM score is pending. */
  deferImportance?: boolean;
  /** With `deferImportance`: how long the in-process scoring has before a recovery job may score instead. */
  importanceRecoveryMs?: number;
  /** Claim sentences an LLM read from captured turns, by input; the rules read the turns without one. */
  capturedClaims?: ReadonlyMap<ParsedRememberInput, readonly string[]>;
  /** The assistant's question each captured user turn answers (see `answeredQuestions`); default: read within the batch. */
  questions?: ReadonlyMap<ParsedRememberInput, string>;
  /** Extra writes inside the batch's transaction once its records are in (e.g. decision-chain edges). */
  link?: (tx: StoreTransaction, results: readonly RememberResult[], at: number) => Promise<void>;
}

/** Derives the write-time signals of one input (pure, cheap). */
export function deriveSignals(
  input: ParsedRememberInput,
  deferImportance = false,
): Pick<MemoryRecord, 'entities' | 'importance' | 'emotion' | 'salience' | 'surprise'> {
  const text = input.content;
  const emotion = input.emotion ?? analyzeEmotion(text);
  const entities = input.entities ?? extractEntities(text);
  const scored = input.importance ?? scoreImportance(text, { emotionIntensity: emotion.intensity, entities });
  const importance = input.importance === undefined && deferImportance ? null : scored;
  const salience = input.perception?.salience ?? scored;
  return { entities, importance, emotion, salience, surprise: 1 };
}

/** One unit of work: the main record, for long texts its chunks, for a captured turn its claims. */
interface Planned {
  record: MemoryRecord;
  chunks: MemoryRecord[];
  claims: MemoryRecord[];
  /** The input asked for capture (its result lists claims, even none). */
  captured: boolean;
}

/** One batch planned and embedded, waiting for its transaction ({@link commitWrite}). */
export interface PreparedWrite {
  readonly inputs: readonly ParsedRememberInput[];
  /** The clock when the batch was planned: its records' default instants. */
  readonly now: number;
  readonly embedded: readonly Embedded[];
}

interface Embedded extends Planned {
  embedding: Float32Array;
  chunkVectors: Float32Array[];
  claimVectors: Float32Array[];
}

/**
 * Writes validated inputs in one transaction, in order, so later inputs see earlier ones. Inputs
 * whose source was already ingested are `unchanged` with the existing id (idempotent re-ingest).
 */
export async function rememberAll(
  deps: WriteDeps,
  inputs: readonly ParsedRememberInput[],
  options: WriteOptions = {},
): Promise<RememberResult[]> {
  return commitWrite(deps, await prepareWrite(deps, inputs, options), options);
}

/**
 * The part of a write that needs no store: builds the records (signals, claim slots, chunks) and
 * embeds them. Nothing is read or written, so the next batch can be prepared while one commits.
 */
export async function prepareWrite(
  deps: WriteDeps,
  inputs: readonly ParsedRememberInput[],
  options: WriteOptions = {},
): Promise<PreparedWrite> {
  const now = deps.clock.now();
  inputs.forEach((input, index) => assertValidityAfterNow(input, now, inputs.length > 1 ? index : undefined));
  const chunkChars = options.chunkChars ?? DEFAULT_CHUNK_CHARS;
  const answers = options.questions ?? answeredQuestions(inputs).answers;
  const planned = inputs.map((input) =>
    plan(input, now, chunkChars, options.deferImportance === true, options.capturedClaims?.get(input), answers.get(input)),
  );
  const texts = planned.flatMap((p) => [embeddingText(p.record), ...p.chunks.map((c) => c.content), ...p.claims.map((c) => c.content)]);
  const vectors = await deps.embedder.embed(texts);
  let cursor = 0;
  const embedded = planned.map((p) => {
    const main = vectors[cursor++] as Float32Array;
    const chunkVectors = p.chunks.map(() => vectors[cursor++] as Float32Array);
    const claimVectors = p.claims.map(() => vectors[cursor++] as Float32Array);
    return { ...p, embedding: main, chunkVectors, claimVectors };
  });
  return { inputs, now, embedded };
}

/**
 * A validity that would end before it starts: `validTo` without `validFrom` or `occurredAt` counts from
 * now (the default `validFrom`), so a past `validTo` alone would store a fact no read can ever return.
 * The schema compares the bounds it is given; this compares the default, which only the write knows.
 */
function assertValidityAfterNow(input: ParsedRememberInput, now: number, index: number | undefined): void {
  if (input.validTo === undefined || input.validFrom !== undefined || input.occurredAt !== undefined || input.validTo > now) return;
  const at = index === undefined ? '' : `[${index}].`;
  throw new EngramError(
    'INVALID_INPUT',
    messages.invalidInput(
      `${at}validTo (${new Date(input.validTo).toISOString()}) must be after validFrom, which defaults to the time of writing (${new Date(now).toISOString()}): give validFrom (when it started to hold) too`,
    ),
    { details: { issues: [{ path: index === undefined ? ['validTo'] : [index, 'validTo'], message: 'must be after validFrom' }] } },
  );
}

/**
 * Writes a prepared batch in one transaction (source idempotency, supersession, dedup, insert), in
 * input order. Call it once per prepared batch, in the order the batches were prepared.
 */
export async function commitWrite(deps: WriteDeps, prepared: PreparedWrite, options: WriteOptions = {}): Promise<RememberResult[]> {
  const { inputs, now, embedded } = prepared;
  return deps.store.transaction(async (tx) => {
    // Read the clock again once the write lock is held: a writer that waited for another (another
    // process, another server) must see what that one just recorded, so it decides at the later instant.
    const at = Math.max(now, deps.clock.now());
    if (at !== now) embedded.forEach((item, index) => restamp(item, inputs[index] as ParsedRememberInput, now, at));
    const known = await existingSources(
      tx,
      embedded.map((p) => p.record),
    );
    const novelty = new NoveltyReference(tx, deps.novelty);
    try {
      // a claim written before its scope's first event would be in that scope's sample when read lazily
      if (!embedded.some((item) => CLAIM_LAYERS.has(item.record.layer) && item.chunks.length === 0))
        await novelty.prefetch(
          embedded.map((item) => item.record.scope),
          embedded[0]?.embedding.length ?? 0,
        );
      const results: RememberResult[] = [];
      const pendingEvents: NewMemory[] = [];
      for (const item of embedded) {
        const { record } = item;
        const existing = record.sourceKey === null ? undefined : known.get(`${record.scope}\u0000${record.sourceKey}`);
        if (existing !== undefined) {
          results.push({ id: existing, action: 'unchanged' });
          continue;
        }
        if (record.sourceKey !== null) known.set(`${record.scope}\u0000${record.sourceKey}`, record.id);
        if (CLAIM_LAYERS.has(record.layer) && item.chunks.length === 0) {
          await flush(tx, pendingEvents);
          results.push(await writeClaim(tx, record, item.embedding, at, deps.embedder));
          continue;
        }
        record.surprise = scoreSurprise(await novelty.nearest(record.scope, item.embedding));
        pendingEvents.push({ record, embedding: item.embedding });
        item.chunks.forEach((chunk, index) => {
          chunk.surprise = record.surprise;
          pendingEvents.push({ record: chunk, embedding: item.chunkVectors[index] as Float32Array });
        });
        const claims = await writeCapturedClaims(tx, item, pendingEvents, at, deps.embedder);
        results.push({
          id: record.id,
          action: 'created',
          ...(item.chunks.length > 0 ? { chunks: item.chunks.map((c) => c.id) } : {}),
          ...(claims !== undefined ? { claims } : {}),
        });
      }
      await flush(tx, pendingEvents);
      await options.link?.(tx, results, at);
      await keepOpenQuestions(tx, answeredQuestions(inputs).open, at);
      await enqueueConceptExtraction(
        tx,
        embedded.map((p) => p.record),
        results,
        deps.wallClock.now(),
      );
      if (options.deferImportance === true) {
        const written = new Set(results.filter((r) => r.action === 'created' || r.action === 'superseded').map((r) => r.id));
        const records = embedded.filter((p) => written.has(p.record.id)).flatMap((p) => [p.record, ...p.chunks]);
        await enqueueImportanceRecovery(tx, records, deps.wallClock.now() + (options.importanceRecoveryMs ?? IMPORTANCE_GRACE_MS));
      }
      return results;
    } finally {
      novelty.release();
    }
  });
}

/** Queues concept extraction of the episodes just created, in the write's own transaction. */
async function enqueueConceptExtraction(
  tx: StoreTransaction,
  records: readonly MemoryRecord[],
  results: readonly RememberResult[],
  enqueuedAt: number,
): Promise<void> {
  const created = new Set(results.filter((r) => r.action === 'created').map((r) => r.id));
  const byScope = new Map<string, string[]>();
  for (const record of records) {
    if (!isEpisode(record) || !created.has(record.id)) continue;
    byScope.set(record.scope, [...(byScope.get(record.scope) ?? []), record.id]);
  }
  if (byScope.size === 0) return;
  // small jobs keep each of the worker's write transactions short
  const jobs = [...byScope].flatMap(([scope, ids]) =>
    Array.from({ length: Math.ceil(ids.length / CONCEPT_JOB_SIZE) }, (_, i) => ({
      scope,
      kind: CONCEPT_JOB_KIND,
      payload: { ids: ids.slice(i * CONCEPT_JOB_SIZE, (i + 1) * CONCEPT_JOB_SIZE) },
    })),
  );
  await tx.enqueueJobs(jobs, enqueuedAt);
}

function sameSourceRef(a: MemoryRecord['provenance']['sources'][number], b: MemoryRecord['provenance']['sources'][number]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** How many of a scope's most recent memories a new event's novelty is measured against. */
const NOVELTY_SAMPLE = 256;

/**
 * Rows of a scope's first block of novelty references, and of each later one: two sizes, so a released
 * block is reused as it is. Most scopes of a batch spanning many hold a few references: a 256-row first
 * block made 4,500 scopes of 512-d vectors fill the arena's 2 GiB.
 */
const NOVELTY_FIRST_BLOCK_ROWS = 32;
const NOVELTY_BLOCK_ROWS = NOVELTY_SAMPLE;

/**
 * The vector memory novelty scoring reuses from write to write, one arena per dimension: an engine
 * holds one. A WebAssembly memory made for each write cost a single-record remember 1-2 ms.
 */
export class NoveltyScratch {
  readonly #arenas = new Map<number, VectorArena>();
  readonly #limitBytes: number | undefined;

  /** `limitBytes`: each arena's most memory (default 2 GiB); past it, references are scored by the plain loop. */
  constructor(options: { limitBytes?: number } = {}) {
    this.#limitBytes = options.limitBytes;
  }

  arena(dimension: number): VectorArena {
    let arena = this.#arenas.get(dimension);
    if (arena === undefined) {
      arena = new VectorArena(dimension, { simd: true, ...(this.#limitBytes === undefined ? {} : { limitBytes: this.#limitBytes }) });
      this.#arenas.set(dimension, arena);
    }
    return arena;
  }
}

/** A scope's references: rows in arena blocks, then (once the arena is full) plain vectors. */
interface References {
  readonly arena: VectorArena;
  readonly blocks: { offset: number; capacity: number; rows: number }[];
  readonly spilled: Float32Array[];
}

/**
 * Novelty of events against the scope's recent memories plus the batch so far: one read per scope
 * and batch, so surprise stays cheap however large the scope (claims use their own neighbours). The
 * references are copied into blocks of the scratch arena and scanned by its SIMD kernel: a batch of 64
 * against 256 references is ~5M multiply-adds, ~10 ms a batch in a plain JS loop, most of the write
 * lock's time. Each scan runs synchronously after `setQuery`, so writes interleaving on one engine
 * (PostgreSQL runs transactions side by side) share the arena safely, each in its own blocks. When the
 * arena is full (a batch spanning thousands of scopes), further references are kept as they are and
 * scored by the plain loop: slower, never a failed write.
 */
class NoveltyReference {
  readonly #tx: StoreTransaction;
  readonly #scratch: NoveltyScratch;
  readonly #byScope = new Map<string, References>();
  constructor(tx: StoreTransaction, scratch: NoveltyScratch) {
    this.#tx = tx;
    this.#scratch = scratch;
  }

  /**
   * Reads the references of every scope of a batch spanning several at once (one read, where each
   * scope's own first event would make one). `dimension`: the batch's vectors'.
   */
  async prefetch(scopes: readonly string[], dimension: number): Promise<void> {
    const missing = [...new Set(scopes)].filter((scope) => !this.#byScope.has(scope));
    if (missing.length < 2 || dimension === 0) return;
    const recent = await this.#tx.recentEmbeddingsByScope(missing, NOVELTY_SAMPLE);
    for (const scope of missing) this.#load(scope, dimension, recent.get(scope) ?? []);
  }

  /** Similarities of the most similar references, best first (at most 5), then remembers `vector`. */
  async nearest(scope: string, vector: Float32Array): Promise<number[]> {
    const references = this.#byScope.get(scope) ?? this.#load(scope, vector.length, await this.#tx.recentEmbeddings(scope, NOVELTY_SAMPLE));
    const { arena, blocks, spilled } = references;
    const best: number[] = [];
    if (blocks.length > 0) {
      arena.setQuery(vector);
      for (const block of blocks) {
        const similarities = arena.scan(block.offset, block.rows);
        for (let row = 0; row < block.rows; row++) keepBest(best, similarities[row] as number, NOVELTY_NEIGHBOURS);
      }
    }
    for (const reference of spilled) keepBest(best, dot(reference, 0, vector, vector.length), NOVELTY_NEIGHBOURS);
    this.#append(references, vector);
    return best;
  }

  #load(scope: string, dimension: number, recent: readonly Float32Array[]): References {
    const references: References = { arena: this.#scratch.arena(dimension), blocks: [], spilled: [] };
    this.#byScope.set(scope, references);
    for (const reference of recent) this.#append(references, reference);
    return references;
  }

  /** Gives every block back to the arena, for the next write. */
  release(): void {
    for (const { arena, blocks } of this.#byScope.values())
      for (const block of blocks) arena.release(block.offset, block.capacity * arena.stride * 4);
    this.#byScope.clear();
  }

  #append(references: References, vector: Float32Array): void {
    const { arena, blocks, spilled } = references;
    if (spilled.length === 0) {
      let block = blocks[blocks.length - 1];
      if (block === undefined || block.rows === block.capacity) {
        const capacity = blocks.length === 0 ? NOVELTY_FIRST_BLOCK_ROWS : NOVELTY_BLOCK_ROWS;
        // rows are scanned only once written, so a reused block is not cleared first
        const offset = arena.allocate(capacity * arena.stride * 4, { zeroed: false });
        block = offset === undefined ? undefined : { offset, capacity, rows: 0 };
        if (block !== undefined) blocks.push(block);
      }
      if (block !== undefined) {
        arena.write(block.offset, block.rows, vector);
        block.rows += 1;
        return;
      }
    }
    spilled.push(vector);
  }
}

/** How many of the most similar references a novelty score reads. */
const NOVELTY_NEIGHBOURS = 5;

/** Inserts `value` into `best` (descending, at most `size` long) if it ranks there: a partial sort. */
function keepBest(best: number[], value: number, size: number): void {
  if (best.length === size && !(value > (best[size - 1] as number))) return;
  let at = best.length < size ? best.length : size - 1;
  while (at > 0 && value > (best[at - 1] as number)) {
    best[at] = best[at - 1] as number;
    at -= 1;
  }
  best[at] = value;
}

/** Moves the instants a record took from the write's start (`from`) to `to`; times the caller gave stay. */
function restamp(item: Planned, input: ParsedRememberInput, from: number, to: number): void {
  for (const record of [item.record, ...item.chunks, ...item.claims]) {
    record.recordedAt = to;
    record.updatedAt = to;
    if (input.validFrom === undefined && record.validFrom === from) record.validFrom = to;
    if (input.occurredAt === undefined && record.occurredAt === from) record.occurredAt = to;
  }
}

async function flush(tx: StoreTransaction, pending: NewMemory[]): Promise<void> {
  if (pending.length === 0) return;
  await tx.insertMemories(pending.splice(0, pending.length));
}

/** Supersession first, then dedup, then insert. */
async function writeClaim(
  tx: StoreTransaction,
  record: MemoryRecord,
  embedding: Float32Array,
  now: number,
  embedder: PartEmbedder,
): Promise<RememberResult> {
  let decision = await decideClaim(tx, record, embedding, now, { pastVersions: true });
  if (decision.latest > now) {
    // another writer whose clock runs ahead recorded a claim this one compares with "after" this write's
    // instant; this write saw it, so it happened later: it is stamped just after it, and decides there
    const later = decision.latest + 1;
    if (record.validFrom === now) record.validFrom = later;
    if (record.occurredAt === now) record.occurredAt = later;
    record.recordedAt = later;
    record.updatedAt = later;
    now = later;
    decision = await decideClaim(tx, record, embedding, now, { pastVersions: true });
  }
  record.surprise = scoreSurprise(decision.nearest);
  if (decision.superseded.length === 0 && decision.mergeInto !== undefined) {
    const target = decision.mergeInto.record;
    const sameSource =
      record.provenance.sources.length > 0 &&
      record.provenance.sources.every((s) => target.provenance.sources.some((t) => sameSourceRef(s, t)));
    if (sameSource) return { id: target.id, action: 'unchanged' };
    await applyMerge(tx, record, target, now);
    return { id: decision.mergeInto.record.id, action: 'merged', mergedInto: decision.mergeInto.record.id };
  }
  await tx.insertMemories([{ record, embedding }]);
  const { supersede, successor } = orderSupersessions(record, decision.superseded);
  if (successor !== undefined) await applyLaterSuccessor(tx, record, successor, now);
  if (supersede.length === 0) return { id: record.id, action: 'created' };
  for (const { record: old, comparison } of supersede) await applySupersession(tx, record, old, comparison, now, embedder);
  return { id: record.id, action: 'superseded', superseded: supersede.map((s) => s.record.id) };
}

/** The claims of a captured turn, through supersession and dedup like any claim, after its episode. */
async function writeCapturedClaims(
  tx: StoreTransaction,
  item: Embedded,
  pending: NewMemory[],
  now: number,
  embedder: PartEmbedder,
): Promise<CapturedClaimResult[] | undefined> {
  if (!item.captured) return undefined;
  const outcomes: CapturedClaimResult[] = [];
  await flush(tx, pending);
  for (const [index, claim] of item.claims.entries()) {
    const { id, action, superseded } = await writeClaim(tx, claim, item.claimVectors[index] as Float32Array, now, embedder);
    outcomes.push({ id, action, ...(superseded !== undefined ? { superseded } : {}) });
  }
  return outcomes;
}

/** Builds the record (its chunks, for long texts; its claims, for a captured turn) of one input. */
function plan(
  given: ParsedRememberInput,
  now: number,
  chunkChars: number,
  deferImportance: boolean,
  capturedSentences?: readonly string[],
  question?: string,
): Planned {
  // an answer to the assistant's question is read with it: a decision, a fact in the user's scope
  const { input, fact } = question !== undefined && given.capture === true ? answeredInput(given, question) : { input: given };
  const record = buildRecord(input, deriveSignals(input, deferImportance), now);
  const claimInputs =
    input.capture === true
      ? [
          ...capturedClaimInputs(input, record, capturedSentences),
          ...(fact !== undefined ? capturedClaimInputs(fact, record, [fact.content]) : []),
        ]
      : [];
  const claims = claimInputs.map((claim) => claimRecord(claim, now));
  const captured = input.capture === true;
  if (input.content.length <= chunkChars) {
    attachClaimSlot(record);
    return { record, chunks: [], claims, captured };
  }
  return { record, chunks: chunkRecords(record, now, chunkChars), claims, captured };
}

/**
 * The chunks of a long text's record (marked their parent: it holds the whole text and is not itself a
 * search hit), each a record of its own with its span in the parent. `record` is marked in place.
 */
export function chunkRecords(record: MemoryRecord, now: number, chunkChars = DEFAULT_CHUNK_CHARS): MemoryRecord[] {
  const parts = chunkText(record.content, { maxChars: chunkChars });
  record.data.isChunkParent = true;
  record.data.chunkCount = parts.length;
  return parts.map((part) => ({
    ...record,
    id: newId(now),
    content: part.text,
    summary: null,
    sourceKey: null,
    entities: extractEntities(part.text),
    data: {
      ...stripParentOnly(record.data),
      parentId: record.id,
      chunkIndex: part.index,
      chunkCount: parts.length,
      span: [part.start, part.end] as [number, number],
    },
  }));
}

function claimRecord(input: ParsedRememberInput, now: number): MemoryRecord {
  const record = buildRecord(input, deriveSignals(input), now);
  attachClaimSlot(record);
  return record;
}

function stripParentOnly(data: MemoryRecord['data']): MemoryRecord['data'] {
  const { isChunkParent: _parent, chunkCount: _count, claim: _claim, ...rest } = data;
  return rest;
}

/** Existing records for the source keys of this batch, keyed by scope + source key. */
async function existingSources(tx: StoreTransaction, records: readonly MemoryRecord[]): Promise<Map<string, string>> {
  const byScope = new Map<string, string[]>();
  for (const r of records) if (r.sourceKey !== null) byScope.set(r.scope, [...(byScope.get(r.scope) ?? []), r.sourceKey]);
  const known = new Map<string, string>();
  for (const [scope, keys] of byScope) {
    for (const [key, id] of await tx.findBySourceKey(scope, keys)) known.set(`${scope}\u0000${key}`, id);
  }
  return known;
}
