/**
 * The body of an embedding worker thread: loads a model once, then answers {@link EmbedderWorkerRequest}s
 * one at a time with flat vectors (transferred, not copied). Does nothing unless `accepts(workerData)`
 * says this thread was started for it, so importing a worker script is inert.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { EmbedderWorkerReply, EmbedderWorkerRequest } from './worker-pool.js';

/** What a worker embeds with. */
export interface WorkerModel {
  embedBatch(texts: readonly string[]): Promise<Float32Array>;
}

/**
 * Serves embedding requests on this worker thread when its `workerData` is accepted.
 *
 * @example
 * ```ts
 * serveEmbedderWorker((data) => data?.engramUseWorker === true, () => UseModel.load());
 * ```
 */
export function serveEmbedderWorker<Data>(
  accepts: (data: Partial<Data> | null) => boolean,
  load: (data: Data) => Promise<WorkerModel>,
): void {
  const port = parentPort;
  const data = workerData as Partial<Data> | null;
  if (isMainThread || port === null || !accepts(data)) return;
  const send = (reply: EmbedderWorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(reply, transfer);
  load(data as Data).then(
    (model) => {
      let chain: Promise<void> = Promise.resolve();
      port.on('message', (request: EmbedderWorkerRequest) => {
        // One job at a time: the model is single-threaded and interleaving only adds memory.
        chain = chain.then(async () => {
          try {
            const vectors = await model.embedBatch(request.texts);
            send({ type: 'result', id: request.id, vectors }, [vectors.buffer as ArrayBuffer]);
          } catch (error) {
            send({ type: 'job-failed', id: request.id, message: describe(error) });
          }
        });
      });
      send({ type: 'ready' });
    },
    (error: unknown) => send({ type: 'load-failed', message: describe(error) }),
  );
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`;
  return String(error);
}
