/** A request from the pool to a worker: embed these prepared texts. */
export interface UseWorkerRequest {
  readonly id: number;
  readonly texts: readonly string[];
}

/** A worker's message to the pool: ready after loading, failed to load, or one job's outcome. */
export type UseWorkerReply =
  | { readonly type: 'ready' }
  | { readonly type: 'load-failed'; readonly message: string }
  | { readonly type: 'result'; readonly id: number; readonly vectors: Float32Array }
  | { readonly type: 'job-failed'; readonly id: number; readonly message: string };

/** The `workerData` a pool worker is started with; its marker keeps the module inert when imported. */
export interface UseWorkerData {
  readonly engramUseWorker: true;
}
