import type { OnnxModelConfig } from './onnx-model.js';

/** A request from the pool to a worker: embed these prepared (prefixed) texts. */
export interface OnnxWorkerRequest {
  readonly id: number;
  readonly texts: readonly string[];
}

/** A worker's message to the pool: ready after loading, failed to load, or one job's outcome. */
export type OnnxWorkerReply =
  | { readonly type: 'ready' }
  | { readonly type: 'load-failed'; readonly message: string }
  | { readonly type: 'result'; readonly id: number; readonly vectors: Float32Array }
  | { readonly type: 'job-failed'; readonly id: number; readonly message: string };

/** The `workerData` a pool worker starts with; the marker keeps the module inert when merely imported. */
export interface OnnxWorkerData {
  readonly engramOnnxWorker: true;
  readonly model: OnnxModelConfig;
}
