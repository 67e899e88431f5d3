/**
 * Entry point of one embedding worker thread: loads USE-lite once, then answers
 * {@link UseWorkerRequest}s with flat, L2-normalised vectors (transferred, not copied).
 * Inert unless started by {@link UseWorkerPool} (it checks its `workerData` marker).
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { UseModel } from './use-model.js';
import type { UseWorkerData, UseWorkerReply, UseWorkerRequest } from './use-worker-messages.js';

const port = parentPort;
if (!isMainThread && port !== null && (workerData as Partial<UseWorkerData> | null)?.engramUseWorker === true) {
  const send = (reply: UseWorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(reply, transfer);
  UseModel.load().then(
    (model) => {
      let chain: Promise<void> = Promise.resolve();
      port.on('message', (request: UseWorkerRequest) => {
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
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
