/**
 * The record facade of the engine: records, recall and the graph. `Engram` (`src/engram.ts`, the
 * composition root) composes consolidation, the context builder and pattern completion on top.
 */
import { skippingReader, type SkippedRecord } from './readable-records.js';
import { EngramError, messages } from './errors.js';
import type { MemoryRecord, NewMemory, TimeFilter } from './memory.js';
import { isVisible } from './memory.js';
import { toEdgeView, toMemoryView, type EdgeView, type MemoryView } from './memory-view.js';
import type { Clock } from './ports/clock.js';
import type { SystemPorts } from './ports/system.js';
import type { Embedder } from './ports/embedder.js';
import type { Store, StoreStats, StoreTransaction } from './ports/store.js';
import { recall as runRecall, type RecallResult } from './recall/recall.js';
import { DEFAULT_RECALL_CONFIG, type RecallConfig } from './recall/recall-config.js';
import { parseRecallOverrides } from './recall/recall-config-schema.js';
import { assertReadScopes, assertScope, type Scope } from './scope.js';
import {
  auditOptionsSchema,
  drainOptionsSchema,
  edgeTypesOptionsSchema,
  importDumpOptionsSchema,
  markdownFilesSchema,
  parseChunkSource,
  parseId,
  parseIds,
  parseInput,
  parseOptions,
  recallOptionsSchema,
  recallQuerySchema,
  rememberBatchesOptionsSchema,
  rememberInputSchema,
  updateInputSchema,
  type ParsedRememberInput,
  type RecallOptions,
  type RememberInput,
  type UpdateInput,
} from './schemas.js';
import { answeredQuestions, llmCapturedClaims, openQuestionsOf } from './write/capture/index.js';
import { chunkRecords, NoveltyScratch, rememberAll, type RememberResult, type WriteOptions } from './write/remember.js';
import { chunkText, DEFAULT_CHUNK_CHARS } from './write/chunking/index.js';
import { rememberBatches } from './write/remember-batches.js';
import { followValidFrom } from './write/claim-versions.js';
import { fillPartVectors, type FillPartsOptions, type FillPartsReport } from './write/fill-parts.js';
import { fillMentions, type FillMentionsReport } from './recall/mentioned-time.js';
import { reembedText } from './reembed/reembed-text.js';
import { correctedClaimsOf, type CorrectedClaims } from './corrections.js';
import { extractEntities } from './text/index.js';
import {
  applyLaterSuccessor,
  applySupersession,
  attachClaimSlot,
  CLAIM_LAYERS,
  decideClaim,
  dropKeptPart,
  laterSuperseders,
  normalize,
  orderSupersessions,
  unsupersededPatch,
} from './write/resolve-claim.js';
import type { Llm } from './ports/llm.js';
import { LlmAssist, type LlmUses } from './llm/llm-assist.js';
import { LlmFollowUps } from './llm/llm-follow-ups.js';
import { consoleLogger, type Logger } from './ports/logger.js';
import { drainConceptJobs, newWorkerOwner, type DrainOptions, type DrainReport } from './concepts/index.js';
import { drainImportanceJobs, type ImportanceRecoveryReport } from './llm/importance-recovery.js';
import {
  recordEdges,
  registerRelation,
  relate,
  relateInputSchema,
  type RecordEdge,
  type RegisterRelationInput,
  type RelateInput,
  type RelateResult,
} from './graph/relations-api.js';
import { activateFrom, parseTimeFilter, type ActivateOptions, type ActivationView, type TimeFilterInput } from './graph/activate.js';
import { exportMarkdown, importMarkdown, type MarkdownFiles, type MarkdownImportReport } from './markdown/index.js';
import { exportDump, importDump, type DumpImportReport, type ImportDumpOptions } from './dump/index.js';
import { withBuiltInRelations, type RelationType } from './relations.js';
import type { JobBacklog, ScopeSummary } from './ports/store.js';
import { listPage, scopeSummaries, type ListResult } from './browse/list.js';
import { listInputSchema, scopesInputSchema, type ListInput, type PurgeInput, type ScopesInput } from './browse/schemas.js';
import { purgeRecords, type PurgeReport } from './purge/purge.js';
import { isTombstone } from './purge/expire.js';
import { isConcept } from './record-kinds.js';
import { newId } from './record-factory.js';
import type { RecordChange, RecordChangeListener } from './record-change.js';
import { createRedactor, type Redactor, type RedactionOptions } from './redact/redactor.js';
import { compareClaims } from './write/claims/index.js';
import {
  correctedAgainBy,
  forgetConceptsNamedAlone,
  forgetDerivedAlone,
  reinstateCorrected,
  restoreForgottenWith,
} from './forget-derived.js';
import { redactInputs, redactValue } from './redact/redact-values.js';
import { redactStored, type RedactInput, type RedactReport } from './redact/redact-stored.js';
import { supersessionLinks } from './explore/lineage.js';
import {
  personaHistory,
  readPersona,
  revertPersona,
  setPersona,
  type PersonaVersion,
  type RevertPersonaInput,
  type SetPersonaInput,
} from './persona/persona-api.js';
import { readProfileSchema, setProfileSchema, type ProfileSchemaView, type SetProfileSchemaInput } from './profile/profile-schema-api.js';
import { hasChainFields, planChainWrite, REJECTED_TAG } from './chains/write-chain.js';
import { surface as runSurface, surfaceInputSchema, type SurfaceHit, type SurfaceInput } from './surface/surface.js';

/** The parts of the record facade; `Engram` takes these and what it composes on top. */
export interface EngramCoreOptions {
  store: Store;
  embedder: Embedder;
  /** Domain time: validity, recency, decay (a test or a simulation moves it). */
  clock: Clock;
  /** The process's wall clock (job leases), stopwatch and randomness (claim owners). */
  system: SystemPorts;
  recall?: Partial<RecallConfig>;
  /** Optional language model; consolidation uses it for reflections when present. */
  llm?: Llm | null;
  /** Which uses of `llm` are on (each defaults to on when an LLM is given): importance, supersession, extraction, reflection. */
  llmUses?: Partial<LlmUses>;
  /** Where handled problems (an LLM answer that fell back) are reported; default `console.warn`. */
  logger?: Logger;
  /**
   * With an LLM scoring importance: how long (ms) its in-process score may take before a queued
   * recovery job scores a still-pending record instead (in whichever process drains jobs next, so a
   * crash never leaves importance pending). Default 5 minutes.
   */
  importanceRecoveryMs?: number;
  /**
   * Secrets (API keys, tokens, private keys, passwords) are replaced by `[redacted:<kind>]` on every
   * write, before storage and embedding. On by default; `{ enabled: false }` stores text as it comes,
   * `patterns` adds your own.
   */
  redaction?: RedactionOptions;
}

/** Options for reads by id. */
export interface ScopedReadOptions {
  scopes: readonly Scope[] | Scope;
}

/** Options of {@link EngramCore.rememberBatches}. */
export interface RememberBatchesOptions {
  /** Inputs per transaction, at least 1. Default 128. */
  batchSize?: number;
}

/** Options for writes by id: the one scope the record lives in. */
export interface ScopedWriteOptions {
  scope: Scope;
}

/** An edited record's new vector, and its chunks' when the new wording is long. */
interface EditVectors {
  vector: Float32Array;
  chunkVectors: readonly Float32Array[];
}

/** The most scopes whose index recall keeps. */
const CORRECTED_SCOPES = 256;

/**
 * The record facade: remember, recall, get, update, forget, restore, the graph, browse and purge.
 * Users meet it through `Engram`, which adds consolidation and serving; each write is announced to
 * the listeners of `onRecordChange` (the serving cache, the background worker).
 *
 * @example
 * ```ts
 * const engram = await Engram.open({ path: 'engram.db' });
 * await engram.remember({ scope: 'acme/users/alice', content: 'Alice prefers window seats.', layer: 'semantic' });
 * const { hits } = await engram.recall('where does Alice like to sit?', { scopes: ['acme/users/alice'] });
 * ```
 */
export class EngramCore {
  #store: Store;
  #embedder: Embedder;
  readonly clock: Clock;
  /** The wall clock, stopwatch and randomness the composition root injected. */
  readonly system: SystemPorts;
  readonly recallConfig: RecallConfig;
  #closed = false;
  /** Vector memory the writes' novelty scoring reuses. */
  readonly #novelty = new NoveltyScratch();
  readonly #llm: Llm | null;
  readonly #importanceRecoveryMs: number | undefined;
  readonly #listeners = new Set<RecordChangeListener>();
  readonly #corrected = new Map<Scope, { generation: number; index: Promise<CorrectedClaims | null> }>();
  readonly #redactor: Redactor;

  constructor(options: EngramCoreOptions) {
    this.#redactor = createRedactor(options.redaction);
    this.#store = options.store;
    this.#embedder = options.embedder;
    this.clock = options.clock;
    this.system = options.system;
    this.recallConfig = Object.freeze({ ...DEFAULT_RECALL_CONFIG, ...parseRecallOverrides(options.recall) });
    this.#llm = options.llm ?? null;
    this.assist = new LlmAssist(
      this.#llm !== null
        ? {
            provider: this.#llm,
            ...(options.llmUses !== undefined ? { uses: options.llmUses } : {}),
            logger: options.logger ?? consoleLogger,
          }
        : undefined,
    );
    // read through the engine, so a reembed that swaps the store and model is seen by later follow-ups
    const current = (): { store: Store; embedder: Embedder } => ({ store: this.#store, embedder: this.#embedder });
    this.#followUps = new LlmFollowUps({
      get store() {
        return current().store;
      },
      get embedder() {
        return current().embedder;
      },
      clock: this.clock,
      assist: this.assist,
      logger: options.logger ?? consoleLogger,
      remember: (inputs) => this.remember(inputs),
    });
    this.#importanceRecoveryMs = options.importanceRecoveryMs;
  }

  /** Calls `listener` on each write of this facade (in the order they happen); returns its removal. */
  protected onRecordChange(listener: RecordChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells the listeners of `onRecordChange` about a write made by a subclass (e.g. expiry). */
  protected announceChange(change: RecordChange): void {
    this.#announce(change);
  }

  #announce(change: RecordChange): void {
    for (const listener of this.#listeners) listener(change);
  }

  /**
   * A scope's index of corrected captured claims (`correctedClaimsOf`) for recall and context, kept while
   * the store's `supersededGeneration` of the scope is unchanged: any write, of any process, that changes
   * what the index holds moves it. Reading the index costs a read of the scope's superseded claims (~60 ms
   * at 3,000); comparing the generation, one small indexed read. The generation is read first, so what is
   * kept may be newer than the generation it is filed under, never older.
   */
  protected async correctedIndex(scope: Scope): Promise<CorrectedClaims | null> {
    const generation = await this.store.supersededGeneration(scope);
    const kept = this.#corrected.get(scope);
    if (kept?.generation === generation) return kept.index;
    const index = correctedClaimsOf(skippingReader(this.store).store, scope);
    index.catch(() => {
      if (this.#corrected.get(scope)?.index === index) this.#corrected.delete(scope);
    });
    this.#corrected.delete(scope);
    this.#corrected.set(scope, { generation, index });
    // the oldest go first past the bound
    for (const oldest of this.#corrected.keys()) {
      if (this.#corrected.size <= CORRECTED_SCOPES) break;
      this.#corrected.delete(oldest);
    }
    return index;
  }

  /** The store this engine reads and writes. */
  get store(): Store {
    return this.#store;
  }

  /** The embedding model of the store. */
  get embedder(): Embedder {
    return this.#embedder;
  }

  /**
   * Swaps in the store and model a reembed moved to (the old ones are returned for the caller to close);
   * pending LLM work is flushed first.
   */
  protected async replaceStorage(store: Store, embedder: Embedder): Promise<{ store: Store; embedder: Embedder }> {
    this.assertOpen();
    await this.#followUps.flush();
    const previous = { store: this.#store, embedder: this.#embedder };
    // another store's generations say nothing of what was read from this one
    this.#corrected.clear();
    this.#store = store;
    this.#embedder = embedder;
    return previous;
  }

  /**
   * Stores one memory or a batch atomically. Every input is validated before anything is written;
   * one invalid input rejects the whole call with `INVALID_INPUT` and writes nothing.
   */
  async remember(input: RememberInput): Promise<RememberResult>;
  async remember(inputs: readonly RememberInput[]): Promise<RememberResult[]>;
  async remember(input: RememberInput | readonly RememberInput[]): Promise<RememberResult | RememberResult[]> {
    this.assertOpen();
    const list = Array.isArray(input) ? (input as readonly RememberInput[]) : [input as RememberInput];
    const { inputs: parsed, counts } = redactInputs(
      list.map((item, index) => parseInput(rememberInputSchema, item, list.length > 1 ? `memory #${index + 1}` : 'memory')),
      this.#redactor,
    );
    if (parsed.some(hasChainFields)) return this.#rememberChain(parsed, counts, Array.isArray(input));
    const options = { ...this.#writeOptions(), ...(await this.#captureOptions(parsed)) };
    const results = withRedacted(await rememberAll(this.#deps(), parsed, options), counts);
    this.#afterWrite(parsed, results, options);
    return Array.isArray(input) ? results : (results[0] as RememberResult);
  }

  /** `remember` of inputs that write decision chains: alternatives and edges in the same transaction. */
  async #rememberChain(
    parsed: readonly ParsedRememberInput[],
    counts: readonly number[],
    many: boolean,
  ): Promise<RememberResult | RememberResult[]> {
    const chain = planChainWrite(parsed, (text, of) =>
      parseInput(
        rememberInputSchema,
        {
          scope: of.scope,
          content: text,
          layer: 'episodic',
          tags: [REJECTED_TAG],
          ...(of.occurredAt !== undefined ? { occurredAt: of.occurredAt } : {}),
        },
        'rejected alternative',
      ),
    );
    const options = { ...this.#writeOptions(), ...(await this.#captureOptions(chain.inputs)), link: chain.link };
    const written = await rememberAll(this.#deps(), chain.inputs, options);
    this.#afterWrite(chain.inputs, written, options);
    const results = withRedacted(chain.resultsOf(written), counts);
    return many ? results : (results[0] as RememberResult);
  }

  /**
   * Stores many memories as consecutive batches of `batchSize` inputs, each atomic in its own
   * transaction, and yields each batch's results (in input order) once it has committed: the bulk
   * path of imports, where the next batches are embedded while one commits. Every input is
   * validated before anything is written (one invalid input rejects all with `INVALID_INPUT`). If a
   * batch fails, the iteration throws: earlier batches stay written, that batch and later ones are not.
   *
   * @example
   * ```ts
   * for await (const results of engram.rememberBatches(turns, { batchSize: 128 })) console.log(results.length, 'committed');
   * ```
   */
  async *rememberBatches(
    inputs: readonly RememberInput[],
    options: RememberBatchesOptions = {},
  ): AsyncGenerator<RememberResult[], void, undefined> {
    this.assertOpen();
    const size = parseOptions(rememberBatchesOptionsSchema, options, 'rememberBatches options').batchSize ?? 128;
    if (!Array.isArray(inputs)) throw new EngramError('INVALID_INPUT', 'rememberBatches takes an array of memories.');
    const { inputs: parsed, counts } = redactInputs(
      (inputs as readonly RememberInput[]).map((item, index) => parseInput(rememberInputSchema, item, `memory #${index + 1}`)),
      this.#redactor,
    );
    const batches = Array.from({ length: Math.ceil(parsed.length / size) }, (_, i) => parsed.slice(i * size, (i + 1) * size));
    const writeOptions = { ...this.#writeOptions(), ...(await this.#captureOptions(parsed)) };
    let index = 0;
    for await (const committed of rememberBatches(this.#deps(), batches, writeOptions)) {
      const results = withRedacted(committed, counts.slice(index * size, (index + 1) * size));
      this.#afterWrite(batches[index++] ?? [], results, writeOptions);
      yield results;
    }
  }

  /** Finds the memories most relevant to `query` within `options.scopes`; each hit says why. */
  async recall(query: string, options: RecallOptions): Promise<RecallResult> {
    this.assertOpen();
    assertReadScopes((options as { scopes?: unknown } | undefined | null)?.scopes);
    const text = parseInput(recallQuerySchema, query, 'query');
    const parsed = parseInput(recallOptionsSchema, options, 'recall options');
    const { store, skipped } = skippingReader(this.store);
    const result = await runRecall({ ...this.#deps(), store, correctedIndex: (scope) => this.correctedIndex(scope) }, text, parsed);
    return skipped.length > 0 ? { ...result, skipped } : result;
  }

  /**
   * The memories most worth having in mind, without a query: by importance, activation (recent and
   * frequent use) and relevance to an optional `context`; each hit says why. Not counted as an access.
   */
  async surface(input: SurfaceInput): Promise<{ hits: SurfaceHit[] }> {
    this.assertOpen();
    assertReadScopes((input as { scopes?: unknown } | undefined | null)?.scopes);
    return runSurface(this.#deps(), parseInput(surfaceInputSchema, input, 'surface'));
  }

  /** One memory by id, if it lives in one of `scopes` (any status). */
  async get(id: string, options: ScopedReadOptions): Promise<MemoryView> {
    this.assertOpen();
    parseId(id, 'get');
    const scopes = assertReadScopes(options?.scopes);
    const [record] = await this.store.getMemories([id], scopes);
    if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id } });
    return toMemoryView(record);
  }

  /** Changes fields of a memory in place; a content change re-embeds it. */
  async update(id: string, patch: UpdateInput, options: ScopedWriteOptions): Promise<MemoryView> {
    this.assertOpen();
    parseId(id, 'update');
    const scope = assertScope(options?.scope);
    const changes = redactValue(parseInput(updateInputSchema, patch, 'update'), this.#redactor).value;
    this.#announce({ kind: 'update', records: [{ scope }] });
    // embedded before the write lock is taken; nothing is embedded when the content is what is stored
    const prepared = changes.content !== undefined ? await this.#editedVectors(id, scope, changes.content) : undefined;
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      const [record] = await tx.getMemories([id], [scope]);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id } });
      assertNotTombstone(record, 'update');
      assertValidInterval(record, changes);
      const { content, ...rest } = withEventValidity(record, changes);
      // a damaged record's data may not have decoded: a content change starts it afresh
      const stored = (record.data as MemoryRecord['data'] | undefined) ?? {};
      const data =
        content !== undefined && content !== record.content
          ? claimOfEdit(record, content, {
              ...stored,
              history: [
                ...(Array.isArray(stored.history) ? stored.history : []),
                { content: this.#redactor.redact(record.content).text, at: record.updatedAt },
              ],
            })
          : record.data;
      const edited = content !== undefined && content !== record.content;
      // another writer changed the content since it was read unchanged: embed it now, under the lock
      const vectors = edited ? (prepared ?? (await this.#embedEdit(record, content))) : undefined;
      const embedding = vectors?.vector;
      // the chunks of the old wording go (they are derived from it; its history keeps the text), and a
      // long new wording gets its own: otherwise recall and context would go on quoting the old text
      const chunks = edited
        ? await this.#rechunk(tx, { ...record, ...rest, content, data, updatedAt: now }, vectors?.chunkVectors ?? [], now)
        : undefined;
      await tx.updateMemory(id, scope, {
        ...rest,
        ...(content !== undefined ? { content } : {}),
        ...(edited ? { entities: editedEntities(record, content) } : {}),
        data: chunks?.parentData ?? data,
        updatedAt: now,
      });
      if (embedding !== undefined) await tx.updateEmbedding(id, scope, embedding);
      if (chunks !== undefined && chunks.records.length > 0) await tx.insertMemories(chunks.records);
      // valid time follows the supersession chain: what this claim ended ends where it now starts
      if (rest.validFrom !== undefined && CLAIM_LAYERS.has(record.layer)) await followValidFrom(tx, record, rest.validFrom, now);
      const [updated] = await tx.getMemories([id], [scope]);
      // a new wording is the latest statement of its claim: it supersedes what it corrects, as a write would
      if (
        embedding !== undefined &&
        updated !== undefined &&
        updated.status === 'active' &&
        CLAIM_LAYERS.has(updated.layer) &&
        !isConcept(updated)
      ) {
        const { superseded } = await decideClaim(tx, updated, embedding, now, { pastVersions: true });
        const { supersede, successor } = orderSupersessions(updated, superseded);
        if (successor !== undefined) await applyLaterSuccessor(tx, updated, successor, now);
        for (const { record: old, comparison } of supersede) await applySupersession(tx, updated, old, comparison, now, this.embedder);
        if (successor !== undefined) return toMemoryView(((await tx.getMemories([id], [scope]))[0] ?? updated) as MemoryRecord);
      }
      return toMemoryView(updated as MemoryRecord);
    });
  }

  /**
   * Replaces the chunks of an edited record: the old ones are deleted, and when the new wording is long
   * it is chunked as a write chunks it (`vectors` embed the chunks in order). Answers the parent's data
   * (marked a chunk parent or not) and the new chunks to insert once the parent is updated.
   */
  async #rechunk(
    tx: StoreTransaction,
    record: MemoryRecord,
    vectors: readonly Float32Array[],
    now: number,
  ): Promise<{ parentData: MemoryRecord['data']; records: NewMemory[] }> {
    const old = (await tx.findDerived({ scope: record.scope, ids: [record.id] })).filter((r) => r.data.parentId === record.id);
    if (old.length > 0)
      await tx.deleteMemories(
        old.map((r) => r.id),
        record.scope,
      );
    const { isChunkParent: _parent, chunkCount: _count, ...data } = record.data;
    if (vectors.length === 0) return { parentData: data, records: [] };
    const parent: MemoryRecord = { ...record, data: { ...data } };
    const { claim: _claim, ...withoutClaim } = parent.data;
    parent.data = withoutClaim;
    const chunks = chunkRecords(parent, now);
    return { parentData: parent.data, records: chunks.map((chunk, i) => ({ record: chunk, embedding: vectors[i] as Float32Array })) };
  }

  /**
   * The vectors of a record whose content becomes `content` (read before the write lock is taken), or
   * none when the content is the stored one: an update that leaves the wording as it is embeds nothing.
   */
  async #editedVectors(id: string, scope: Scope, content: string): Promise<EditVectors | undefined> {
    const [record] = await this.store.getMemories([id], [scope]);
    if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id } });
    return content === record.content ? undefined : this.#embedEdit(record, content);
  }

  /**
   * A new wording embedded as a write would embed it (with the record's name, speaker and episode
   * cycle), and when it is long, its chunks in order (chunking is deterministic).
   */
  async #embedEdit(record: MemoryRecord, content: string): Promise<EditVectors> {
    const [vector] = await this.embedder.embed([reembedText({ ...record, data: record.data ?? {}, content })]);
    const chunks = content.length > DEFAULT_CHUNK_CHARS ? chunkText(content) : [];
    const chunkVectors = chunks.length > 0 ? await this.embedder.embed(chunks.map((part) => part.text)) : [];
    return { vector: vector as Float32Array, chunkVectors };
  }

  /** Soft-deletes a memory (status `deleted`); `restore` brings it back. */
  async forget(id: string, options: ScopedWriteOptions): Promise<MemoryView> {
    return this.#setStatus(parseId(id, 'forget'), options, 'deleted');
  }

  /** Restores a forgotten or decayed memory to `active`; counts as an access. */
  async restore(id: string, options: ScopedWriteOptions): Promise<MemoryView> {
    return this.#setStatus(parseId(id, 'restore'), options, 'active');
  }

  /**
   * Undoes a wrong supersession: the claim is current again, the SUPERSEDES edge is closed, and an
   * exemption is recorded so the same correction does not supersede it again.
   */
  async unsupersede(id: string, options: ScopedWriteOptions): Promise<MemoryView> {
    this.assertOpen();
    parseId(id, 'unsupersede');
    const scope = assertScope(options?.scope);
    this.#announce({ kind: 'unsupersede', records: [{ scope }] });
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      const [record] = await tx.getMemories([String(id)], [scope]);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
      if (record.status !== 'superseded') {
        throw new EngramError('CONFLICT', `Memory ${record.id} is ${record.status}, not superseded: there is nothing to undo.`, {
          details: { id },
        });
      }
      const edges = (await tx.getEdges({ scopes: [scope], ids: [record.id], types: ['SUPERSEDES'] })).filter(
        (e) => e.toId === record.id && e.invalidatedAt === null,
      );
      const superseders = await tx.getMemories(
        edges.map((e) => e.fromId),
        [scope],
      );
      const undone = superseders.map((s) => ({
        wording: normalize(s.content),
        ...(s.data.claim !== undefined
          ? { subject: s.data.claim.subject, attribute: s.data.claim.attribute, value: s.data.claim.value }
          : {}),
        at: now,
      }));
      const patch = unsupersededPatch(record);
      const validTo = patch.validTo;
      const data = {
        ...patch.data,
        exempt: { ...patch.data.exempt, supersededBy: [...(patch.data.exempt?.supersededBy ?? []), ...undone] },
      };
      await tx.updateMemory(record.id, scope, { status: 'active', validTo, invalidatedAt: null, data, updatedAt: now });
      await tx.invalidateEdges(
        edges.map((e) => e.id),
        scope,
        now,
      );
      await dropKeptPart(tx, record);
      // what was said since, other than the correction undone, still applies to it
      await supersedeByLater(tx, { ...record, status: 'active', validTo, invalidatedAt: null, data }, now, this.embedder);
      const [updated] = await tx.getMemories([record.id], [scope]);
      return toMemoryView(updated as MemoryRecord);
    });
  }

  /**
   * The chain of versions of a claim, oldest first: every record linked to `id` through SUPERSEDES
   * edges (both directions, transitively), each with the edges that connect it.
   */
  async history(id: string, options: ScopedReadOptions): Promise<{ versions: MemoryView[]; edges: EdgeView[]; skipped?: SkippedRecord[] }> {
    this.assertOpen();
    parseId(id, 'history');
    const scopes = assertReadScopes(options?.scopes);
    const { store, skipped } = skippingReader(this.store);
    const [start] = await store.getMemories([id], scopes);
    if (start === undefined && skipped.length > 0) return { versions: [], edges: [], skipped };
    if (start === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id } });
    const { records: seen, edges } = await supersessionLinks(store, start, scopes);
    const versions = [...seen.values()].sort((a, b) => a.validFrom - b.validFrom || a.recordedAt - b.recordedAt || (a.id < b.id ? -1 : 1));
    return { versions: versions.map(toMemoryView), edges: edges.map(toEdgeView), ...(skipped.length > 0 ? { skipped } : {}) };
  }

  // --- layers: relations, activation, background jobs, Markdown (src/core/{graph,concepts,layers,markdown}/) ---

  /**
   * Relates two records of one scope with a registered type (`engram relations list`); for an existing
   * current edge of that type between them (either direction for symmetric types) the weight is updated.
   */
  async relate(input: RelateInput): Promise<RelateResult> {
    this.assertOpen();
    // edge metadata is free text too: its secrets are replaced like a memory's, once the input is
    // known to be sound (redaction walks the metadata, which validation bounds in depth and size)
    const parsed = parseInput(relateInputSchema, input, 'relate');
    if (parsed.metadata === undefined) return relate(this.#deps(), input);
    // only the metadata: a type name is a registered name, never free text
    return relate(this.#deps(), { ...input, metadata: redactValue(parsed.metadata, this.#redactor).value });
  }

  /** The relation types `scopes` may use: the built-ins and those registered by their tenants, by name. */
  async relations(options: ScopedReadOptions): Promise<RelationType[]> {
    this.assertOpen();
    return withBuiltInRelations(await this.store.getRelationTypes(assertReadScopes(options?.scopes)));
  }

  /** Registers a run-time relation type for the tenant of `scope`, recorded as proposed by `proposedBy`. Idempotent; persisted. */
  async registerRelation(input: RegisterRelationInput): Promise<RelationType> {
    this.assertOpen();
    return registerRelation({ ...this.#deps(), redactor: this.#redactor }, input);
  }

  /** The edges of one record under the time filter; symmetric types read `both` from either end. */
  async edges(id: string, options: ScopedReadOptions & TimeFilterInput & { types?: string[] }): Promise<RecordEdge[]> {
    this.assertOpen();
    parseId(id, 'edges');
    const scopes = assertReadScopes(options?.scopes);
    const { types } = parseInput(edgeTypesOptionsSchema, options, 'edges options');
    return recordEdges(this.#deps(), id, { scopes, ...parseTimeFilter(options), ...(types !== undefined ? { types } : {}) });
  }

  /**
   * Cross-layer spreading activation from one record (or several): ranked records per layer, each with
   * the path that reached it. Never leaves `scopes`; `asOf` / `knownAt` apply to edges and records.
   */
  async activate(id: string | readonly string[], options: ActivateOptions): Promise<ActivationView> {
    this.assertOpen();
    return activateFrom(this.#deps(), parseIds(id, 'activate'), options);
  }

  /**
   * Processes queued background jobs now (concept extraction, then due importance recoveries), then
   * makes the part vectors of records still waiting for them (`partVectors`: records answered);
   * resolves when all is done or a limit is hit (`limit` counts jobs; part vectors are not jobs and
   * are made only when no limit is given, or within `maxMs`).
   */
  async processJobs(
    drainOptions: DrainOptions = {},
  ): Promise<DrainReport & { importanceScored: number; partVectors: number; mentionedTimes: number }> {
    this.assertOpen();
    const options = parseOptions(drainOptionsSchema, drainOptions, 'processJobs options');
    const owner = options.owner ?? newWorkerOwner(this.system);
    const started = this.system.stopwatch.now();
    const concepts = await drainConceptJobs(this.#deps(), { ...options, owner });
    const left = options.limit === undefined ? undefined : Math.max(0, options.limit - concepts.jobs);
    if (left === 0) return { ...concepts, importanceScored: 0, partVectors: 0, mentionedTimes: 0 };
    const importance = await this.drainImportance({
      owner,
      ...(left !== undefined ? { limit: left } : {}),
      ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
    });
    const drained = { ...concepts, jobs: concepts.jobs + importance.jobs, importanceScored: importance.scored };
    if (options.limit !== undefined) return { ...drained, partVectors: 0, mentionedTimes: 0 };
    const timeLeft = (): number | undefined =>
      options.maxMs === undefined ? undefined : options.maxMs - (this.system.stopwatch.now() - started);
    let remaining = timeLeft();
    if (remaining !== undefined && remaining <= 0) return { ...drained, partVectors: 0, mentionedTimes: 0 };
    const parts = await this.fillParts({
      ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
      ...(remaining !== undefined ? { maxMs: remaining } : {}),
    });
    remaining = timeLeft();
    if (remaining !== undefined && remaining <= 0) return { ...drained, partVectors: parts.records, mentionedTimes: 0 };
    const mentioned = await this.fillMentions({
      ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
      ...(remaining !== undefined ? { maxMs: remaining } : {}),
    });
    return { ...drained, partVectors: parts.records, mentionedTimes: mentioned.records };
  }

  /**
   * Stores the times the texts of records written or edited since name (`fillMentions` in
   * `recall/mentioned-time.ts`), so recall's mention channel need not read them; the background worker
   * calls it when idle (for every scope).
   */
  protected fillMentions(options: { scopes?: DrainOptions['scopes']; limit?: number; maxMs?: number } = {}): Promise<FillMentionsReport> {
    return fillMentions({ store: this.store, stopwatch: this.system.stopwatch }, options);
  }

  /**
   * Makes the part vectors of records waiting for them (`fill-parts.ts`); the background worker calls
   * it when idle. None are made while recall does not read them (`partWeight: 0`), so an engine on a
   * paid remote embedder can keep from embedding every sentence again; they wait in the pending list.
   */
  protected async fillParts(options: FillPartsOptions = {}): Promise<FillPartsReport> {
    if (this.recallConfig.partWeight <= 0) return { records: 0 };
    return fillPartVectors({ store: this.store, embedder: this.embedder, stopwatch: this.system.stopwatch }, options);
  }

  /** Scores due importance-recovery jobs (the background worker runs them between concept jobs). */
  protected drainImportance(options: {
    owner: string;
    limit?: number;
    scopes?: DrainOptions['scopes'];
  }): Promise<ImportanceRecoveryReport> {
    return drainImportanceJobs({ store: this.store, clock: this.clock, wallClock: this.system.wallClock, assist: this.assist }, options);
  }

  /** Writes a scope as Markdown files (procedural.md, semantic.md, concepts.md, profile.md, log.md; schema.md when it has a profile schema): name → text. */
  async exportMarkdown(options: { scope: Scope }): Promise<MarkdownFiles> {
    this.assertOpen();
    // damaged records are left out of the files rather than failing the export
    return exportMarkdown({ store: skippingReader(this.store).store, now: this.clock.now() }, assertScope(options?.scope));
  }

  /** Reads Markdown files written by `exportMarkdown` (and edited by people) back into a scope. */
  async importMarkdown(files: MarkdownFiles, options: { scope: Scope }): Promise<MarkdownImportReport> {
    this.assertOpen();
    const scope = assertScope(options?.scope);
    // checked, but read as given: a parsed copy would lose a file named "__proto__"
    parseInput(markdownFilesSchema, files, 'importMarkdown files');
    const report = await importMarkdown({ ...this.#deps(), redactor: this.#redactor }, files, scope);
    this.#announce({ kind: 'import', records: [{ scope }] });
    return report;
  }

  /**
   * The lossless dump of `scopes` (docs/dump-format.md): NDJSON lines, each ending in `\n`, read from
   * the store page by page. `embeddings: true` adds each record's vector. `scopes: 'all'` dumps every
   * scope that holds records (for the store's owner: interfaces that serve tenants never pass it).
   *
   * @example
   * ```ts
   * await pipeline(Readable.from(engram.exportJsonl({ scopes: ['acme/users/alice'] })), createWriteStream('alice.jsonl'));
   * ```
   */
  exportJsonl(options: { scopes: readonly Scope[] | Scope | 'all'; embeddings?: boolean }): AsyncGenerator<string> {
    this.assertOpen();
    const scopes = options?.scopes === 'all' ? 'all' : assertReadScopes(options?.scopes);
    return exportDump(
      { store: this.store, embedder: { name: this.embedder.name, dimension: this.embedder.dimension } },
      { scopes, embeddings: options.embeddings === true },
    );
  }

  /**
   * Restores a dump written by `exportJsonl` from `source` (chunks of text or bytes: a Node Readable, a
   * fetch body): ids and every field kept, idempotent and resumable. Records are re-embedded unless the
   * dump carries vectors of this store's model.
   *
   * @example
   * ```ts
   * const report = await engram.importJsonl(createReadStream('alice.jsonl'));
   * console.log(report.counts.record.created, report.complete);
   * ```
   */
  async importJsonl(
    source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
    importOptions: ImportDumpOptions = {},
  ): Promise<DumpImportReport> {
    this.assertOpen();
    const options = parseOptions(importDumpOptionsSchema, importOptions, 'importJsonl options') as ImportDumpOptions;
    const chunks = parseChunkSource(source, 'importJsonl source');
    const scopes = new Set<Scope>();
    const permitScope = (scope: Scope): void => {
      options.permitScope?.(scope);
      scopes.add(scope);
    };
    try {
      return await importDump({ store: this.store, embedder: this.embedder, redactor: this.#redactor }, chunks, {
        ...options,
        permitScope,
      });
    } finally {
      // cached rules and profiles of the scopes written are read afresh
      if (scopes.size > 0) this.#announce({ kind: 'update', records: [...scopes].map((scope) => ({ scope })) });
    }
  }
  // --- end layers ---

  // --- persona and profile schema (src/core/persona/, src/core/profile/): versioned procedural records ---

  /** The persona a read of `scopes` uses (the current one of the first scope that has one), or null. */
  async persona(options: ScopedReadOptions): Promise<PersonaVersion | null> {
    this.assertOpen();
    return readPersona(this.store, assertReadScopes(options?.scopes), this.clock.now());
  }

  /**
   * Sets the persona of a scope (dispositions 0..1 and what each favours) as a new version; the
   * previous one is superseded, not lost. Recall and context re-rank by it when asked (`persona: true`).
   *
   * @example
   * ```ts
   * await engram.setPersona({ scope: 'acme/agents/tutor', dispositions: { curiosity: 0.9, caution: 0.3 }, favours: { curiosity: { tags: ['ml'] } } });
   * ```
   */
  async setPersona(input: SetPersonaInput): Promise<PersonaVersion> {
    this.assertOpen();
    const scope = assertScope((input as { scope?: unknown } | undefined | null)?.scope);
    this.#announce({ kind: 'update', records: [{ scope, layer: 'procedural' }] });
    return setPersona({ ...this.#deps(), redactor: this.#redactor }, input);
  }

  /** Every version of a scope's persona, oldest first, each with why it was written (a person, a reflection, a revert). */
  async personaHistory(options: ScopedWriteOptions): Promise<PersonaVersion[]> {
    this.assertOpen();
    return personaHistory(this.store, assertScope(options?.scope));
  }

  /** Restores an earlier persona version (`to`; default the previous one) as a new, logged version. */
  async revertPersona(input: RevertPersonaInput): Promise<PersonaVersion> {
    this.assertOpen();
    const scope = assertScope((input as { scope?: unknown } | undefined | null)?.scope);
    this.#announce({ kind: 'update', records: [{ scope, layer: 'procedural' }] });
    return revertPersona({ ...this.#deps(), redactor: this.#redactor }, input);
  }

  /** The profile schema `scopes` see (seed 003: what to learn about the user): fields of every current schema record. */
  async profileSchema(options: ScopedReadOptions): Promise<ProfileSchemaView> {
    this.assertOpen();
    return readProfileSchema(this.store, assertReadScopes(options?.scopes), this.clock.now());
  }

  /**
   * Sets the profile schema of a scope (fields with name, description, example) as a new version;
   * every context of a read that sees the scope then lists the fields still missing.
   *
   * @example
   * ```ts
   * await engram.setProfileSchema({ scope: 'acme/shared', fields: [{ name: 'budget range', description: 'what the user can spend', example: '80L' }] });
   * ```
   */
  async setProfileSchema(input: SetProfileSchemaInput): Promise<ProfileSchemaView & { superseded: string[] }> {
    this.assertOpen();
    const scope = assertScope((input as { scope?: unknown } | undefined | null)?.scope);
    this.#announce({ kind: 'update', records: [{ scope, layer: 'procedural' }] });
    return setProfileSchema({ ...this.#deps(), redactor: this.#redactor }, input);
  }
  // --- end persona and profile schema ---

  // --- LLM (src/core/llm/): optional; every use falls back to the deterministic path ---
  /** The LLM helper: importance, supersession, fact extraction, reflection; answers null without an LLM. */
  readonly assist: LlmAssist;
  readonly #followUps: LlmFollowUps;

  /** Waits for the LLM work started by earlier writes (importance scores, judgements, extracted facts). */
  async flushLlm(): Promise<void> {
    await this.#followUps.flush();
  }

  // --- browse and purge (src/core/browse/, src/core/purge/) ---

  /**
   * One page of stored records (any status unless `statuses` narrows), filtered and ordered by
   * recordedAt (default, newest first), validFrom, importance or accessedAt; pass `nextCursor` back as
   * `cursor` for the next page. Not ranked recall: `text` is a plain substring of the content.
   * Selects its scopes with `scopes`, `tenant` (every existing scope of it) or `allScopes: true`.
   * `asOf` / `knownAt` keep only what was true at `asOf` as believed at `knownAt`, as recall reads it.
   */
  async list(input: ListInput): Promise<ListResult> {
    this.assertOpen();
    return listPage(this.store, parseInput(listInputSchema, input, 'list'), this.clock.now());
  }

  /** The selected scopes that hold records, each with counts by layer and status. */
  async scopes(input: ScopesInput): Promise<ScopeSummary[]> {
    this.assertOpen();
    return scopeSummaries(this.store, parseInput(scopesInputSchema, input, 'scopes'));
  }

  /**
   * Deletes for good the records of one scope named by `ids`, matched by `filter`, or,
   * with neither, the whole scope, with everything derived from them alone; needs `confirm: true`.
   * A predecessor of a purged claim becomes current again (`restored`). Leaves an audit entry by
   * `actor` (default `library`) without content.
   */
  async purge(input: PurgeInput, options: { actor?: string } = {}): Promise<PurgeReport> {
    this.assertOpen();
    const { actor } = parseOptions(auditOptionsSchema, options, 'purge options');
    const report = await purgeRecords(this.store, input, { now: this.clock.now(), actor: actor ?? 'library' });
    const scope = input.scope;
    this.#announce({ kind: 'purge', records: [{ scope }] });
    const { records, chunks, statistics } = report.removed;
    if (records + chunks + statistics > 0) await this.store.scrubDeleted([scope]);
    return report;
  }
  // --- end browse and purge ---

  /**
   * Cleans what was stored before redaction was on (or before a pattern was added): every record of
   * `scopes` (any status, chunks included) has its secrets replaced in its text, history wordings and
   * other fields, is re-embedded from the cleaned text, and the index files are compacted so the old
   * text is gone from disk. `dryRun` counts without writing.
   */
  async redact(input: RedactInput): Promise<RedactReport> {
    this.assertOpen();
    const scopes = assertReadScopes((input as { scopes?: unknown } | undefined | null)?.scopes);
    if (input.dryRun !== true) this.#announce({ kind: 'update', records: scopes.map((scope) => ({ scope })) });
    return redactStored({ store: this.store, embedder: this.embedder, clock: this.clock, redactor: this.#redactor }, { ...input, scopes });
  }

  /**
   * Counts by layer and status within the given scopes, the job backlog, and how many records still
   * wait for their part vectors (`partVectorsPending`) and for the times their text names to be stored
   * (`mentionedTimesPending`; 0 where the store keeps none); the background worker or `processJobs`
   * makes both.
   */
  async stats(options: ScopedReadOptions): Promise<
    StoreStats & {
      scopes: readonly Scope[];
      embedder: string;
      jobs: JobBacklog;
      partVectorsPending: number;
      mentionedTimesPending: number;
    }
  > {
    this.assertOpen();
    const scopes = assertReadScopes(options?.scopes);
    const [stats, jobs, partVectorsPending, mentionedTimesPending] = await Promise.all([
      this.store.stats(scopes),
      this.store.jobBacklog(scopes),
      this.store.countPendingParts(scopes),
      this.store.countPendingMentions?.(scopes) ?? 0,
    ]);
    return { scopes, embedder: this.embedder.name, ...stats, jobs, partVectorsPending, mentionedTimesPending };
  }

  /** Is the record visible to a current read now? */
  isCurrent(record: MemoryRecord, filter: TimeFilter = {}): boolean {
    return isVisible(record, filter, this.clock.now());
  }

  /** What is composed on top stops here, after pending LLM work is flushed and before the store closes. */
  protected async closeParts(): Promise<void> {}

  /** Flushes pending work and closes the store and the embedder. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#followUps.flush();
    await this.closeParts();
    await this.store.close();
    await this.embedder.close?.();
  }

  async #setStatus(id: string, options: ScopedWriteOptions, status: 'deleted' | 'active'): Promise<MemoryView> {
    this.assertOpen();
    const scope = assertScope(options?.scope);
    this.#announce({ kind: 'status', records: [{ scope }] });
    const now = this.clock.now();
    const view = await this.store.transaction(async (tx) => {
      const [record] = await tx.getMemories([String(id)], [scope]);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
      assertNotTombstone(record, status === 'active' ? 'restore' : 'forget');
      if (status === 'active' && record.status === 'superseded') {
        throw new EngramError('CONFLICT', `Memory ${id} was superseded, not forgotten: use unsupersede to reinstate it.`, {
          details: { id },
        });
      }
      // a damaged record's data may not have decoded; the status change does not need it
      const stored = record.data as MemoryRecord['data'] | undefined;
      // a restore sticks: later decay sweeps leave the record alone, whether it had decayed or expired
      const revived = status === 'active' && (record.status === 'decayed' || record.status === 'expired');
      const exempt = revived ? { ...stored?.exempt, decay: true } : stored?.exempt;
      // a superseded claim that was forgotten comes back superseded: its successor still holds
      const next = status === 'active' && record.status === 'deleted' && typeof stored?.supersededBy === 'string' ? 'superseded' : status;
      // forgotten by the caller now, not with its evidence: restoring that evidence leaves it forgotten
      const { forgottenWith: _, ...own } = stored ?? {};
      const data = exempt !== undefined ? { ...own, exempt } : typeof stored?.forgottenWith === 'string' ? own : undefined;
      await tx.updateMemory(record.id, scope, { status: next, updatedAt: now, ...(data !== undefined ? { data } : {}) });
      // a long text's chunks are searched in its stead: they are forgotten and restored with it
      const chunks = (await tx.findDerived({ scope, ids: [record.id] })).filter(
        (r) => r.data.parentId === record.id && r.status === (status === 'deleted' ? 'active' : 'deleted'),
      );
      for (const chunk of chunks)
        await tx.updateMemory(chunk.id, scope, { status: status === 'deleted' ? 'deleted' : 'active', updatedAt: now });
      if (status === 'active' && record.status === 'expired') await relinkExpired(tx, record, now);
      // what was derived from it alone (a caution, a statistic, a reflection) is forgotten with it, and comes back with it
      if (next === 'deleted' && record.status !== 'deleted') {
        await forgetDerivedAlone(tx, scope, record, now);
        await forgetConceptsNamedAlone(tx, scope, record, now);
        // a correction that is gone corrects nothing: what it superseded is current again
        if (record.status === 'active') await reinstateCorrected(tx, scope, record, now);
      }
      if (status === 'active' && record.status === 'deleted') {
        await restoreForgottenWith(tx, scope, record, now);
        // …and a correction back in force supersedes them anew, as it did when it was written
        const [back] = await tx.getMemories([record.id], [scope]);
        for (const again of await correctedAgainBy(tx, scope, record, now)) {
          const comparison = compareClaims(record.content, again.content);
          if (back !== undefined && comparison.relation === 'supersedes')
            await applySupersession(tx, back, again, comparison, now, this.embedder);
          else await supersedeByLater(tx, again, now, this.embedder);
        }
      }
      // a claim back in force meets what was said since: a later correction supersedes it now
      if (next === 'active') await supersedeByLater(tx, { ...record, status: 'active' }, now, this.embedder);
      const [updated] = await tx.getMemories([record.id], [scope]);
      return toMemoryView(updated as MemoryRecord);
    });
    if (status === 'active') await this.store.recordAccess([view.id], now);
    return view;
  }

  /** The redactor of this engine's writes (configured by `redaction`). */
  get redactor(): Redactor {
    return this.#redactor;
  }

  #writeOptions(): WriteOptions {
    return {
      deferImportance: this.assist.enabled('importance'),
      ...(this.#importanceRecoveryMs !== undefined ? { importanceRecoveryMs: this.#importanceRecoveryMs } : {}),
    };
  }

  /** For captured turns: the questions they answer (also from earlier writes), and an LLM's reading of them (the rules read the rest). */
  async #captureOptions(parsed: readonly ParsedRememberInput[]): Promise<Pick<WriteOptions, 'capturedClaims' | 'questions'>> {
    if (!parsed.some((input) => input.capture === true)) return {};
    const [read, stored] = await Promise.all([llmCapturedClaims(this.assist, parsed), openQuestionsOf(this.store, parsed)]);
    // a question kept from an earlier write (perhaps made while redaction was off) is stored with its answer: redacted as it is
    const open = new Map([...stored].map(([key, question]) => [key, this.#redactor.redact(question).text]));
    return { ...(read !== undefined ? { capturedClaims: read } : {}), questions: answeredQuestions(parsed, open).answers };
  }

  /** What follows a committed write: LLM follow-ups, context cache, background worker. */
  #afterWrite(parsed: readonly ParsedRememberInput[], results: readonly RememberResult[], options: WriteOptions): void {
    this.#followUps.schedule(parsed, results, options.deferImportance === true);
    // a captured turn also writes semantic claims (into its userScope): the profile they feed changed too
    const records = parsed.flatMap((item) => [
      { scope: item.scope, layer: item.layer ?? 'episodic', ...(item.importance !== undefined ? { importance: item.importance } : {}) },
      ...(item.capture === true ? [{ scope: item.userScope ?? item.scope, layer: 'semantic' as const }] : []),
    ]);
    this.#announce({ kind: 'remember', records });
  }

  #deps() {
    return {
      store: this.store,
      embedder: this.embedder,
      clock: this.clock,
      config: this.recallConfig,
      novelty: this.#novelty,
      ...this.system,
    };
  }

  /** Throws `STORAGE_UNAVAILABLE` once `close()` was called. */
  protected assertOpen(): void {
    if (this.#closed) throw new EngramError('STORAGE_UNAVAILABLE', 'This Engram instance is closed: open a new one with Engram.open().');
  }
}

/** The results with the number of secrets each input had, where it had any. */
function withRedacted(results: RememberResult[], counts: readonly number[]): RememberResult[] {
  return results.map((result, index) => ((counts[index] ?? 0) > 0 ? { ...result, redacted: counts[index] as number } : result));
}

/**
 * An update's validity as it will be stored (the patch's bounds over the record's) must stay an
 * interval: a `validTo` at or before `validFrom` would leave a record true at no instant, which recall
 * then never returns. The patch alone cannot say so when it names one bound.
 */
/**
 * A claim restored to force against the claims recorded since it was set aside: the latest that
 * corrects it supersedes it (or, when it began after that one in valid time, it closes that one's
 * validity), as if it had been current when that claim was written.
 */
async function supersedeByLater(tx: StoreTransaction, record: MemoryRecord, now: number, embedder: Embedder): Promise<void> {
  const found = (await laterSuperseders(tx, record, now)).sort((a, b) => b.record.recordedAt - a.record.recordedAt);
  const latest = found[0];
  if (latest === undefined) return;
  const { supersede, successor } = orderSupersessions(latest.record, [{ record, comparison: latest.comparison }]);
  if (supersede.length > 0) await applySupersession(tx, latest.record, record, latest.comparison, now, embedder);
  else if (successor !== undefined) await applyLaterSuccessor(tx, latest.record, successor, now);
}

/**
 * The links a decay expiry closed (its edges, closed at `expiredAt`) hold again once the record is
 * restored: each is recorded anew at `now` with its valid time, when its other end is still there. The concept refs the expiry
 * removed come back when the next sleep cycle links the record's concepts.
 */
async function relinkExpired(tx: StoreTransaction, record: MemoryRecord, now: number): Promise<void> {
  const expiredAt = (record.data as { expiredAt?: unknown } | undefined)?.expiredAt;
  if (typeof expiredAt !== 'number') return;
  const edges = await tx.getEdges({ scopes: [record.scope], ids: [record.id] });
  const closed = edges.filter((e) => e.invalidatedAt === expiredAt);
  const ends = new Map(
    (await tx.getMemories([...new Set(closed.map((e) => (e.fromId === record.id ? e.toId : e.fromId)))], [record.scope])).map((r) => [
      r.id,
      r,
    ]),
  );
  const held = new Set(edges.filter((e) => e.invalidatedAt === null).map((e) => `${e.fromId} ${e.type} ${e.toId}`));
  const relinked = closed
    .filter((e) => {
      const end = ends.get(e.fromId === record.id ? e.toId : e.fromId);
      return end !== undefined && !isTombstone(end) && !held.has(`${e.fromId} ${e.type} ${e.toId}`);
    })
    .map((e) => ({ ...e, id: newId(now), recordedAt: now, invalidatedAt: null }));
  if (relinked.length > 0) await tx.insertEdges(relinked);
}

/**
 * A new event time moves the start of validity with it when that start came from the event time, as a
 * write sets it (`validFrom` defaults to `occurredAt`, else to when it was written): "Trip to Milan"
 * re-dated to May 2019 is true as of May 2019. A start given of its own, or one the new time would put
 * past the end, stays.
 */
function withEventValidity<T extends { validFrom?: number; occurredAt?: number | null; validTo?: number | null }>(
  record: MemoryRecord,
  changes: T,
): T {
  if (changes.occurredAt === undefined || changes.occurredAt === null || changes.validFrom !== undefined) return changes;
  if (record.validFrom !== (record.occurredAt ?? record.recordedAt) || changes.occurredAt === record.validFrom) return changes;
  const validTo = changes.validTo !== undefined ? changes.validTo : record.validTo;
  if (validTo !== null && validTo <= changes.occurredAt) return changes;
  return { ...changes, validFrom: changes.occurredAt };
}

function assertValidInterval(record: MemoryRecord, changes: { validFrom?: number; validTo?: number | null }): void {
  if (changes.validFrom === undefined && changes.validTo === undefined) return;
  // a superseded claim's validity ends where its correction's begins: reopening it would make two
  // current values of one slot (recall would answer the stale one beside the new)
  const end = record.validTo;
  if (
    record.status === 'superseded' &&
    changes.validTo !== undefined &&
    (changes.validTo === null || (end !== null && changes.validTo > end))
  ) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        `update: memory ${record.id} is superseded${end !== null ? ` (valid until ${new Date(end).toISOString()}, where its correction starts)` : ''}; its validTo can only move earlier. To make it current again, unsupersede it`,
      ),
      { details: { field: 'validTo' } },
    );
  }
  const validFrom = changes.validFrom ?? record.validFrom;
  const validTo = changes.validTo !== undefined ? changes.validTo : record.validTo;
  if (validTo === null || validTo > validFrom) return;
  const field = changes.validTo !== undefined && changes.validTo !== null ? 'validTo' : 'validFrom';
  throw new EngramError(
    'INVALID_INPUT',
    messages.invalidInput(
      `update: ${field === 'validTo' ? `validTo (${new Date(validTo).toISOString()}) must be after validFrom (${new Date(validFrom).toISOString()})` : `validFrom (${new Date(validFrom).toISOString()}) must be before validTo (${new Date(validTo).toISOString()})`}; name both to move the interval`,
    ),
    { details: { field } },
  );
}

/**
 * The data of a claim whose wording was edited: its claim slot is read again from the new wording
 * (none if the extractor finds none), so supersession and the claim index compare what it now says.
 */
function claimOfEdit(record: MemoryRecord, content: string, data: MemoryRecord['data']): MemoryRecord['data'] {
  const { claim: _before, ...rest } = data;
  const edited: MemoryRecord = { ...record, content, data: rest };
  attachClaimSlot(edited);
  return edited.data;
}

/**
 * A tombstone (a record expired for good, its content removed) takes no more changes: an edit, a
 * forget or a restore would bring an empty or rewritten record back among the living.
 */
function assertNotTombstone(record: MemoryRecord, action: 'update' | 'forget' | 'restore'): void {
  if (!isTombstone(record)) return;
  const what = action === 'restore' ? 'there is nothing to restore' : `it cannot be ${action === 'update' ? 'edited' : 'forgotten'}`;
  throw new EngramError(
    'CONFLICT',
    `Memory ${record.id} was expired for good (a tombstone without content): ${what}. Purge removes it entirely.`,
    {
      details: { id: record.id },
    },
  );
}

/**
 * The entities of a record after its wording changed: those read from the old wording go, those of the
 * new one come; any the writer gave that neither wording names stay.
 */
function editedEntities(record: MemoryRecord, content: string): string[] {
  const before = new Set(extractEntities(record.content));
  return [...new Set([...record.entities.filter((e) => !before.has(e)), ...extractEntities(content)])];
}
