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
  forwardConsole(port);
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

/**
 * Sends what this thread writes to its stdout and stderr (console output of the model's library) to the
 * pool as `log` messages, which the pool writes to the process's stderr. Reading the worker's own
 * stdio streams instead would keep the parent's event loop alive for as long as the worker lives (a
 * pending read references its port), so a process with idle workers could not exit.
 */
function forwardConsole(port: NonNullable<typeof parentPort>): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.write = ((chunk: string | Uint8Array, encodingOrDone?: unknown, done?: unknown): boolean => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      port.postMessage({ type: 'log', text } satisfies EmbedderWorkerReply);
      const callback = typeof encodingOrDone === 'function' ? encodingOrDone : done;
      if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
      return true;
    }) as typeof stream.write;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`;
  return String(error);
}
