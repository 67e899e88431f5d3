/**
 * Entry point of one ONNX embedding worker thread (see {@link OnnxWorkerPool}): loads the model once
 * and answers batches with flat unit-length vectors. Inert unless started with its `workerData` marker.
 */
import { serveEmbedderWorker } from '../worker-main.js';
import { OnnxModel } from './onnx-model.js';
import type { OnnxWorkerData } from './onnx-worker-messages.js';

serveEmbedderWorker<OnnxWorkerData>(
  (data) => data?.engramOnnxWorker === true && data.model !== undefined,
  (data) => OnnxModel.load(data.model),
);
