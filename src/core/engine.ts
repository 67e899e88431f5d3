/**
 * The Engram engine: the one core every interface is a thin shell over (DESIGN §1).
 */
import { skippingReader, type SkippedRecord } from './readable-records.js';
import { EngramError, messages } from './errors.js';
import type { Edge, MemoryRecord, TimeFilter } from './memory.js';
import { isVisible } from './memory.js';
import { toEdgeView, toMemoryView, type EdgeView, type MemoryView } from './memory-view.js';
import type { Clock } from './ports/clock.js';
import { systemClock } from './ports/clock.js';
import type { Embedder } from './ports/embedder.js';
import type { Store, StoreStats } from './ports/store.js';
import { recall as runRecall, type RecallResult } from './recall/recall.js';
import { DEFAULT_RECALL_CONFIG, type RecallConfig } from './recall/recall-config.js';
import { assertReadScopes, assertScope, type Scope } from './scope.js';
import {
  parseInput,
  recallOptionsSchema,
  recallQuerySchema,
  rememberInputSchema,
  updateInputSchema,
  type ParsedRememberInput,
  type RecallOptions,
  type RememberInput,
  type UpdateInput,
} from './schemas.js';
import { rememberAll, type RememberResult, type WriteOptions } from './write/remember.js';
import { rememberBatches } from './write/remember-batches.js';
import { buildContext, ContextCache, contextInputSchema, predictInputSchema, predictOutcomes, type ContextInput, type PredictInput, type PredictResult, type StructuredContext } from './context/index.js';
import { normalise } from './write/resolve-claim.js';
import { resolveConsolidationConfig, runConsolidation, type ConsolidationConfig, type ConsolidationOverrides, type ConsolidationReport, type LeaseHeartbeat } from './consolidate/index.js';
import { consolidateInputSchema, endSessionInputSchema, type ConsolidateOptions, type EndSessionOptions } from './consolidate/schemas.js';
import type { Llm } from './ports/llm.js';
import { LlmAssist, type LlmUses } from './llm/llm-assist.js';
import { LlmFollowUps } from './llm/llm-follow-ups.js';
import { consoleLogger, type Logger } from './ports/logger.js';
import { BackgroundWorker, drainConceptJobs, newWorkerOwner, type DrainOptions, type DrainReport } from './concepts/index.js';
import { drainImportanceJobs, type ImportanceRecoveryReport } from './llm/importance-recovery.js';
import { recordEdges, registerRelation, relate, type RecordEdge, type RegisterRelationInput, type RelateInput, type RelateResult } from './graph/relations-api.js';
import { activateFrom, parseTimeFilter, type ActivateOptions, type ActivationView, type TimeFilterInput } from './graph/activate.js';
import { exportMarkdown, importMarkdown, type MarkdownFiles, type MarkdownImportReport } from './markdown/index.js';
import type { RelationType } from './relations.js';
import type { JobBacklog } from './ports/store.js';

export interface EngramOptions {
  store: Store;
  embedder: Embedder;
  clock?: Clock;
  recall?: Partial<RecallConfig>;
  /** Optional language model (DESIGN §7); consolidation uses it for reflections when present. */
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
  /** Overrides of the sleep cycle's thresholds (DESIGN §5). */
  consolidation?: ConsolidationOverrides;
  /** Renews a consolidation cycle's lease while a phase runs (`Engram.open` passes a timer). */
  heartbeat?: LeaseHeartbeat;
  /**
   * Run background work (concept extraction) in this process while the engine is open (issue #5).
   * Default false: one-shot callers drain with `processJobs()`; long-running servers pass true.
   */
  background?: boolean | { idleMs?: number; duty?: number };
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

/**
 * Long-term memory for agents: remember, recall, get, update, forget, restore.
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
  readonly recallConfig: RecallConfig;
  #closed = false;
  readonly #llm: Llm | null;
  readonly #consolidationOverrides: ConsolidationOverrides;
  readonly #heartbeat: LeaseHeartbeat | undefined;
  readonly #importanceRecoveryMs: number | undefined;

  constructor(options: EngramOptions) {
    this.#store = options.store;
    this.#embedder = options.embedder;
    this.clock = options.clock ?? systemClock;
    this.recallConfig = Object.freeze({ ...DEFAULT_RECALL_CONFIG, ...options.recall });
    this.#llm = options.llm ?? null;
    this.assist = new LlmAssist(this.#llm !== null ? { provider: this.#llm, ...(options.llmUses !== undefined ? { uses: options.llmUses } : {}), logger: options.logger ?? consoleLogger } : undefined);
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
    this.#consolidationOverrides = options.consolidation ?? {};
    this.#heartbeat = options.heartbeat;
    this.#importanceRecoveryMs = options.importanceRecoveryMs;
    if (options.background !== undefined && options.background !== false) {
      this.startBackground(options.background === true ? {} : options.background);
    }
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
   * Swaps in the store and model a reembed moved to (the old ones are returned for the caller to close):
   * pending LLM work is flushed first and a running background worker restarts on the new pair.
   */
  protected async replaceStorage(store: Store, embedder: Embedder): Promise<{ store: Store; embedder: Embedder }> {
    this.#assertOpen();
    await this.#followUps.flush();
    const worker = this.#worker;
    const wasRunning = worker?.running === true;
    await worker?.stop();
    this.#worker = undefined;
    const previous = { store: this.#store, embedder: this.#embedder };
    this.#store = store;
    this.#embedder = embedder;
    this.#contextCache.invalidate();
    if (wasRunning) this.startBackground(this.#backgroundOptions);
    return previous;
  }

  /**
   * Stores one memory or a batch atomically. Every input is validated before anything is written;
   * one invalid input rejects the whole call with `INVALID_INPUT` and writes nothing.
   */
  async remember(input: RememberInput): Promise<RememberResult>;
  async remember(inputs: readonly RememberInput[]): Promise<RememberResult[]>;
  async remember(input: RememberInput | readonly RememberInput[]): Promise<RememberResult | RememberResult[]> {
    this.#assertOpen();
    const list = Array.isArray(input) ? (input as readonly RememberInput[]) : [input as RememberInput];
    const parsed = list.map((item, index) => parseInput(rememberInputSchema, item, list.length > 1 ? `memory #${index + 1}` : 'memory'));
    const options = this.#writeOptions();
    const results = await rememberAll(this.#deps(), parsed, options);
    this.#afterWrite(parsed, results, options);
    return Array.isArray(input) ? results : (results[0] as RememberResult);
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
  async *rememberBatches(inputs: readonly RememberInput[], options: RememberBatchesOptions = {}): AsyncGenerator<RememberResult[], void, undefined> {
    this.#assertOpen();
    const size = options.batchSize ?? 128;
    if (!Number.isInteger(size) || size < 1) throw new EngramError('INVALID_INPUT', `batchSize must be a whole number ≥ 1, got ${String(size)}.`);
    if (!Array.isArray(inputs)) throw new EngramError('INVALID_INPUT', 'rememberBatches takes an array of memories.');
    const parsed = (inputs as readonly RememberInput[]).map((item, index) => parseInput(rememberInputSchema, item, `memory #${index + 1}`));
    const batches = Array.from({ length: Math.ceil(parsed.length / size) }, (_, i) => parsed.slice(i * size, (i + 1) * size));
    const writeOptions = this.#writeOptions();
    let index = 0;
    for await (const results of rememberBatches(this.#deps(), batches, writeOptions)) {
      this.#afterWrite(batches[index++] ?? [], results, writeOptions);
      yield results;
    }
  }

  /** Finds the memories most relevant to `query` within `options.scopes`; each hit says why. */
  async recall(query: string, options: RecallOptions): Promise<RecallResult> {
    this.#assertOpen();
    assertReadScopes((options as { scopes?: unknown } | undefined | null)?.scopes);
    const text = parseInput(recallQuerySchema, query, 'query');
    const parsed = parseInput(recallOptionsSchema, options, 'recall options');
    const { store, skipped } = skippingReader(this.store);
    const result = await runRecall({ ...this.#deps(), store }, text, parsed);
    return skipped.length > 0 ? { ...result, skipped } : result;
  }

  /** One memory by id, if it lives in one of `scopes` (any status). */
  async get(id: string, options: ScopedReadOptions): Promise<MemoryView> {
    this.#assertOpen();
    const scopes = assertReadScopes(options?.scopes);
    const [record] = await this.store.getMemories([String(id)], scopes);
    if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
    return toMemoryView(record);
  }

  /** Changes fields of a memory in place; a content change re-embeds it. */
  async update(id: string, patch: UpdateInput, options: ScopedWriteOptions): Promise<MemoryView> {
    this.#assertOpen();
    const scope = assertScope(options?.scope);
    const changes = parseInput(updateInputSchema, patch, 'update');
    this.#contextCache.invalidate(scope);
    const embedding = changes.content !== undefined ? (await this.embedder.embed([changes.content]))[0] : undefined;
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      const [record] = await tx.getMemories([id], [scope]);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id } });
      const { content, ...rest } = changes;
      // a damaged record's data may not have decoded: a content change starts it afresh
      const stored = (record.data as MemoryRecord['data'] | undefined) ?? {};
      const data = content !== undefined && content !== record.content
        ? { ...stored, history: [...(stored.history ?? []), { content: record.content, at: record.updatedAt }] }
        : record.data;
      await tx.updateMemory(id, scope, {
        ...rest,
        ...(content !== undefined ? { content } : {}),
        data,
        updatedAt: now,
      });
      if (embedding !== undefined) await tx.updateEmbedding(id, scope, embedding);
      const [updated] = await tx.getMemories([id], [scope]);
      return toMemoryView(updated as MemoryRecord);
    });
  }

  /** Soft-deletes a memory (status `deleted`); `restore` brings it back. */
  async forget(id: string, options: ScopedWriteOptions): Promise<MemoryView> {
    return this.#setStatus(id, options, 'deleted');
  }

  /** Restores a forgotten or decayed memory to `active`; counts as an access (DESIGN §11.10). */
  async restore(id: string, options: ScopedWriteOptions): Promise<MemoryView> {
    return this.#setStatus(id, options, 'active');
  }

  /**
   * Undoes a wrong supersession: the claim is current again, the SUPERSEDES edge is closed, and an
   * exemption is recorded so the same correction does not supersede it again (DESIGN §11.10).
   */
  async unsupersede(id: string, options: ScopedWriteOptions): Promise<MemoryView> {
    this.#assertOpen();
    const scope = assertScope(options?.scope);
    this.#contextCache.invalidate(scope);
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      const [record] = await tx.getMemories([String(id)], [scope]);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
      if (record.status !== 'superseded') {
        throw new EngramError('CONFLICT', `Memory ${record.id} is ${record.status}, not superseded: there is nothing to undo.`, { details: { id } });
      }
      const edges = (await tx.getEdges({ scopes: [scope], ids: [record.id], types: ['SUPERSEDES'] })).filter(
        (e) => e.toId === record.id && e.invalidatedAt === null,
      );
      const superseders = await tx.getMemories(edges.map((e) => e.fromId), [scope]);
      const undone = superseders.map((s) => ({
        wording: normalise(s.content),
        ...(s.data.claim !== undefined ? { subject: s.data.claim.subject, attribute: s.data.claim.attribute, value: s.data.claim.value } : {}),
        at: now,
      }));
      const { supersededBy: _by, ...data } = record.data;
      await tx.updateMemory(record.id, scope, {
        status: 'active',
        validTo: null,
        invalidatedAt: null,
        data: { ...data, exempt: { ...data.exempt, supersededBy: [...(data.exempt?.supersededBy ?? []), ...undone] } },
        updatedAt: now,
      });
      await tx.invalidateEdges(edges.map((e) => e.id), scope, now);
      const [updated] = await tx.getMemories([record.id], [scope]);
      return toMemoryView(updated as MemoryRecord);
    });
  }

  /**
   * The chain of versions of a claim, oldest first: every record linked to `id` through SUPERSEDES
   * edges (both directions, transitively), each with the edges that connect it.
   */
  async history(id: string, options: ScopedReadOptions): Promise<{ versions: MemoryView[]; edges: EdgeView[]; skipped?: SkippedRecord[] }> {
    this.#assertOpen();
    const scopes = assertReadScopes(options?.scopes);
    const { store, skipped } = skippingReader(this.store);
    const [start] = await store.getMemories([String(id)], scopes);
    if (start === undefined && skipped.length > 0) return { versions: [], edges: [], skipped };
    if (start === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
    const seen = new Map<string, MemoryRecord>([[start.id, start]]);
    const edges = new Map<string, Edge>();
    let frontier = [start.id];
    while (frontier.length > 0 && seen.size < 1000) {
      const found = await this.store.getEdges({ scopes, ids: frontier, types: ['SUPERSEDES'] });
      const next: string[] = [];
      for (const edge of found) {
        edges.set(edge.id, edge);
        for (const end of [edge.fromId, edge.toId]) if (!seen.has(end) && !next.includes(end)) next.push(end);
      }
      for (const record of await store.getMemories(next, scopes)) seen.set(record.id, record);
      frontier = next.filter((n) => seen.has(n));
    }
    const versions = [...seen.values()].sort((a, b) => a.validFrom - b.validFrom || a.recordedAt - b.recordedAt || (a.id < b.id ? -1 : 1));
    return { versions: versions.map(toMemoryView), edges: [...edges.values()].map(toEdgeView), ...(skipped.length > 0 ? { skipped } : {}) };
  }

  // --- layers: relations, activation, background jobs, Markdown (issue #5, src/core/{graph,concepts,layers,markdown}/) ---
  #worker: BackgroundWorker | undefined;
  #backgroundOptions: { idleMs?: number; duty?: number } = {};

  /**
   * Relates two records of one scope with a registered type (`engram relations list`); for an existing
   * current edge of that type between them (either direction for symmetric types) the weight is updated.
   */
  async relate(input: RelateInput): Promise<RelateResult> {
    this.#assertOpen();
    return relate(this.#deps(), input);
  }

  /** The relation types `scopes` may use: the built-ins and those registered by their tenants, by name. */
  async relations(options: ScopedReadOptions): Promise<RelationType[]> {
    this.#assertOpen();
    return this.store.getRelationTypes(assertReadScopes(options?.scopes));
  }

  /** Registers a run-time relation type for the tenant of `scope`, recorded as proposed by `proposedBy`. Idempotent; persisted. */
  async registerRelation(input: RegisterRelationInput): Promise<RelationType> {
    this.#assertOpen();
    return registerRelation(this.#deps(), input);
  }

  /** The edges of one record under the time filter; symmetric types read `both` from either end. */
  async edges(id: string, options: ScopedReadOptions & TimeFilterInput & { types?: string[] }): Promise<RecordEdge[]> {
    this.#assertOpen();
    const scopes = assertReadScopes(options?.scopes);
    return recordEdges(this.#deps(), String(id), { scopes, ...parseTimeFilter(options), ...(options.types !== undefined ? { types: options.types } : {}) });
  }

  /**
   * Cross-layer spreading activation from one record (or several): ranked records per layer, each with
   * the path that reached it. Never leaves `scopes`; `asOf` / `knownAt` apply to edges and records.
   */
  async activate(id: string | readonly string[], options: ActivateOptions): Promise<ActivationView> {
    this.#assertOpen();
    return activateFrom(this.#deps(), id, options);
  }

  /**
   * Processes queued background jobs now (concept extraction, then due importance recoveries);
   * resolves when the queue is empty or a limit is hit.
   */
  async processJobs(options: DrainOptions = {}): Promise<DrainReport & { importanceScored: number }> {
    this.#assertOpen();
    const owner = options.owner ?? newWorkerOwner();
    const concepts = await drainConceptJobs(this.#deps(), { ...options, owner });
    const left = options.limit === undefined ? undefined : Math.max(0, options.limit - concepts.jobs);
    if (left === 0) return { ...concepts, importanceScored: 0 };
    const importance = await this.#drainImportance({ owner, ...(left !== undefined ? { limit: left } : {}), ...(options.scopes !== undefined ? { scopes: options.scopes } : {}) });
    return { ...concepts, jobs: concepts.jobs + importance.jobs, importanceScored: importance.scored };
  }

  #drainImportance(options: { owner: string; limit?: number; scopes?: DrainOptions['scopes'] }): Promise<ImportanceRecoveryReport> {
    return drainImportanceJobs({ store: this.store, clock: this.clock, assist: this.assist }, options);
  }

  /** Starts the background worker in this process (idempotent); `close()` stops it. */
  startBackground(options: { idleMs?: number; duty?: number } = {}): void {
    this.#assertOpen();
    this.#backgroundOptions = options;
    this.#worker ??= new BackgroundWorker(this.#deps(), { ...options, also: (owner) => this.#drainImportance({ owner, limit: 1 }).then((r) => r.jobs) });
    this.#worker.start();
  }

  /** Stops the background worker after the batch in flight. */
  async stopBackground(): Promise<void> {
    await this.#worker?.stop();
  }

  /** Writes a scope as Markdown files (procedural.md, semantic.md, concepts.md, profile.md, log.md): name → text. */
  async exportMarkdown(options: { scope: Scope }): Promise<MarkdownFiles> {
    this.#assertOpen();
    // damaged records are left out of the files rather than failing the export
    return exportMarkdown({ store: skippingReader(this.store).store }, assertScope(options?.scope));
  }

  /** Reads Markdown files written by `exportMarkdown` (and edited by people) back into a scope. */
  async importMarkdown(files: MarkdownFiles, options: { scope: Scope }): Promise<MarkdownImportReport> {
    this.#assertOpen();
    const report = await importMarkdown(this.#deps(), files, assertScope(options?.scope));
    this.#worker?.notify();
    return report;
  }
  // --- end layers ---

  // --- context builder and pattern completion (issue #7, src/core/context/) ---
  readonly #contextCache = new ContextCache();

  /**
   * The context of one turn within a wall-clock budget (default 50 ms) and a token budget: procedural
   * rules, profile facts, knowledge, live concepts for what is perceived, predictions and relevant
   * episodes, each part labelled with the level it reached; `markdown` is ready for a prompt.
   */
  async context(input: ContextInput): Promise<StructuredContext> {
    this.#assertOpen();
    assertReadScopes((input as { scopes?: unknown } | undefined | null)?.scopes);
    const parsed = parseInput(contextInputSchema, input, 'context');
    const { store, skipped } = skippingReader(this.store);
    const result = await buildContext({ ...this.#deps(), store, cache: this.#contextCache }, parsed);
    return skipped.length > 0 ? { ...result, skipped: [...skipped] } : result;
  }

  /**
   * Pattern completion: for a forming episode (perception and context, no decision yet), the likely
   * actions and outcomes from matching past episodes, with probability, confidence and their ids.
   */
  async predict(input: PredictInput): Promise<PredictResult> {
    this.#assertOpen();
    assertReadScopes((input as { scopes?: unknown } | undefined | null)?.scopes);
    const parsed = parseInput(predictInputSchema, input, 'predict');
    return predictOutcomes({ store: this.store, now: this.clock.now() }, parsed);
  }
  /**
   * Builds one throw-away context without a deadline (for `message` and `percept` when given, so the
   * same code paths are warm), so a fresh process has loaded what a build needs (prepared statements,
   * the vector index, text analysers) before a budgeted call.
   * Records no access. The CLI calls it before `context`; servers can call it at start.
   */
  async warmContext(options: ScopedReadOptions & { message?: string; percept?: ContextInput['percept'] }): Promise<void> {
    this.#assertOpen();
    const scopes = assertReadScopes(options?.scopes);
    const probe = { message: options.message ?? 'warm up the context builder', percept: options.percept ?? { objects: ['warm_up'], goal: 'warm_up' } };
    const parsed = parseInput(contextInputSchema, { scopes, ...probe, budgetMs: 60_000 }, 'context');
    await buildContext({ ...this.#deps(), cache: this.#contextCache, trackAccess: false }, parsed);
  }
  // --- LLM (issue #7, src/core/llm/): optional; every use falls back to the deterministic path ---
  /** The LLM helper: importance, supersession, fact extraction, reflection; answers null without an LLM. */
  readonly assist: LlmAssist;
  readonly #followUps: LlmFollowUps;

  /** Waits for the LLM work started by earlier writes (importance scores, judgements, extracted facts). */
  async flushLlm(): Promise<void> {
    await this.#followUps.flush();
  }
  // --- end context builder ---

  // --- consolidation: the sleep cycle (issue #6, src/core/consolidate/) ---

  /**
   * Runs the sleep cycle for one scope: dedup, supersede, extract, ground, promote, reflect, decay,
   * compress (or only `phases`), under the scope's lock. Rejects with `LOCKED` while another cycle
   * (in any process) runs for the scope. Returns and stores a report of every phase.
   */
  async consolidate(options: ConsolidateOptions): Promise<ConsolidationReport> {
    this.#assertOpen();
    const parsed = parseInput(consolidateInputSchema, options, 'consolidate');
    const scope = assertScope(parsed.scope);
    return runConsolidation(this.#consolidationDeps(), { scope, ...(parsed.phases !== undefined ? { phases: parsed.phases } : {}), trigger: 'on-demand' });
  }

  /** Ends a session: runs the mandatory consolidation (seed 000), reflection included. */
  async endSession(options: EndSessionOptions): Promise<ConsolidationReport> {
    this.#assertOpen();
    const parsed = parseInput(endSessionInputSchema, options, 'endSession');
    const scope = assertScope(parsed.scope);
    return runConsolidation(this.#consolidationDeps(), { scope, trigger: 'session-end', sessionId: parsed.sessionId });
  }

  #consolidationDeps() {
    this.#consolidationConfig ??= resolveConsolidationConfig(this.#consolidationOverrides);
    return {
      store: this.store,
      embedder: this.embedder,
      clock: this.clock,
      config: this.#consolidationConfig,
      llm: null,
      ...(this.#heartbeat !== undefined ? { heartbeat: this.#heartbeat } : {}),
      // the LLM assist honours llmUses.reflection and answers null to fall back to extractive
      ...(this.assist.enabled('reflection') ? { reflect: (input: Parameters<LlmAssist['reflect']>[0]) => this.assist.reflect(input) } : {}),
    };
  }
  #consolidationConfig: ConsolidationConfig | undefined;
  // --- end consolidation ---

  /** Counts by layer and status within the given scopes. */
  async stats(options: ScopedReadOptions): Promise<StoreStats & { scopes: readonly Scope[]; embedder: string; jobs: JobBacklog }> {
    this.#assertOpen();
    const scopes = assertReadScopes(options?.scopes);
    const [stats, jobs] = await Promise.all([this.store.stats(scopes), this.store.jobBacklog(scopes)]);
    return { scopes, embedder: this.embedder.name, ...stats, jobs };
  }

  /** Is the record visible to a current read now? */
  isCurrent(record: MemoryRecord, filter: TimeFilter = {}): boolean {
    return isVisible(record, filter, this.clock.now());
  }

  /** Flushes pending work and closes the store and the embedder. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#followUps.flush();
    await this.#worker?.stop();
    await this.store.close();
    await this.embedder.close?.();
  }

  async #setStatus(id: string, options: ScopedWriteOptions, status: 'deleted' | 'active'): Promise<MemoryView> {
    this.#assertOpen();
    const scope = assertScope(options?.scope);
    this.#contextCache.invalidate(scope);
    const now = this.clock.now();
    const view = await this.store.transaction(async (tx) => {
      const [record] = await tx.getMemories([String(id)], [scope]);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
      if (status === 'active' && record.status === 'superseded') {
        throw new EngramError('CONFLICT', `Memory ${id} was superseded, not forgotten: use unsupersede to reinstate it.`, { details: { id } });
      }
      // a damaged record's data may not have decoded; the status change does not need it
      const stored = record.data as MemoryRecord['data'] | undefined;
      const exempt = status === 'active' && record.status === 'decayed' ? { ...stored?.exempt, decay: true } : stored?.exempt;
      await tx.updateMemory(record.id, scope, {
        status,
        updatedAt: now,
        ...(exempt !== undefined ? { data: { ...stored, exempt } } : {}),
      });
      const [updated] = await tx.getMemories([record.id], [scope]);
      return toMemoryView(updated as MemoryRecord);
    });
    if (status === 'active') await this.store.recordAccess([view.id], now);
    return view;
  }

  #writeOptions(): WriteOptions {
    return { deferImportance: this.assist.enabled('importance'), ...(this.#importanceRecoveryMs !== undefined ? { importanceRecoveryMs: this.#importanceRecoveryMs } : {}) };
  }

  /** What follows a committed write: LLM follow-ups, context cache, background worker. */
  #afterWrite(parsed: readonly ParsedRememberInput[], results: readonly RememberResult[], options: WriteOptions): void {
    this.#followUps.schedule(parsed, results, options.deferImportance === true);
    for (const item of parsed) if (item.layer === 'procedural' || item.layer === 'semantic') this.#contextCache.invalidate(item.scope);
    this.#worker?.notify();
  }

  #deps() {
    return { store: this.store, embedder: this.embedder, clock: this.clock, config: this.recallConfig };
  }

  #assertOpen(): void {
    if (this.#closed) throw new EngramError('STORAGE_UNAVAILABLE', 'This Engram instance is closed: open a new one with Engram.open().');
  }
}
