import { resolveWorkerScript } from '../../worker-script.js';
import { EmbedderWorkerPool } from '../worker-pool.js';
import type { OnnxModelConfig } from './onnx-model.js';
import { disableOnnxRuntimeTelemetry } from './onnx-runtime-telemetry.js';
import type { OnnxWorkerData } from './onnx-worker-messages.js';

/**
 * Worker threads, each with its own ONNX session, that embed batches in parallel (an
 * {@link EmbedderWorkerPool}).
 *
 * @example
 * ```ts
 * const pool = new OnnxWorkerPool({ size: 2, model: { directory, dimension: 384, pooling: 'cls', maxTokens: 512 }, workerUrl });
 * const flat = await pool.run(['first text', 'second text']);
 * await pool.close();
 * ```
 */
export class OnnxWorkerPool extends EmbedderWorkerPool {
  constructor(options: { size: number; model: OnnxModelConfig; workerUrl: URL }) {
    // on this thread, whose environment the workers' onnxruntime reads (their process.env is a copy)
    disableOnnxRuntimeTelemetry();
    const workerData: OnnxWorkerData = { engramOnnxWorker: true, model: options.model };
    super({
      size: options.size,
      workerUrl: options.workerUrl,
      workerData,
      label: 'ONNX',
      missingScriptHint:
        'The ONNX worker script is missing. Build the package (npm run build) so onnx-worker.js exists, or use { workers: 0 }.',
      loadFailedHint: `An ONNX worker could not load the model in ${options.model.directory}; run "engram models pull" or use { workers: 0 }.`,
    });
  }
}

/**
 * The compiled worker script: `onnx-worker.js` beside this module, or under the package's `dist/`
 * when running from TypeScript sources. Undefined when neither exists (the embedder then runs in-process).
 */
export function resolveOnnxWorkerUrl(): URL | undefined {
  try {
    return resolveWorkerScript(import.meta.url, ['embeddings', 'onnx'], 'onnx-worker.js');
  } catch {
    return undefined;
  }
}
