/**
 * Entry point of one ONNX embedding worker thread: loads the model once, then answers
 * {@link OnnxWorkerRequest}s with flat unit-length vectors (transferred, not copied).
 * Inert unless started by {@link OnnxWorkerPool} (it checks its `workerData` marker).
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { OnnxModel } from './onnx-model.js';
import type { OnnxWorkerData, OnnxWorkerReply, OnnxWorkerRequest } from './onnx-worker-messages.js';

const port = parentPort;
const data = workerData as Partial<OnnxWorkerData> | null;
if (!isMainThread && port !== null && data?.engramOnnxWorker === true && data.model !== undefined) {
  const send = (reply: OnnxWorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(reply, transfer);
  OnnxModel.load(data.model).then(
    (model) => {
      let chain: Promise<void> = Promise.resolve();
      port.on('message', (request: OnnxWorkerRequest) => {
        // One job at a time: interleaving calls into one session only adds memory.
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
