/**
 * Entry point of one USE-lite worker thread (see {@link UseWorkerPool}): loads the model once and answers
 * batches with flat, L2-normalised vectors. Inert unless started with its `workerData` marker.
 */
import { serveEmbedderWorker } from '../worker-main.js';
import { UseModel } from './use-model.js';
import type { UseWorkerData } from './use-worker-messages.js';

serveEmbedderWorker<UseWorkerData>(
  (data) => data?.engramUseWorker === true,
  () => UseModel.load(),
);
