/**
 * The composition root: `Engram` composes consolidation, the context builder, pattern completion and
 * the background worker on the record facade (`EngramCore`). `Engram.open` is the embedded default,
 * built from the SQLite (or PostgreSQL) store and a local embedder; drivers and models are reached
 * only through lazy `import()` so importing `engram` loads neither. `Engram.create` takes your parts.
 */
import { EngramCore, type EngramCoreOptions } from './core/engine.js';
import { PART_BATCH } from './core/write/fill-parts.js';
import { MENTION_BATCH } from './core/recall/mentioned-time.js';
import { BackgroundWorker } from './consolidation/background-worker.js';
import { IdleReflector, type IdleReflectionEvent } from './consolidation/idle-reflection.js';
import { sinceLastReflection } from './consolidation/phases/reflect.js';
import type { Scheduler } from './core/ports/scheduler.js';
import { resolveConsolidationConfig, type ConsolidationConfig, type ConsolidationOverrides } from './consolidation/config.js';
import { decayVerdict, idleThresholdMs, type DecayConfig } from './consolidation/decay-policy.js';
import { lastActiveAt } from './core/memory.js';
import {
  findConsolidationRun,
  lastConsolidationRun,
  listConsolidationRuns,
  type ConsolidationRunsInput,
  type ConsolidationRunsPage,
} from './consolidation/runs.js';
import { overviewCounts, type DecayPolicyView, type OverviewCounts } from './core/explore/overview.js';
import { graphView, type GraphView } from './core/explore/graph.js';
import { provenanceOf, supersessionChain, type ChainVersion, type ProvenanceView } from './core/explore/lineage.js';
import {
  byIdReadSchema,
  graphInputSchema,
  overviewInputSchema,
  scopeList,
  type ByIdReadOptions,
  type GraphInput,
  type OverviewInput,
} from './core/explore/schemas.js';
import { skippingReader } from './core/readable-records.js';
import { Consolidation } from './consolidation/consolidation.js';
import type { ConsolidationReport } from './consolidation/report.js';
import type { ConsolidateOptions, EndSessionOptions } from './consolidation/schemas.js';
import type { LeaseHeartbeat } from './core/ports/lease-heartbeat.js';
import type { ScopedReadOptions } from './core/engine.js';
import { Serving } from './serving/serving.js';
import { systemClock, systemPorts, systemScheduler } from './system-ports.js';
import type { ContextInput, PredictInput } from './serving/schemas.js';
import type { PredictResult, StructuredContext } from './serving/types.js';
import { EngramError } from './core/errors.js';
import type { Clock } from './core/ports/clock.js';
import type { Embedder } from './core/ports/embedder.js';
import type { Llm } from './core/ports/llm.js';
import type { Logger } from './core/ports/logger.js';
import type { LlmUses } from './core/llm/llm-assist.js';
import type { OpenAiCompatibleLlmConfig } from './llm/index.js';
import type { Store } from './core/ports/store.js';
import { timerHeartbeat } from './lease-heartbeat.js';
import { leaseHolderIsGone, newLeaseOwner } from './lease-owner.js';
import {
  auditOptionsSchema,
  backgroundOptionsSchema,
  describeValue,
  idleReflectionOptionsSchema,
  MAX_TIMER_MS,
  parseId,
  parseInput,
  parseOptions,
} from './core/schemas.js';
import {
  DEFAULT_REEMBED_BATCH,
  reembedOptionsSchema,
  runReembed,
  type ReembedCoreReport,
  type ReembedProgress,
} from './core/reembed/index.js';
import { isEngramError } from './core/errors.js';
import type { RecallConfig } from './core/recall/recall-config.js';
import { parseRecallOverrides } from './core/recall/recall-config-schema.js';
import {
  choiceForRecordedEmbedder,
  installedChoiceFor,
  parseEmbedderChoice,
  preferredLocalEmbedder,
  type EmbedderChoice,
  type ParsedEmbedderChoice,
} from './embedder-choice.js';
import { createRedactor, type RedactionOptions } from './core/redact/index.js';
import { decayReportOf, previewDecay, type DecayReport } from './consolidation/decay-run.js';
import { expireRecords, type ExpireInput, type ExpireReport } from './core/purge/expire.js';
import { decayInputSchema, type DecayInput } from './consolidation/schemas.js';
import { assertScope } from './core/scope.js';

export type { EmbedderChoice } from './embedder-choice.js';

/** What {@link Engram.overview} returns. */
export type Overview = OverviewCounts & { lastRun: { id: string; scope: string; finishedAt: string } | null };

/** The decay policy as the overview applies it: the tier idle times and each record's due instant. */
function decayPolicyView(config: DecayConfig): DecayPolicyView {
  const DAY = 86_400_000;
  return {
    idleMs: { low: config.idleDays.low * DAY, medium: config.idleDays.medium * DAY, high: config.idleDays.high * DAY },
    dueAt: (record) =>
      decayVerdict(record, Number.MAX_SAFE_INTEGER, config).action === 'decay'
        ? lastActiveAt(record) + idleThresholdMs(record, config)
        : null,
  };
}
export type { ReembedProgress } from './core/reembed/index.js';

/** The parts of an {@link Engram}: the record facade's, and what is composed on top. */
export interface EngramOptions extends Omit<EngramCoreOptions, 'clock' | 'system'> {
  /** Domain time (default: the wall clock); pass a `ManualClock` to move time in tests and simulations. */
  clock?: Clock;
  /** Overrides of the sleep cycle's thresholds. */
  consolidation?: ConsolidationOverrides;
  /** Renews a consolidation cycle's lease while a phase runs (`Engram.open` passes a timer). */
  heartbeat?: LeaseHeartbeat;
  /**
   * Run background work (concept extraction) in this process while the engine is open.
   * Default false: one-shot callers drain with `processJobs()`; long-running servers pass true.
   */
  background?: boolean | { idleMs?: number; duty?: number };
}

/** Options of {@link Engram.reembed}. */
export interface ReembedOptions {
  /** The model to move to: a name as `Engram.open` takes it (`bge-small-en-v1.5`, `use`, `hash:64`…) or an instance. */
  embedder: EmbedderChoice;
  /** Records embedded per batch (default 64); each batch is one short write transaction. */
  batchSize?: number;
  /** Called after every batch, and when the switch and the index build start. */
  onProgress?: (progress: ReembedProgress) => void;
  /** Stops the run between batches (the staged vectors are kept for the next run); it rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What {@link Engram.reembed} did. */
export interface ReembedReport extends ReembedCoreReport {
  durationMs: number;
  /**
   * True when this instance now uses the new model (it was opened with `Engram.open`); false when it
   * was built over a store of yours, which must then be reopened with the new model.
   */
  reopened: boolean;
}

/** How an `Engram.open` instance reopens its store with another model after a reembed. */
interface Reopening {
  readonly path: string;
  readonly open: (embedding: { name: string; dimension: number }) => Promise<Store>;
  readonly embedderOptions: { workers?: number; cacheDir?: string };
}

export interface OpenOptions {
  /** SQLite file path (created if missing), or a PostgreSQL URL `postgres://user:pw@host:5432/db[?schema=engram]`. */
  path: string;
  /**
   * Embedder: `use` (USE-lite, alias `use-lite`), `static` (fast distilled table),
   * `hash` (tests only), an installed ONNX model (`bge-small-en-v1.5`, `e5-small-v2`,
   * `all-minilm-l6-v2`, `bge-small-zh-v1.5`, also written `onnx:<model>`), `openai:<model>`, `auto`
   * (bge-small-en-v1.5 when installed, else `use`), or an instance. When omitted, a new database
   * takes `auto` and an existing one reopens with the embedder it was created with; a recorded ONNX
   * model whose files are missing is an error, never a silent fallback.
   */
  embedder?: EmbedderChoice;
  /** Embedding worker threads for ingest (0 = in-process), for `use` and the ONNX models. */
  workers?: number;
  /**
   * Cache folder: the static embedder's distilled table (default ~/.cache/engram) and the ONNX models
   * under `models/<name>/` (default `$ENGRAM_CACHE_DIR`, else `$XDG_CACHE_HOME/engram`, else ~/.cache/engram).
   */
  cacheDir?: string;
  clock?: Clock;
  recall?: Partial<RecallConfig>;
  /**
   * Optional language model; Engram is complete without one. Either a provider instance or
   * an OpenAI-compatible endpoint (`{ baseUrl, model, apiKey?, timeoutMs?, retries?, uses? }`). Its
   * uses (importance, supersession, extraction, reflection) are all on unless switched off in `uses`.
   */
  llm?: EngramOptions['llm'] | LlmEndpointOptions;
  /** Switches single LLM uses off (or on); overrides `llm.uses`. */
  llmUses?: Partial<LlmUses>;
  /** Where handled problems (an LLM answer that fell back) are reported; default `console.warn`. */
  logger?: Logger;
  /** Overrides of the sleep cycle's thresholds. */
  consolidation?: EngramOptions['consolidation'];
  /** How long an LLM importance score may take before a recovery job scores instead (default 5 min). */
  importanceRecoveryMs?: number;
  /** Run background work (concept extraction) while open; servers pass true. Default false. */
  background?: EngramOptions['background'];
  /** Secret redaction of every write: on by default; `{ enabled: false }` or extra `patterns`. */
  redaction?: RedactionOptions;
  /**
   * A new store (nothing recorded yet) opened without `embedder` takes this recorded model name (a
   * dump's, `onnx:bge-small-en-v1.5:384:…`, `use-lite:512`…) when it is installed here, else `auto`.
   */
  embedderForNewStore?: string;
  /**
   * SQLite: how long a write waits for another writer's lock (another process's long transaction) before
   * it fails with `BUSY`, in ms (default 10 000). PostgreSQL ignores it: a writer there waits for row
   * locks as the server's `lock_timeout` says (none by default).
   */
  busyTimeoutMs?: number;
}

/**
 * Long-term memory for agents.
 *
 * @example
 * ```ts
 * import { Engram } from 'engram';
 * const engram = await Engram.open({ path: 'engram.db' });
 * await engram.remember({ scope: 'acme/users/alice', content: 'Alice prefers window seats.', layer: 'semantic' });
 * const { hits } = await engram.recall('where does Alice like to sit?', { scopes: ['acme/users/alice'] });
 * await engram.close();
 * ```
 */
export class Engram extends EngramCore {
  #reopening: Reopening | undefined;
  readonly #serving: Serving;
  readonly #consolidation: Consolidation;
  #worker: BackgroundWorker | undefined;
  #idle: IdleReflector | undefined;
  #backgroundOptions: { idleMs?: number; duty?: number } = {};
  readonly #consolidationConfig: ConsolidationConfig;
  #decay: DecayPolicyView | undefined;

  /** Composes an engine on your parts; {@link Engram.create} is the same, {@link Engram.open} builds the parts. */
  constructor(options: EngramOptions) {
    super({ ...options, clock: checkedClock(options.clock) ?? systemClock, system: systemPorts });
    this.#consolidationConfig = resolveConsolidationConfig(options.consolidation);
    // read per call, so a reembed that swaps the store and model is seen by later calls
    this.#serving = new Serving(
      () => ({
        store: this.store,
        embedder: this.embedder,
        clock: this.clock,
        config: this.recallConfig,
        correctedIndex: (scope) => this.correctedIndex(scope),
      }),
      {
        stopwatch: this.system.stopwatch,
        scheduler: systemScheduler,
      },
    );
    this.#consolidation = new Consolidation({
      parts: () => ({ store: this.store, embedder: this.embedder, clock: this.clock, ...this.system }),
      assist: this.assist,
      config: this.#consolidationConfig,
      ...(options.heartbeat !== undefined ? { heartbeat: options.heartbeat } : {}),
    });
    this.onRecordChange((change) => {
      this.#serving.follow(change);
      if (change.kind === 'remember' || change.kind === 'import') this.#worker?.notify();
      if (change.kind === 'remember' || change.kind === 'import') {
        // episodes and facts count toward reflection (as the reflect phase counts them)
        for (const r of change.records)
          if (r.layer === undefined || r.layer === 'episodic' || r.layer === 'semantic') this.#idle?.noteWrite(r.scope, r.importance);
      }
    });
    if (options.background !== undefined && options.background !== false) {
      this.startBackground(options.background === true ? {} : options.background);
    }
  }

  /**
   * An engine on parts of your own: any `Store` (e.g. `openSqliteStore`, `openPostgresStore`), any
   * `Embedder`, and optionally an `Llm`.
   *
   * @example
   * ```ts
   * import { Engram } from 'engram';
   * import { openSqliteStore } from 'engram/sqlite';
   * import { HashEmbedder } from 'engram/embeddings/hash';
   * const embedder = new HashEmbedder();
   * const store = await openSqliteStore({ path: 'engram.db', embedding: { name: embedder.name, dimension: embedder.dimension } });
   * const engram = await Engram.create({ store, embedder });
   * ```
   */
  static async create(options: EngramOptions): Promise<Engram> {
    return new Engram(options);
  }

  /**
   * The context of one turn within a wall-clock budget (default 50 ms) and a token budget: procedural
   * rules, profile facts, knowledge, live concepts for what is perceived, predictions and relevant
   * episodes, each part labelled with the level it reached; `markdown` is ready for a prompt.
   */
  async context(input: ContextInput): Promise<StructuredContext> {
    this.assertOpen();
    return this.#serving.context(input);
  }

  /**
   * Pattern completion: for a forming episode (perception and context, no decision yet), the likely
   * actions and outcomes from matching past episodes, with probability, confidence and their ids.
   */
  async predict(input: PredictInput): Promise<PredictResult> {
    this.assertOpen();
    return this.#serving.predict(input);
  }

  /**
   * Builds one throw-away context without a deadline (for `message` and `percept` when given, so the
   * same code paths are warm), so a fresh process has loaded what a build needs (prepared statements,
   * the vector index, text analysers) before a budgeted call.
   * Records no access. The CLI calls it before `context`; servers can call it at start.
   */
  async warmContext(options: ScopedReadOptions & { message?: string; percept?: ContextInput['percept'] }): Promise<void> {
    this.assertOpen();
    return this.#serving.warm(options);
  }

  /**
   * Runs the sleep cycle for one scope: dedup, supersede, extract, ground, promote, recombine, insight,
   * reflect, affect, decay, compress (or only `phases`), under the scope's lock. Rejects with `LOCKED` while another cycle
   * (in any process) runs for the scope. Returns and stores a report of every phase.
   */
  async consolidate(options: ConsolidateOptions): Promise<ConsolidationReport> {
    this.assertOpen();
    return this.#consolidation.consolidate(options);
  }

  /**
   * Runs only the decay phase on one scope (under the scope's consolidation lock, like `consolidate`),
   * or with `dryRun: true` reports what it would decay and expire without writing. Returns the phase's report.
   */
  async decay(input: DecayInput): Promise<DecayReport> {
    this.assertOpen();
    const parsed = parseInput(decayInputSchema, input, 'decay');
    if (parsed.dryRun !== true) return decayReportOf(await this.consolidate({ scope: parsed.scope, phases: ['decay'] }));
    const config = this.#consolidationConfig;
    const started = this.system.stopwatch.now();
    return previewDecay(
      { store: this.store, decay: config.decay, pageSize: config.pageSize, elapsed: () => this.system.stopwatch.now() - started },
      assertScope(parsed.scope),
      this.clock.now(),
    );
  }

  /**
   * Removes for good the decayed records of one scope that are past their grace period (and those the
   * cycle already marked expired), through the purge path: a tombstone stays (id, scope, status
   * `expired`, `expiredAt`, no content) and an audit entry by `actor` (default `library`). `dryRun`
   * reports what would go.
   */
  async expire(input: ExpireInput, options: { actor?: string } = {}): Promise<ExpireReport> {
    this.assertOpen();
    const { actor } = parseOptions(auditOptionsSchema, options, 'expire options');
    const decay = this.#consolidationConfig.decay;
    const report = await expireRecords(this.store, input, {
      now: this.clock.now(),
      actor: actor ?? 'library',
      pastGrace: (record, now) => decayVerdict(record, now, decay).action === 'expire',
    });
    if (!report.dryRun && report.expired > 0) {
      this.announceChange({ kind: 'purge', records: [{ scope: report.scope }] });
      await this.store.scrubDeleted([report.scope]);
    }
    return report;
  }

  /** Ends a session: runs the mandatory consolidation (seed 000), reflection included. */
  async endSession(options: EndSessionOptions): Promise<ConsolidationReport> {
    this.assertOpen();
    return this.#consolidation.endSession(options);
  }

  // --- exploring what is stored (the web UI's reads): src/core/explore/, src/consolidation/runs.ts ---

  /** Stored consolidation reports of the scopes, newest first (keyset pages: pass `nextCursor` back as `cursor`). */
  async consolidationRuns(input: ConsolidationRunsInput): Promise<ConsolidationRunsPage> {
    this.assertOpen();
    return listConsolidationRuns(this.store, input);
  }

  /** The report of one consolidation run; `NOT_FOUND` outside the scopes. */
  async consolidationRun(id: string, options: ByIdReadOptions): Promise<ConsolidationReport> {
    this.assertOpen();
    return findConsolidationRun(this.store, parseId(id, 'consolidationRun'), options);
  }

  /** Counts by layer and status, growth per day, what decays next, the job backlog and the last run of the scopes. */
  async overview(input: OverviewInput): Promise<Overview> {
    this.assertOpen();
    const scopes = scopeList(parseInput(overviewInputSchema, input, 'overview').scopes);
    const decay = (this.#decay ??= decayPolicyView(this.#consolidationConfig.decay));
    const [counts, lastRun] = await Promise.all([overviewCounts(this.store, scopes, decay), lastConsolidationRun(this.store, scopes)]);
    return { ...counts, lastRun };
  }

  /** Concepts and their relations, or the neighbourhood of `focus` (edges and concept refs, type `REF`), as nodes and edges. */
  async graph(input: GraphInput): Promise<GraphView> {
    this.assertOpen();
    const { scopes, ...parsed } = parseInput(graphInputSchema, input, 'graph');
    return graphView(this.store, { scopes: scopeList(scopes), ...parsed, now: this.clock.now() });
  }

  /** The supersession chain of a memory, oldest first, with valid and transaction time of every version. */
  async versions(id: string, options: ByIdReadOptions): Promise<{ chain: ChainVersion[] }> {
    this.assertOpen();
    parseId(id, 'versions');
    return supersessionChain(this.store, id, scopeList(parseInput(byIdReadSchema, options, 'versions options').scopes));
  }

  /** What a memory was derived from (records, messages), what was derived from it, and the concepts it feeds. */
  async provenance(id: string, options: ByIdReadOptions): Promise<ProvenanceView> {
    this.assertOpen();
    parseId(id, 'provenance');
    return provenanceOf(skippingReader(this.store).store, id, scopeList(parseInput(byIdReadSchema, options, 'provenance options').scopes));
  }

  /** Starts the background worker in this process (idempotent); `close()` stops it. */
  startBackground(options: { idleMs?: number; duty?: number } = {}): void {
    this.assertOpen();
    this.#backgroundOptions = parseOptions(backgroundOptionsSchema, options, 'startBackground options');
    this.#worker ??= new BackgroundWorker(
      { store: this.store, embedder: this.embedder, clock: this.clock, ...this.system },
      {
        ...this.#backgroundOptions,
        scheduler: systemScheduler,
        // due importance recoveries first, then the part vectors of records written since, then the
        // times their texts name
        also: async (owner) => {
          const scored = (await this.drainImportance({ owner, limit: 1 })).jobs;
          if (scored > 0) return scored;
          const parts = (await this.fillParts({ limit: PART_BATCH })).records;
          return parts > 0 ? parts : (await this.fillMentions({ limit: MENTION_BATCH })).records;
        },
      },
    );
    this.#worker.start();
  }

  /**
   * Reflects a scope when it goes idle (seed 004): writes add their importance to their scope's
   * account; once the scope has had no write for `idleMs` and the importance stored since its last
   * reflection crosses `threshold` (default: the reflection threshold, 5), the reflect phase runs for it.
   * Idempotent; `close()` stops it. `engram serve --idle-reflect-after` turns it on.
   *
   * @example
   * ```ts
   * engram.startIdleReflection({ idleMs: 10 * 60_000, onEvent: (e) => console.log(e.scope, e.outcome) });
   * ```
   */
  startIdleReflection(options: {
    idleMs: number;
    threshold?: number;
    clock?: Clock;
    scheduler?: Scheduler;
    onEvent?: (event: IdleReflectionEvent) => void;
  }): void {
    this.assertOpen();
    parseInput(idleReflectionOptionsSchema, options, 'startIdleReflection options');
    if (this.#idle !== undefined) return;
    const config = this.#consolidationConfig;
    this.#idle = new IdleReflector({
      idleMs: options.idleMs,
      threshold: options.threshold ?? config.reflection.importanceThreshold,
      clock: options.clock ?? this.system.wallClock,
      scheduler: options.scheduler ?? systemScheduler,
      measure: async (scope) =>
        (await sinceLastReflection(this.store, scope, { pageSize: config.pageSize, minImportance: Number.POSITIVE_INFINITY })).accumulated,
      reflect: async (scope) => {
        this.assertOpen();
        const report = await this.#consolidation.reflectOnThreshold(scope);
        return { created: report.phases.find((p) => p.name === 'reflect')?.created ?? 0 };
      },
      ...(options.onEvent !== undefined ? { onEvent: options.onEvent } : {}),
    });
  }

  /** The idle reflector started by {@link Engram.startIdleReflection}, if any (its accounts and `settled()`). */
  get idleReflection(): IdleReflector | undefined {
    return this.#idle;
  }

  /** Stops the background worker after the batch in flight. */
  async stopBackground(): Promise<void> {
    await this.#worker?.stop();
  }

  /** Also restarts a running background worker on the new store and model and empties the context cache. */
  protected override async replaceStorage(store: Store, embedder: Embedder): Promise<{ store: Store; embedder: Embedder }> {
    this.assertOpen();
    await this.flushLlm();
    const worker = this.#worker;
    const wasRunning = worker?.running === true;
    await worker?.stop();
    this.#worker = undefined;
    const previous = await super.replaceStorage(store, embedder);
    this.#serving.invalidateAll();
    if (wasRunning) this.startBackground(this.#backgroundOptions);
    return previous;
  }

  /** Stops the background worker once pending LLM work is flushed, before the store closes. */
  protected override async closeParts(): Promise<void> {
    await this.#idle?.stop();
    await this.#worker?.stop();
  }

  /**
   * Moves the store to another embedding model in place, on either backend, under the store's
   * `reembed` lease: every record of every scope gets a vector of the new model in a staging area
   * while the old vectors keep serving recall, then one atomic switch replaces them and the vector
   * index is rebuilt. Interrupted (killed, aborted), it leaves the store on its old model and the
   * next run with the same model continues; with another model, it discards that staging. Other
   * processes that opened the store earlier answer `LOCKED` until they reopen it. Rejects with
   * `LOCKED` while another reembed or a consolidation cycle runs, `INVALID_INPUT` for an unknown
   * model and `EMBEDDING_FAILED` (with an `engram models pull` hint) for one not installed; then
   * nothing has changed. The same model as now is no change (`changed: false`).
   *
   * @example
   * ```ts
   * import { Engram } from 'engram';
   * const engram = await Engram.open({ path: 'notes.db' });
   * const report = await engram.reembed({ embedder: 'bge-small-en-v1.5', onProgress: (p) => console.log(p.done, p.total) });
   * console.log(report.vectors, report.resumed); // this instance now recalls with bge-small
   * ```
   */
  async reembed(options: ReembedOptions): Promise<ReembedReport> {
    const parsed = parseInput(reembedOptionsSchema, options, 'reembed options');
    const reopening = this.#reopening;
    if (reopening !== undefined && /^(:memory:|file::memory:)/.test(reopening.path)) {
      throw new EngramError(
        'INVALID_INPUT',
        'An in-memory database cannot be moved to another model in place: export it and import it into a database opened with the new model.',
      );
    }
    const started = performance.now();
    const target = await targetEmbedder(options.embedder, reopening?.embedderOptions ?? {});
    let adopted = false;
    try {
      let reopened = false;
      const core = await runReembed(
        {
          store: this.store,
          source: { name: this.embedder.name, dimension: this.embedder.dimension },
          target,
          owner: newLeaseOwner('reembed'),
          heartbeat: timerHeartbeat,
          holderIsGone: leaseHolderIsGone,
          afterSwitch: async () => {
            if (reopening === undefined) return [];
            const store = await reopening.open({ name: target.name, dimension: target.dimension });
            const previous = await this.replaceStorage(store, target);
            adopted = reopened = true;
            await previous.store.close().catch(() => undefined);
            await previous.embedder.close?.();
            return store.vectorStaging.rebuildVectorIndex();
          },
        },
        {
          batchSize: parsed.batchSize ?? DEFAULT_REEMBED_BATCH,
          ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
          ...(options.signal !== undefined ? { signal: options.signal } : {}),
        },
      );
      // with nothing to change, this instance already uses the model
      return { ...core, durationMs: Math.round(performance.now() - started), reopened: core.changed ? reopened : true };
    } finally {
      if (!adopted && target !== this.embedder) await target.close?.();
    }
  }

  /** Opens (or creates) an Engram on a SQLite file or, for a `postgres://` URL, a PostgreSQL schema. */
  static async open(options: OpenOptions): Promise<Engram> {
    if (typeof options !== 'object' || options === null || typeof options.path !== 'string' || options.path.length === 0) {
      throw new EngramError('INVALID_INPUT', 'Engram.open needs a path: Engram.open({ path: "engram.db" }).');
    }
    const unknown = Object.keys(options).filter((key) => !Object.hasOwn(OPEN_OPTIONS, key));
    if (unknown.length > 0) {
      throw new EngramError(
        'INVALID_INPUT',
        `Engram.open has no option ${unknown.map((k) => `"${k}"`).join(', ')}; its options are ${Object.keys(OPEN_OPTIONS).join(', ')}.`,
      );
    }
    // the clock and the sleep cycle's settings are checked before anything is opened
    checkedClock(options.clock);
    resolveConsolidationConfig(options.consolidation);
    // The LLM config is checked before anything is opened, so a bad one leaves nothing behind.
    // bad redaction patterns and recall settings are refused before anything is opened
    if (options.redaction !== undefined) createRedactor(options.redaction);
    if (options.recall !== undefined) parseRecallOverrides(options.recall);
    // whatever the embedder (one without threads ignores it), a bad count is refused alike
    if (options.workers !== undefined && !(Number.isInteger(options.workers) && options.workers >= 0)) {
      throw new EngramError(
        'INVALID_INPUT',
        `Engram.open option workers must be a whole number ≥ 0 (0: no worker threads), got ${String(options.workers)}.`,
      );
    }
    const { busyTimeoutMs } = options;
    if (busyTimeoutMs !== undefined && !(Number.isInteger(busyTimeoutMs) && busyTimeoutMs >= 0 && busyTimeoutMs <= MAX_TIMER_MS)) {
      throw new EngramError(
        'INVALID_INPUT',
        `Engram.open option busyTimeoutMs must be a whole number of milliseconds from 0 to ${MAX_TIMER_MS} (default 10000), got ${describeValue(busyTimeoutMs)}.`,
      );
    }
    if (typeof options.background === 'object') parseInput(backgroundOptionsSchema, options.background, 'Engram.open option background');
    else if (options.background !== undefined && typeof options.background !== 'boolean') {
      throw new EngramError(
        'INVALID_INPUT',
        `Engram.open option background must be true, false or { idleMs, duty }, got ${describeValue(options.background)}.`,
      );
    }
    const llm = options.llm !== undefined && options.llm !== null ? await resolveLlm(options.llm) : undefined;
    const backend = await storeBackend(options.path, busyTimeoutMs !== undefined ? { busyTimeoutMs } : {});
    const recorded = await backend.readEmbedder();
    const adopted =
      recorded === null && options.embedder === undefined && options.embedderForNewStore !== undefined
        ? await installedChoiceFor(options.embedderForNewStore, options.cacheDir ?? (await defaultModelCacheDir()))
        : undefined;
    const embedder = await createEmbedder(options.embedder ?? choiceForRecordedEmbedder(recorded) ?? adopted ?? 'auto', options);
    try {
      const store = await backend.open({ name: embedder.name, dimension: embedder.dimension });
      const engineOptions: EngramOptions = { store, embedder, heartbeat: timerHeartbeat };
      if (options.clock !== undefined) engineOptions.clock = options.clock;
      if (options.recall !== undefined) engineOptions.recall = options.recall;
      if (llm !== undefined) {
        engineOptions.llm = llm.provider;
        if (llm.uses !== undefined || options.llmUses !== undefined) engineOptions.llmUses = { ...llm.uses, ...options.llmUses };
      }
      if (options.logger !== undefined) engineOptions.logger = options.logger;
      if (options.consolidation !== undefined) engineOptions.consolidation = options.consolidation;
      if (options.importanceRecoveryMs !== undefined) engineOptions.importanceRecoveryMs = options.importanceRecoveryMs;
      if (options.background !== undefined) engineOptions.background = options.background;
      if (options.redaction !== undefined) engineOptions.redaction = options.redaction;
      const engram = new Engram(engineOptions);
      engram.#reopening = { path: options.path, open: (embedding) => backend.open(embedding), embedderOptions: embedderOptionsOf(options) };
      return engram;
    } catch (error) {
      await embedder.close?.();
      throw error;
    }
  }
}

/** The options `Engram.open` knows (a misspelt one is refused rather than ignored). */
const OPEN_OPTIONS: Readonly<Record<keyof OpenOptions, true>> = Object.freeze({
  path: true,
  embedder: true,
  workers: true,
  cacheDir: true,
  clock: true,
  recall: true,
  llm: true,
  llmUses: true,
  logger: true,
  consolidation: true,
  importanceRecoveryMs: true,
  background: true,
  redaction: true,
  embedderForNewStore: true,
  busyTimeoutMs: true,
});

/** A clock option, checked: its `now()` must give epoch milliseconds. */
function checkedClock(clock: Clock | undefined): Clock | undefined {
  if (clock === undefined) return undefined;
  const now: unknown = typeof clock === 'object' && clock !== null && typeof clock.now === 'function' ? clock.now() : undefined;
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new EngramError(
      'INVALID_INPUT',
      `The clock option needs a now() that returns epoch milliseconds, got ${describeValue(now)}; a ManualClock starts where it is told: new ManualClock(Date.parse('2024-01-01')).`,
    );
  }
  return clock;
}

function embedderOptionsOf(options: OpenOptions): { workers?: number; cacheDir?: string } {
  return {
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
  };
}

/** The model a reembed moves to; an unknown name's message says how models are listed and fetched. */
async function targetEmbedder(choice: EmbedderChoice, options: { workers?: number; cacheDir?: string }): Promise<Embedder> {
  try {
    return await createEmbedder(choice, options);
  } catch (error) {
    if (isEngramError(error) && error.code === 'INVALID_INPUT' && typeof choice === 'string') {
      throw new EngramError(
        'INVALID_INPUT',
        `${error.message} Nothing was changed. "engram models list" shows the models; "engram models pull NAME" fetches one.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * The store a path names: `postgres://…` / `postgresql://…` opens PostgreSQL (`?schema=` picks the
 * schema), anything else is a SQLite file. Each driver is imported only when chosen.
 */
async function storeBackend(
  path: string,
  sqliteOptions: { busyTimeoutMs?: number },
): Promise<{ readEmbedder(): Promise<string | null>; open(embedding: { name: string; dimension: number }): Promise<Store> }> {
  if (/^postgres(ql)?:\/\//i.test(path)) {
    const postgres = await import('./storage/postgres/index.js');
    return {
      readEmbedder: () => postgres.readPostgresEmbedder(path),
      open: (embedding) => postgres.openPostgresStore({ url: path, embedding }),
    };
  }
  const sqlite = await import('./storage/sqlite/index.js');
  return {
    readEmbedder: () => sqlite.readSqliteEmbedder(path),
    open: (embedding) => sqlite.openSqliteStore({ path, embedding, ...sqliteOptions }),
  };
}

/** An OpenAI-compatible endpoint for `Engram.open({ llm })`, with the uses to switch. */
export interface LlmEndpointOptions extends OpenAiCompatibleLlmConfig {
  uses?: Partial<LlmUses>;
}

/** A provider instance as it is, or an endpoint config built into one (lazy import of the adapter). */
async function resolveLlm(llm: Llm | LlmEndpointOptions): Promise<{ provider: Llm; uses?: Partial<LlmUses> }> {
  if (typeof (llm as Llm).complete === 'function') return { provider: llm as Llm };
  const { uses, ...config } = llm as LlmEndpointOptions;
  const { OpenAiCompatibleLlm } = await import('./llm/index.js');
  return { provider: new OpenAiCompatibleLlm(config), ...(uses !== undefined ? { uses } : {}) };
}

/**
 * Builds a built-in embedder by name or parsed choice (lazy imports); an instance is returned as it is.
 * Throws `INVALID_INPUT` for an unknown name and `EMBEDDING_FAILED` (with an `engram models pull`
 * hint) for an ONNX model whose files are not in the cache.
 *
 * @example
 * ```ts
 * import { createEmbedder } from 'engram';
 * const embedder = await createEmbedder('bge-small-en-v1.5', { workers: 2 });
 * ```
 */
export async function createEmbedder(
  choice: EmbedderChoice | ParsedEmbedderChoice,
  options: { workers?: number; cacheDir?: string } = {},
): Promise<Embedder> {
  if (typeof choice === 'object' && choice !== null && 'embed' in choice) return choice;
  let parsed = typeof choice === 'string' ? parseEmbedderChoice(choice) : (choice as ParsedEmbedderChoice);
  const modelCache = async (): Promise<string> => options.cacheDir ?? (await defaultModelCacheDir());
  if (parsed.kind === 'auto') parsed = await preferredLocalEmbedder(await modelCache());
  switch (parsed.kind) {
    case 'use': {
      const { UseEmbedder } = await import('./embeddings/use/index.js');
      return UseEmbedder.create({ workers: options.workers ?? 0 });
    }
    case 'static': {
      const { StaticEmbedder } = await import('./embeddings/static/index.js');
      return StaticEmbedder.create(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {});
    }
    case 'hash': {
      const { HashEmbedder } = await import('./embeddings/hash/index.js');
      return new HashEmbedder('dimension' in parsed ? { dimension: parsed.dimension } : {});
    }
    case 'onnx': {
      const { BlendEmbedder, OnnxEmbedder, findOnnxBlend } = await import('./embeddings/onnx/index.js');
      const made = { model: parsed.model, cacheDir: await modelCache(), workers: options.workers ?? 0 };
      return findOnnxBlend(parsed.model) !== undefined ? BlendEmbedder.create(made) : OnnxEmbedder.create(made);
    }
    case 'openai': {
      // configured from ENGRAM_EMBEDDINGS_URL / _API_KEY / _DIMENSIONS, like the CLI
      const { openAiEmbedderFromEnv } = await import('./embeddings/openai/index.js');
      return openAiEmbedderFromEnv(`openai:${parsed.model}`, process.env);
    }
    default:
      throw new EngramError('INVALID_INPUT', `Unknown embedder "${String(choice)}": use one of use, static, hash or an ONNX model name.`);
  }
}

/**
 * The models cache when none is passed, read from the environment here so library users find the
 * models `engram models pull` fetched into `$ENGRAM_CACHE_DIR` or `$XDG_CACHE_HOME/engram`.
 */
async function defaultModelCacheDir(): Promise<string> {
  const [{ resolveModelCacheDir }, { homedir }] = await Promise.all([
    import('./embeddings/onnx/models/model-cache-dir.js'),
    import('node:os'),
  ]);
  return resolveModelCacheDir(process.env, homedir());
}
