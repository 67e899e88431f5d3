/**
 * `Engram.open`: the embedded default, composed from the SQLite store and a local embedder. Drivers
 * and models are reached only through lazy `import()` so importing `engram` loads neither.
 */
import { EngramCore, type EngramOptions } from './core/engine.js';
import { EngramError } from './core/errors.js';
import type { Clock } from './core/ports/clock.js';
import type { Embedder } from './core/ports/embedder.js';
import type { RecallConfig } from './core/recall/recall-config.js';

/** Which built-in embedder to use, or an instance of your own. */
export type EmbedderChoice = 'use' | 'static' | 'hash' | Embedder;

export interface OpenOptions {
  /** SQLite file path (created if missing). */
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
  /** Opens (or creates) an embedded SQLite-backed Engram. */
  static async open(options: OpenOptions): Promise<Engram> {
    if (options === undefined || typeof options.path !== 'string' || options.path.length === 0) {
      throw new EngramError('INVALID_INPUT', 'Engram.open needs a path: Engram.open({ path: "engram.db" }).');
    }
    const sqlite = await import('./storage/sqlite/index.js');
    const recorded = await sqlite.readSqliteEmbedder(options.path);
    const embedder = await createEmbedder(options.embedder ?? embedderChoiceFor(recorded) ?? 'use', options);
    try {
      const store = await sqlite.openSqliteStore({
        path: options.path,
        embedding: { name: embedder.name, dimension: embedder.dimension },
      });
      const engineOptions: EngramOptions = { store, embedder };
      if (options.clock !== undefined) engineOptions.clock = options.clock;
      if (options.recall !== undefined) engineOptions.recall = options.recall;
      return new Engram(engineOptions);
    } catch (error) {
      await embedder.close?.();
      throw error;
    }
  }
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
