/**
 * `Engram.open`: the embedded default, composed from the SQLite store and a local embedder. Drivers
 * and models are reached only through lazy `import()` so importing `engram` loads neither.
 */
import { EngramCore, type EngramOptions } from './core/engine.js';
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
import { parseInput } from './core/schemas.js';
import { DEFAULT_REEMBED_BATCH, reembedOptionsSchema, runReembed, type ReembedCoreReport, type ReembedProgress } from './core/reembed/index.js';
import { isEngramError } from './core/errors.js';
import type { RecallConfig } from './core/recall/recall-config.js';
import { choiceForRecordedEmbedder, parseEmbedderChoice, preferredLocalEmbedder, type EmbedderChoice, type ParsedEmbedderChoice } from './embedder-choice.js';

export type { EmbedderChoice } from './embedder-choice.js';
export type { ReembedProgress } from './core/reembed/index.js';

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
   * Optional language model (DESIGN §7); Engram is complete without one. Either a provider instance or
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
  /** Run background work (concept extraction) while open; servers pass true (issue #5). Default false. */
  background?: EngramOptions['background'];
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
   * const engram = await Engram.open({ path: 'notes.db' });
   * const report = await engram.reembed({ embedder: 'bge-small-en-v1.5', onProgress: (p) => console.log(p.done, p.total) });
   * console.log(report.vectors, report.resumed); // this instance now recalls with bge-small
   * ```
   */
  async reembed(options: ReembedOptions): Promise<ReembedReport> {
    const parsed = parseInput(reembedOptionsSchema, options, 'reembed options');
    const reopening = this.#reopening;
    if (reopening !== undefined && /^(:memory:|file::memory:)/.test(reopening.path)) {
      throw new EngramError('INVALID_INPUT', 'An in-memory database cannot be moved to another model in place: export it and import it into a database opened with the new model.');
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
    if (options === undefined || typeof options.path !== 'string' || options.path.length === 0) {
      throw new EngramError('INVALID_INPUT', 'Engram.open needs a path: Engram.open({ path: "engram.db" }).');
    }
    // The LLM config is checked before anything is opened, so a bad one leaves nothing behind.
    const llm = options.llm !== undefined && options.llm !== null ? await resolveLlm(options.llm) : undefined;
    const backend = await storeBackend(options.path);
    const recorded = await backend.readEmbedder();
    const embedder = await createEmbedder(options.embedder ?? choiceForRecordedEmbedder(recorded) ?? 'auto', options);
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
      const engram = new Engram(engineOptions);
      engram.#reopening = { path: options.path, open: (embedding) => backend.open(embedding), embedderOptions: embedderOptionsOf(options) };
      return engram;
    } catch (error) {
      await embedder.close?.();
      throw error;
    }
  }
}

function embedderOptionsOf(options: OpenOptions): { workers?: number; cacheDir?: string } {
  return { ...(options.workers !== undefined ? { workers: options.workers } : {}), ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}) };
}

/** The model a reembed moves to; an unknown name's message says how models are listed and fetched. */
async function targetEmbedder(choice: EmbedderChoice, options: { workers?: number; cacheDir?: string }): Promise<Embedder> {
  try {
    return await createEmbedder(choice, options);
  } catch (error) {
    if (isEngramError(error) && error.code === 'INVALID_INPUT' && typeof choice === 'string') {
      throw new EngramError('INVALID_INPUT', `${error.message} Nothing was changed. "engram models list" shows the models; "engram models pull NAME" fetches one.`, { cause: error });
    }
    throw error;
  }
}

/**
 * The store a path names: `postgres://…` / `postgresql://…` opens PostgreSQL (`?schema=` picks the
 * schema), anything else is a SQLite file. Each driver is imported only when chosen.
 */
async function storeBackend(path: string): Promise<{ readEmbedder(): Promise<string | null>; open(embedding: { name: string; dimension: number }): Promise<Store> }> {
  if (/^postgres(ql)?:\/\//i.test(path)) {
    const postgres = await import('./storage/postgres/index.js');
    return { readEmbedder: () => postgres.readPostgresEmbedder(path), open: (embedding) => postgres.openPostgresStore({ url: path, embedding }) };
  }
  const sqlite = await import('./storage/sqlite/index.js');
  return { readEmbedder: () => sqlite.readSqliteEmbedder(path), open: (embedding) => sqlite.openSqliteStore({ path, embedding }) };
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
      const { OnnxEmbedder } = await import('./embeddings/onnx/index.js');
      return OnnxEmbedder.create({ model: parsed.model, cacheDir: await modelCache(), workers: options.workers ?? 0 });
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
  const [{ resolveModelCacheDir }, { homedir }] = await Promise.all([import('./embeddings/onnx/models/model-cache-dir.js'), import('node:os')]);
  return resolveModelCacheDir(process.env, homedir());
}
