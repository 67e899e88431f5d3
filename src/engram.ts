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
import type { RecallConfig } from './core/recall/recall-config.js';

/** Which built-in embedder to use, or an instance of your own. */
export type EmbedderChoice = 'use' | 'static' | 'hash' | Embedder;

export interface OpenOptions {
  /** SQLite file path (created if missing), or a PostgreSQL URL `postgres://user:pw@host:5432/db[?schema=engram]`. */
  path: string;
  /**
   * Embedder: `use` (the default offline model), `static` (fast distilled table), `hash` (tests only),
   * or an instance. When omitted, an existing database reopens with the embedder it was created with.
   */
  embedder?: EmbedderChoice;
  /** USE worker threads for ingest (0 = in-process). */
  workers?: number;
  /** Directory for the static embedder's distilled table (default: ~/.cache/engram). */
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
  /** Opens (or creates) an Engram on a SQLite file or, for a `postgres://` URL, a PostgreSQL schema. */
  static async open(options: OpenOptions): Promise<Engram> {
    if (options === undefined || typeof options.path !== 'string' || options.path.length === 0) {
      throw new EngramError('INVALID_INPUT', 'Engram.open needs a path: Engram.open({ path: "engram.db" }).');
    }
    // The LLM config is checked before anything is opened, so a bad one leaves nothing behind.
    const llm = options.llm !== undefined && options.llm !== null ? await resolveLlm(options.llm) : undefined;
    const backend = await storeBackend(options.path);
    const recorded = await backend.readEmbedder();
    const embedder = await createEmbedder(options.embedder ?? embedderChoiceFor(recorded) ?? 'use', options);
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
      return new Engram(engineOptions);
    } catch (error) {
      await embedder.close?.();
      throw error;
    }
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

/** Maps a recorded embedder name back to a built-in choice, when it is one. */
function embedderChoiceFor(name: string | null): EmbedderChoice | undefined {
  if (name === null) return undefined;
  if (name.startsWith('use-lite')) return 'use';
  if (name.startsWith('static-')) return 'static';
  if (name.startsWith('hash')) return 'hash';
  return undefined;
}

/** Builds a built-in embedder by name (lazy imports). */
export async function createEmbedder(
  choice: EmbedderChoice,
  options: { workers?: number; cacheDir?: string } = {},
): Promise<Embedder> {
  if (typeof choice !== 'string') return choice;
  switch (choice) {
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
      return new HashEmbedder();
    }
    default:
      throw new EngramError('INVALID_INPUT', `Unknown embedder "${String(choice)}": use one of use, static, hash.`);
  }
}
